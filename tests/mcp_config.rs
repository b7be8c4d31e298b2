//! MCP client configurations: each client's documented shape checks clean, every rule fires
//! at its token in the client whose syntax it concerns, secrets are never echoed, and JSON
//! files of other tools at the same paths are not claimed.

mod common;

use common::{Repo, lines};

/// Claude Code's project file, with the shapes its documentation shows.
const CLAUDE: &str = r#"{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "${HOME:-/tmp}"],
      "env": {"LOG_LEVEL": "info", "GITHUB_TOKEN": "${GITHUB_TOKEN}"}
    },
    "fetch": {"command": "uvx", "args": ["mcp-server-fetch==2025.4.7"]},
    "api": {
      "type": "http",
      "url": "https://api.example.com/mcp",
      "headers": {"Authorization": "Bearer ${API_TOKEN}"}
    },
    "local": {"type": "sse", "url": "http://localhost:3000/sse"}
  }
}
"#;

/// VS Code's workspace file: comments, trailing commas, inputs and editor variables.
const VSCODE: &str = r#"{
  // Inputs are asked for once and stored securely.
  "inputs": [
    {"type": "promptString", "id": "api-key", "description": "Perplexity API key", "password": true},
  ],
  "servers": {
    "perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask@0.1.3"],
      "env": {"PERPLEXITY_API_KEY": "${input:api-key}", "ROOT": "${workspaceFolder}", "HOME_DIR": "${env:HOME}"},
    },
    "context7": {"type": "http", "url": "https://mcp.context7.com/mcp"},
  },
}
"#;

/// Cursor's project file.
const CURSOR: &str = r#"{
  "mcpServers": {
    "linear": {"url": "https://mcp.linear.app/sse", "headers": {"Authorization": "Bearer ${env:LINEAR_TOKEN}"}},
    "local": {"command": "node", "args": ["${workspaceFolder}/server.js"]}
  }
}
"#;

fn check(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

/// Exactly one diagnostic in `path`, starting `<path>:<prefix>`.
fn expect_one(path: &str, text: &str, prefix: &str) {
    let found = check(&[(path, text)]);
    let want = format!("{path}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
}

fn edit(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "the base lacks {from}");
    base.replacen(from, to, 1)
}

#[test]
fn documented_configurations_are_silent() {
    let found = check(&[
        (".mcp.json", CLAUDE),
        (".vscode/mcp.json", VSCODE),
        (".cursor/mcp.json", CURSOR),
        (
            "claude_desktop_config.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"mcp-x\"}}, \"globalShortcut\": \"\"}\n",
        ),
    ]);
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn each_client_reads_its_own_servers_key() {
    let found = check(&[(
        ".vscode/mcp.json",
        &edit(VSCODE, "\"servers\"", "\"mcpServers\""),
    )]);
    assert!(
        found.len() == 1 && found[0].starts_with(".vscode/mcp.json:6:3 MCP017 error VS Code reads servers from `servers`, not `mcpServers`"),
        "{found:#?}"
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"mcpServers\"", "\"servers\""),
        "2:3 MCP017 error Claude Code reads servers from `mcpServers`",
    );
    expect_one(
        ".vscode/mcp.json",
        "{\"mcp\": {\"servers\": {\"x\": {\"command\": \"mcp-x\"}}}}\n",
        "1:2 MCP017 error VS Code reads servers from a top-level `servers`, not from `mcp.servers`",
    );
}

#[test]
fn a_server_needs_a_command_or_a_url_that_its_type_agrees_with() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"command\": \"uvx\", ", ""),
        "8:5 MCP001 error server `fetch` has neither `command` nor `url`",
    );
    expect_one(
        ".mcp.json",
        &edit(
            CLAUDE,
            "\"command\": \"uvx\", ",
            "\"command\": \"uvx\", \"url\": \"https://x.example.com\", ",
        ),
        "8:5 MCP018 error server `fetch` sets both",
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"type\": \"sse\"", "\"type\": \"stdio\""),
        "14:23 MCP018 error server `local` has `type` `stdio` but only a `url`",
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"type\": \"sse\"", "\"type\": \"websocket\""),
        "14:23 MCP003",
    );
    expect_one(
        ".mcp.json",
        &edit(
            CLAUDE,
            "\"args\": [\"mcp-server-fetch==2025.4.7\"]",
            "\"args\": \"mcp-server-fetch\"",
        ),
        "8:41 MCP002",
    );
}

#[test]
fn empty_commands_unknown_types_and_credentials_in_urls() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"command\": \"uvx\"", "\"command\": \"\""),
        "8:26 MCP001 error server `fetch` has an empty `command`",
    );
    expect_one(
        ".cursor/mcp.json",
        &edit(
            CURSOR,
            "\"linear\": {",
            "\"linear\": {\"type\": \"websocket\", ",
        ),
        "3:24 MCP003",
    );
    let found = check(&[(
        ".mcp.json",
        &edit(
            CLAUDE,
            "https://api.example.com/mcp",
            "https://bot:s3cretPassw0rd@api.example.com/mcp",
        ),
    )]);
    assert!(
        found.len() == 1 && found[0].starts_with(".mcp.json:11:27 MCP019 error key `url` of server `api` holds a password inside a URL"),
        "{found:#?}"
    );
    assert!(!found[0].contains("s3cret"), "the password is echoed");
}

#[test]
fn unknown_keys_get_a_suggestion() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"env\": {\"LOG", "\"envirnoment\": {\"LOG"),
        "6:7 MCP005 warning unknown key `mcpServers.filesystem.envirnoment`",
    );
    expect_one(
        ".mcp.json",
        &edit(
            CLAUDE,
            "{\n  \"mcpServers\"",
            "{\n  \"version\": 1,\n  \"mcpServers\"",
        ),
        "2:3 MCP005",
    );
    // Keys other clients document are known when the client is not.
    let cline = "{\"mcpServers\": {\"x\": {\"command\": \"mcp-x\", \"disabled\": false, \"autoApprove\": []}}}\n";
    assert_eq!(check(&[("mcp.json", cline)]), Vec::<String>::new());
}

#[test]
fn notes_written_as_keys_are_not_unknown_keys() {
    // JSON has no comments: `_docs`, `_comment`, `//` and `$comment` are notes for the reader.
    let noted = edit(
        CLAUDE,
        "\"command\": \"npx\",",
        "\"_docs\": \"wraps the file system\", \"//\": \"pinned\", \"$comment\": \"x\", \"command\": \"npx\",",
    );
    assert_eq!(check(&[(".mcp.json", &noted)]), Vec::<String>::new());
    // Beside notes, a misspelt key is still reported.
    expect_one(
        ".mcp.json",
        &edit(
            CLAUDE,
            "\"command\": \"npx\",",
            "\"comand\": \"npx\", \"command\": \"npx\",",
        ),
        "4:7 MCP005",
    );
}

#[test]
fn references_each_client_does_not_expand() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "${API_TOKEN}", "${env:API_TOKEN}"),
        "12:44 MCP012 error Claude Code does not expand `${env:API_TOKEN}`",
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "${API_TOKEN}", "${input:token}"),
        "12:44 MCP012 error Claude Code has no `inputs`",
    );
    expect_one(
        ".vscode/mcp.json",
        &edit(VSCODE, "${input:api-key}", "${input:apikey}"),
        "11:38 MCP012 error `${input:apikey}` names no entry of `inputs`",
    );
    expect_one(
        ".vscode/mcp.json",
        &edit(VSCODE, "${env:HOME}", "${HOME}"),
        "11:100 MCP012 error VS Code does not expand `${HOME}`",
    );
    expect_one(
        ".vscode/mcp.json",
        &edit(VSCODE, "${workspaceFolder}", "${workspaceRoot}"),
        "11:66 MCP012 error `${workspaceRoot}` is not a variable VS Code knows",
    );
    expect_one(
        ".cursor/mcp.json",
        &edit(CURSOR, "${env:LINEAR_TOKEN}", "${LINEAR_TOKEN}"),
        "3:90 MCP012 error Cursor does not expand `${LINEAR_TOKEN}`",
    );
    expect_one(
        ".cursor/mcp.json",
        &edit(CURSOR, "${env:LINEAR_TOKEN}", "${input:linear}"),
        "3:90 MCP012 error Cursor has no `inputs`",
    );
}

#[test]
fn inputs_are_declared_once_and_used() {
    let unused = edit(
        VSCODE,
        "true},\n  ],",
        "true},\n    {\"type\": \"promptString\", \"id\": \"spare\", \"description\": \"Not used\"},\n  ],",
    );
    expect_one(
        ".vscode/mcp.json",
        &unused,
        "5:36 MCP023 warning input `spare` is declared but no server references it",
    );
    let twice = edit(
        VSCODE,
        "true},\n  ],",
        "true},\n    {\"type\": \"promptString\", \"id\": \"api-key\", \"description\": \"Again\"},\n  ],",
    );
    expect_one(
        ".vscode/mcp.json",
        &twice,
        "5:36 MCP022 error input id `api-key` is declared twice",
    );
    expect_one(
        ".vscode/mcp.json",
        &edit(
            VSCODE,
            "\"type\": \"promptString\"",
            "\"type\": \"promptstring\"",
        ),
        "4:14 MCP003",
    );
}

#[test]
fn the_same_server_name_twice_is_a_duplicate_key() {
    let twice = edit(CLAUDE, "\"fetch\":", "\"filesystem\":");
    let found = check(&[(".mcp.json", &twice)]);
    assert!(
        found.len() == 1
            && found[0].starts_with(".mcp.json:8:5 SYN003 error duplicate key `filesystem`"),
        "{found:#?}"
    );
}

#[test]
fn server_names_that_differ_only_in_case() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "\"fetch\":", "\"Filesystem\":"),
        "8:5 MCP022 error server `Filesystem` differs from server `filesystem` only in case",
    );
}

#[test]
fn secrets_are_reported_masked() {
    // Made up, with a valid checksum.
    let token = "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";
    let found = check(&[(".mcp.json", &edit(CLAUDE, "${GITHUB_TOKEN}", token))]);
    assert!(
        found.len() == 1
            && found[0].starts_with(".mcp.json:6:53 MCP019 error environment variable `GITHUB_TOKEN` of server `filesystem` holds a GitHub personal access token (`ghp_R8…`)"),
        "{found:#?}"
    );
    assert!(!found[0].contains(token), "the token is echoed");
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "Bearer ${API_TOKEN}", "Bearer hunter2hunter2"),
        "12:44 MCP019 error header `Authorization` of server `api` holds a literal credential",
    );
    let found = check(&[(
        ".mcp.json",
        &edit(
            CLAUDE,
            "\"${HOME:-/tmp}\"",
            "\"--api-key=Zq8x3Lw9Pk2Rv7Tn4Ys1\"",
        ),
    )]);
    assert!(
        found.len() == 1 && found[0].starts_with(".mcp.json:5:86 MCP019 error argument `api-key`"),
        "{found:#?}"
    );
    assert!(!found[0].contains("Zq8x3Lw9"), "the key is echoed");
}

#[test]
fn unpinned_packages_and_plaintext_urls() {
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "@2025.8.21", ""),
        "5:22 MCP020 warning server `filesystem` runs `@modelcontextprotocol/server-filesystem` through `npx` with no version",
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "==2025.4.7", ""),
        "8:42 MCP020 warning server `fetch` runs `mcp-server-fetch` through `uvx`",
    );
    expect_one(
        ".vscode/mcp.json",
        &edit(VSCODE, "@0.1.3", "@latest"),
        "10:22 MCP020 warning server `perplexity` runs `server-perplexity-ask` through `npx` with `latest`",
    );
    expect_one(
        ".mcp.json",
        &edit(CLAUDE, "https://api.example.com", "http://api.example.com"),
        "11:15 MCP021 warning server `api` connects to `api.example.com` over plain `http://`",
    );
}

#[test]
fn plain_http_to_a_container_or_cluster_name_is_not_reported() {
    for host in [
        "jenkins:8080",
        "host.docker.internal:3000",
        "search.tools.svc.cluster.local",
    ] {
        let text = edit(CLAUDE, "https://api.example.com", &format!("http://{host}"));
        let found = check(&[(".mcp.json", &text)]);
        assert!(
            !found.iter().any(|f| f.contains("MCP021")),
            "{host}: {found:#?}"
        );
    }
}

#[test]
fn other_tools_json_at_these_paths_is_not_claimed() {
    for (path, text) in [
        ("mcp.json", "{\"servers\": [\"a\", \"b\"]}\n"),
        ("mcp.json", "{\"name\": \"not a config\"}\n"),
        ("tools/mcp.json", "[]\n"),
        (".vscode/mcp.json", "// nothing\n{}\n"),
    ] {
        assert_eq!(
            check(&[(path, text)]),
            Vec::<String>::new(),
            "{path}: {text}"
        );
    }
    // A broken file that lists servers is ours: its syntax error is real.
    let found = check(&[(".mcp.json", "{\"mcpServers\": {,}}\n")]);
    assert!(found.iter().any(|l| l.contains("SYN")), "{found:#?}");
}

// ── what a shared configuration makes run ────────────────────────────────────────────

#[test]
fn a_misspelt_key_that_changes_what_runs_is_an_error() {
    for (from, to, key, meant) in [
        ("\"args\": [\"-y\"", "\"arg\": [\"-y\"", "arg", "args"),
        (
            "\"env\": {\"LOG",
            "\"enviroment\": {\"LOG",
            "enviroment",
            "env",
        ),
        (
            "\"command\": \"npx\"",
            "\"comand\": \"npx\"",
            "comand",
            "command",
        ),
    ] {
        let found = check(&[(".mcp.json", &edit(CLAUDE, from, to))]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].contains(&format!(
                "MCP026 error server `filesystem` sets `{key}`, which Claude Code does not read: it means `{meant}`"
            )),
            "{found:#?}"
        );
    }
    // With the real key beside it, nothing changes what runs: an unknown key, a warning.
    expect_one(
        ".mcp.json",
        &edit(
            CLAUDE,
            "\"command\": \"npx\",",
            "\"arg\": [], \"command\": \"npx\",",
        ),
        "4:7 MCP005 warning",
    );
}

#[test]
fn claude_desktop_starts_servers_and_connects_to_none() {
    let desktop = "{\"mcpServers\": {\"docs\": {\"url\": \"https://mcp.example.com/mcp\"}}}\n";
    expect_one(
        "claude_desktop_config.json",
        desktop,
        "1:26 MCP024 error server `docs` is a remote server, which Claude Desktop does not read from claude_desktop_config.json",
    );
    // The same server in a client that connects to URLs, and a bridge in Claude Desktop.
    assert_eq!(check(&[(".mcp.json", desktop)]), Vec::<String>::new());
    let bridge = "{\"mcpServers\": {\"docs\": {\"command\": \"npx\", \"args\": [\"-y\", \"mcp-remote@0.1.29\", \"https://mcp.example.com/mcp\"]}}}\n";
    assert_eq!(
        check(&[("claude_desktop_config.json", bridge)]),
        Vec::<String>::new()
    );
}

#[test]
fn paths_in_one_users_home_folder() {
    let cursor = "{\"mcpServers\": {\"notes\": {\"command\": \"/opt/homebrew/bin/node\", \"args\": [\"/Users/ada/code/notes-mcp/index.js\"], \"cwd\": \"/Users/ada/code/notes-mcp\"}}}\n";
    let repo = Repo::with(&[(".mcp.json", cursor)]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            ".mcp.json:1:74 MCP025 warning server `notes` uses `/Users/ada/code/notes-mcp/index.js`, a path in one user's home folder"
        ]
    );
    assert_eq!(
        report.diagnostics[0].related.len(),
        1,
        "the `cwd` beside it"
    );
    let windows = r#"{"servers": {"db": {"command": "C:\\Users\\ada\\tools\\db-mcp.exe"}}}"#;
    expect_one(".vscode/mcp.json", windows, "1:32 MCP025 warning");
    // Placeholders for the reader, project paths and programs on PATH are fine.
    for fine in [
        r#"{"mcpServers": {"a": {"command": "node", "args": ["/Users/<you>/notes/index.js"]}}}"#,
        r#"{"mcpServers": {"a": {"command": "node", "args": ["${workspaceFolder}/index.js"]}}}"#,
        r#"{"mcpServers": {"a": {"command": "/usr/local/bin/notes-mcp"}}}"#,
    ] {
        assert_eq!(
            check(&[(".cursor/mcp.json", fine)]),
            Vec::<String>::new(),
            "{fine}"
        );
    }
}

#[test]
fn git_sources_without_a_commit_and_images_without_a_tag() {
    let git = r#"{"mcpServers": {"lsp": {"command": "uvx", "args": ["--from", "git+https://github.com/acme/lsp-mcp", "lsp-mcp", "serve"]}}}"#;
    // Also code from outside the index to the security pass, as in a skill's code block.
    let found = check(&[(".mcp.json", git)]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with(
        ".mcp.json:1:62 MCP020 warning server `lsp` runs `git+https://github.com/acme/lsp-mcp` through `uvx` at no fixed commit"
    ));
    assert!(found[1].starts_with(
        ".mcp.json:1:63 SEC047 warning a command installs code from outside the package index"
    ));
    let pinned = git.replace(
        "lsp-mcp\", \"lsp-mcp\"",
        "lsp-mcp@3f9c2e1a7b\", \"lsp-mcp\"",
    );
    assert_eq!(check(&[(".mcp.json", &pinned)]), Vec::<String>::new());
    let image = r#"{"mcpServers": {"gh": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_TOKEN", "ghcr.io/acme/github-mcp"]}}}"#;
    expect_one(
        ".mcp.json",
        image,
        "1:97 MCP020 warning server `gh` runs image `ghcr.io/acme/github-mcp` through `docker run` with no tag or digest",
    );
    for tagged in [
        "ghcr.io/acme/github-mcp:1.3.0",
        "ghcr.io/acme/github-mcp@sha256:9b2c",
    ] {
        let text = image.replace("ghcr.io/acme/github-mcp", tagged);
        assert_eq!(
            check(&[(".mcp.json", &text)]),
            Vec::<String>::new(),
            "{tagged}"
        );
    }
}

#[path = "mcp_config/long_lines.rs"]
mod long_lines;
