//! Skill resolution stays linear on very large projects (a cycle through every skill, a
//! dangling dependency on every skill): fed typed skills directly, without 50,000 files.

use std::sync::Arc;

use super::Name;
use super::dops::{self, Dependency, Skill};
use crate::source::{FormatId, SourceFile, Span};

fn synthetic(n: usize, deps: impl Fn(usize) -> Vec<String>) -> (Arc<SourceFile>, Vec<Skill>) {
    let file = SourceFile::new(
        "x.dops".into(),
        "x.dops".into(),
        FormatId::DojopsDops,
        String::new(),
    );
    let skills = (0..n)
        .map(|i| Skill {
            name: Some(Name {
                value: format!("s{i}").into(),
                span: Span::point(0),
            }),
            dependencies: deps(i)
                .into_iter()
                .map(|skill| Dependency {
                    skill,
                    span: Span::point(0),
                    optional: false,
                })
                .collect(),
            doc: Default::default(),
            texts: Default::default(),
        })
        .collect();
    (file, skills)
}

#[test]
fn resolve_is_linear_on_large_projects() {
    // A chain of 50,000 skills closed into one cycle: deep enough to overflow a recursive walk.
    let n = 50_000;
    let (file, skills) = synthetic(n, |i| vec![format!("s{}", (i + 1) % n)]);
    let input: Vec<_> = skills.iter().map(|s| (&file, s)).collect();
    let started = std::time::Instant::now();
    let out = dops::resolve(&input);
    assert_eq!(out.len(), 1);
    // Named by its ends (its n + 1 names, the first back at the end), with the first 200
    // of its other steps as related places.
    let cap = crate::diagnostics::cap::MAX_PER_RULE;
    assert_eq!(out[0].related.len(), cap);
    assert!(
        out[0]
            .message
            .contains(&format!("… ({} more) →", n + 1 - 12)),
        "{}",
        out[0].message
    );
    // Every dependency unknown: suggestions must not compare every pair.
    let (file, skills) = synthetic(n, |i| vec![format!("s{i}x")]);
    let input: Vec<_> = skills.iter().map(|s| (&file, s)).collect();
    assert_eq!(dops::resolve(&input).len(), n);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
