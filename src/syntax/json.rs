//! JSON → [`Node`] via `jsonc-parser` with every extension turned off (strict JSON).

use std::collections::HashMap;

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::errors::ParseErrorKind;
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};

use super::{
    Entry, Explain, MAX_DEPTH, Node, NodeKind, Number, Parsed, SyntaxError, SyntaxErrorKind,
};
use crate::source::Span;

fn strict() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parse `text` (a slice of a file starting at byte `base`) as one strict JSON value.
pub fn parse(text: &str, base: usize) -> Parsed {
    parse_with(text, base, &strict())
}

/// Parse `text` as JSON with comments and trailing commas, as VS Code reads its
/// `.vscode/*.json` files.
pub fn parse_jsonc(text: &str, base: usize) -> Parsed {
    let options = ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        ..strict()
    };
    parse_with(text, base, &options)
}

fn parse_with(text: &str, base: usize, options: &ParseOptions) -> Parsed {
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    let mut out = Parsed::default();
    match jsonc_parser::parse_to_ast(text, &collect, options) {
        Ok(result) => match result.value {
            Some(value) => {
                let mut ctx = Lower {
                    text,
                    base,
                    errors: &mut out.errors,
                };
                out.root = ctx.lower(value, 0);
            }
            None => out.errors.push(SyntaxError {
                kind: SyntaxErrorKind::Json,
                message: "the file holds no JSON value".into(),
                span: Span::point(base),
                related: None,
                explain: None,
            }),
        },
        Err(err) => {
            let range = err.range();
            let opener = |what: &Unclosed| text.as_bytes().get(range.start) == Some(&what.open);
            out.errors.push(match unclosed(err.kind()).filter(opener) {
                // The parser spans the whole unclosed value: the missing closer belongs at
                // the end, and the opener is what to match it with.
                Some(what) => SyntaxError {
                    kind: SyntaxErrorKind::Json,
                    message: format!(
                        "unterminated {}: the file ends before its closing `{}`",
                        what.name, what.close
                    ),
                    span: Span::point(text.trim_end().len()).shifted(base),
                    related: Some((
                        Span::new(range.start, range.start + 1).shifted(base),
                        format!("this `{}` is never closed", char::from(what.open)),
                    )),
                    explain: Some(what.explain),
                },
                None => {
                    let message = err.kind().to_string();
                    let kind = if message.contains("nesting depth") {
                        SyntaxErrorKind::TooDeep
                    } else {
                        SyntaxErrorKind::Json
                    };
                    SyntaxError {
                        kind,
                        message: lowercase_first(&message),
                        span: Span::new(range.start, range.end.max(range.start)).shifted(base),
                        related: None,
                        explain: None,
                    }
                }
            });
        }
    }
    out
}

/// An object or array the file ends inside.
struct Unclosed {
    name: &'static str,
    open: u8,
    close: char,
    explain: Explain,
}

fn unclosed(kind: &ParseErrorKind) -> Option<Unclosed> {
    match kind {
        ParseErrorKind::UnterminatedObject => Some(Unclosed {
            name: "object",
            open: b'{',
            close: '}',
            explain: Explain {
                label: "expected `}` here",
                help: "add the `}` that closes the object where its members end",
            },
        }),
        ParseErrorKind::UnterminatedArray => Some(Unclosed {
            name: "array",
            open: b'[',
            close: ']',
            explain: Explain {
                label: "expected `]` here",
                help: "add the `]` that closes the array where its items end",
            },
        }),
        _ => None,
    }
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

struct Lower<'e> {
    text: &'e str,
    base: usize,
    errors: &'e mut Vec<SyntaxError>,
}

impl Lower<'_> {
    fn span(&self, r: jsonc_parser::common::Range) -> Span {
        Span::new(r.start, r.end).shifted(self.base)
    }

    /// A raw control character (U+0000–U+001F) inside the string at `r` is an error: JSON
    /// requires them escaped, and the runtimes' decoders (Go's, Python's, Node's) refuse the
    /// file, while jsonc-parser reads it.
    fn check_raw_controls(&mut self, r: jsonc_parser::common::Range) {
        let Some(raw) = self.text.get(r.start..r.end) else {
            return;
        };
        if let Some(at) = raw.bytes().position(|b| b < 0x20) {
            let byte = raw.as_bytes()[at];
            let escape = match byte {
                b'\n' => "`\\n`",
                b'\t' => "`\\t`",
                b'\r' => "`\\r`",
                _ => "`\\u00XX`",
            };
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::Json,
                message: format!(
                    "a raw control character (U+{byte:04X}) inside a string: JSON requires it escaped, as {escape}"
                ),
                span: Span::new(r.start + at, r.start + at + 1).shifted(self.base),
                related: None,
                explain: None,
            });
        }
    }

    fn lower(&mut self, value: Value<'_>, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            let span = match &value {
                Value::Object(o) => self.span(o.range),
                Value::Array(a) => self.span(a.range),
                _ => Span::point(self.base),
            };
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::TooDeep,
                message: format!("the document is nested deeper than {MAX_DEPTH} levels"),
                span: Span::point(span.start),
                related: None,
                explain: None,
            });
            return None;
        }
        Some(match value {
            Value::StringLit(s) => {
                self.check_raw_controls(s.range);
                Node::new(self.span(s.range), NodeKind::String(s.value.into_owned()))
            }
            Value::NumberLit(n) => {
                let number = n
                    .value
                    .parse::<i64>()
                    .map(Number::Int)
                    .unwrap_or_else(|_| Number::Float(n.value.parse().unwrap_or(f64::NAN)));
                Node::new(self.span(n.range), NodeKind::Number(number))
            }
            Value::BooleanLit(b) => Node::new(self.span(b.range), NodeKind::Bool(b.value)),
            Value::NullKeyword(n) => Node::new(self.span(n.range), NodeKind::Null),
            Value::Array(a) => {
                let span = self.span(a.range);
                let mut items = Vec::with_capacity(a.elements.len());
                for element in a.elements {
                    items.push(self.lower(element, depth + 1)?);
                }
                Node::new(span, NodeKind::Seq(items))
            }
            Value::Object(o) => {
                let span = self.span(o.range);
                let mut entries = Vec::with_capacity(o.properties.len());
                let mut seen: HashMap<String, Span> = HashMap::new();
                for prop in o.properties {
                    let (key, key_span) = match prop.name {
                        ObjectPropName::String(s) => {
                            self.check_raw_controls(s.range);
                            (s.value.into_owned(), self.span(s.range))
                        }
                        ObjectPropName::Word(w) => (w.value.to_string(), self.span(w.range)),
                    };
                    let value = self.lower(prop.value, depth + 1)?;
                    if let Some(first) = seen.get(&key) {
                        self.errors.push(SyntaxError {
                            kind: SyntaxErrorKind::DuplicateKey,
                            message: format!("duplicate key `{key}`"),
                            span: key_span,
                            related: Some((*first, "first defined here".into())),
                            explain: None,
                        });
                        continue;
                    }
                    seen.insert(key.clone(), key_span);
                    entries.push(Entry {
                        key,
                        key_span,
                        value,
                    });
                }
                Node::new(span, NodeKind::Map(entries))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_duplicates() {
        let parsed = parse(r#"{"a": 1, "b": [true, null], "a": 2}"#, 5);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].span, Span::new(5 + 28, 5 + 31));
        let root = parsed.root.unwrap();
        assert_eq!(root.get("b").unwrap().value.span, Span::new(5 + 14, 5 + 26));
    }

    #[test]
    fn syntax_error_position() {
        let parsed = parse("{\n  \"a\": 1,\n}", 0);
        assert!(parsed.root.is_none());
        assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::Json);
        assert!(parsed.errors[0].span.start >= 10, "{:?}", parsed.errors[0]);
    }

    #[test]
    fn a_file_ending_inside_an_object_or_array_points_at_its_end_and_its_opener() {
        for (text, open, close) in [
            ("{\n  \"a\": {\"b\": 1}\n\n", 0, '}'),
            ("[1, [2, 3]\n", 0, ']'),
            ("{\"a\": [1, 2", 6, ']'),
        ] {
            let parsed = parse(text, 10);
            let e = &parsed.errors[0];
            assert_eq!(e.kind, SyntaxErrorKind::Json, "{text:?}");
            assert_eq!(e.span, Span::point(10 + text.trim_end().len()), "{text:?}");
            let (at, message) = e.related.as_ref().expect("the opener");
            assert_eq!(*at, Span::new(10 + open, 10 + open + 1), "{text:?}");
            assert!(message.contains("never closed"), "{message}");
            let explain = e.explain.expect("a label and a help");
            assert!(explain.label.contains(close), "{text:?}");
            assert!(e.message.contains(close), "{}", e.message);
        }
    }

    #[test]
    fn raw_control_characters_in_strings_are_errors() {
        let parsed = parse("{\"a\tb\": \"x\ny\", \"ok\": \"\\t\"}", 0);
        let found: Vec<(usize, &str)> = parsed
            .errors
            .iter()
            .map(|e| (e.span.start, e.message.as_str()))
            .collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(found[0].1.contains("U+0009"), "{found:?}");
        assert_eq!(found[1].0, 10);
        assert!(found[1].1.contains("`\\n`"), "{found:?}");
        // The values are still read, so the rest of the file is checked.
        assert!(parsed.root.is_some());
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let parsed = parse(&deep, 0);
        assert!(parsed.root.is_none());
        assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::TooDeep);
    }
}
