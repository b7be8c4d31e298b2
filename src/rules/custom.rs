//! The rules a repository declares in `toolc.toml` (`[[custom-rules]]`), known to the
//! registry for the rest of the process: a diagnostic names its rule by a `&'static Rule`,
//! so each custom rule is made static once (the same rule declared again is the same one),
//! and selectors, suppressions, `toolc rules` and `toolc explain` find it like a built-in.

use std::sync::{Mutex, PoisonError};

use super::{Rule, Severity};

/// A custom rule made static, with its `toolc explain` page.
#[derive(Clone, Copy)]
struct Registered {
    rule: &'static Rule,
    page: &'static str,
}

/// Every custom rule registered, latest declaration of each code only. Kept small (a
/// repository has tens of them), so a linear search is fine.
static ACTIVE: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

/// Every custom rule ever made static in this process: a declaration registered again (a
/// server re-reading its configuration after [`forget`]) takes its rule back, leaking nothing
/// more.
static MADE: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

/// What a repository declares for one custom rule.
pub(crate) struct Declared<'a> {
    /// Code, e.g. `ORG001`.
    pub code: &'a str,
    /// Kebab-case name.
    pub name: &'a str,
    /// Severity unless configured otherwise.
    pub severity: Severity,
    /// Format ids it applies to (none: every format).
    pub formats: &'a [String],
    /// One line saying what it checks.
    pub summary: &'a str,
    /// Its `toolc explain` page.
    pub page: &'a str,
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The static rule for `declared`: the one registered before when it is declared the same
/// way (a server reloading its configuration makes no new one), else a new one, which
/// replaces any earlier rule of the same code in the registry.
pub(crate) fn register(declared: &Declared<'_>) -> &'static Rule {
    let mut active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    let same = |r: &Registered| {
        r.rule.code == declared.code
            && r.rule.name == declared.name
            && r.rule.severity == declared.severity
            && r.rule.summary == declared.summary
            && r.rule.formats.iter().eq(declared.formats.iter())
            && r.page == declared.page
    };
    if let Some(found) = active.iter().find(|r| same(r)) {
        return found.rule;
    }
    if let Some(found) = made.iter().find(|r| same(r)).copied() {
        active.retain(|r| r.rule.code != declared.code);
        active.push(found);
        return found.rule;
    }
    let formats: Vec<&'static str> = declared.formats.iter().map(|f| leak(f)).collect();
    let rule: &'static Rule = Box::leak(Box::new(Rule {
        code: leak(declared.code),
        name: leak(declared.name),
        severity: declared.severity,
        formats: Box::leak(formats.into_boxed_slice()),
        summary: leak(declared.summary),
        rejects_file: false,
        basis: None,
        preview: false,
    }));
    let registered = Registered {
        rule,
        page: leak(declared.page),
    };
    active.retain(|r| r.rule.code != declared.code);
    active.push(registered);
    made.push(registered);
    rule
}

/// Forget every custom rule registered: the configuration is about to be read again (an
/// editor's session after `toolc.toml` changed), and a rule it no longer declares must be
/// unknown to selectors, settings and suppressions, as in a new process.
pub(crate) fn forget() {
    ACTIVE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clear();
}

/// The custom rules registered so far.
pub(crate) fn all() -> Vec<&'static Rule> {
    let active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
    active.iter().map(|r| r.rule).collect()
}

/// The page of a custom rule.
pub(crate) fn page(rule: &Rule) -> Option<&'static str> {
    let active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
    active
        .iter()
        .find(|r| std::ptr::eq(r.rule, rule) || r.rule.code == rule.code)
        .map(|r| r.page)
}
