//! Validation keywords compared: a tightened input constraint refuses calls that passed before;
//! a relaxed output constraint lets through results consumers did not expect.

use serde_json::{Map, Value};

use super::schema::{Direction, Walk, short};
use crate::rules::breaking as rules;

/// How a keyword constrains.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A lower bound: raising it tightens.
    Lower,
    /// An upper bound: lowering it tightens.
    Upper,
    /// Any change tightens (`pattern`, `format`, `multipleOf`).
    Exact,
    /// `true` tightens (`uniqueItems`).
    Flag,
}

/// The keywords compared, and how each constrains.
const KEYWORDS: &[(&str, Kind)] = &[
    ("minLength", Kind::Lower),
    ("maxLength", Kind::Upper),
    ("minimum", Kind::Lower),
    ("maximum", Kind::Upper),
    ("exclusiveMinimum", Kind::Lower),
    ("exclusiveMaximum", Kind::Upper),
    ("minItems", Kind::Lower),
    ("maxItems", Kind::Upper),
    ("minProperties", Kind::Lower),
    ("maxProperties", Kind::Upper),
    ("pattern", Kind::Exact),
    ("format", Kind::Exact),
    ("multipleOf", Kind::Exact),
    ("uniqueItems", Kind::Flag),
];

/// What happened to one keyword between the versions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Fewer values pass.
    Tightened,
    /// More values pass.
    Relaxed,
    /// Not comparable (a different pattern): both.
    Both,
}

fn change(kind: Kind, old: Option<&Value>, new: Option<&Value>) -> Option<Change> {
    if old == new {
        return None;
    }
    let (Some(o), Some(n)) = (old, new) else {
        // Added tightens, removed relaxes; a `false` flag is no constraint at all.
        let set =
            |v: Option<&Value>| v.is_some_and(|v| kind != Kind::Flag || v == &Value::Bool(true));
        return match (set(old), set(new)) {
            (false, true) => Some(Change::Tightened),
            (true, false) => Some(Change::Relaxed),
            _ => None,
        };
    };
    match (kind, o.as_f64(), n.as_f64()) {
        (Kind::Lower, Some(o), Some(n)) => Some(if n > o {
            Change::Tightened
        } else {
            Change::Relaxed
        }),
        (Kind::Upper, Some(o), Some(n)) => Some(if n < o {
            Change::Tightened
        } else {
            Change::Relaxed
        }),
        (Kind::Flag, _, _) => Some(if n == &Value::Bool(true) {
            Change::Tightened
        } else {
            Change::Relaxed
        }),
        // Draft-4 boolean exclusive bounds, patterns, formats: not ordered.
        _ => Some(Change::Both),
    }
}

fn describe(keyword: &str, old: Option<&Value>, new: Option<&Value>) -> String {
    match (old, new) {
        (None, Some(n)) => format!("`{keyword}: {}` added", short(n)),
        (Some(o), None) => format!("`{keyword}: {}` removed", short(o)),
        (Some(o), Some(n)) => format!("`{keyword}` changed from {} to {}", short(o), short(n)),
        (None, None) => String::new(),
    }
}

/// Compare the constraints of one schema node of both sides.
pub(super) fn compare(
    walk: &mut Walk<'_>,
    o: &Map<String, Value>,
    n: &Map<String, Value>,
    path: &[String],
) {
    for (keyword, kind) in KEYWORDS {
        let (old, new) = (o.get(*keyword), n.get(*keyword));
        let Some(change) = change(*kind, old, new) else {
            continue;
        };
        report(walk, path, keyword, old, new, change);
    }
    // `additionalProperties: false` newly set closes the object; lifting it opens it.
    let closed =
        |m: &Map<String, Value>| m.get("additionalProperties") == Some(&Value::Bool(false));
    let is_object = |m: &Map<String, Value>| {
        m.contains_key("properties") || m.get("type") == Some(&Value::from("object"))
    };
    if is_object(n) && closed(o) != closed(n) {
        let keyword = "additionalProperties";
        let (old, new) = (o.get(keyword), n.get(keyword));
        let change = if closed(n) {
            Change::Tightened
        } else {
            Change::Relaxed
        };
        report(walk, path, keyword, old, new, change);
    }
}

fn report(
    walk: &mut Walk<'_>,
    path: &[String],
    keyword: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    change: Change,
) {
    let mut at = path.to_vec();
    at.push(keyword.to_string());
    let subject = walk.subject(path);
    let what = describe(keyword, old, new);
    let new_span = if new.is_some() {
        walk.new.at(&at)
    } else {
        walk.new.key(path)
    };
    let old_span = if old.is_some() {
        walk.old.at(&at)
    } else {
        walk.old.key(path)
    };
    let before = match old {
        Some(o) => format!("`{keyword}: {}`", short(o)),
        None => format!("no `{keyword}`"),
    };
    match (walk.direction, change) {
        (Direction::Input, Change::Tightened | Change::Both) => {
            let d = walk.push(
                &rules::CONSTRAINT_TIGHTENED,
                new_span,
                old_span,
                format!("{subject}: {what}"),
                before,
            );
            d.label = Some(if change == Change::Both {
                "different values pass now".into()
            } else {
                "fewer values pass now".into()
            });
            d.notes.push(
                "a caller that sent a value valid before may now have its call refused".into(),
            );
            d.help = Some("tighten input constraints in a new major version".into());
        }
        (Direction::Output, Change::Relaxed | Change::Both) => {
            let d = walk.push(
                &rules::OUTPUT_CONSTRAINT_RELAXED,
                new_span,
                old_span,
                format!("{subject}: {what}"),
                before,
            );
            d.label = Some("more values may come out now".into());
            d.notes.push(
                "a consumer that relied on the old constraint may not handle the new values".into(),
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_flags_and_exact_keywords() {
        let v = |x: i64| Value::from(x);
        assert!(change(Kind::Upper, Some(&v(10)), Some(&v(5))) == Some(Change::Tightened));
        assert!(change(Kind::Upper, Some(&v(5)), Some(&v(10))) == Some(Change::Relaxed));
        assert!(change(Kind::Lower, None, Some(&v(1))) == Some(Change::Tightened));
        assert!(change(Kind::Lower, Some(&v(1)), None) == Some(Change::Relaxed));
        assert!(change(Kind::Flag, None, Some(&Value::Bool(false))).is_none());
        assert!(
            change(
                Kind::Flag,
                Some(&Value::Bool(false)),
                Some(&Value::Bool(true))
            ) == Some(Change::Tightened)
        );
        let p = |s: &str| Value::from(s);
        assert!(change(Kind::Exact, Some(&p("a")), Some(&p("b"))) == Some(Change::Both));
        assert!(change(Kind::Exact, Some(&p("a")), Some(&p("a"))).is_none());
    }
}
