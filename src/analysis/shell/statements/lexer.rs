//! The reading of a script into statements, a character at a time: quotes removed from
//! words, substitutions kept as written, here-document bodies found on the lines after their
//! operator, and the limits of [`super::Limits`] kept.

use super::substitutions::balanced;
use super::{Limits, MAX_STAGES, Read, RedirectKind, Redirection, Stage, Statement, Token};
use crate::source::Span;

/// The statements of `script` as far as `limits` go.
pub(super) fn read(script: &str, limits: Limits) -> Read {
    let mut lexer = Lexer {
        s: script,
        b: script.as_bytes(),
        i: 0,
        limits,
        out: Vec::new(),
        statement: Statement::default(),
        stage: Stage::default(),
        stages: 0,
        words: 0,
        unread: None,
        heredocs: Vec::new(),
    };
    lexer.run();
    Read {
        statements: lexer.out,
        stopped: lexer.i,
        unread: lexer.unread,
        words: lexer.words,
    }
}

/// A here-document whose body starts on the next line: its delimiter and where its
/// redirection is (statement, stage, redirection; the statement may still be open).
struct Pending {
    delimiter: String,
    strip_tabs: bool,
    at: (usize, usize, usize),
}

struct Lexer<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    limits: Limits,
    out: Vec<Statement>,
    statement: Statement,
    stage: Stage,
    /// Stages read so far, in all statements.
    stages: usize,
    /// Words and redirections kept so far, in all statements.
    words: usize,
    /// Where the first part left unread starts.
    unread: Option<usize>,
    heredocs: Vec<Pending>,
}

impl Lexer<'_> {
    fn run(&mut self) {
        while self.i < self.b.len() {
            // A here-document still waiting for its body belongs to a statement read.
            let full = self.out.len() > self.limits.statements
                || self.stages > MAX_STAGES
                || self.words >= self.limits.words;
            if full && self.heredocs.is_empty() {
                // The statement being read ends where the reading does.
                self.end_statement();
                self.left_unread(self.i);
                return;
            }
            let c = self.b[self.i];
            let next = self.b.get(self.i + 1).copied();
            match c {
                b' ' | b'\t' | b'\r' | b'(' | b')' => self.i += 1,
                b'\\' if next == Some(b'\n') => self.i += 2,
                b'\\' if next == Some(b'\r') && self.b.get(self.i + 2) == Some(&b'\n') => {
                    self.i += 3;
                }
                b'#' => {
                    self.i = self.s[self.i..]
                        .find('\n')
                        .map_or(self.b.len(), |n| self.i + n);
                }
                b'\n' => {
                    self.end_statement();
                    self.i += 1;
                    self.heredoc_bodies();
                }
                b';' => {
                    self.end_statement();
                    self.i += 1;
                }
                b'&' if next == Some(b'&') => {
                    self.end_statement();
                    self.i += 2;
                }
                b'|' if next == Some(b'|') => {
                    self.end_statement();
                    self.i += 2;
                }
                b'|' => {
                    self.end_stage();
                    self.i += if next == Some(b'&') { 2 } else { 1 };
                }
                b'&' if next == Some(b'>') => self.redirect(),
                b'&' => {
                    self.end_statement();
                    self.i += 1;
                }
                b'<' | b'>' if next == Some(b'(') => self.word(),
                b'<' | b'>' => self.redirect(),
                b'0'..=b'9' if self.descriptor_redirect() => self.redirect(),
                _ => self.word(),
            }
        }
        self.end_statement();
    }

    /// `2>`, `1>>`: digits directly followed by a redirection.
    fn descriptor_redirect(&self) -> bool {
        let digits = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        matches!(self.b.get(self.i + digits), Some(b'<' | b'>'))
    }

    /// Whether one more word or redirection may be kept; if not, what starts at `at` is
    /// the first left unread (it is still read past, to find where its statement ends).
    fn room(&mut self, at: usize) -> bool {
        if self.words < self.limits.words {
            self.words += 1;
            return true;
        }
        self.unread.get_or_insert(at);
        false
    }

    /// What is left from `at` is not read, unless it is only blank.
    fn left_unread(&mut self, at: usize) {
        let rest = self.s.get(at..).unwrap_or("");
        let blank = rest.len() - rest.trim_start().len();
        if blank < rest.len() {
            self.unread.get_or_insert(at + blank);
        }
    }

    fn word(&mut self) {
        let at = self.i;
        if let Some(t) = self.token() {
            if !self.room(at) {
                return;
            }
            if self.stage.words.is_empty() && self.stage.redirects.is_empty() {
                self.stage.start = t.start;
            }
            self.stage.end = t.end;
            self.stage.words.push(t);
        }
    }

    fn redirect(&mut self) {
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        if self.b.get(self.i) == Some(&b'&') {
            self.i += 1;
        }
        let op_start = self.i;
        while self.i < self.b.len() && matches!(self.b[self.i], b'<' | b'>' | b'|' | b'-') {
            // `<<-` strips tabs; `>|` overrides noclobber; nothing else continues an operator.
            let c = self.b[self.i];
            if c == b'-' && &self.s[op_start..self.i] != "<<" {
                break;
            }
            if c == b'|' && &self.s[op_start..self.i] != ">" {
                break;
            }
            self.i += 1;
        }
        let op = &self.s[op_start..self.i];
        // `>&2`, `2>&1`, `<&3`: a descriptor duplicated, no file.
        if self.b.get(self.i) == Some(&b'&') {
            self.i += 1;
            while self.i < self.b.len()
                && (self.b[self.i].is_ascii_digit() || self.b[self.i] == b'-')
            {
                self.i += 1;
            }
            return;
        }
        let kind = match op {
            "<" | "<>" => RedirectKind::Read,
            "<<<" => RedirectKind::HereString,
            "<<" | "<<-" => RedirectKind::HereDoc,
            ">>" => RedirectKind::Append,
            _ => RedirectKind::Write,
        };
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t') {
            self.i += 1;
        }
        let target = match self.b.get(self.i) {
            Some(b'\n' | b';' | b'|' | b'&' | b'<' | b'>') | None => None,
            _ => self.token(),
        };
        if !self.room(start) {
            return;
        }
        if self.stage.words.is_empty() && self.stage.redirects.is_empty() {
            self.stage.start = start;
        }
        self.stage.end = target.as_ref().map_or(self.i, |t| t.end);
        if kind == RedirectKind::HereDoc
            && let Some(t) = &target
        {
            self.heredocs.push(Pending {
                delimiter: t.text.clone(),
                strip_tabs: op == "<<-",
                at: (
                    self.out.len(),
                    self.statement.stages.len(),
                    self.stage.redirects.len(),
                ),
            });
        }
        self.stage.redirects.push(Redirection {
            kind,
            start,
            target,
            body: None,
        });
    }

    /// A word from `self.i`: quotes removed, substitutions kept as written.
    fn token(&mut self) -> Option<Token> {
        let start = self.i;
        let mut text = String::new();
        while self.i < self.b.len() {
            let c = self.b[self.i];
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b')' => break,
                b'(' if self.i == start => break,
                b'<' | b'>' if self.b.get(self.i + 1) != Some(&b'(') => break,
                b'\'' => {
                    let close = self.s[self.i + 1..]
                        .find('\'')
                        .map_or(self.b.len(), |n| self.i + 1 + n);
                    text.push_str(&self.s[self.i + 1..close]);
                    self.i = (close + 1).min(self.b.len());
                }
                b'"' => self.double_quoted(&mut text),
                b'\\' => {
                    let rest = &self.s[self.i + 1..];
                    match rest.chars().next() {
                        Some('\n') => self.i += 2,
                        Some(ch) => {
                            text.push(ch);
                            self.i += 1 + ch.len_utf8();
                        }
                        None => self.i += 1,
                    }
                }
                b'$' | b'<' | b'>' if self.b.get(self.i + 1) == Some(&b'(') => {
                    let end = balanced(self.b, self.i + 2, b'(', b')', 0);
                    text.push_str(&self.s[self.i..end]);
                    self.i = end;
                }
                b'$' if self.b.get(self.i + 1) == Some(&b'{') => {
                    let end = balanced(self.b, self.i + 2, b'{', b'}', 0);
                    text.push_str(&self.s[self.i..end]);
                    self.i = end;
                }
                b'`' => self.backquoted(&mut text),
                _ => self.one_char(&mut text),
            }
        }
        if self.i == start {
            // A character no branch consumed (a lone `(`): step over it.
            self.i += 1;
            return None;
        }
        Some(Token {
            start,
            end: self.i,
            text,
        })
    }

    /// A command substitution in backquotes from the one at `self.i`, kept as written (to
    /// the end of the text when it is not closed).
    fn backquoted(&mut self, text: &mut String) {
        let close = self.s[self.i + 1..]
            .find('`')
            .map_or(self.b.len(), |n| self.i + 1 + n);
        let end = (close + 1).min(self.b.len());
        text.push_str(&self.s[self.i..end]);
        self.i = end;
    }

    /// The character at `self.i`, kept.
    fn one_char(&mut self, text: &mut String) {
        let ch = self.s[self.i..].chars().next().unwrap_or(' ');
        text.push(ch);
        self.i += ch.len_utf8();
    }

    /// The inside of `"…"` from the opening quote at `self.i`.
    fn double_quoted(&mut self, text: &mut String) {
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    self.i += 1;
                    return;
                }
                b'\\' => {
                    let rest = &self.s[self.i + 1..];
                    match rest.chars().next() {
                        Some(ch @ ('"' | '\\' | '$' | '`')) => {
                            text.push(ch);
                            self.i += 2;
                        }
                        Some('\n') => self.i += 2,
                        _ => {
                            text.push('\\');
                            self.i += 1;
                        }
                    }
                }
                b'$' if matches!(self.b.get(self.i + 1), Some(b'(' | b'{')) => {
                    let (open, close) = if self.b[self.i + 1] == b'(' {
                        (b'(', b')')
                    } else {
                        (b'{', b'}')
                    };
                    let end = balanced(self.b, self.i + 2, open, close, 0);
                    text.push_str(&self.s[self.i..end]);
                    self.i = end;
                }
                b'`' => self.backquoted(text),
                _ => self.one_char(text),
            }
        }
    }

    fn end_stage(&mut self) {
        let mut stage = std::mem::take(&mut self.stage);
        if !stage.words.is_empty() || !stage.redirects.is_empty() {
            // In exact room: a pipeline of a million stages of two words each held room
            // for four.
            stage.words.shrink_to_fit();
            self.statement.stages.push(stage);
            self.stages += 1;
        }
    }

    fn end_statement(&mut self) {
        self.end_stage();
        let mut statement = std::mem::take(&mut self.statement);
        statement.stages.shrink_to_fit();
        if !statement.stages.is_empty() {
            self.out.push(statement);
        }
    }

    /// The bodies of the here-documents opened on the line just ended, from `self.i`.
    fn heredoc_bodies(&mut self) {
        for doc in std::mem::take(&mut self.heredocs) {
            let body_start = self.i;
            let mut body_end = self.b.len();
            while self.i < self.b.len() {
                let line_end = self.s[self.i..]
                    .find('\n')
                    .map_or(self.b.len(), |n| self.i + n);
                let line = self.s[self.i..line_end].trim_end_matches('\r');
                let line = if doc.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                let at = self.i;
                self.i = (line_end + 1).min(self.b.len());
                if line.trim() == doc.delimiter {
                    body_end = at;
                    break;
                }
            }
            let (s, g, r) = doc.at;
            let redirect = self
                .out
                .get_mut(s)
                .and_then(|st| st.stages.get_mut(g))
                .and_then(|st| st.redirects.get_mut(r));
            if let Some(redirect) = redirect {
                redirect.body = Some(Span::new(body_start, body_end.max(body_start)));
            }
        }
    }
}
