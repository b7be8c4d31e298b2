//! SEC003, end to end: a program a definition runs that is a symbolic link (or lies in a
//! linked folder) leading out of the repository is reported on the path that names it; a
//! regular file and a link that stays inside are not; a dangling link is a missing program,
//! reported once; what the link leads to is never read or printed.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::Repo;
use serde_json::Value;

/// What the programs outside the repository hold: it must never reach the output.
const SECRET: &str = "#!/bin/sh\necho hunter2-do-not-print\n";

/// One agentcli tool entry running `program`.
fn entry(name: &str, program: &str) -> String {
    format!(
        r#"    {{"name": "{name}", "description": "Run {name}", "schema": {{"type": "object", "properties": {{}}, "additionalProperties": false}}, "command": ["{program}"]}}"#
    )
}

/// A manifest of one tool per program, one entry per line (line 3 is the first).
fn manifest(programs: &[(&str, &str)]) -> String {
    let entries: Vec<String> = programs.iter().map(|(n, p)| entry(n, p)).collect();
    format!("{{\n  \"tools\": [\n{}\n  ]\n}}\n", entries.join(",\n"))
}

/// A folder outside every repository of the test, holding `deploy` and `bin/deploy`.
struct Outside {
    root: PathBuf,
}

impl Outside {
    fn new(name: &str) -> Outside {
        let root = std::env::temp_dir().join(format!(
            "toolc-program-outside-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("bin")).expect("mkdir");
        std::fs::write(root.join("deploy"), SECRET).expect("write");
        std::fs::write(root.join("bin/deploy"), SECRET).expect("write");
        Outside {
            root: std::fs::canonicalize(&root).expect("real path"),
        }
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A link at `at` (relative to the repository) to `target`, its folders made first.
fn link(repo: &Repo, target: &Path, at: &str) {
    let at = repo.root.join(at);
    std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
    let _ = std::fs::remove_file(&at);
    symlink(target, at).expect("symlink");
}

/// `toolc check --format json ARGS` in `dir`: the whole output as text, and the diagnostics.
fn check(dir: &Path, args: &[&str]) -> (String, Vec<Value>) {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .args(args)
        .output()
        .expect("toolc runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "toolc must exit 0 or 1: {out:?}"
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    (text, diags)
}

/// `CODE path:line:col message` of each diagnostic, sorted.
fn findings(diags: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = diags
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}:{} {}",
                d["code"].as_str().unwrap_or(""),
                d["path"].as_str().unwrap_or(""),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"],
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    out.sort();
    out
}

/// The 1-based column where `needle` (with its quotes) starts on line `line` of `text`.
fn column(text: &str, line: usize, needle: &str) -> usize {
    let l = text.lines().nth(line - 1).expect("line");
    l.find(&format!("\"{needle}\""))
        .expect("needle on the line")
        + 1
}

#[test]
fn a_program_linked_out_of_the_repository_is_reported_on_the_path_that_names_it() {
    let outside = Outside::new("agentcli");
    let repo = Repo::new();
    let text = manifest(&[
        ("deploy", "./tools/bin/deploy"),
        ("plain", "./tools/bin/plain"),
        ("alias", "./tools/bin/alias"),
        ("dangling", "./tools/bin/dangling"),
        ("relative", "./tools/bin/relative"),
        ("folder", "./tools/bin/folder"),
    ]);
    repo.write("tools.json", text.as_bytes());
    repo.write("tools/bin/plain", b"#!/bin/sh\n");
    link(&repo, &outside.root.join("deploy"), "tools/bin/deploy");
    // A link that stays inside the repository is fine.
    link(&repo, Path::new("plain"), "tools/bin/alias");
    // A dangling link is a missing program (ACL011), not reported twice.
    link(&repo, &outside.root.join("nothing"), "tools/bin/dangling");
    // A relative target that climbs out is out all the same.
    let depth = repo.root.components().count() + 2;
    let from_root = outside.root.join("deploy");
    let from_root = from_root.strip_prefix("/").expect("absolute");
    let climb = format!("{}{}", "../".repeat(depth), from_root.display());
    link(&repo, Path::new(&climb), "tools/bin/relative");
    // A link to a folder outside: out of the repository, not a missing program.
    link(&repo, &outside.root.join("bin"), "tools/bin/folder");
    // A program in a linked folder on the way.
    let sub = manifest(&[("far", "./tools/bin/deploy")]);
    repo.write("sub/tools.json", sub.as_bytes());
    link(&repo, &outside.root, "sub/tools");

    let (output, diags) = check(&repo.root, &["--no-cache"]);
    assert!(
        !output.contains("hunter2"),
        "what a link leads to was read and printed:\n{output}"
    );
    let target = outside.root.join("deploy");
    let far = outside.root.join("bin/deploy");
    let col = |line: usize, program: &str| column(&text, line, program);
    assert_eq!(
        findings(&diags),
        vec![
            format!(
                "ACL011 tools.json:6:{} tool[3] \"dangling\": `./tools/bin/dangling` does not exist next to this manifest",
                col(6, "./tools/bin/dangling")
            ),
            format!(
                "SEC003 sub/tools.json:3:{} tool[0] \"far\": `./tools/bin/deploy` leads out of the repository, to `{}`",
                column(&sub, 3, "./tools/bin/deploy"),
                far.display()
            ),
            format!(
                "SEC003 tools.json:3:{} tool[0] \"deploy\": `./tools/bin/deploy` leads out of the repository, to `{}`",
                col(3, "./tools/bin/deploy"),
                target.display()
            ),
            format!(
                "SEC003 tools.json:7:{} tool[4] \"relative\": `./tools/bin/relative` leads out of the repository, to `{}`",
                col(7, "./tools/bin/relative"),
                target.display()
            ),
            format!(
                "SEC003 tools.json:8:{} tool[5] \"folder\": `./tools/bin/folder` leads out of the repository, to `{}`",
                col(8, "./tools/bin/folder"),
                outside.root.join("bin").display()
            ),
        ]
    );
    // The span is the whole string token of `command[0]`, quotes included.
    let first = diags
        .iter()
        .find(|d| d["code"] == "SEC003" && d["path"] == "tools.json")
        .expect("SEC003");
    let width = "\"./tools/bin/deploy\"".len() as u64;
    assert_eq!(
        first["span"]["end"]["column"].as_u64(),
        first["span"]["start"]["column"].as_u64().map(|c| c + width)
    );
    assert_eq!(first["severity"], "warning");
}

#[test]
fn programs_that_are_regular_files_or_links_inside_are_silent() {
    let repo = Repo::new();
    repo.write(
        "tools.json",
        manifest(&[
            ("plain", "./tools/bin/plain"),
            ("alias", "./tools/bin/alias"),
            ("shared", "./tools/bin/shared"),
        ])
        .as_bytes(),
    );
    repo.write("tools/bin/plain", b"#!/bin/sh\n");
    repo.write("scripts/shared.sh", b"#!/bin/sh\n");
    link(&repo, Path::new("plain"), "tools/bin/alias");
    // An absolute link to a file of the same repository.
    link(
        &repo,
        &repo.root.join("scripts/shared.sh"),
        "tools/bin/shared",
    );
    let (_, diags) = check(&repo.root, &["--no-cache"]);
    assert_eq!(findings(&diags), Vec::<String>::new());
}

#[test]
fn a_skill_script_linked_out_is_reported_where_the_instructions_name_it() {
    let outside = Outside::new("skill");
    let repo = Repo::new();
    let skill = "---\nname: deploy\ndescription: Deploys the site to production. Use when the user asks to publish or deploy the site.\n---\n\n# Deploy\n\nRun `scripts/deploy.sh`, then `scripts/check.sh`, then `scripts/again.sh`.\n";
    repo.write(".claude/skills/deploy/SKILL.md", skill.as_bytes());
    repo.write(
        ".claude/skills/deploy/scripts/check.sh",
        b"#!/bin/sh\necho ok\n",
    );
    let check_sh = repo.root.join(".claude/skills/deploy/scripts/check.sh");
    let mut perms = std::fs::metadata(&check_sh)
        .expect("metadata")
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&check_sh, perms).expect("chmod");
    link(
        &repo,
        &outside.root.join("deploy"),
        ".claude/skills/deploy/scripts/deploy.sh",
    );
    link(
        &repo,
        Path::new("check.sh"),
        ".claude/skills/deploy/scripts/again.sh",
    );
    // Named in a file the instructions link to: reported there, and silenced for that file.
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    let skill = skill.replace(
        "# Deploy\n",
        "# Deploy\n\nSee [operations](references/ops.md).\n",
    );
    repo.write(".claude/skills/deploy/SKILL.md", skill.as_bytes());
    repo.write(
        ".claude/skills/deploy/references/ops.md",
        b"# Operations\n\nRoll back with [the script](../scripts/rollback.sh).\n",
    );
    link(
        &repo,
        &outside.root.join("deploy"),
        ".claude/skills/deploy/scripts/rollback.sh",
    );
    let (output, diags) = check(&repo.root, &["--no-cache"]);
    assert!(!output.contains("hunter2"), "{output}");
    let ops = diags
        .iter()
        .find(|d| d["path"] == ".claude/skills/deploy/references/ops.md")
        .cloned()
        .expect("a finding in the linked file");
    let help = ops["help"].as_str().unwrap_or_default();
    assert!(
        help.contains("paths = [\".claude/skills/deploy/references/ops.md\"]"),
        "{help}"
    );
    let diags: Vec<Value> = diags.into_iter().filter(|d| *d != ops).collect();
    let col = skill
        .lines()
        .nth(9)
        .and_then(|l| l.find("scripts/deploy.sh"))
        .expect("mention")
        + 1;
    assert_eq!(
        findings(&diags),
        vec![format!(
            "SEC003 .claude/skills/deploy/SKILL.md:10:{col} `scripts/deploy.sh` leads out of the repository, to `{}`",
            outside.root.join("deploy").display()
        )]
    );
}

#[test]
fn the_cache_notices_a_program_turning_into_a_link_out_and_back() {
    let outside = Outside::new("cache");
    let repo = Repo::new();
    repo.write(
        "tools.json",
        manifest(&[("deploy", "./tools/bin/deploy")]).as_bytes(),
    );
    repo.write("tools/bin/deploy", b"#!/bin/sh\n");
    repo.write("tools/bin/local", b"#!/bin/sh\n");
    let codes = |repo: &Repo| -> Vec<String> {
        let (_, diags) = check(&repo.root, &[]);
        findings(&diags)
            .into_iter()
            .map(|f| f.split(' ').next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(codes(&repo), Vec::<String>::new());
    assert_eq!(codes(&repo), Vec::<String>::new());
    link(&repo, &outside.root.join("deploy"), "tools/bin/deploy");
    assert_eq!(codes(&repo), vec!["SEC003"]);
    assert_eq!(codes(&repo), vec!["SEC003"]);
    // Retargeted to another place outside: the same listing and the same rule, a new target.
    link(&repo, &outside.root.join("bin/deploy"), "tools/bin/deploy");
    let (_, diags) = check(&repo.root, &[]);
    let message = diags
        .first()
        .and_then(|d| d["message"].as_str())
        .unwrap_or_default();
    let now = outside.root.join("bin/deploy");
    assert!(
        message.ends_with(&format!("to `{}`", now.display())),
        "{message}"
    );
    // Retargeted inside: the folder's listing is the same, the answer is not.
    link(&repo, Path::new("local"), "tools/bin/deploy");
    assert_eq!(codes(&repo), Vec::<String>::new());
    // The folder on the way becomes a link out.
    std::fs::remove_dir_all(repo.root.join("tools")).expect("rm");
    link(&repo, &outside.root, "tools");
    assert_eq!(codes(&repo), vec!["SEC003"]);
}

#[test]
fn a_deliberate_link_is_silenced_for_its_file_in_toolc_toml() {
    let repo = Repo::new();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    repo.write(
        "agents/tools.json",
        manifest(&[("sh", "./tools/bin/sh")]).as_bytes(),
    );
    link(&repo, Path::new("/bin/sh"), "agents/tools/bin/sh");
    if std::fs::canonicalize("/bin/sh").is_err() {
        eprintln!("skipped: no /bin/sh");
        return;
    }
    // Run from the folder above the repository: the help still names the file as the
    // configuration's `paths` are written, relative to the repository's top.
    let above = repo.root.parent().expect("a parent folder");
    let name = repo
        .root
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a name");
    let (_, diags) = check(above, &["--no-cache", name]);
    let found = findings(&diags);
    assert!(
        found.len() == 1 && found[0].starts_with(&format!("SEC003 {name}/agents/tools.json:3:")),
        "{found:#?}"
    );
    let help = diags[0]["help"].as_str().unwrap_or("");
    assert!(
        help.contains(&format!("`{name}/toolc.toml`"))
            && help.contains("paths = [\"agents/tools.json\"]")
            && help.contains("SEC003 = \"off\""),
        "{help}"
    );
    // What the help says to write, where it says to write it.
    repo.write(
        "toolc.toml",
        b"[[overrides]]\npaths = [\"agents/tools.json\"]\nrules = { SEC003 = \"off\" }\n",
    );
    let (_, diags) = check(above, &["--no-cache", name]);
    assert_eq!(findings(&diags), Vec::<String>::new());
    let (_, diags) = check(&repo.root.join("agents"), &["--no-cache"]);
    assert_eq!(findings(&diags), Vec::<String>::new());
}

#[test]
fn a_link_out_to_a_path_that_is_not_utf8_is_reported_and_cached() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let outside = Outside::new("bytes");
    let odd = outside.root.join(OsStr::from_bytes(b"de\xffploy"));
    if std::fs::write(&odd, SECRET).is_err() {
        eprintln!("skipped: this file system refuses a name that is not UTF-8");
        return;
    }
    let repo = Repo::new();
    repo.write(
        "tools.json",
        manifest(&[("deploy", "./tools/bin/deploy")]).as_bytes(),
    );
    link(&repo, &odd, "tools/bin/deploy");
    let first = common::cache::run(&repo.root, &[]);
    let second = common::cache::run(&repo.root, &[]);
    assert_eq!(
        common::cache::counts(&second),
        (1, 0),
        "the second run is a hit"
    );
    for out in [first, second] {
        let json = common::cache::json(&out);
        assert!(
            json.contains("SEC003") && json.contains("de\u{fffd}ploy"),
            "{json}"
        );
    }
}
