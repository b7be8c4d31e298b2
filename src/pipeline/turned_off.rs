//! TLC009: a nested `toolc.toml` that turns off security rules on its definitions where the
//! configuration above it runs them. A nested file replaces the configuration above it, so one line
//! (`ALL = "off"`) in a folder a pull request adds leaves every tool under it unchecked for
//! injection, exfiltration and dangerous commands, and the run said "All checks passed".
//! The finding is judged by the configuration above the file, never by the file itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::CheckOptions;
use super::judge::enabled;
use crate::config::Config;
use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::rules::{self, Rule, Severity, syntax as syn};
use crate::source::{SourceFile, Span};

/// Security rules named in the message before "and N more".
const NAMED: usize = 5;

/// Paths by the nested configuration they are under, by its folder.
type ByConfig<'a> = BTreeMap<&'a Path, (&'a Config, Vec<&'a Path>)>;

/// `path`, under `config`.
fn add<'a>(map: &mut ByConfig<'a>, config: &'a Config, path: &'a Path) {
    map.entry(config.root.as_path())
        .or_insert_with(|| (config, Vec::new()))
        .1
        .push(path);
}

/// A rule a nested configuration runs less than the configuration above it does, on at least
/// one of its definitions: off (`now` is `None`) or at a lower severity.
#[derive(Clone, Copy, PartialEq)]
struct Weakened<'r> {
    rule: &'r Rule,
    now: Option<Severity>,
}

/// What `rule` becomes on the definitions `paths` under `nested`, at its weakest, when the
/// configuration `above` runs it stronger on one of them. `None` is less than any severity,
/// so the minimum is the weakest.
fn weakened<'r>(
    options: &CheckOptions,
    above: &Config,
    nested: &Config,
    rule: &'r Rule,
    paths: &[&Path],
) -> Option<Weakened<'r>> {
    let mut weakest: Option<Option<Severity>> = None;
    for p in paths {
        let Some(was) = enabled(options, above, rule, p) else {
            continue;
        };
        let now = enabled(options, nested, rule, p);
        if now.is_none_or(|now| now < was) {
            weakest = Some(weakest.map_or(now, |w| w.min(now)));
            if now.is_none() {
                break;
            }
        }
    }
    weakest.map(|now| Weakened { rule, now })
}

/// One TLC009 for each nested configuration that turns off, or lowers, security rules on the
/// definitions it governs (`paths`, every definition of the run) that the configuration
/// above it runs there. Each definition is asked, not a made-up path: an override whose
/// globs name the folder's files turns rules off as surely as `[rules]` does. A rule lowered
/// to `info` never fails the run, and one lowered to `warning` fails it only with
/// `--deny-warnings`: a gate opened as surely as by `off`.
pub(super) fn security_off_below<'p>(
    options: &CheckOptions,
    configs: &ConfigTree,
    paths: impl Iterator<Item = &'p Path>,
) -> Vec<Diagnostic> {
    let security: Vec<&Rule> = rules::all()
        .into_iter()
        .filter(|r| r.code.starts_with("SEC"))
        .collect();
    let is_nested = |c: &Config| {
        configs
            .nested_at(&c.root)
            .is_some_and(|n| std::ptr::eq(n, c))
    };
    // The definitions of each nested configuration, by its folder.
    let mut governed = ByConfig::new();
    for path in paths {
        let config = configs.for_path(path);
        if config.file.is_some() && is_nested(config) {
            add(&mut governed, config, path);
        }
    }
    let mut off: BTreeMap<&Path, (&Config, Vec<Weakened>)> = BTreeMap::new();
    for (nested, paths) in governed.into_values() {
        // The configuration the file replaces or extends: the one above its folder.
        let above = configs.for_path(&nested.root);
        let rules: Vec<Weakened> = security
            .iter()
            .filter_map(|r| weakened(options, above, nested, r, &paths))
            .collect();
        if !rules.is_empty() {
            off.insert(&nested.root, (nested, rules));
        }
    }
    // A nested configuration judges what is said of the configuration files below it, TLC009
    // among it: one that turns TLC009 off where the configuration above it runs it let a
    // second, below it, turn every security rule off without a word.
    let tlc009 = &syn::SECURITY_RULES_OFF_BELOW;
    for below in configs.nested() {
        let Some(file) = &below.file else { continue };
        let judge = configs.for_path(&file.path);
        if judge.file.is_none() || !is_nested(judge) {
            continue;
        }
        let above = configs.for_path(&judge.root);
        let Some(weak) = weakened(options, above, judge, tlc009, &[file.path.as_path()]) else {
            continue;
        };
        let (_, rules) = off
            .entry(&judge.root)
            .or_insert_with(|| (judge, Vec::new()));
        if !rules.iter().any(|w| std::ptr::eq(w.rule, tlc009)) {
            rules.push(weak);
        }
    }
    off.into_values()
        .filter_map(|(nested, rules)| {
            let file = nested.file.as_ref()?;
            Some(finding(file, &nested.root, &rules, &options.cwd))
        })
        .collect()
}

/// One TLC009 for each nested configuration whose `exclude` hides definitions of `hidden`
/// (what the walk found and a nested exclude then removed): the configuration above it
/// would have checked them, and an excluded file is never read, so nothing else says so.
pub(super) fn excluded_below(
    configs: &ConfigTree,
    hidden: &[&Path],
    cwd: &Path,
) -> Vec<Diagnostic> {
    let mut by_config = ByConfig::new();
    for &path in hidden {
        // Each nested configuration above the path that excludes it: a nested exclude applies
        // in its configuration's folder only, and each is judged by the configuration above
        // it, so blaming only the nearest let one that turns TLC009 off hide what a second
        // one, below it, excludes too. (Asking each of the run's configurations took the
        // hidden files times the configurations.)
        let excluding = path
            .ancestors()
            .skip(1)
            .filter_map(|dir| configs.nested_at(dir))
            .filter(|c| c.excludes.iter().any(|e| e.matches(path)));
        for config in excluding {
            add(&mut by_config, config, path);
        }
    }
    by_config
        .into_values()
        .filter_map(|(nested, paths)| {
            let file = nested.file.as_ref()?;
            let shown = paths
                .iter()
                .map(|p| format!("`{}`", crate::fs::display_path(p, cwd)));
            let list = crate::analysis::names::listed(shown, paths.len());
            // The globs of this file that hid them, in the file's order: the first is where
            // the finding is, the others are related places.
            let globs: BTreeSet<Span> = paths
                .iter()
                .filter_map(|p| {
                    let mut own = nested.excludes.iter();
                    own.find_map(|e| e.written_for(p, &file.path))
                })
                .collect();
            let mut globs = globs.into_iter();
            let (span, label) = match globs.next().or_else(|| exclude_key(&file.text)) {
                Some(span) => (span, "excluded here"),
                None => (first_line(&file.text), "excludes definitions"),
            };
            let n = paths.len();
            let mut d = Diagnostic::new(
                    &syn::SECURITY_RULES_OFF_BELOW,
                    file,
                    span,
                    format!(
                        "this configuration excludes {n} file{} that the configuration above would check for definitions: {list}",
                        if n == 1 { "" } else { "s" }
                    ),
                )
                .label(label)
                .note("an excluded file is never read: the tools there are not checked for prompt injection, exfiltration or dangerous commands, and nothing else says so")
                .help("exclude only what is not a definition; if the folder is meant to go unchecked, set `TLC009 = \"off\"` in the configuration above");
            for other in globs {
                d = d.related(file, other, "excludes definitions too");
            }
            Some(d)
        })
        .collect()
}

/// The key of the `exclude` setting (under `[discovery]`).
fn exclude_key(text: &str) -> Option<Span> {
    let mut at = 0;
    let mut discovery = false;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let key = line.trim_start();
        let indent = line.len() - key.len();
        // A table header says which table the keys below it are in.
        if key.starts_with('[') {
            discovery = key
                .trim_end()
                .trim_end_matches(']')
                .trim_start_matches('[')
                .trim()
                == "discovery";
            continue;
        }
        if !discovery {
            continue;
        }
        let rest = key
            .strip_prefix("exclude")
            .or_else(|| key.strip_prefix("\"exclude\""))
            .or_else(|| key.strip_prefix("'exclude'"));
        if rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            let len = key.len() - rest.map_or(0, str::len);
            return Some(Span::new(start + indent, start + indent + len));
        }
    }
    None
}

/// The finding for `file` (the configuration of `folder`), which weakens `off`.
fn finding(
    file: &std::sync::Arc<SourceFile>,
    folder: &Path,
    off: &[Weakened],
    cwd: &Path,
) -> Diagnostic {
    let all_off = off.iter().all(|w| w.now.is_none());
    let named: Vec<String> = off
        .iter()
        .take(NAMED)
        .map(|w| match (all_off, w.now) {
            (true, _) => w.rule.code.to_string(),
            (false, None) => format!("{} (off)", w.rule.code),
            (false, Some(now)) => format!("{} ({})", w.rule.code, now.as_str()),
        })
        .collect();
    let more = off.len().saturating_sub(NAMED);
    let list = if more > 0 {
        format!("{}, and {more} more", named.join(", "))
    } else {
        named.join(", ")
    };
    let shown = crate::fs::display_path(folder, cwd);
    let folder = if shown.is_empty() {
        ".".to_string()
    } else {
        shown
    };
    let (span, label) = match setting_of(&file.text, off) {
        Some((span, None)) => (span, "turned off here"),
        Some((span, Some(_))) => (span, "lowered here"),
        // Not named here: the file replaces the configuration that ran them.
        None => (
            first_line(&file.text),
            "replaces the run's configuration for its folder",
        ),
    };
    let none_off = off.iter().all(|w| w.now.is_some());
    let (verb, note) = if all_off {
        (
            "turns off",
            "a nested `toolc.toml` replaces the configuration above it for its folder: the tools there are not checked for prompt injection, exfiltration or dangerous commands, and nothing else says so",
        )
    } else {
        (
            if none_off {
                "lowers"
            } else {
                "turns off or lowers"
            },
            "a nested `toolc.toml` replaces the configuration above it for its folder: a finding at `info` never fails the run and one at `warning` fails it only with `--deny-warnings`, so prompt injection, exfiltration or dangerous commands there pass the gate",
        )
    };
    Diagnostic::new(
        &syn::SECURITY_RULES_OFF_BELOW,
        file,
        span,
        format!(
            "this configuration {verb} {} security rule{} that the configuration above runs, for the definitions under `{folder}/`: {list}",
            off.len(),
            if off.len() == 1 { "" } else { "s" }
        ),
    )
    .label(label)
    .note(note)
    .help("start it with `extend = \"<path to the configuration above>\"` and leave the security rules as they are, silencing a finding you reviewed with `# toolc: ignore CODE -- why`; if the folder is meant to go unchecked, set `TLC009 = \"off\"` in the configuration above")
}

/// The key of the first setting that gives a rule of `off` what it became: `SEC = "off"`
/// (or `"info"`, `"warning"`) under `[rules]`, or inside an override's inline table
/// (`rules = { SEC = "off" }`), with what it sets.
fn setting_of(text: &str, off: &[Weakened]) -> Option<(Span, Option<Severity>)> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let code = line.split('#').next().unwrap_or("");
        let values = code.char_indices().filter(|&(_, c)| c == '"' || c == '\'');
        for (quote_at, quote) in values {
            let rest = &code[quote_at + 1..];
            let Some(end) = rest.find(quote) else {
                continue;
            };
            let now = match &rest[..end] {
                "off" => None,
                level => match Severity::parse(level) {
                    Some(level) => Some(level),
                    None => continue,
                },
            };
            let Some(before) = code[..quote_at].trim_end().strip_suffix('=') else {
                continue;
            };
            let before = before.trim_end();
            let key_at = before.rfind(['{', ',', ' ', '\t']).map_or(0, |i| i + 1);
            let key = &before[key_at..];
            // A dotted key (`rules.SEC = "off"`) names the rule last.
            let last = key.rsplit('.').next().unwrap_or(key);
            let selector = last.trim_matches(['"', '\'']);
            if off
                .iter()
                .any(|w| w.now == now && rules::selector_matches(selector, w.rule))
            {
                return Some((Span::new(start + key_at, start + before.len()), now));
            }
        }
    }
    None
}

/// The file's first line (its start when it is empty).
fn first_line(text: &str) -> Span {
    Span::new(0, text.find('\n').unwrap_or(text.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_is_found_on_its_key() {
        let sec = rules::all()
            .into_iter()
            .find(|r| r.code == "SEC001")
            .expect("SEC001");
        let off = [Weakened {
            rule: sec,
            now: None,
        }];
        let text = "[rules]\nDOJ014 = \"off\"\n  \"SEC\" = 'off' # fixtures\n";
        let (span, now) = setting_of(text, &off).expect("found");
        assert_eq!((&text[span.start..span.end], now), ("\"SEC\"", None));
        assert_eq!(setting_of("[rules]\nSEC = \"warning\"\n", &off), None);
        let text = "[[overrides]]\npaths = [\"**\"]\nrules = { DOJ = \"off\", SEC001 = \"off\" }\n";
        let (span, _) = setting_of(text, &off).expect("found");
        assert_eq!(&text[span.start..span.end], "SEC001");
        assert_eq!(first_line("extend = 'x'\n"), Span::new(0, 12));
        // A lowered rule is found on the setting that gives it the level it has now.
        let info = [Weakened {
            rule: sec,
            now: Some(Severity::Info),
        }];
        let text = "[rules]\nSEC = \"warning\"\nDOJ = \"info\"\nSEC001 = \"info\"\n";
        let (span, now) = setting_of(text, &info).expect("found");
        assert_eq!(
            (&text[span.start..span.end], now),
            ("SEC001", Some(Severity::Info))
        );
        assert_eq!(setting_of("[rules]\nSEC = \"Info\"\n", &info), None);
        let text = "extend = \"../toolc.toml\"\nrules.\"SEC001\" = \"info\"\n";
        let (span, _) = setting_of(text, &info).expect("found");
        assert_eq!(&text[span.start..span.end], "rules.\"SEC001\"");
    }

    #[test]
    fn the_exclude_key_is_found() {
        let text = "[discovery]\n# exclude = [\"a\"]\n  \"exclude\" = [\"**\"]\n";
        let span = exclude_key(text).expect("found");
        assert_eq!(&text[span.start..span.end], "\"exclude\"");
        assert_eq!(exclude_key("[discovery]\nexcluded = 1\n"), None);
        // Only under `[discovery]`.
        let text = "[other]\nexclude = 1\n[ discovery ]\nexclude = [\"x\"]\n";
        let span = exclude_key(text).expect("found");
        assert_eq!(span.start, text.rfind("exclude").unwrap_or(0));
    }
}
