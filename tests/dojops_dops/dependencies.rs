//! Dependencies between skills (REF001 unknown, REF002 cycles), and duplicate skill names.

use super::*;

// ── REF001 unknown-dependency / REF002 dependency-cycle ────────────────────────────────

fn skill_named(name: &str, deps: &[&str]) -> (String, String) {
    let mut text = BASE.replace("name: nginx", &format!("name: {name}"));
    if !deps.is_empty() {
        let list: String = deps.iter().map(|d| format!("  - skill: {d}\n")).collect();
        text = text.replace("files:", &format!("dependencies:\n{list}files:"));
    }
    (format!(".dojops/skills/{name}.dops"), text)
}

fn project(skills: &[(&str, &[&str])]) -> Report {
    let files: Vec<(String, String)> = skills.iter().map(|(n, d)| skill_named(n, d)).collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    report_for(&refs)
}

#[test]
fn unknown_dependencies() {
    let report = project(&[("app", &["nginx", "tls-certs"]), ("tls-certificates", &[])]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/app.dops:15:12 REF001 error dependency `nginx` is not a skill of this project",
            ".dojops/skills/app.dops:16:12 REF001 error dependency `tls-certs` is not a skill of this project"
        ]
    );
    assert!(help(&report.diagnostics[0]).contains("optional: true"));
    assert_eq!(
        help(&report.diagnostics[1]),
        "did you mean `tls-certificates`?"
    );
}

#[test]
fn optional_and_present_dependencies_are_silent() {
    let (path, text) = skill_named("app", &["tls"]);
    let text = text.replace(
        "  - skill: tls\n",
        "  - skill: tls\n    optional: true\n  - skill: nginx\n",
    );
    let (other, other_text) = skill_named("nginx", &[]);
    assert_eq!(
        lines(&report_for(&[(&path, &text), (&other, &other_text)])),
        Vec::<String>::new()
    );
}

#[test]
fn dependencies_resolve_per_project() {
    let (_, app) = skill_named("app", &["nginx"]);
    let (_, nginx) = skill_named("nginx", &[]);
    let report = report_for(&[
        ("one/.dojops/skills/app.dops", &app),
        ("two/.dojops/skills/nginx.dops", &nginx),
    ]);
    assert_eq!(
        lines(&report),
        [
            "one/.dojops/skills/app.dops:15:12 REF001 error dependency `nginx` is not a skill of this project"
        ]
    );
}

#[test]
fn a_cycle_is_reported_once_at_its_closing_entry() {
    let report = project(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]);
    assert_eq!(
        lines(&report),
        [".dojops/skills/c.dops:15:12 REF002 error dependency cycle `a → b → c → a`"]
    );
    let related: Vec<_> = report.diagnostics[0]
        .related
        .iter()
        .map(|r| (r.file.display(), r.message.as_str()))
        .collect();
    assert_eq!(
        related,
        [
            (".dojops/skills/a.dops", "`a` depends on `b` here"),
            (".dojops/skills/b.dops", "`b` depends on `c` here")
        ]
    );
}

#[test]
fn self_dependency_and_acyclic_diamonds() {
    let report = project(&[("a", &["a"])]);
    assert_eq!(
        lines(&report),
        [".dojops/skills/a.dops:15:12 REF002 error dependency cycle `a → a`"]
    );
    let diamond = project(&[("a", &["b", "c"]), ("b", &["d"]), ("c", &["d"]), ("d", &[])]);
    assert_eq!(lines(&diamond), Vec::<String>::new());
    let two = project(&[("a", &["b"]), ("b", &["a"]), ("c", &["d"]), ("d", &["c"])]);
    assert_eq!(
        lines(&two),
        [
            ".dojops/skills/b.dops:15:12 REF002 error dependency cycle `a → b → a`",
            ".dojops/skills/d.dops:15:12 REF002 error dependency cycle `c → d → c`"
        ]
    );
}

#[test]
fn duplicate_skill_names_are_found_through_meta_name() {
    let (_, a) = skill_named("nginx", &[]);
    let report = report_for(&[(".dojops/skills/a.dops", &a), (".dojops/skills/b.dops", &a)]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/b.dops:5:9 DOJ011 error a tool named `nginx` is already defined in this project"
        ]
    );
}
