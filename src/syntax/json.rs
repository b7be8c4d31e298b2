//! JSON → [`Node`], straight from `jsonc-parser`'s scanner with every extension turned off
//! (strict JSON), or with comments and trailing commas (VS Code's `jsonc`).
//!
//! Why not `jsonc-parser`'s own tree: it is built whole before ours, and the two together
//! took about fifty times the size of a dense file (`[1,1,1,…]`) at their peak. Here the
//! scanner's tokens (strings unescaped, numbers checked) become [`Node`]s as they come, so
//! the only tree ever held is ours.

use jsonc_parser::errors::{ParseError, ParseErrorKind};
use jsonc_parser::tokens::Token;
use jsonc_parser::{Scanner, ScannerOptions};

use super::{
    Entry, Explain, MAX_DEPTH, Node, NodeKind, Number, Parsed, SeqBuilder, SyntaxError,
    SyntaxErrorKind,
};
use crate::source::Span;

/// What the text may hold beyond strict JSON.
#[derive(Debug, Clone, Copy)]
struct Extensions {
    comments: bool,
    trailing_commas: bool,
}

/// Parse `text` (a slice of a file starting at byte `base`) as one strict JSON value.
pub(crate) fn parse(text: &str, base: usize) -> Parsed {
    let strict = Extensions {
        comments: false,
        trailing_commas: false,
    };
    parse_with(text, base, strict, Held::AsRead)
}

/// Parse `text` as JSON with comments and trailing commas, as VS Code reads its
/// `.vscode/*.json` files.
pub(crate) fn parse_jsonc(text: &str, base: usize) -> Parsed {
    let jsonc = Extensions {
        comments: true,
        trailing_commas: true,
    };
    parse_with(text, base, jsonc, Held::AsRead)
}

/// Parse `text` as [`parse_jsonc`] does, for a reader that reads each long mapping one
/// entry at a time ([`super::Map::scan`]): every long mapping is packed, however little
/// text its entries have (a lock of 400,000 servers `"1":{}` held nine times the file).
pub(crate) fn parse_jsonc_scanned(text: &str, base: usize) -> Parsed {
    let jsonc = Extensions {
        comments: true,
        trailing_commas: true,
    };
    parse_with(text, base, jsonc, Held::Scanned)
}

/// How the tree will be read, which sets how its long mappings are held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// By readers of slices too: mappings are packed only when entries would take many
    /// times their text.
    AsRead,
    /// One entry at a time: long mappings are always packed.
    Scanned,
}

fn parse_with(text: &str, base: usize, extensions: Extensions, held: Held) -> Parsed {
    let strict = ScannerOptions {
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let mut parser = Parser {
        scanner: Scanner::new(text, &strict),
        text,
        base,
        extensions,
        held,
        token: None,
        last_end: 0,
        found: Vec::new(),
        repeats: super::Repeats::default(),
        sizes: container_sizes(text, &strict),
        opened: 0,
    };
    let mut out = Parsed::default();
    match parser.document() {
        // What was found on the way counts only in a file that parses, as before a tree.
        Ok(Some(root)) => {
            out.root = Some(root);
            out.errors = parser.found;
            let (repeats, left_out) = parser.repeats.finish();
            out.errors.extend(repeats);
            out.repeats_left_out = left_out;
            out.errors.sort_by_key(|e| e.span.start);
        }
        Ok(None) => out.errors.push(SyntaxError {
            kind: SyntaxErrorKind::Json,
            message: "the file holds no JSON value".into(),
            span: Span::point(base),
            related: None,
            explain: None,
        }),
        Err(Stop::TooDeep { at }) => out.errors.push(SyntaxError {
            kind: SyntaxErrorKind::TooDeep,
            message: format!("the document is nested deeper than {MAX_DEPTH} levels"),
            span: Span::point(at + base),
            related: None,
            explain: None,
        }),
        Err(Stop::Syntax(e)) => out.errors.push(syntax_error(text, base, &e)),
    }
    out
}

/// Why parsing stopped.
enum Stop {
    /// The text is not JSON here.
    Syntax(Failure),
    /// A container opens deeper than [`MAX_DEPTH`], at this byte.
    TooDeep { at: usize },
}

/// A syntax error: the bytes and what is wrong with them (`jsonc-parser`'s words).
struct Failure {
    start: usize,
    end: usize,
    message: String,
    /// Set when the file ends inside an object or array.
    unclosed: Option<Unclosed>,
}

impl Failure {
    fn new(start: usize, end: usize, kind: &ParseErrorKind) -> Failure {
        Failure {
            start,
            end: end.max(start),
            message: kind.to_string(),
            unclosed: unclosed(kind),
        }
    }
}

impl From<ParseError> for Stop {
    fn from(e: ParseError) -> Stop {
        let range = e.range();
        Stop::Syntax(Failure::new(range.start, range.end, e.kind()))
    }
}

fn syntax_error(text: &str, base: usize, e: &Failure) -> SyntaxError {
    let opener = |what: &&Unclosed| text.as_bytes().get(e.start) == Some(&what.open);
    match e.unclosed.as_ref().filter(opener) {
        // The error spans the whole unclosed value: the missing closer belongs at the end,
        // and the opener is what to match it with.
        Some(what) => SyntaxError {
            kind: SyntaxErrorKind::Json,
            message: format!(
                "unterminated {}: the file ends before its closing `{}`",
                what.name, what.close
            ),
            span: Span::point(text.trim_end().len()).shifted(base),
            related: Some((
                Span::new(e.start, e.start + 1).shifted(base),
                format!("this `{}` is never closed", char::from(what.open)),
            )),
            explain: Some(what.explain),
        },
        None => {
            let kind = if e.message.contains("nesting depth") {
                SyntaxErrorKind::TooDeep
            } else {
                SyntaxErrorKind::Json
            };
            SyntaxError {
                kind,
                message: lowercase_first(&e.message),
                span: Span::new(e.start, e.end).shifted(base),
                related: None,
                explain: None,
            }
        }
    }
}

/// An object or array the file ends inside.
#[derive(Debug, Clone, Copy)]
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

/// A raw control character (U+0000–U+001F) inside the string at `start..end` is an error:
/// JSON requires them escaped, and the runtimes' decoders (Go's, Python's, Node's) refuse
/// the file, while the scanner reads it.
fn raw_control(text: &str, start: usize, end: usize, base: usize) -> Option<SyntaxError> {
    let raw = text.get(start..end)?;
    let at = raw.bytes().position(|b| b < 0x20)?;
    let byte = raw.as_bytes()[at];
    let escape = match byte {
        b'\n' => "`\\n`",
        b'\t' => "`\\t`",
        b'\r' => "`\\r`",
        _ => "`\\u00XX`",
    };
    Some(SyntaxError {
        kind: SyntaxErrorKind::Json,
        message: format!(
            "a raw control character (U+{byte:04X}) inside a string: JSON requires it escaped, as {escape}"
        ),
        span: Span::new(start + at, start + at + 1).shifted(base),
        related: None,
        explain: None,
    })
}

/// How many items (or members) each container of `text` holds, in the order they open, as
/// far as the text scans: the parse then gives each its exact room. Grown as it fills, a
/// list of millions of values was copied at its last doubling, old and new held together:
/// twice its size at the peak. The count is commas plus one (a trailing comma counts one
/// too many, which costs one slot).
fn container_sizes(text: &str, options: &ScannerOptions) -> Vec<u32> {
    let mut scanner = Scanner::new(text, options);
    let mut sizes: Vec<u32> = Vec::new();
    // The containers open around the scanner, by their index in `sizes`.
    let mut open: Vec<usize> = Vec::new();
    while let Ok(Some(token)) = scanner.scan() {
        if let Token::CommentLine(_) | Token::CommentBlock(_) = token {
            continue;
        }
        let closes = matches!(token, Token::CloseBrace | Token::CloseBracket);
        if let Some(&at) = open.last() {
            match token {
                Token::Comma => sizes[at] = sizes[at].saturating_add(1),
                _ if sizes[at] == 0 && !closes => sizes[at] = 1,
                _ => {}
            }
        }
        match token {
            Token::OpenBrace | Token::OpenBracket => {
                open.push(sizes.len());
                sizes.push(0);
            }
            _ if closes => {
                open.pop();
            }
            _ => {}
        }
    }
    sizes
}

/// True when `token` after an item (`in_array`) or member can only start the next one: a
/// comma is missing before it.
fn starts_next(token: &Token<'_>, in_array: bool) -> bool {
    match token {
        Token::String(_) | Token::Number(_) | Token::Boolean(_) | Token::Null => true,
        Token::OpenBrace | Token::OpenBracket => in_array,
        Token::Word(_) => !in_array,
        _ => false,
    }
}

/// A recursive-descent parser over the scanner's tokens, one token of look-ahead: `token`
/// is the current token, and a value's parse ends on its last token.
struct Parser<'t> {
    scanner: Scanner<'t>,
    text: &'t str,
    base: usize,
    extensions: Extensions,
    held: Held,
    token: Option<Token<'t>>,
    /// End of the last token that was not a comment.
    last_end: usize,
    /// Errors that do not stop the parse (raw controls, duplicate keys).
    found: Vec<SyntaxError>,
    /// The repeated keys found so far.
    repeats: super::Repeats,
    /// How many items or members each container holds, in the order they open.
    sizes: Vec<u32>,
    /// Containers opened so far.
    opened: usize,
}

impl<'t> Parser<'t> {
    /// The whole text: one value and nothing after it; `None` when it holds none.
    fn document(&mut self) -> Result<Option<Node>, Stop> {
        self.next()?;
        let Some(root) = self.value(0)? else {
            return Ok(None);
        };
        self.next()?;
        if self.token.is_some() {
            return Err(self.here(&ParseErrorKind::MultipleRootJsonValues));
        }
        Ok(Some(root))
    }

    /// Move to the next token that is not a comment.
    fn next(&mut self) -> Result<(), Stop> {
        loop {
            let token = self.scanner.scan()?;
            if let Some(Token::CommentLine(_) | Token::CommentBlock(_)) = token {
                if !self.extensions.comments {
                    return Err(self.here(&ParseErrorKind::CommentsNotAllowed));
                }
                continue;
            }
            self.last_end = self.scanner.token_end();
            self.token = token;
            return Ok(());
        }
    }

    /// An error on the current token (or the character where the scanner stands).
    fn here(&self, kind: &ParseErrorKind) -> Stop {
        let start = self.scanner.token_start();
        let mut end = self.scanner.token_end();
        if end <= start {
            end = self.text[start..]
                .chars()
                .next()
                .map_or(self.text.len(), |c| start + c.len_utf8());
        }
        Stop::Syntax(Failure::new(start, end, kind))
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start, end).shifted(self.base)
    }

    /// The bytes of the current token.
    fn token_span(&self) -> Span {
        self.span(self.scanner.token_start(), self.scanner.token_end())
    }

    /// The value the current token starts, or `None` at the end of the text.
    fn value(&mut self, depth: usize) -> Result<Option<Node>, Stop> {
        let Some(token) = self.token.take() else {
            return Ok(None);
        };
        let (start, end) = (self.scanner.token_start(), self.scanner.token_end());
        let kind = match token {
            Token::OpenBrace => return self.object(depth).map(Some),
            Token::OpenBracket => return self.array(depth).map(Some),
            Token::String(s) => {
                self.check_controls(start, end);
                NodeKind::String(s.into())
            }
            Token::Number(n) => NodeKind::Number(
                n.parse::<i64>()
                    .map(Number::Int)
                    .unwrap_or_else(|_| Number::Float(n.parse().unwrap_or(f64::NAN))),
            ),
            Token::Boolean(b) => NodeKind::Bool(b),
            Token::Null => NodeKind::Null,
            other => {
                let kind = match other {
                    Token::CloseBracket => ParseErrorKind::UnexpectedCloseBracket,
                    Token::CloseBrace => ParseErrorKind::UnexpectedCloseBrace,
                    Token::Comma => ParseErrorKind::UnexpectedComma,
                    Token::Colon => ParseErrorKind::UnexpectedColon,
                    Token::Word(_) => ParseErrorKind::UnexpectedWord,
                    _ => ParseErrorKind::UnexpectedToken,
                };
                return Err(self.here(&kind));
            }
        };
        Ok(Some(Node::new(self.span(start, end), kind)))
    }

    fn check_controls(&mut self, start: usize, end: usize) {
        if let Some(e) = raw_control(self.text, start, end, self.base) {
            self.found.push(e);
        }
    }

    /// After an item or member: past its comma to the next one (or the closer), refusing a
    /// trailing comma in strict JSON and two values without a comma between them.
    fn separator(&mut self, closer: &Token<'_>) -> Result<(), Stop> {
        let after_value = self.last_end;
        self.next()?;
        let in_array = *closer == Token::CloseBracket;
        match &self.token {
            Some(Token::Comma) => {
                let comma = (self.scanner.token_start(), self.scanner.token_end());
                self.next()?;
                if self.token.as_ref() == Some(closer) && !self.extensions.trailing_commas {
                    return Err(Stop::Syntax(Failure::new(
                        comma.0,
                        comma.1,
                        &ParseErrorKind::TrailingCommasNotAllowed,
                    )));
                }
            }
            Some(token) if starts_next(token, in_array) => {
                return Err(Stop::Syntax(Failure::new(
                    after_value,
                    after_value,
                    &ParseErrorKind::ExpectedComma,
                )));
            }
            _ => {}
        }
        Ok(())
    }

    /// Open the container whose opener is the current token: where it starts, and how many
    /// items it holds (as counted before).
    fn enter(&mut self, depth: usize) -> Result<(usize, usize), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::TooDeep {
                at: self.scanner.token_start(),
            });
        }
        let size = self.sizes.get(self.opened).map_or(0, |&n| n as usize);
        self.opened += 1;
        Ok((self.scanner.token_start(), size))
    }

    /// The object whose `{` is the current token.
    fn object(&mut self, depth: usize) -> Result<Node, Stop> {
        let (start, size) = self.enter(depth)?;
        // Entries are packed relative to the mapping's start, as in a packed tree.
        let from = Node::new(self.span(start, start), NodeKind::Null)
            .span()
            .start;
        let mut entries = super::MapBuilder::with_capacity(size, from);
        if self.held == Held::Scanned {
            entries = entries.packed_when_long();
        }
        self.next()?;
        loop {
            match self.token.take() {
                Some(Token::CloseBrace) => break,
                Some(Token::String(key)) => {
                    let key_span = self.token_span();
                    self.check_controls(self.scanner.token_start(), self.scanner.token_end());
                    self.next()?;
                    if self.token != Some(Token::Colon) {
                        return Err(self.here(&ParseErrorKind::ExpectedColonAfterObjectKey));
                    }
                    self.next()?;
                    let Some(value) = self.value(depth + 1)? else {
                        return Err(self.here(&ParseErrorKind::ExpectedObjectValue));
                    };
                    entries.push(Entry::new(key.as_ref(), key_span, value), &mut self.repeats);
                }
                None => {
                    let end = self.scanner.token_end();
                    return Err(Stop::Syntax(Failure::new(
                        start,
                        end,
                        &ParseErrorKind::UnterminatedObject,
                    )));
                }
                Some(Token::Word(_) | Token::Number(_) | Token::Boolean(_) | Token::Null) => {
                    return Err(self.here(&ParseErrorKind::ExpectedStringObjectProperty));
                }
                Some(_) => return Err(self.here(&ParseErrorKind::UnexpectedTokenInObject)),
            }
            self.separator(&Token::CloseBrace)?;
        }
        let (entries, _) = entries.finish(&mut self.repeats);
        let span = self.span(start, self.scanner.token_end());
        Ok(Node::new(span, NodeKind::Map(entries)))
    }

    /// The array whose `[` is the current token.
    fn array(&mut self, depth: usize) -> Result<Node, Stop> {
        let (start, size) = self.enter(depth)?;
        // Items are packed relative to the list's start, as in a packed tree.
        let from = Node::new(self.span(start, start), NodeKind::Null)
            .span()
            .start;
        let mut items = SeqBuilder::with_capacity(size, from);
        self.next()?;
        loop {
            if self.token == Some(Token::CloseBracket) {
                break;
            }
            match self.value(depth + 1)? {
                Some(item) => items.push(item),
                None => {
                    let end = self.scanner.token_end();
                    return Err(Stop::Syntax(Failure::new(
                        start,
                        end,
                        &ParseErrorKind::UnterminatedArray,
                    )));
                }
            }
            self.separator(&Token::CloseBracket)?;
        }
        let span = self.span(start, self.scanner.token_end());
        Ok(Node::new(span, NodeKind::Seq(items.finish())))
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
