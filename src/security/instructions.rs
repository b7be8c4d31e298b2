//! SEC050–SEC055: instructions to the model hidden in a tool's texts (tool poisoning,
//! full-schema poisoning). Each pattern of the table (`patterns.rs`) is a signal; on its own
//! a signal is a warning, with the rule of its kind. When one tool gives signals of two
//! independent kinds (hiding something, reading a sensitive file, sending data out), that is
//! the shape of a poisoned tool: one error (SEC053) that points at each of them instead.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::patterns::{self, Match, Signal};
use super::schema::side_channels;
use super::sending;
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::{Rule, security as sec};
use crate::security::texts::{Text, TextKind, ToolTexts};
use crate::source::{SourceFile, Span};

/// How much of a matched phrase a message quotes.
const MAX_QUOTED: usize = 60;

/// At most this many signals are named as related places of a SEC053.
const MAX_RELATED: usize = 6;

/// The independent kinds of signal whose combination is poisoning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Class {
    /// Overriding the model's instructions or keeping something from the user.
    Hide,
    /// Reading a sensitive file.
    Read,
    /// Sending data out.
    Send,
}

/// One signal found in a tool.
pub(super) struct Finding {
    /// The file of the text it is in.
    file: Arc<SourceFile>,
    /// What the text is.
    kind: TextKind,
    span: Span,
    rule: &'static Rule,
    class: Option<Class>,
    /// What it is, for a message.
    what: String,
    /// The words it was found on.
    quoted: String,
    /// Its message, when it is not about words (a command's half of an exfiltration).
    message: Option<String>,
}

/// Every signal in the texts of `tool`, as warnings or as one SEC053.
/// `any` says whether one look at all the tool's texts ([`patterns::look`]) saw a pattern.
/// `commands` are the halves of an exfiltration its commands showed, and the places of the
/// whole ones already reported (no pattern is reported again there).
/// Signals in a mention passage (an example of an attack) do not add up to poisoning.
/// `values` are the signals already found in its long lists of values ([`find`]).
pub(super) fn check<'t>(
    tool: &'t ToolTexts<'t>,
    any: bool,
    commands: super::commands::Found<'t>,
    values: Vec<Finding>,
    context: &mut super::context::Context,
    out: &mut Findings,
) {
    let mut found: Vec<Finding> = Vec::new();
    // Read only where a match or a command's signal is judged by it: the words are looked
    // for in every text of the tool, and most tools have neither (a list of 960,000 tiny
    // tools spent half a second of its security pass here).
    let announced = (any || !commands.signals.is_empty()) && super::commands::says_it_sends(tool);
    let read = tool
        .all()
        .filter(|t| any && (t.kind.is_schema_value() || is_prose(t.kind)));
    find(
        read,
        &commands.chains,
        &expected(tool, announced),
        &mut found,
    );
    found.extend(values);
    command_signals(commands.signals, announced, &mut found);
    side_signals(&tool.texts, &mut found);
    let (mentioned, told): (Vec<Finding>, Vec<Finding>) = found
        .into_iter()
        .partition(|f| context.mention(&f.file, f.span.start).is_some());
    let mut classes: Vec<Class> = told.iter().filter_map(|f| f.class).collect();
    classes.sort_unstable();
    classes.dedup();
    if classes.len() >= 2 {
        out.push(poisoned(&told));
    } else {
        out.extend(told.iter().map(single));
    }
    out.extend(mentioned.iter().map(single));
}

/// Whether a match is what `tool` says it does: the user's files sent to an address the
/// tool says it sends to are what it is for (`announced`: its own words say it sends).
pub(super) fn expected<'a>(
    tool: &'a ToolTexts<'a>,
    announced: bool,
) -> impl Fn(&Text<'_>, &Match) -> bool + 'a {
    let words = sending::OwnWords::of(tool);
    move |text: &Text<'_>, m: &Match| {
        m.pattern.id == "send-file-to-address"
            && sending::expected(&words, &text.value, m.start, m.end, announced)
    }
}

/// A command's half of an exfiltration as a signal, unless the words of a pattern already
/// say it there (in `found`); an upload only where the tool does not say it sends data
/// (`announced`).
pub(super) fn command_signals(
    signals: Vec<super::commands::Signal<'_>>,
    announced: bool,
    found: &mut Vec<Finding>,
) {
    let mut taken = Taken::of(found);
    for signal in signals.into_iter().filter(|s| !s.weak || !announced) {
        let (rule, class) = if signal.read {
            (&sec::SENSITIVE_FILE_ACCESS, Class::Read)
        } else {
            (&sec::EXFILTRATION, Class::Send)
        };
        if !taken.take(&signal.text.file, class, signal.span) {
            continue;
        }
        found.push(Finding {
            file: Arc::clone(&signal.text.file),
            kind: signal.text.kind,
            span: signal.span,
            rule,
            class: Some(class),
            what: if signal.read {
                "a command reading a credential store".to_string()
            } else {
                "a command sending data out".to_string()
            },
            quoted: signal.text.file.slice(signal.span).to_string(),
            message: Some(signal.message),
        });
    }
}

/// The places of a tool's findings a signal of the same file and class must not overlap,
/// looked up rather than compared with each: a skill of 100,000 fenced commands compared
/// every signal with every finding before it (5 s for 2.4 MB).
struct Taken {
    /// The findings before the signals: by start, each with the furthest end up to it.
    before: HashMap<(*const SourceFile, Class), Vec<(usize, usize)>>,
    /// The signals kept, by start then end. They overlap no other (a signal that would is
    /// not kept), so if any reaches a place, the last to start before its end does.
    kept: HashMap<(*const SourceFile, Class), BTreeSet<(usize, usize)>>,
}

impl Taken {
    fn of(found: &[Finding]) -> Taken {
        let mut before: HashMap<_, Vec<(usize, usize)>> = HashMap::new();
        for f in found {
            if let Some(class) = f.class {
                let key = (Arc::as_ptr(&f.file), class);
                before
                    .entry(key)
                    .or_default()
                    .push((f.span.start, f.span.end));
            }
        }
        for spans in before.values_mut() {
            spans.sort_unstable();
            let mut furthest = 0;
            for (_, end) in spans.iter_mut() {
                furthest = furthest.max(*end);
                *end = furthest;
            }
        }
        Taken {
            before,
            kept: HashMap::new(),
        }
    }

    /// False when `span` overlaps a place taken in `file` for `class`; else it is taken now.
    fn take(&mut self, file: &Arc<SourceFile>, class: Class, span: Span) -> bool {
        let key = (Arc::as_ptr(file), class);
        // Some place starts before `span` ends and reaches past its start.
        let reaches =
            |start_before_end: Option<usize>| start_before_end.is_some_and(|end| end > span.start);
        let before = self.before.get(&key).and_then(|spans| {
            let n = spans.partition_point(|&(start, _)| start < span.end);
            n.checked_sub(1).map(|i| spans[i].1)
        });
        let kept = self.kept.entry(key).or_default();
        let last_kept = kept.range(..(span.end, 0)).next_back().map(|&(_, end)| end);
        if reaches(before) || reaches(last_kept) {
            return false;
        }
        kept.insert((span.start, span.end));
        true
    }
}

/// The signals of the patterns in `texts` (schema values and prose), but where `chains`
/// (a command's whole exfiltration, already reported) are, and those the tool's own words
/// make `expected`.
pub(super) fn find<'t>(
    texts: impl Iterator<Item = &'t Text<'t>>,
    chains: &[Span],
    expected: &dyn Fn(&Text<'_>, &Match) -> bool,
    found: &mut Vec<Finding>,
) {
    for text in texts {
        let value = text.kind.is_schema_value();
        for mut m in patterns::find(&text.value) {
            let signal = m.pattern.signal;
            if (signal == Signal::Directive && !value) || expected(text, &m) {
                continue;
            }
            if m.pattern.id == "send-file-to-address" {
                m.end = sending::address_end(&text.value, m.end);
            }
            let f = finding(text, &m, value);
            if !chains.iter().any(|c| overlaps(*c, f.span)) {
                found.push(f);
            }
        }
    }
}

/// The parameter names among `texts` that are side channels, as signals.
pub(super) fn side_signals<'t>(
    texts: impl IntoIterator<Item = &'t Text<'t>>,
    found: &mut Vec<Finding>,
) {
    for side in side_channels(texts) {
        found.push(Finding {
            file: Arc::clone(&side.text.file),
            kind: side.text.kind,
            span: side.text.span,
            rule: &sec::SIDE_CHANNEL_PARAMETER,
            class: Some(Class::Send),
            what: side.why.to_string(),
            quoted: side.text.value.to_string(),
            message: None,
        });
    }
}

/// Texts read as prose, where only the patterns of instructions count (not bare orders).
pub(super) fn is_prose(kind: TextKind) -> bool {
    matches!(
        kind,
        TextKind::Title
            | TextKind::Description
            | TextKind::ParamDescription
            | TextKind::Guidance
            | TextKind::Prompt
            | TextKind::Instructions
    )
}

fn finding(text: &Text<'_>, m: &Match, value: bool) -> Finding {
    let signal = m.pattern.signal;
    let (rule, class) = match signal {
        Signal::Override | Signal::Conceal | Signal::PseudoTag => {
            (&sec::INSTRUCTION_OVERRIDE, Some(Class::Hide))
        }
        Signal::SensitiveFile => (&sec::SENSITIVE_FILE_ACCESS, Some(Class::Read)),
        Signal::Exfiltration => (&sec::EXFILTRATION, Some(Class::Send)),
        Signal::Directive => (&sec::INSTRUCTION_IN_VALUE, None),
    };
    let rule = if value {
        &sec::INSTRUCTION_IN_VALUE
    } else {
        rule
    };
    Finding {
        file: Arc::clone(&text.file),
        kind: text.kind,
        span: text.span_of(m.start..m.end),
        rule,
        class,
        what: m.pattern.what.to_string(),
        quoted: text.value[m.start..m.end].to_string(),
        message: None,
    }
}

/// Whether two spans share a byte.
fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// `"ignore all previous…"`, shortened and made safe to print.
fn quote(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut shown: String = one_line.chars().take(MAX_QUOTED).collect();
    if one_line.chars().count() > MAX_QUOTED {
        shown.push('…');
    }
    visible(&shown).into_owned()
}

fn single(f: &Finding) -> Diagnostic {
    let message = if let Some(m) = &f.message {
        m.clone()
    } else if f.rule == &sec::SIDE_CHANNEL_PARAMETER {
        format!("the parameter name `{}` is {}", quote(&f.quoted), f.what)
    } else {
        format!(
            "{} holds {}: \"{}\"",
            f.kind.what(),
            f.what,
            quote(&f.quoted)
        )
    };
    let d = Diagnostic::new(f.rule, &f.file, f.span, message);
    if f.rule == &sec::SIDE_CHANNEL_PARAMETER {
        d.label("side channel")
            .note("the model fills in every parameter it is shown: a parameter like this is where poisoned instructions make it put what they had it read")
            .help("name the parameter after the input it is, or remove it")
    } else if f.rule == &sec::INSTRUCTION_IN_VALUE {
        d.label("instruction in a value")
            .note("enum values, defaults and examples are shown to the model as part of the schema (full-schema poisoning): an instruction there is read like one in the description")
            .help("keep values to data; say how to use the parameter in its description")
    } else if f.rule == &sec::SENSITIVE_FILE_ACCESS {
        d.label("sensitive file")
            .note("keys, credentials and agent configuration are what poisoned tools ask the model to read and pass on")
            .help("a tool that needs a credential should get it from its runtime, not from the model")
    } else if f.rule == &sec::EXFILTRATION {
        d.label("sends data out")
            .note("the model follows what a tool description says: this makes it send what it holds to somewhere the user did not choose")
            .help("remove the instruction; a tool sends what its parameters say, to the endpoint its definition names")
    } else {
        d.label("hidden instruction")
            .note("the model reads a tool's texts as instructions; these words try to override its instructions or act behind the user's back")
            .help("remove the instruction: a description says what the tool does and when to use it")
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn poisoned(found: &[Finding]) -> Diagnostic {
    let primary = found
        .iter()
        .find(|f| f.class == Some(Class::Read))
        .or_else(|| found.iter().find(|f| f.class.is_some()))
        .unwrap_or(&found[0]);
    let mut kinds: Vec<&str> = Vec::new();
    for f in found.iter().filter(|f| f.class.is_some()) {
        let kind = match f.class {
            Some(Class::Hide) => "an instruction to hide or override",
            Some(Class::Read) => "a request to read a sensitive file",
            _ => "a way to send data out",
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let mut d = Diagnostic::new(
        &sec::TOOL_POISONING,
        &primary.file,
        primary.span,
        format!("this tool is poisoned: it combines {}", and_list(&kinds)),
    )
    .label(primary.what.clone());
    for f in found
        .iter()
        .filter(|f| !std::ptr::eq(*f, primary))
        .take(MAX_RELATED)
    {
        d = d.related(
            &f.file,
            f.span,
            format!("{}: \"{}\"", f.what, quote(&f.quoted)),
        );
    }
    d.note("independent signs in one tool (a sensitive file, a way to send it out, an instruction to keep it from the user) are how tool-poisoning attacks read: the model follows them when it reads the tool list, even if the tool is never called")
        .help("remove the instructions from the tool's texts and the side-channel parameters; check who added them")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    /// A signal is taken exactly when it overlaps no finding before it and no signal taken,
    /// as comparing it with each of them says; however they nest, touch or are empty.
    #[test]
    fn a_place_is_taken_as_comparing_with_each_says() {
        let file = Arc::new(SourceFile::new(
            "f".into(),
            "f".into(),
            FormatId::AgentSkill,
            String::new(),
        ));
        let seed = std::cell::Cell::new(11u64);
        let next = |n: u64| {
            seed.set(
                seed.get()
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1),
            );
            ((seed.get() >> 33) % n) as usize
        };
        let span = || {
            let start = next(60);
            Span::new(start, start + next(8))
        };
        for _ in 0..50 {
            let found: Vec<Finding> = (0..next(12))
                .map(|_| Finding {
                    file: Arc::clone(&file),
                    kind: TextKind::Description,
                    span: span(),
                    rule: &sec::EXFILTRATION,
                    class: Some(Class::Send),
                    what: String::new(),
                    quoted: String::new(),
                    message: None,
                })
                .collect();
            let mut all: Vec<Span> = found.iter().map(|f| f.span).collect();
            let mut taken = Taken::of(&found);
            for _ in 0..30 {
                let s = span();
                let free = !all.iter().any(|t| overlaps(*t, s));
                assert_eq!(
                    taken.take(&file, Class::Send, s),
                    free,
                    "{s:?} among {all:?}"
                );
                if free {
                    all.push(s);
                }
            }
        }
    }
}
