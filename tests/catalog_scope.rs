//! Cross-file rules run within what a runtime loads together: a catalog repository that keeps
//! skills of one name in separate category folders is not one project.

mod common;

use common::Repo;

/// A minimal valid `.dops` v2 skill named `argocd`.
const SKILL: &str = "---
dops: v2
kind: skill
meta:
  name: argocd
  version: 1.0.0
  description: Generate Argo CD applications
context:
  technology: argocd
  fileFormat: yaml
  outputGuidance: Output the manifest only.
  bestPractices:
    - Pin the target revision
files:
  - path: application.yaml
---
## Prompt

You are an Argo CD expert.

## Keywords

argocd, gitops
";

fn duplicate_names(repo: &Repo) -> Vec<String> {
    common::lines(&repo.check().expect("config"))
        .into_iter()
        .filter(|c| c.contains("DOJ011"))
        .collect()
}

#[test]
fn same_name_in_two_catalog_folders_is_not_a_duplicate() {
    let repo = Repo::with(&[
        ("built-in/argocd.dops", SKILL),
        ("ci-cd/argocd.dops", SKILL),
    ]);
    assert_eq!(duplicate_names(&repo), Vec::<String>::new());
    assert_eq!(repo.codes(), Vec::<String>::new());
}

#[test]
fn same_name_twice_in_one_catalog_folder_is_a_duplicate() {
    let repo = Repo::with(&[
        ("ci-cd/argocd.dops", SKILL),
        ("ci-cd/argocd-copy.dops", SKILL),
    ]);
    assert_eq!(duplicate_names(&repo).len(), 1, "{:?}", repo.codes());
}

#[test]
fn same_name_anywhere_in_one_dojops_project_is_a_duplicate() {
    let repo = Repo::with(&[
        ("app/.dojops/skills/argocd.dops", SKILL),
        ("app/.dojops/skills/gitops/argocd.dops", SKILL),
        // Another project of the same repository loads its own skills.
        ("other/.dojops/skills/argocd.dops", SKILL),
    ]);
    let found = duplicate_names(&repo);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("app/.dojops/skills/"), "{found:?}");
}

#[test]
fn real_world_catalog_has_no_duplicate_name_errors() {
    let Some(dir) = common::corpus("dojops-catalog") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    let duplicates: Vec<String> = common::lines(&report)
        .into_iter()
        .filter(|l| l.contains("DOJ011"))
        .collect();
    assert_eq!(duplicates, Vec::<String>::new());
}
