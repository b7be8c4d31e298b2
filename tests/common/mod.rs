//! Helpers shared by the integration tests: build small repositories in temp folders and
//! run the library or the binary on them.

#![allow(dead_code)]

pub mod cache;
pub mod change;

// The suite's results must not depend on what is installed: ShellCheck (the SHC rules) runs
// only in the tests that ask for it (they set `TOOLC_SHELLCHECK` on the toolc they start).
// This is set here, for the test process and every toolc it starts, rather than for every
// cargo command (`.cargo/config.toml`), which would turn ShellCheck off for `cargo run` too.
// It runs before `main`, while the process has one thread, as a C constructor; a
// `TOOLC_SHELLCHECK` exported by the caller is kept.
#[used]
#[cfg_attr(
    any(target_os = "linux", target_os = "android", target_os = "freebsd"),
    unsafe(link_section = ".init_array")
)]
#[cfg_attr(
    target_vendor = "apple",
    unsafe(link_section = "__DATA,__mod_init_func")
)]
#[cfg_attr(windows, unsafe(link_section = ".CRT$XCU"))]
static SHELLCHECK_OFF: extern "C" fn() = shellcheck_off;

extern "C" fn shellcheck_off() {
    if std::env::var_os("TOOLC_SHELLCHECK").is_none() {
        // SAFETY: a constructor runs before `main`, on the only thread there is.
        unsafe { std::env::set_var("TOOLC_SHELLCHECK", "") };
    }
}

use std::path::{Path, PathBuf};

use toolc::{CheckOptions, Config, ConfigError, Diagnostic, Report, check};

/// A temporary repository, removed on drop.
pub struct Repo {
    pub root: PathBuf,
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Repo {
    /// An empty repository.
    pub fn new() -> Repo {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let root = std::env::temp_dir().join(format!("toolc-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("create temp repo");
        Repo { root }
    }

    /// A repository holding `files` (path, content).
    pub fn with(files: &[(&str, &str)]) -> Repo {
        let repo = Repo::new();
        for (path, content) in files {
            repo.write(path, content.as_bytes());
        }
        repo
    }

    /// Write one file.
    pub fn write(&self, path: &str, content: &[u8]) {
        let full = self.root.join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, content).expect("write");
    }

    /// Run `check` on the whole repository, with its `toolc.toml` if any.
    pub fn check(&self) -> Result<Report, Vec<Diagnostic>> {
        check_dir(&self.root)
    }

    /// Codes of the diagnostics (sorted, deduplicated).
    pub fn codes(&self) -> Vec<String> {
        let report = self.check().expect("valid config");
        let mut codes: Vec<String> = report
            .diagnostics
            .iter()
            .map(|d| d.rule.code.to_string())
            .collect();
        codes.sort();
        codes.dedup();
        codes
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Run `check` on `dir` as working directory, its config discovered as the CLI does.
pub fn check_dir(dir: &Path) -> Result<Report, Vec<Diagnostic>> {
    let config = match Config::discover(dir, None) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => return Err(diags),
        Err(e) => panic!("config: {e}"),
    };
    let options = CheckOptions {
        paths: vec![],
        cwd: dir.to_path_buf(),
        select: vec![],
        ignore: vec![],
        targets: None,
        preview: false,
    };
    Ok(check(&options, &config))
}

/// Run `check` on `paths` (relative to `dir`) named as on the command line, from `dir`: a
/// named file is checked whatever its content.
pub fn check_named(dir: &Path, paths: &[&str]) -> Report {
    let config = Config::discover(dir, None).expect("valid config");
    let options = CheckOptions {
        paths: paths.iter().map(PathBuf::from).collect(),
        cwd: dir.to_path_buf(),
        select: vec![],
        ignore: vec![],
        targets: None,
        preview: false,
    };
    check(&options, &config)
}

/// One line per diagnostic: `path:line:col CODE severity message`, for readable assertions.
pub fn lines(report: &Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            let p = d.file.position(d.span.start);
            format!(
                "{}:{}:{} {} {} {}",
                d.file.display(),
                p.line,
                p.column,
                d.rule.code,
                d.severity,
                d.message
            )
        })
        .collect()
}

/// The `SEC` findings of the repository at `dir`, each as its code and the text it points
/// at, sorted.
pub fn sec_texts(dir: &Path) -> Vec<String> {
    let report = check_dir(dir).expect("valid config");
    let mut found: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code.starts_with("SEC"))
        .map(|d| format!("{} {}", d.rule.code, d.file.slice(d.span)))
        .collect();
    found.sort();
    found
}

/// A folder of the real-world corpus: files published by other projects, which this
/// repository does not ship. It sits beside the checkout where CI provides it; without it
/// the calling test says it was skipped and returns early.
pub fn corpus(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/real-world")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/corpus/real-world/{name} not found");
        None
    }
}

/// `toolc.toml` of a repository that targets DojOps 1.0.9, the last release that loads
/// `tool.yaml` tools: tests of other matters that use manifests as their example write it,
/// so that what current DojOps says of every manifest (DOJ024, tested in `dojops_tool.rs`)
/// stays out of their way.
pub const DOJOPS_1_0: (&str, &str) = ("toolc.toml", "[runtimes]\ndojops = \"1.0.9\"\n");

/// A complete, valid DojOps tool manifest (pair it with [`VALID_SCHEMA`]).
pub const VALID_TOOL: &str = r#"spec: 1
name: my-tool
version: "1.0.0"
type: tool
description: "Generates a config file"
inputSchema: "input.schema.json"
generator:
  strategy: llm
  systemPrompt: "You write config files."
files:
  - path: "out/config.yaml"
    serializer: yaml
"#;

/// The smallest valid input schema.
pub const VALID_SCHEMA: &str = r#"{"type": "object", "properties": {}}"#;

/// A valid `*.tool.md` retrieval tool; the tests' line numbers refer to it.
pub const BASE_TOOL: &str = r#"---
spec_version: "1.2"
tool_id: "search-docs"
version: "1.0.0"
status: "active"
meta:
  name: "Search Docs"
  description: "Search the product documentation. Use it for product questions."
  owner: "docs-team"
  last_updated: "2025-04-01"
type: "retrieval"
interface:
  input:
    type: object
    properties:
      query:
        type: string
        description: "What to look for."
    required: ["query"]
  output:
    type: object
    properties:
      hits:
        type: array
        items: {type: string}
    required: ["hits"]
transport:
  type: "rest-api"
  base_url: "https://docs.example.com/v1"
  endpoint: "GET /search"
  timeout_ms: 5000
  credentials:
    scheme: "bearer-token"
    source: "env"
    name: "DOCS_TOKEN"
use_guidance:
  use_when: ["the user asks about the product"]
  avoid_when: ["the question is small talk"]
  side_effects: "None. Read-only."
---
# Purpose
Product documentation search.
"#;

/// A minimal valid `.dops` v2 skill; the tests' line numbers refer to it.
pub const VALID_DOPS: &str = "---
dops: v2
kind: skill
meta:
  name: nginx
  version: 1.0.0
  description: Generate nginx server blocks
context:
  technology: nginx
  fileFormat: raw
  outputGuidance: Output the configuration only, without code fences.
  bestPractices:
    - Redirect HTTP to HTTPS
files:
  - path: nginx.conf
---
## Prompt

You are an nginx expert.

## Keywords

nginx, reverse proxy
";

/// A valid cycod tool (`.cycod/tools/search.yaml`); the tests' line numbers refer to it.
pub const VALID_CYCOD: &str = r#"name: search
description: Search files for a pattern
bash: grep -r "{PATTERN}" {DIRECTORY}
parameters:
  PATTERN:
    type: string
    description: Pattern to search for
    required: true
  DIRECTORY:
    type: string
    description: Where to search
    default: "."
tags: [search, read]
platforms: [windows, linux, macos]
timeout: 10000
"#;

/// A valid cycod tool of two steps, the second reading the first's output.
pub const CYCOD_STEPS: &str = "steps:
  - name: fetch
    bash: curl -s https://example.com
  - name: count
    bash: echo '{fetch.output}' | wc -l
tags: [read]
";

/// A valid agentcli `tools.json` of one tool (`./tools/bin/get_time`); the tests' line
/// numbers refer to it.
pub const VALID_AGENTCLI: &str = r#"{
  "tools": [
    {
      "name": "get_time",
      "description": "Get the current time for an IANA timezone",
      "schema": {"type": "object", "properties": {"tz": {"type": "string"}}, "additionalProperties": false},
      "command": ["./tools/bin/get_time"],
      "timeoutSec": 5
    }
  ]
}
"#;

/// A draft agent referencing the `search-docs` tool of [`BASE_TOOL`].
pub const TRIAGE_AGENT: &str = r#"---
spec_version: "1.2"
agent_id: "triage"
version: "0.3.0"
status: "draft"
meta:
  name: "Triage Agent"
  owner: "cx-team"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
      max_calls_per_run: 1
---
# Purpose
Opens a ticket for what the docs do not cover.
"#;
