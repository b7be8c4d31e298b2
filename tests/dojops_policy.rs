//! `.dojops/policy.yaml`: shape checks and DOJ016–DOJ018 against the project's tools.

mod common;

use common::{Repo, check_dir, corpus, lines};

/// A valid tool named `name` (manifest and input schema), as (path, content) pairs.
fn tool(name: &str) -> Vec<(String, String)> {
    let manifest = format!(
        "spec: 1\nname: {name}\nversion: \"1.0.0\"\ntype: tool\ndescription: \"Generates a config file\"\n\
         inputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"You write config files.\"\n\
         files:\n  - path: \"out/config.yaml\"\n    serializer: yaml\n"
    );
    vec![
        (format!(".dojops/tools/{name}/tool.yaml"), manifest),
        (
            format!(".dojops/tools/{name}/input.schema.json"),
            r#"{"type": "object", "properties": {}}"#.to_string(),
        ),
    ]
}

/// The project targets a DojOps release that loads `tool.yaml` tools (1.0.9 and older): the
/// policy then applies to them. Current DojOps does not load them at all (DOJ024).
const LEGACY: (&str, &str) = ("toolc.toml", "[runtimes]\ndojops = \"1.0.9\"\n");

/// A repository with `tools` and `policy` as `.dojops/policy.yaml`; its diagnostics as lines.
fn run(tools: &[&str], policy: &str) -> Vec<String> {
    let repo = Repo::with(&[(".dojops/policy.yaml", policy), LEGACY]);
    for name in tools {
        for (path, content) in tool(name) {
            repo.write(&path, content.as_bytes());
        }
    }
    lines(&repo.check().expect("valid config"))
}

const POLICY: &str = ".dojops/policy.yaml";

#[test]
fn doj016_allowlist_entry_names_no_tool() {
    let found = run(
        &["my-tool"],
        "allowedTools:\n  - my-tool\n  - my-old-tool\n",
    );
    assert_eq!(
        found,
        [format!(
            "{POLICY}:3:5 DOJ016 warning `my-old-tool` in `allowedTools` matches no tool of this project"
        )]
    );
}

#[test]
fn doj016_suggests_the_closest_tool_name() {
    let repo = Repo::with(&[LEGACY]);
    for name in ["my-tool", "other-tool"] {
        for (path, content) in tool(name) {
            repo.write(&path, content.as_bytes());
        }
    }
    repo.write(POLICY, b"allowedTools: [my-tool, other-tol]\n");
    let report = repo.check().expect("valid config");
    assert_eq!(
        lines(&report),
        [
            format!(
                "{POLICY}:1:1 DOJ017 warning `allowedTools` leaves out `other-tool`, a tool of this project, so DojOps blocks it"
            ),
            format!(
                "{POLICY}:1:25 DOJ016 warning `other-tol` in `allowedTools` matches no tool of this project"
            ),
        ]
    );
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "DOJ016")
        .expect("DOJ016");
    assert_eq!(
        d.help.as_deref(),
        Some("replace it with `other-tool`, the name the tool declares")
    );
    assert_eq!(
        d.related[0].file.display(),
        ".dojops/tools/other-tool/tool.yaml"
    );
}

#[test]
fn doj016_is_silent_for_known_tools_and_for_blocklist_entries() {
    assert!(
        run(
            &["my-tool"],
            "allowedTools: [my-tool]\nblockedTools: [untrusted-tool]\n"
        )
        .is_empty()
    );
    assert!(run(&["my-tool"], "blockedPlugins: [some-global-tool]\n").is_empty());
}

#[test]
fn doj017_allowlist_leaves_out_project_tools() {
    let repo = Repo::with(&[LEGACY]);
    for name in ["my-tool", "my-other-tool", "third-tool"] {
        for (path, content) in tool(name) {
            repo.write(&path, content.as_bytes());
        }
    }
    repo.write(POLICY, b"# project policy\nallowedTools:\n  - my-tool\n");
    let report = repo.check().expect("valid config");
    assert_eq!(
        lines(&report),
        [format!(
            "{POLICY}:2:1 DOJ017 warning `allowedTools` leaves out 2 tools of this project, so DojOps blocks them: `my-other-tool`, `third-tool`"
        )]
    );
    let related: Vec<String> = report.diagnostics[0]
        .related
        .iter()
        .map(|r| {
            let p = r.file.position(r.span.start);
            format!("{}:{}:{}", r.file.display(), p.line, p.column)
        })
        .collect();
    assert_eq!(
        related,
        [
            ".dojops/tools/my-other-tool/tool.yaml:2:7",
            ".dojops/tools/third-tool/tool.yaml:2:7"
        ]
    );
}

#[test]
fn doj017_is_silent_without_allowlist_mode() {
    assert!(run(&["a-tool", "b-tool"], "allowedTools: [a-tool, b-tool]\n").is_empty());
    assert!(
        run(
            &["a-tool", "b-tool"],
            "allowedTools: []\nblockedTools: [b-tool]\n"
        )
        .is_empty()
    );
    // A tool that the blocklist names is left out of the allowlist on purpose.
    assert!(
        run(
            &["a-tool", "b-tool"],
            "allowedTools: [a-tool]\nblockedTools: [b-tool]\n"
        )
        .is_empty()
    );
}

#[test]
fn doj018_name_both_allowed_and_blocked() {
    let repo = Repo::with(&[LEGACY]);
    for (path, content) in tool("my-tool") {
        repo.write(&path, content.as_bytes());
    }
    repo.write(
        POLICY,
        b"allowedTools:\n  - my-tool\nblockedTools:\n  - my-tool\n",
    );
    let report = repo.check().expect("valid config");
    assert_eq!(
        lines(&report),
        [format!(
            "{POLICY}:2:5 DOJ018 warning `my-tool` is both allowed and blocked"
        )]
    );
    let r = &report.diagnostics[0].related[0];
    assert_eq!(
        (r.file.position(r.span.start).line, r.message.as_str()),
        (4, "blocked here")
    );
}

#[test]
fn doj018_is_silent_for_disjoint_lists() {
    assert!(
        run(
            &["my-tool"],
            "allowedTools: [my-tool]\nblockedTools: [untrusted-tool]\n"
        )
        .is_empty()
    );
}

#[test]
fn legacy_keys_are_read_and_the_new_key_wins() {
    assert_eq!(
        run(&["my-tool"], "allowedPlugins: [my-tool, gone-tool]\n"),
        [format!(
            "{POLICY}:1:27 DOJ016 warning `gone-tool` in `allowedPlugins` matches no tool of this project"
        )]
    );
    assert_eq!(
        run(
            &["my-tool"],
            "allowedTools: [my-tool]\nallowedPlugins: [gone-tool]\n"
        ),
        [format!(
            "{POLICY}:2:1 DOJ007 warning `allowedPlugins` is ignored because `allowedTools` is also set"
        )]
    );
}

/// A valid `.dops` skill named `name`, at `.dojops/skills/<name>.dops`.
fn skill(name: &str) -> (String, String) {
    (
        format!(".dojops/skills/{name}.dops"),
        format!(
            "---\ndops: v2\nmeta:\n  name: {name}\n  version: 1.0.0\n  description: Writes one file\n\
             context:\n  technology: yaml\n  fileFormat: yaml\n  outputGuidance: The file only.\n  bestPractices:\n    - Keep it short\n\
             files:\n  - path: out.yaml\n---\n## Prompt\n\nWrite the file.\n\n## Keywords\n\nyaml\n"
        ),
    )
}

/// A repository with the skills `names` and `policy`; its diagnostics as lines.
fn run_skills(names: &[&str], policy: &str) -> Vec<String> {
    let repo = Repo::with(&[(POLICY, policy)]);
    for name in names {
        let (path, content) = skill(name);
        repo.write(&path, content.as_bytes());
    }
    lines(&repo.check().expect("valid config"))
}

#[test]
fn the_current_keys_are_the_lists_dojops_applies() {
    let skills = ["image-build", "plan-review"];
    assert_eq!(
        run_skills(
            &skills,
            "allowedSkills: [image-build, plan-review]\nblockedModules: [hub-import]\n"
        ),
        Vec::<String>::new()
    );
    // A misspelt skill name in the current allowlist is checked like any other.
    assert_eq!(
        run_skills(
            &skills,
            "allowedSkills:\n  - image-build\n  - plan-reveiw\n"
        ),
        [
            format!(
                "{POLICY}:1:1 DOJ017 warning `allowedSkills` leaves out `plan-review`, a tool of this project, so DojOps blocks it"
            ),
            format!(
                "{POLICY}:3:5 DOJ016 warning `plan-reveiw` in `allowedSkills` matches no tool of this project"
            ),
        ]
    );
}

#[test]
fn the_first_present_key_wins_and_the_older_ones_are_ignored() {
    assert_eq!(
        run_skills(
            &["image-build"],
            "allowedPlugins: [gone]\nallowedTools: [image-build]\nallowedSkills: [image-build]\n"
        ),
        [
            format!(
                "{POLICY}:1:1 DOJ007 warning `allowedPlugins` is ignored because `allowedSkills` is also set"
            ),
            format!(
                "{POLICY}:2:1 DOJ007 warning `allowedTools` is ignored because `allowedSkills` is also set"
            ),
        ]
    );
    // A null value counts as absent: DojOps falls back to the next key.
    assert_eq!(
        run_skills(
            &["image-build"],
            "allowedSkills:\nallowedTools: [image-build, gone]\n"
        ),
        [format!(
            "{POLICY}:2:29 DOJ016 warning `gone` in `allowedTools` matches no tool of this project"
        )]
    );
}

#[test]
fn a_list_key_dojops_never_reads_is_named_for_what_it_is() {
    let repo = Repo::with(&[(
        POLICY,
        "blockedSkills: [image-build]\nallowedModules: [image-build]\n",
    )]);
    let (path, content) = skill("image-build");
    repo.write(&path, content.as_bytes());
    let report = repo.check().expect("valid config");
    assert_eq!(
        lines(&report),
        [
            format!(
                "{POLICY}:1:1 DOJ007 warning unknown key `blockedSkills`: DojOps reads its blocklist from `blockedModules`"
            ),
            format!(
                "{POLICY}:2:1 DOJ007 warning unknown key `allowedModules`: DojOps reads its allowlist from `allowedSkills`"
            ),
        ]
    );
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("rename it to `blockedModules`")
    );
}

#[test]
fn shape_errors_in_a_policy() {
    let found = run(
        &["my-tool"],
        "allowTools: [my-tool]\nblockedTools: untrusted-tool\nallowedTools: [my-tool, 42]\n",
    );
    assert_eq!(
        found,
        [
            format!("{POLICY}:1:1 DOJ007 warning unknown key `allowTools`"),
            format!(
                "{POLICY}:2:15 DOJ002 error `blockedTools` must be a list of skill names, found a string"
            ),
            format!(
                "{POLICY}:3:25 DOJ002 error `allowedTools[1]` must be a skill name (a string), found an integer"
            ),
        ]
    );
    assert_eq!(
        run(&[], "- my-tool\n"),
        [format!(
            "{POLICY}:1:1 DOJ002 error a policy must be a mapping with `allowedSkills` and/or `blockedModules`, found a list"
        )]
    );
}

#[test]
fn empty_and_unloadable_policies() {
    // DojOps reads an empty policy as no policy at all: nothing to report.
    assert!(run(&["my-tool"], "").is_empty());
    assert!(run(&["my-tool"], "# allowedTools: [my-tool]\n").is_empty());
    // A YAML error makes DojOps ignore the whole file; the policy rules do not run on it.
    let repo = Repo::with(&[(POLICY, "allowedTools: [gone-tool\n"), LEGACY]);
    let report = repo.check().expect("valid config");
    assert_eq!(
        report
            .diagnostics
            .iter()
            .map(|d| d.rule.code)
            .collect::<Vec<_>>(),
        ["SYN001"]
    );
    assert!(
        report.diagnostics[0]
            .notes
            .iter()
            .any(|n| n.contains("every tool is allowed"))
    );
}

#[test]
fn policy_findings_can_be_suppressed() {
    let found = run(
        &["my-tool"],
        "allowedTools:\n  - my-tool\n  # toolc: ignore DOJ016 -- global tool\n  - my-global-tool\n",
    );
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn each_project_has_its_own_policy() {
    let repo = Repo::with(&[LEGACY]);
    for (path, content) in tool("my-tool") {
        repo.write(&format!("a/{path}"), content.as_bytes());
        repo.write(&format!("b/{path}"), content.as_bytes());
    }
    repo.write(&format!("b/{POLICY}"), b"allowedTools: [my-tool]\n");
    repo.write(&format!("a/{POLICY}"), b"blockedTools: [x]\n");
    assert!(lines(&repo.check().expect("valid config")).is_empty());
}

#[test]
fn real_world_dojops_legacy_policy() {
    let Some(dir) = corpus("dojops-legacy") else {
        return;
    };
    let report = check_dir(&dir).expect("valid config");
    let policy: Vec<String> = lines(&report)
        .into_iter()
        .filter(|l| l.starts_with(POLICY))
        .collect();
    assert_eq!(
        policy,
        [
            format!(
                "{POLICY}:2:1 DOJ017 warning `allowedTools` leaves out `my-terraform-module`, a tool of this project, so DojOps blocks it"
            ),
            format!(
                "{POLICY}:3:5 DOJ016 warning `my-terraform-tool` in `allowedTools` matches no tool of this project"
            ),
            format!(
                "{POLICY}:4:5 DOJ016 warning `my-k8s-tool` in `allowedTools` matches no tool of this project"
            ),
        ]
    );
    // Everything else is about the tool itself: current DojOps does not load it, and its
    // `output.schema.json` is missing.
    let others: Vec<&str> = report
        .diagnostics
        .iter()
        .filter(|d| d.file.display() != POLICY)
        .map(|d| d.rule.code)
        .collect();
    assert_eq!(others, ["DOJ024", "DOJ009"]);
    let doj017 = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "DOJ017")
        .expect("DOJ017");
    assert_eq!(doj017.related.len(), 1);
    assert_eq!(
        doj017.related[0].file.display(),
        ".dojops/tools/my-terraform-module/tool.yaml"
    );
}

#[test]
fn a_policy_with_the_current_keys_does_not_count_tool_yaml_tools() {
    // DojOps 1.1.0 and later read `allowedSkills` and load no `tool.yaml`: the manifest is
    // reported once as not loaded (DOJ024), not as a tool the allowlist blocks.
    let repo = Repo::with(&[(POLICY, "allowedSkills: [image-build]\n")]);
    let (path, content) = skill("image-build");
    repo.write(&path, content.as_bytes());
    for (path, content) in tool("old-gen") {
        repo.write(&path, content.as_bytes());
    }
    let codes: Vec<&str> = repo
        .check()
        .expect("valid config")
        .diagnostics
        .iter()
        .map(|d| d.rule.code)
        .collect();
    assert_eq!(codes, ["DOJ024"]);
    // With the 1.0 names, the policy is one for the releases that load it: it blocks it.
    repo.write(POLICY, b"allowedTools: [image-build]\n");
    repo.write(LEGACY.0, LEGACY.1.as_bytes());
    let found = lines(&repo.check().expect("valid config"));
    assert_eq!(
        found,
        [format!(
            "{POLICY}:1:1 DOJ017 warning `allowedTools` leaves out `old-gen`, a tool of this project, so DojOps blocks it"
        )]
    );
}
