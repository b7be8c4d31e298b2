//! Files no format reads, said out loud: a file named on the command line that no format
//! claims, and a file where a format expects its definition under a near-miss name
//! (`.dojops/tools/x/tool.yml` beside the `tool.yaml` DojOps reads). Without this, a typo in
//! a name or a path checks nothing and passes.

use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;
use crate::discover::Classifier;
use crate::discover::near_miss::near_miss;
use crate::fs::{display_path, normalize};
use crate::rules::syntax::UNRECOGNIZED_FILE;
use crate::source::{FormatId, SourceFile, Span};

/// The paths every format reads, from the registry, for a note that says what toolc would
/// have read (`.dojops/tools/*/tool.yaml`, `SKILL.md`, …).
fn expected() -> String {
    let mut paths: Vec<String> = Vec::new();
    for format in crate::formats::REGISTRY {
        for (_, patterns) in format.patterns() {
            for p in *patterns {
                let shown = format!("`{}`", p.trim_start_matches("**/"));
                if !paths.contains(&shown) {
                    paths.push(shown);
                }
            }
        }
    }
    match paths.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => paths.concat(),
    }
}

/// One TLC006 warning for `path` (absolute), a file no format reads.
pub(crate) fn diagnostic(
    path: &Path,
    cwd: &Path,
    classifier: &Classifier,
    named: bool,
) -> Diagnostic {
    let display = display_path(path, cwd);
    let file = SourceFile::new(
        path.to_path_buf(),
        display.clone(),
        FormatId::Config,
        String::new(),
    );
    let d = Diagnostic::new(
        &UNRECOGNIZED_FILE,
        &file,
        Span::point(0),
        format!("no format reads `{display}`, so it was not checked"),
    );
    match near_miss(path, classifier, named) {
        Some((name, format)) => d
            .label("not read")
            .note(format!(
                "the {} format reads this file only as `{name}`",
                format.as_str()
            ))
            .help(format!("rename it to `{name}`")),
        None => d
            .label("not read")
            .note(format!("toolc reads {}", expected()))
            .help(
                "check the path; to read a file under another name, add it to `[formats.<format>] include` in toolc.toml",
            ),
    }
}

/// TLC006 for every file among `named` (as given, relative to `cwd`) that no format reads:
/// `read` holds every file that was discovered.
pub(crate) fn named_files(
    named: &[PathBuf],
    cwd: &Path,
    classifier: &Classifier,
    read: &dyn Fn(&Path) -> bool,
) -> Vec<Diagnostic> {
    named
        .iter()
        .map(|p| normalize(&cwd.join(p)))
        .filter(|p| p.is_file() && !read(p))
        .map(|p| diagnostic(&p, cwd, classifier, true))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_the_names_a_format_reads() {
        let classifier = crate::formats::classifier(&crate::Config::default());
        let miss = |p: &str| near_miss(Path::new(p), &classifier, false).map(|(n, _)| n);
        assert_eq!(
            miss("/r/.dojops/tools/x/tool.yml").as_deref(),
            Some("tool.yaml")
        );
        assert_eq!(
            miss("/r/.dojops/tools/x/Tool.yaml").as_deref(),
            Some("tool.yaml")
        );
        assert_eq!(
            miss("/r/tools/search.tools.md").as_deref(),
            Some("search.tool.md")
        );
        assert_eq!(
            miss("/r/requests/tr-2025.md").as_deref(),
            Some("TR-2025.md")
        );
        assert_eq!(miss("/r/docs/notes.yml"), None);
        // By name alone only for a file named on the command line.
        assert_eq!(miss("/r/tool.yml"), None);
        let named = near_miss(Path::new("/r/tool.yml"), &classifier, true).map(|(n, _)| n);
        assert_eq!(named.as_deref(), Some("tool.yaml"));
    }
}
