//! The `{…}` template scanner: finds parameter and step-output references in a command,
//! and nothing else.
//!
//! cycod substitutes `{NAME}`, `{RAW:NAME}` and `{step.property}` by plain text replacement,
//! so the scanner only has to tell those apart from the other braces a shell script is full
//! of: jq programs (`{author: .name}`), JSON bodies and heredocs (`{ "a": 1 }`), shell
//! expansions (`${VAR}`) and positional templates (`{0}`). Anything whose inside is not a
//! name, a `RAW:` name or a `step.property` pair is not a reference.

/// The properties of a step that `{step.property}` may read.
pub(crate) const STEP_PROPERTIES: &[&str] = &["output", "stdout", "stderr", "exit-code"];

/// What a reference refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// `{NAME}` or, with `raw`, `{RAW:NAME}`.
    Param {
        /// The parameter name.
        name: &'a str,
        /// True for `{RAW:NAME}` (inserted without escaping).
        raw: bool,
    },
    /// `{step.property}`.
    Step {
        /// The step name.
        step: &'a str,
        /// The property after the dot.
        property: &'a str,
    },
}

/// One reference found in a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reference<'a> {
    /// Byte offset of the `{` in the value.
    pub at: usize,
    /// The whole reference, braces included.
    pub text: &'a str,
    /// What it refers to.
    pub target: Target<'a>,
}

/// Every reference in `value`, in order.
pub(crate) fn scan(value: &str) -> Vec<Reference<'_>> {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rel) = value.get(i..).and_then(|rest| rest.find('{')) {
        let open = i + rel;
        i = open + 1;
        // `${VAR}` is the shell's, not cycod's.
        if open > 0 && bytes[open - 1] == b'$' {
            continue;
        }
        let Some(len) = value[open + 1..].find(['{', '}']) else {
            break;
        };
        let close = open + 1 + len;
        if bytes[close] == b'{' {
            // A nested opening brace: the reference, if any, starts there.
            continue;
        }
        let inner = &value[open + 1..close];
        if let Some(target) = classify(inner) {
            out.push(Reference {
                at: open,
                text: &value[open..=close],
                target,
            });
            i = close + 1;
        }
    }
    out
}

/// The target of a brace body, if it has the shape of a reference.
fn classify(inner: &str) -> Option<Target<'_>> {
    if let Some(name) = inner.strip_prefix("RAW:") {
        return is_name(name).then_some(Target::Param { name, raw: true });
    }
    if let Some((step, property)) = inner.split_once('.') {
        let step_ok = !step.is_empty()
            && step
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        let property_ok = !property.is_empty()
            && property
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        return (step_ok && property_ok).then_some(Target::Step { step, property });
    }
    is_name(inner).then_some(Target::Param {
        name: inner,
        raw: false,
    })
}

/// A parameter name: a letter or `_`, then letters, digits, `_` or `-`.
pub(crate) fn is_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(value: &str) -> Vec<&str> {
        scan(value).iter().map(|r| r.text).collect()
    }

    #[test]
    fn finds_parameters_raw_and_steps() {
        assert_eq!(
            targets("grep -r {CASE} \"{PATTERN}\" {RAW:DIR} {step1.output}"),
            ["{CASE}", "{PATTERN}", "{RAW:DIR}", "{step1.output}"]
        );
        let r = scan("x {fetch-commits.exit-code}");
        assert_eq!(
            r[0].target,
            Target::Step {
                step: "fetch-commits",
                property: "exit-code"
            }
        );
        assert_eq!(r[0].at, 2);
    }

    #[test]
    fn ignores_other_braces() {
        // jq programs, JSON bodies, shell expansions, positional templates, empty braces.
        let jq = "jq 'map({author: .[0].commit.author.name, count: length})'";
        assert!(scan(jq).is_empty());
        assert!(scan("jq -r '.[] | \"\\(.author): \\(.count) commits\"'").is_empty());
        assert!(scan("{\n  \"commit_id\": 1\n}").is_empty());
        assert!(scan("PATH=${PATH}:/usr/local/bin ${EXAMPLE_BLOCK}").is_empty());
        assert!(scan("{0} {1} {} { } {RAW:} {.name}").is_empty());
    }

    #[test]
    fn nested_braces_find_the_inner_reference() {
        assert_eq!(
            targets("{\"sections\": {SECTIONS}, \"x\": 1}"),
            ["{SECTIONS}"]
        );
        assert_eq!(targets("{{NAME}}"), ["{NAME}"]);
        assert_eq!(targets("{ unclosed {A"), Vec::<&str>::new());
    }

    #[test]
    fn random_text_does_not_panic() {
        let alphabet: Vec<char> = "{}$.:RAW_aZ9-é日 ".chars().collect();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(state % 30) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            for r in scan(&text) {
                assert_eq!(text.get(r.at..r.at + r.text.len()), Some(r.text));
            }
        }
    }

    #[test]
    fn multibyte_text_is_safe() {
        assert_eq!(targets("é{Ü} {ÉTÉ} ü{A}"), ["{A}"]);
    }
}
