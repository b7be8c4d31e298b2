//! Unit tests of `policy.rs`.

use super::*;
use crate::source::FormatId;
use std::path::PathBuf;

fn policy_file(text: &str) -> Arc<SourceFile> {
    SourceFile::new(
        PathBuf::from("/p/.dojops/policy.yaml"),
        ".dojops/policy.yaml".into(),
        FormatId::DojopsPolicy,
        text.into(),
    )
}

fn lowered(text: &str) -> (Arc<SourceFile>, Policy, Vec<Diagnostic>) {
    let r = load(policy_file(text));
    let Some(Item::Policy(p)) = r.item.take::<Item>() else {
        panic!("not a policy")
    };
    (r.file, p, r.diagnostics)
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.rule.code).collect()
}

fn names(list: &Option<NameList>) -> Vec<&str> {
    list.iter()
        .flat_map(|l| &l.entries)
        .map(|n| n.value.as_str())
        .collect()
}

/// Members named `names`, each in its own tool file (`name: <n>` at offset 6).
fn members(names: &[&str]) -> Vec<(Arc<SourceFile>, Name)> {
    names
        .iter()
        .map(|n| {
            let path = format!(".dojops/tools/{n}/tool.yaml");
            let file = SourceFile::new(
                PathBuf::from(format!("/p/{path}")),
                path,
                FormatId::DojopsTool,
                format!("name: {n}\n"),
            );
            (
                file,
                Name {
                    value: (*n).into(),
                    span: Span::new(6, 6 + n.len()),
                },
            )
        })
        .collect()
}

fn check(text: &str, tools: &[&str]) -> Vec<Diagnostic> {
    let (file, policy, diags) = lowered(text);
    assert!(diags.is_empty(), "{diags:?}");
    let owned = members(tools);
    let ms: Vec<Member<'_>> = owned
        .iter()
        .map(|(file, name)| Member { file, name })
        .collect();
    resolve(&file, &policy, &ms)
}

#[test]
fn lists_and_legacy_precedence() {
    let (_, p, d) = lowered("allowedTools: [a, b]\nblockedPlugins: [c]\n");
    assert!(d.is_empty());
    assert_eq!(names(&p.allowed), ["a", "b"]);
    assert_eq!(names(&p.blocked), ["c"]);
    assert_eq!(p.blocked.as_ref().map(|l| l.key), Some("blockedPlugins"));

    let (_, p, d) = lowered("allowedTools: [a]\nallowedPlugins: [b]\n");
    assert_eq!(codes(&d), ["DOJ007"]);
    assert_eq!(names(&p.allowed), ["a"]);

    // `allowedTools: ~` falls through to the legacy key, as `??` does.
    let (_, p, d) = lowered("allowedTools:\nallowedPlugins: [b]\n");
    assert!(d.is_empty());
    assert_eq!(names(&p.allowed), ["b"]);
}

#[test]
fn shape_errors() {
    let (_, p, d) = lowered("allowedTools: my-tool\nblockedTools: [x, 42, ~]\nallowTools: [y]\n");
    assert_eq!(codes(&d), ["DOJ007", "DOJ002", "DOJ002", "DOJ002"]);
    assert!(p.allowed.is_none());
    assert_eq!(names(&p.blocked), ["x"]);
    // `allowedTools` is there already: renaming onto it is no fix, so no did-you-mean.
    assert_eq!(
        d[0].help.as_deref(),
        Some("`allowedTools` is set already: merge this into it, or remove this key")
    );
    assert!(d[0].fix.is_none());
    assert_eq!(
        d[1].help.as_deref(),
        Some("write it as a list: `allowedTools: [my-tool]`")
    );

    let (_, _, d) = lowered("- a\n- b\n");
    assert_eq!(codes(&d), ["DOJ002"]);
}

#[test]
fn empty_and_broken_files() {
    for text in ["", "# nothing yet\n", "~\n"] {
        let (_, p, d) = lowered(text);
        assert!(
            d.is_empty() && p.in_force && p.allowed.is_none(),
            "{text:?}"
        );
    }
    let (_, p, d) = lowered("allowedTools: [a\n");
    assert!(!p.in_force);
    assert_eq!(codes(&d), ["SYN001"]);
    assert!(d[0].notes.iter().any(|n| n.contains("ignores it")));
}

#[test]
fn unknown_allowed_tool_with_suggestion() {
    let d = check(
        "allowedTools: [my-tool, my-toool]\nblockedTools: [global-tool]\n",
        &["my-tool"],
    );
    assert_eq!(codes(&d), ["DOJ016"]);
    assert_eq!(d[0].span, Span::new(24, 32));
    assert_eq!(d[0].related.len(), 1);
    assert_eq!(
        d[0].related[0].file.display(),
        ".dojops/tools/my-tool/tool.yaml"
    );
}

#[test]
fn left_out_tools_are_named_once_with_related_spans() {
    let d = check("allowedTools: [a]\n", &["a", "b", "c"]);
    assert_eq!(codes(&d), ["DOJ017"]);
    assert_eq!(d[0].span, Span::new(0, 12));
    assert!(
        d[0].message.contains("2 tools") && d[0].message.contains("`b`, `c`"),
        "{}",
        d[0].message
    );
    assert_eq!(d[0].related.len(), 2);
    // Blocked tools are left out on purpose; an empty allowlist allows everything.
    assert!(
        check(
            "allowedTools: [a]\nblockedTools: [b, c]\n",
            &["a", "b", "c"]
        )
        .is_empty()
    );
    assert!(check("allowedTools: []\n", &["a", "b"]).is_empty());
}

#[test]
fn allowed_and_blocked() {
    let d = check("allowedTools: [a]\nblockedTools: [a]\n", &["a"]);
    assert_eq!(codes(&d), ["DOJ018"]);
    assert_eq!(d[0].related[0].span, Span::new(33, 34));
}

#[test]
fn unloadable_policy_is_not_resolved() {
    let (file, p, _) = lowered("allowedTools: [a]\nallowedTools: [b]\n");
    assert!(!p.in_force);
    assert!(resolve(&file, &p, &[]).is_empty());
}
