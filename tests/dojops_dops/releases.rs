//! The `dops` version and the DojOps releases: v1 skills (DOJ019), other versions, and what each
//! release loads (DOJ025, DOJ011).

use super::*;

#[test]
fn real_world_v1_skills_get_one_migration_error_each() {
    let Some(dir) = common::corpus("dojops-v1-dops") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/github-actions.dops:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
            ".dojops/skills/terraform.dops:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
        ]
    );
    for d in &report.diagnostics {
        assert!(
            help(d).contains("`context`") && help(d).contains("`format: raw`"),
            "{d:?}"
        );
        assert!(d.notes.iter().any(|n| n.contains("rejects")), "{d:?}");
        let related: Vec<_> = d.related.iter().map(|r| d.file.slice(r.span)).collect();
        assert_eq!(related, ["tool", "input", "output", "format"], "{d:?}");
    }
}

// ── DOJ019 unsupported-dops-version ────────────────────────────────────────────────────

#[test]
fn v1_stops_after_the_version_error() {
    // No `context`, an `input` block, a v1 file format and no `## Keywords`: all of it is
    // covered by the one migration error.
    let skill = BASE
        .replace("dops: v2", "dops: v1")
        .replace("context:", "input:\n  fields: {}\nold_context:")
        .replace("## Keywords", "## Notes");
    let d = expect_one(
        &skill,
        "2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
    );
    assert!(help(&d).starts_with("migrate to v2:"), "{d:?}");
}

#[test]
fn v1_layout_without_a_version_is_the_same_single_error() {
    let skill = BASE
        .replace("dops: v2\n", "")
        .replace("context:", "output:\n  type: object\nold_context:");
    expect_one(
        &skill,
        "1:1 DOJ019 error this is a `.dops` v1 skill without a `dops` version; current DojOps only accepts `dops: v2`",
    );
}

#[test]
fn other_versions_are_reported_and_the_rest_still_checked() {
    let skill = BASE
        .replace("dops: v2", "dops: 2")
        .replace("  version: 1.0.0\n", "");
    assert_eq!(
        check(&skill),
        [
            format!("{P}:2:7 DOJ019 error `dops` must be `v2`, found `2`"),
            format!("{P}:4:1 DOJ001 error required field `meta.version` is missing"),
        ]
    );
    let d = expect_one(
        &BASE.replace("dops: v2\n", ""),
        "1:1 DOJ019 error the front matter has no `dops` version",
    );
    assert_eq!(
        help(&d),
        "add `dops: v2` as the first line of the front matter"
    );
}

#[test]
fn doj025_a_skill_outside_the_skills_folder_is_never_loaded() {
    let report = report_for(&[
        (".dojops/tools/nginx.dops", BASE),
        (
            ".dojops/skills/ci/other.dops",
            &BASE.replace("name: nginx", "name: other"),
        ),
    ]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/ci/other.dops:5:9 DOJ025 warning DojOps never reads skills from `.dojops/skills/ci/`: `other` is not loaded",
            ".dojops/tools/nginx.dops:5:9 DOJ025 warning DojOps never reads skills from `.dojops/tools/`: `nginx` is not loaded",
        ]
    );
    let help = report.diagnostics[1].help.as_deref().unwrap_or_default();
    assert!(
        help.starts_with("move it to `.dojops/skills/nginx.dops`"),
        "{help}"
    );
}

#[test]
fn doj025_is_silent_where_dojops_loads_skills_and_for_older_releases() {
    // The skills folder, an installed pack, a catalog outside any `.dojops/`.
    let loaded = report_for(&[
        (".dojops/skills/nginx.dops", BASE),
        (
            ".dojops/packs/web/skills/proxy.dops",
            &BASE.replace("name: nginx", "name: proxy"),
        ),
        (
            "catalog/web/cache.dops",
            &BASE.replace("name: nginx", "name: cache"),
        ),
    ]);
    assert_eq!(lines(&loaded), Vec::<String>::new());
    // DojOps 1.0 read `.dojops/tools/`.
    let old = report_for(&[(".dojops/tools/nginx.dops", BASE), common::DOJOPS_1_0]);
    assert_eq!(lines(&old), Vec::<String>::new());
}

#[test]
fn doj019_holds_for_the_releases_that_reject_v1() {
    let skill = BASE.replace("dops: v2", "dops: v1");
    let current = report_for(&[(P, &skill)]);
    assert_eq!(
        lines(&current),
        [format!(
            "{P}:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`"
        )]
    );
    // DojOps 1.0 still loads v1 skills.
    let old = report_for(&[(P, &skill), common::DOJOPS_1_0]);
    assert_eq!(lines(&old), Vec::<String>::new());
}

#[test]
fn doj011_between_a_manifest_and_a_skill_holds_while_dojops_loads_manifests() {
    let manifest = common::VALID_TOOL.replace("my-tool", "nginx");
    let files = [
        (".dojops/skills/nginx.dops", BASE),
        (".dojops/tools/nginx/tool.yaml", manifest.as_str()),
        (
            ".dojops/tools/nginx/input.schema.json",
            common::VALID_SCHEMA,
        ),
    ];
    // Current DojOps loads the skill only: no duplicate (DOJ024 says the manifest is not
    // loaded).
    let current = report_for(&files);
    assert!(
        !lines(&current).iter().any(|l| l.contains("DOJ011")),
        "{:?}",
        lines(&current)
    );
    let mut old_files = files.to_vec();
    old_files.push(common::DOJOPS_1_0);
    let old = report_for(&old_files);
    assert!(
        lines(&old)
            .iter()
            .any(|l| l.contains("DOJ011 error a tool named `nginx` is already defined")),
        "{:?}",
        lines(&old)
    );
}
