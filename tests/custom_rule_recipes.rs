//! The recipes of docs/custom-rules.md work as written: each recipe's `toolc.toml` is run
//! over the file the page says it fires on (it must get the recipe's finding there) and the
//! one it says it is silent on.

mod common;

use common::Repo;

/// One recipe of the page: its title, configuration and two files (path, content).
struct Recipe {
    title: String,
    toml: String,
    fires: (String, String),
    silent: (String, String),
}

/// The fenced blocks of `section`: (info string, content).
fn blocks(section: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        for l in lines.by_ref() {
            if l == "```" {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push((info.to_string(), body));
    }
    out
}

fn recipes() -> Vec<Recipe> {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/custom-rules.md"))
            .expect("docs/custom-rules.md");
    let (_, recipes) = page
        .split_once("## Ten recipes")
        .expect("the recipes section");
    recipes
        .split("\n### ")
        .skip(1)
        .map(|section| {
            let title = section.lines().next().unwrap_or_default().to_string();
            let blocks = blocks(section);
            let file = |mark: &str| {
                blocks
                    .iter()
                    .find_map(|(info, body)| {
                        let path = info.split_whitespace().find_map(|w| w.strip_prefix(mark))?;
                        Some((path.to_string(), body.clone()))
                    })
                    .unwrap_or_else(|| panic!("{title}: no `{mark}` block"))
            };
            let toml = blocks
                .iter()
                .find(|(info, _)| info == "toml")
                .map(|(_, body)| body.clone())
                .unwrap_or_else(|| panic!("{title}: no toml block"));
            Recipe {
                fires: file("fires="),
                silent: file("silent="),
                title,
                toml,
            }
        })
        .collect()
}

/// `path:line CODE` of the findings of `code` in a repository of `toml` and `file`.
fn findings(toml: &str, file: &(String, String), code: &str) -> Vec<String> {
    let repo = Repo::with(&[("toolc.toml", toml), (&file.0, &file.1)]);
    let report = repo.check().unwrap_or_else(|e| {
        panic!(
            "configuration refused: {:?}",
            e.iter().map(|d| &d.message).collect::<Vec<_>>()
        )
    });
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code == code)
        .map(|d| {
            format!(
                "{}:{} {}",
                d.file.display(),
                d.file.position(d.span.start).line,
                d.rule.code
            )
        })
        .collect()
}

#[test]
fn every_recipe_fires_on_its_example_and_is_silent_on_the_fix() {
    let recipes = recipes();
    assert_eq!(recipes.len(), 10, "the page promises ten recipes");
    for r in &recipes {
        let code = r
            .toml
            .lines()
            .find_map(|l| l.strip_prefix("code = \""))
            .and_then(|c| c.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{}: no code", r.title));
        let fired = findings(&r.toml, &r.fires, code);
        assert!(
            !fired.is_empty()
                && fired
                    .iter()
                    .all(|f| f.starts_with(&format!("{}:", r.fires.0))),
            "{}: {fired:?}",
            r.title
        );
        let quiet = findings(&r.toml, &r.silent, code);
        assert!(quiet.is_empty(), "{}: {quiet:?}", r.title);
    }
}
