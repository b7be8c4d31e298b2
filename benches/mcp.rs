//! `toolc::check` on generated repositories of MCP files: per server a `server.json` (packages
//! and remotes), a `.vscode/mcp.json` and a `.cursor/mcp.json`, plus a root `.mcp.json`
//! listing every server; one server in twenty is broken, in turn in each of five ways.
//!
//!     cargo bench --bench mcp                                  # in-process, 100 and 1,000 servers
//!     cargo bench --bench mcp -- --out /tmp/mcp-1k --servers 1000   # write one, to time binaries
//!
//! Under `cargo test --benches` it runs once on 100 servers and checks that every broken server
//! is reported and nothing else is. Deterministic: no randomness, the index decides.

use std::path::{Path, PathBuf};

use divan::Bencher;
use divan::counter::ItemsCount;
use toolc::{CheckOptions, Config, Report};

/// Marks a folder this program wrote, so that a rerun may replace it.
const MARKER: &str = ".toolc-bench-generated";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--out") {
        let out = PathBuf::from(args.get(at + 1).map_or("", String::as_str));
        let servers = args
            .iter()
            .position(|a| a == "--servers")
            .and_then(|i| args.get(i + 1)?.parse().ok())
            .unwrap_or(1_000);
        if let Err(e) = write_fresh(&out, servers) {
            eprintln!("mcp: {e}");
            std::process::exit(2);
        }
        return;
    }
    divan::main();
}

/// True under `cargo bench` (divan's bench mode); false under `cargo test --benches`.
fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn sizes() -> Vec<usize> {
    if bench_mode() {
        vec![100, 1_000]
    } else {
        vec![100]
    }
}

/// The ways a generated server is broken, and the rule that must report each.
const DEFECTS: &[(&str, &str)] = &[
    ("latest", "MCP007"),
    ("http-remote", "MCP011"),
    ("token", "MCP019"),
    ("servers-key", "MCP017"),
    ("input", "MCP012"),
];

/// Index of the defect of server `i`, if it is broken.
fn defect(i: usize) -> Option<usize> {
    (i % 20 == 7).then_some((i / 20) % DEFECTS.len())
}

fn server_json(i: usize, broken: Option<&str>) -> String {
    let version = if broken == Some("latest") {
        "latest"
    } else {
        "1.4.2"
    };
    let scheme = if broken == Some("http-remote") {
        "http"
    } else {
        "https"
    };
    format!(
        r#"{{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/server-{i:05}",
  "title": "Server {i}",
  "description": "Search and summarise the documents of team {i}.",
  "version": "1.4.2",
  "repository": {{"url": "https://github.com/example/server-{i:05}", "source": "github"}},
  "packages": [
    {{
      "registryType": "npm",
      "identifier": "@example/server-{i:05}",
      "version": "{version}",
      "runtimeHint": "npx",
      "runtimeArguments": [{{"type": "named", "name": "--yes"}}],
      "transport": {{"type": "stdio"}},
      "packageArguments": [{{"type": "positional", "valueHint": "workspace_path"}}],
      "environmentVariables": [
        {{"name": "DOCS_API_KEY", "description": "API key", "isRequired": true, "isSecret": true}},
        {{"name": "DOCS_REGION", "default": "eu", "choices": ["eu", "us"]}}
      ]
    }}
  ],
  "remotes": [
    {{
      "type": "streamable-http",
      "url": "{scheme}://{{region}}.docs-{i:05}.example.com/mcp",
      "headers": [{{"name": "Authorization", "value": "Bearer {{token}}", "variables": {{"token": {{"isSecret": true}}}}}}],
      "variables": {{"region": {{"default": "eu", "choices": ["eu", "us"]}}}}
    }}
  ]
}}
"#
    )
}

fn vscode(i: usize, broken: Option<&str>) -> String {
    let key = if broken == Some("servers-key") {
        "mcpServers"
    } else {
        "servers"
    };
    let input = if broken == Some("input") {
        "docs-kye"
    } else {
        "docs-key"
    };
    format!(
        r#"{{
  // Team {i}'s servers.
  "inputs": [
    {{"type": "promptString", "id": "docs-key", "description": "Docs API key", "password": true}}
  ],
  "{key}": {{
    "docs": {{
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@example/server-{i:05}@1.4.2", "${{workspaceFolder}}"],
      "env": {{"DOCS_API_KEY": "${{input:{input}}}", "DOCS_REGION": "eu"}}
    }},
    "remote": {{"type": "http", "url": "https://eu.docs-{i:05}.example.com/mcp"}}
  }}
}}
"#
    )
}

fn cursor(i: usize, broken: Option<&str>) -> String {
    let token = if broken == Some("token") {
        "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"
    } else {
        "${env:DOCS_API_KEY}"
    };
    format!(
        r#"{{
  "mcpServers": {{
    "docs": {{
      "command": "npx",
      "args": ["-y", "@example/server-{i:05}@1.4.2"],
      "env": {{"DOCS_API_KEY": "{token}"}}
    }},
    "remote": {{"url": "https://eu.docs-{i:05}.example.com/mcp", "headers": {{"Authorization": "Bearer ${{env:DOCS_TOKEN}}"}}}}
  }}
}}
"#
    )
}

/// What was written: the folders of broken servers and their rules, and the file count.
struct Written {
    broken: Vec<(String, &'static str)>,
    files: usize,
}

fn write(root: &Path, servers: usize) -> std::io::Result<Written> {
    let mut broken = Vec::new();
    let mut root_servers = Vec::new();
    for i in 0..servers {
        let dir = format!("servers/server-{i:05}");
        let kind = defect(i).map(|d| DEFECTS[d]);
        if let Some((_, rule)) = kind {
            broken.push((dir.clone(), rule));
        }
        let name = kind.map(|(n, _)| n);
        let base = root.join(&dir);
        std::fs::create_dir_all(base.join(".vscode"))?;
        std::fs::create_dir_all(base.join(".cursor"))?;
        std::fs::write(base.join("server.json"), server_json(i, name))?;
        std::fs::write(base.join(".vscode/mcp.json"), vscode(i, name))?;
        std::fs::write(base.join(".cursor/mcp.json"), cursor(i, name))?;
        root_servers.push(format!(
            "    \"team-{i:05}\": {{\"command\": \"npx\", \"args\": [\"-y\", \"@example/server-{i:05}@1.4.2\"], \"env\": {{\"DOCS_API_KEY\": \"${{DOCS_API_KEY}}\"}}}}"
        ));
    }
    let root_config = format!(
        "{{\n  \"mcpServers\": {{\n{}\n  }}\n}}\n",
        root_servers.join(",\n")
    );
    std::fs::write(root.join(".mcp.json"), root_config)?;
    std::fs::write(root.join(MARKER), "")?;
    Ok(Written {
        broken,
        files: servers * 3 + 1,
    })
}

/// Write into `out`, replacing only a folder this program wrote.
fn write_fresh(out: &Path, servers: usize) -> Result<Written, String> {
    if out.as_os_str().is_empty() {
        return Err("--out needs a folder".into());
    }
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_none();
        if !empty && !out.join(MARKER).exists() {
            return Err(format!(
                "{} exists and was not written by this program",
                out.display()
            ));
        }
        std::fs::remove_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    write(out, servers).map_err(|e| format!("{}: {e}", out.display()))
}

fn run(root: &Path) -> Report {
    let config = Config::discover(root, None).unwrap_or_default();
    let options = CheckOptions {
        paths: vec![],
        cwd: root.to_path_buf(),
        select: vec![],
        ignore: vec![],
        targets: None,
        preview: false,
    };
    toolc::check(&options, &config)
}

/// Every broken server is reported by its rule, and nothing else is reported.
fn assert_only_broken_servers_reported(written: &Written, report: &Report) {
    for d in &report.diagnostics {
        let hit = written.broken.iter().any(|(dir, rule)| {
            d.file.display().starts_with(&format!("{dir}/")) && d.rule.code == *rule
        });
        assert!(
            hit,
            "unexpected: {} {} {}",
            d.file.display(),
            d.rule.code,
            d.message
        );
    }
    for (dir, rule) in &written.broken {
        let hit = report
            .diagnostics
            .iter()
            .any(|d| d.file.display().starts_with(&format!("{dir}/")) && d.rule.code == *rule);
        assert!(hit, "{dir} is broken ({rule}) but it was not reported");
    }
}

#[divan::bench(args = sizes(), sample_count = 10, sample_size = 1)]
fn check(bencher: Bencher, servers: usize) {
    let root =
        std::env::temp_dir().join(format!("toolc-bench-mcp-{}-{servers}", std::process::id()));
    let written = write_fresh(&root, servers).expect("write the repository");
    if !bench_mode() {
        assert_only_broken_servers_reported(&written, &run(&root));
    }
    bencher
        .counter(ItemsCount::new(written.files))
        .bench(|| run(&root));
    let _ = std::fs::remove_dir_all(&root);
}
