//! The rule registry: every rule's code, name, default severity and formats, grouped by family.
//! The checks themselves live with the format they read (`src/formats/`); the documentation
//! lives in `rules/<CODE>.md`.

pub(crate) mod agentcli;
pub(crate) mod breaking;
pub(crate) mod compat;
pub(crate) mod custom;
pub(crate) mod cycod;
pub(crate) mod dojops;
pub(crate) mod lock;
pub(crate) mod mcp;
pub(crate) mod references;
pub(crate) mod schema;
pub(crate) mod security;
pub(crate) mod shellcheck;
pub(crate) mod skill;
pub(crate) mod syntax;
pub(crate) mod tool_md;
pub(crate) mod tool_request;

use std::fmt;

/// How serious a diagnostic is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a run.
    Info,
    /// Legal but likely wrong; fails only with `--deny-warnings`.
    Warning,
    /// The definition is broken.
    Error,
}

impl Severity {
    /// The lowercase name used in output and configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parse `error` / `warning` / `info`.
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule: the identity and default behaviour of one kind of diagnostic.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// Family prefix and number, e.g. `DOJ003`. Codes are forever.
    pub code: &'static str,
    /// Kebab-case name, e.g. `invalid-tool-name`.
    pub name: &'static str,
    /// Severity unless configured otherwise.
    pub severity: Severity,
    /// Format ids the rule applies to.
    pub formats: &'static [&'static str],
    /// One line saying what the rule checks.
    pub summary: &'static str,
    /// The format's runtime refuses a file with this defect (declared `rejects`): the format
    /// says how in a note, unless the emit site says something more precise.
    pub rejects_file: bool,
    /// Why the rule is an error by default, when it is one (see `docs/severity.md`).
    pub basis: Option<Basis>,
    /// A heuristic not yet proven precise on real repositories: off unless preview is on
    /// (`--preview`, `preview = true`) or a setting names the rule itself.
    pub preview: bool,
}

/// What earns a rule the default severity `error` (the severity policy in `docs/severity.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The format's runtime refuses the file (declared `rejects`).
    Refused,
    /// The runtime accepts the file but misbehaves for certain: a tool that cannot run, a
    /// reference to nothing, a value it drops (declared `breaks`).
    Breaks,
    /// A credential or an attack that is certain from the text (declared `threat`).
    Threat,
    /// A gate the user asked toolc to keep: a breaking change, a lock, toolc's own
    /// configuration and baseline (declared `gate`).
    Gate,
}

impl Rule {
    /// The rule's documentation page (Markdown with front matter), as `toolc explain` prints it.
    pub fn page(&self) -> Option<&'static str> {
        page(self)
    }
}

/// Declares rules as statics plus the family's `RULES` list. Flags may follow the severity:
/// `rejects` (the format's runtime refuses the file), `breaks` (the runtime misbehaves for
/// certain), `threat` (a certain credential or attack), `gate` (a gate the user asked for):
/// one of them is the basis of every `Error`; and `preview` (off by default).
macro_rules! declare_rules {
    (@has $flag:ident) => { false };
    (@has rejects rejects $($rest:ident)*) => { true };
    (@has breaks breaks $($rest:ident)*) => { true };
    (@has threat threat $($rest:ident)*) => { true };
    (@has gate gate $($rest:ident)*) => { true };
    (@has preview preview $($rest:ident)*) => { true };
    (@has $flag:ident $other:ident $($rest:ident)*) => {
        $crate::rules::declare_rules!(@has $flag $($rest)*)
    };
    (@basis $($flag:ident)*) => {
        if $crate::rules::declare_rules!(@has rejects $($flag)*) {
            Some($crate::rules::Basis::Refused)
        } else if $crate::rules::declare_rules!(@has breaks $($flag)*) {
            Some($crate::rules::Basis::Breaks)
        } else if $crate::rules::declare_rules!(@has threat $($flag)*) {
            Some($crate::rules::Basis::Threat)
        } else if $crate::rules::declare_rules!(@has gate $($flag)*) {
            Some($crate::rules::Basis::Gate)
        } else {
            None
        }
    };
    ($($ident:ident = $code:literal $name:literal $sev:ident $($flag:ident)* [$($fmt:literal),*] $summary:literal;)*) => {
        $(
            #[doc = $summary]
            pub(crate) static $ident: $crate::rules::Rule = $crate::rules::Rule {
                code: $code,
                name: $name,
                severity: $crate::rules::Severity::$sev,
                formats: &[$($fmt),*],
                summary: $summary,
                rejects_file: $crate::rules::declare_rules!(@has rejects $($flag)*),
                basis: $crate::rules::declare_rules!(@basis $($flag)*),
                preview: $crate::rules::declare_rules!(@has preview $($flag)*),
            };
        )*
        /// Every rule of this family.
        pub(crate) static RULES: &[&$crate::rules::Rule] = &[$(&$ident),*];
    };
}
pub(crate) use declare_rules;

/// Every rule, in code order: the built-in ones and the custom rules of the configuration
/// read (`[[custom-rules]]`).
pub(crate) fn all() -> Vec<&'static Rule> {
    let mut rules = builtin();
    rules.extend(custom::all());
    rules.sort_by_key(|r| r.code);
    rules
}

/// The rules toolc has itself, in code order.
pub(crate) fn builtin() -> Vec<&'static Rule> {
    BUILTIN.clone()
}

/// [`builtin`], gathered and sorted once: a suppression comment's codes are each looked up,
/// and 400,000 of them sorted the rules 400,000 times (3 s).
static BUILTIN: std::sync::LazyLock<Vec<&'static Rule>> = std::sync::LazyLock::new(|| {
    let mut rules: Vec<&'static Rule> = [
        syntax::RULES,
        dojops::RULES,
        schema::RULES,
        security::RULES,
        shellcheck::RULES,
        references::RULES,
        agentcli::RULES,
        tool_md::RULES,
        cycod::RULES,
        tool_request::RULES,
        skill::RULES,
        compat::RULES,
        mcp::RULES,
        breaking::RULES,
        lock::RULES,
    ]
    .into_iter()
    .flatten()
    .copied()
    .collect();
    rules.sort_by_key(|r| r.code);
    rules
});

/// True when `toolc check` can emit `rule` (with `toolc.lock` checked or not): a suppression
/// of a rule only `toolc diff` emits, or of a lock rule when no lock is checked, is not unused.
pub(crate) fn emitted_by_check(rule: &Rule, locked: bool) -> bool {
    let only_diff = breaking::RULES.iter().any(|r| std::ptr::eq(*r, rule));
    let only_locked = lock::RULES.iter().any(|r| std::ptr::eq(*r, rule));
    !only_diff && (locked || !only_locked)
}

/// Find a rule by code (`DOJ003`, any case) or name (`invalid-tool-name`).
pub(crate) fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    let is =
        |r: &&'static Rule| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name;
    let builtin = BUILTIN.iter().copied().find(is);
    builtin.or_else(|| custom::all().into_iter().find(is))
}

/// Prefixes that name a format in a rule name (`cycod-unknown-key`); without one, the name
/// says the kind of problem (`unknown-key`), and that name selects the rule in every format.
const FORMAT_PREFIXES: &[&str] = &[
    "agentcli-",
    "cycod-",
    "dojops-",
    "tool-md-",
    "tool-request-",
];

/// The kind of problem a rule's name says: the name without its format prefix.
pub(crate) fn kind(name: &str) -> &str {
    FORMAT_PREFIXES
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

/// True when `selector` (a code, a name, a code prefix such as `DOJ` or `DOJ0`, or `ALL`) selects `rule`.
/// A name without a format prefix selects every rule of that kind: `unknown-key` is DOJ007
/// and also `agentcli-unknown-key`, `cycod-unknown-key`, ….
pub(crate) fn selector_matches(selector: &str, rule: &Rule) -> bool {
    // Empty, it is the prefix of every code: `--ignore SEC010,` (a comma too many) turned
    // every rule off and the run said "All checks passed".
    !selector.is_empty()
        && (selector.eq_ignore_ascii_case("ALL")
            || rule.name == selector
            || kind(rule.name) == selector
            || rule.code.len() >= selector.len()
                && rule.code[..selector.len()].eq_ignore_ascii_case(selector))
}

/// Why `selector`, which selects no rule, is refused: for an error message.
pub(crate) fn unknown_selector(selector: &str) -> String {
    if selector.trim().is_empty() {
        "an empty rule selector names no rule (a comma too many?)".to_string()
    } else {
        format!("`{selector}` is not a rule code, rule name or code prefix")
    }
}

/// True when `selector` selects at least one rule.
pub(crate) fn selector_is_known(selector: &str) -> bool {
    all().iter().any(|r| selector_matches(selector, r))
}

/// The documentation page of a rule (`rules/<CODE>.md`, embedded at build time).
pub(crate) fn page(rule: &Rule) -> Option<&'static str> {
    pages::PAGES
        .iter()
        .find(|(code, _)| *code == rule.code)
        .map(|(_, text)| *text)
        .or_else(|| custom::page(rule))
}

/// The repository toolc is published from (`repository` in Cargo.toml).
pub(crate) fn repository_url() -> &'static str {
    match env!("CARGO_PKG_REPOSITORY") {
        "" => "https://github.com/toolc/toolc",
        url => url,
    }
}

/// Where a rule's page is published: `<repository>/blob/main/rules/<CODE>.md`. Codes are
/// forever, so the URL is stable; SARIF's `helpUri` points here.
pub(crate) fn page_url(rule: &Rule) -> String {
    if !pages::PAGES.iter().any(|(code, _)| *code == rule.code) && custom::page(rule).is_some() {
        // A repository's own rule has no page of toolc's: the page on writing them.
        return format!(
            "{}/blob/main/docs/custom-rules.md",
            repository_url().trim_end_matches('/')
        );
    }
    format!(
        "{}/blob/main/rules/{}.md",
        repository_url().trim_end_matches('/'),
        rule.code
    )
}

mod pages {
    include!(concat!(env!("OUT_DIR"), "/rule_pages.rs"));
}

/// The value of `key:` in a page's front matter.
fn front_matter_field<'p>(page: &'p str, key: &str) -> Option<&'p str> {
    let front = page.strip_prefix("---\n")?.split_once("\n---")?.0;
    front
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

/// `[a, b]` or `a` as "`a`, `b`".
fn code_list(value: &str) -> String {
    value
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|p| format!("`{}`", p.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `docs/rules.md`: an index of every rule and every page, generated from `rules/`.
pub(crate) fn reference_markdown() -> String {
    let mut out = String::from(
        "# Rule reference\n\n<!-- Generated from rules/*.md by `cargo test --test docs` with TOOLC_BLESS=1; do not edit. -->\n\n\
         | code | name | default severity | formats | what it checks |\n|---|---|---|---|---|\n",
    );
    let all = builtin();
    for r in &all {
        let formats = if r.formats.is_empty() {
            "all".to_string()
        } else {
            r.formats.join(", ")
        };
        out.push_str(&format!(
            "| [{}](#{}) | `{}` | {} | {} | {} |\n",
            r.code,
            r.code.to_ascii_lowercase(),
            r.name,
            if r.preview {
                format!("{} (preview)", r.severity)
            } else {
                r.severity.to_string()
            },
            formats,
            r.summary
        ));
    }
    for r in &all {
        let Some(page) = page(r) else { continue };
        // Drop the front matter and the page's own title; the section gets an anchor title.
        let body = page
            .strip_prefix("---\n")
            .and_then(|p| p.split_once("\n---\n"))
            .map_or(page, |(_, b)| b);
        let body = body.trim_start();
        let body = if body.starts_with("# ") {
            body.split_once('\n').map_or("", |(_, rest)| rest)
        } else {
            body
        };
        out.push_str(&format!(
            "\n## {}\n\n`{}` · {} by default",
            r.code, r.name, r.severity
        ));
        if let Some(source) = front_matter_field(page, "source") {
            out.push_str(&format!(" · checked in {}", code_list(source)));
        }
        out.push('\n');
        if let Some(scope) = front_matter_field(page, "scope") {
            out.push_str(&format!("\nChecked across {scope}.\n"));
        }
        if let Some(runtime) = front_matter_field(page, "runtime") {
            out.push_str(&format!("\nApplies to {runtime}.\n"));
        }
        out.push_str(&body.replace("\n## ", "\n### "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let all = builtin();
        let mut codes: Vec<_> = all.iter().map(|r| r.code).collect();
        let mut names: Vec<_> = all.iter().map(|r| r.name).collect();
        codes.sort_unstable();
        names.sort_unstable();
        let dup_codes: Vec<_> = codes
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        let dup_names: Vec<_> = names
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        assert!(dup_codes.is_empty(), "codes used twice: {dup_codes:?}");
        // Names select rules in config, --select and suppressions: one name, one rule.
        assert!(
            dup_names.is_empty(),
            "names used twice (prefix the format, e.g. `agentcli-unknown-key`): {dup_names:?}"
        );
        for r in &all {
            let (family, number) = r.code.split_at(3);
            assert!(
                family.bytes().all(|b| b.is_ascii_uppercase())
                    && number.len() == 3
                    && number.bytes().all(|b| b.is_ascii_digit()),
                "{}",
                r.code
            );
            assert!(
                r.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                r.name
            );
        }
    }
}
