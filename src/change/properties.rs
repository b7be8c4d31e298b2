//! Properties compared: removed, renamed, added as required, made required (input) or made
//! optional (output), and each common property walked in turn.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::schema::{Direction, Pointer, Walk, required, shape, with};
use crate::rules::breaking as rules;

/// A removed and an added property of the same shape, when no other removed or added
/// property has that shape: a rename. Shapes are compared by their JSON text, which is
/// canonical (keys sorted), so each property is shaped once: comparing every removed
/// property with every other took time in the square of their number.
fn renames(
    op: &Map<String, Value>,
    np: &Map<String, Value>,
    removed: &[&String],
    added: &[&String],
) -> Vec<(String, String)> {
    let (gone, gone_texts) = tally(removed, op);
    let (new, _) = tally(added, np);
    removed
        .iter()
        .zip(&gone_texts)
        .filter(|(_, text)| gone.get(*text).is_some_and(|s| s.count == 1))
        .filter_map(|(from, text)| {
            let to = new.get(text).filter(|s| s.count == 1)?.first?;
            Some(((*from).clone(), to.clone()))
        })
        .collect()
}

/// How many properties of one side have a shape, and the first of them.
#[derive(Default)]
struct Seen<'a> {
    count: usize,
    first: Option<&'a String>,
}

/// The shapes of `names` in `props`, tallied, and each name's shape text in order.
fn tally<'a>(
    names: &[&'a String],
    props: &Map<String, Value>,
) -> (HashMap<String, Seen<'a>>, Vec<String>) {
    let mut seen: HashMap<String, Seen<'a>> = HashMap::new();
    let mut texts = Vec::with_capacity(names.len());
    for name in names {
        let text = props
            .get(name.as_str())
            .map(shape)
            .unwrap_or_default()
            .to_string();
        let entry = seen.entry(text.clone()).or_default();
        entry.count += 1;
        entry.first.get_or_insert(name);
        texts.push(text);
    }
    (seen, texts)
}

impl Walk<'_> {
    /// Compare the `properties` and `required` of one object schema of both sides.
    pub(super) fn properties(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        path: &mut Pointer,
    ) {
        let empty = Map::new();
        let op = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let np = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (oreq, nreq) = (required(o), required(n));
        let mut removed: Vec<&String> = op.keys().filter(|k| !np.contains_key(*k)).collect();
        let mut added: Vec<&String> = np.keys().filter(|k| !op.contains_key(*k)).collect();
        if self.direction == Direction::Input {
            let renames = renames(op, np, &removed, &added);
            let (from, to): (HashSet<&str>, HashSet<&str>) = renames
                .iter()
                .map(|(f, t)| (f.as_str(), t.as_str()))
                .unzip();
            removed.retain(|r| !from.contains(r.as_str()));
            added.retain(|a| !to.contains(a.as_str()));
            for (from, to) in &renames {
                self.renamed(path, from, to);
            }
        }
        for name in removed {
            self.removed(path, name, n);
        }
        for name in added {
            if self.direction == Direction::Input && nreq.contains(name.as_str()) {
                self.required_added(path, name);
            }
        }
        for (name, old) in op {
            let Some(new) = np.get(name) else { continue };
            let prop = with(path, &["properties", name]);
            let was = oreq.contains(name.as_str());
            let is = nreq.contains(name.as_str());
            match self.direction {
                Direction::Input if is && !was => self.made_required(path, &prop, name),
                Direction::Output if was && !is => self.made_optional(path, &prop),
                _ => {}
            }
            path.extend(["properties".to_string(), name.clone()]);
            self.node(old, new, path);
            path.truncate(path.len() - 2);
        }
    }

    /// The old version had an output schema, the new one has none.
    pub(crate) fn output_removed(&mut self) {
        let (new_span, old_span) = (self.new.at(&[]), self.old.at(&[]));
        let d = self.push(
            &rules::OUTPUT_PROPERTY_REMOVED,
            new_span,
            old_span,
            "the output schema was removed".into(),
            "the output had a schema".into(),
        );
        d.label = Some("no output schema now".into());
        d.notes
            .push("a consumer that reads the structured result gets none it can rely on".into());
        d.help = Some("keep the output schema, or bump the major version".into());
    }

    fn renamed(&mut self, path: &[String], from: &str, to: &str) {
        let subject = self.subject(&with(path, &["properties", from]));
        let (new_span, old_span) = (
            self.new.key(&with(path, &["properties", to])),
            self.old.key(&with(path, &["properties", from])),
        );
        let d = self.push(
            &rules::PARAMETER_RENAMED,
            new_span,
            old_span,
            format!("{subject} was renamed to `{to}`"),
            format!("`{from}`"),
        );
        d.label = Some(format!("renamed from `{from}`"));
        d.notes.push(
            format!("a caller (or a saved plan) that sends `{from}` now has it refused or ignored")
                .into(),
        );
        d.help =
            Some(format!("accept `{from}` as well for a while, or bump the major version").into());
    }

    fn removed(&mut self, path: &[String], name: &str, n: &Map<String, Value>) {
        let prop = with(path, &["properties", name]);
        let subject = self.subject(&prop);
        let (new_span, old_span) = (
            self.new.key(&with(path, &["properties"])),
            self.old.key(&prop),
        );
        match self.direction {
            Direction::Input => {
                let closed = n.get("additionalProperties") == Some(&Value::Bool(false));
                let d = self.push(
                    &rules::PARAMETER_REMOVED,
                    new_span,
                    old_span,
                    format!("{subject} was removed"),
                    format!("`{name}` was a parameter"),
                );
                d.label = Some(format!("no `{name}` here any more"));
                d.notes.push(if closed {
                    format!("a caller that sends `{name}` now has its call refused (`additionalProperties: false`)").into()
                } else {
                    format!("a caller that sends `{name}` now has it silently ignored").into()
                });
                d.help = Some(format!(
                    "keep `{name}` (say it is deprecated in its description) until callers have moved, or bump the major version"
                ).into());
            }
            Direction::Output => {
                let d = self.push(
                    &rules::OUTPUT_PROPERTY_REMOVED,
                    new_span,
                    old_span,
                    format!("{subject} was removed"),
                    format!("the output had `{name}`"),
                );
                d.label = Some(format!("no `{name}` here any more"));
                d.notes
                    .push(format!("a consumer that reads `{name}` finds nothing").into());
                d.help =
                    Some(format!("keep `{name}` in the output, or bump the major version").into());
            }
        }
    }

    fn required_added(&mut self, path: &[String], name: &str) {
        let subject = self.subject(&with(path, &["properties", name]));
        let new_span = self.new.key(&with(path, &["properties", name]));
        let old_span = self.old.key(&with(path, &["properties"]));
        let d = self.push(
            &rules::REQUIRED_PARAMETER_ADDED,
            new_span,
            old_span,
            format!("new {subject} is required"),
            format!("no `{name}`"),
        );
        d.label = Some("required".into());
        d.notes
            .push("every existing caller leaves it out, and now has its call refused".into());
        d.help = Some("make it optional with a default, or bump the major version".into());
    }

    fn made_required(&mut self, path: &[String], prop: &[String], name: &str) {
        let subject = self.subject(prop);
        let new_span = self.new.required(path, name);
        let old_span = self.old.key(prop);
        let d = self.push(
            &rules::PARAMETER_MADE_REQUIRED,
            new_span,
            old_span,
            format!("{subject} is now required"),
            "optional".into(),
        );
        d.label = Some("now required".into());
        d.notes
            .push("a caller that left it out now has its call refused".into());
        d.help = Some("keep it optional (with a default), or bump the major version".into());
    }

    fn made_optional(&mut self, path: &[String], prop: &[String]) {
        let name = prop.last().map_or("", String::as_str);
        let subject = self.subject(prop);
        let new_span = self.new.key(prop);
        let old_span = self.old.required(path, name);
        let d = self.push(
            &rules::OUTPUT_PROPERTY_MADE_OPTIONAL,
            new_span,
            old_span,
            format!("{subject} is no longer required"),
            "always present".into(),
        );
        d.label = Some("may be missing now".into());
        d.notes
            .push("a consumer that expects it in every result may fail when it is missing".into());
    }
}
