//! A POSIX shell script read as statements of pipelines of words, each word keeping its
//! command substitutions (`$(…)`, backticks), parameter expansions and process
//! substitutions inside it, and each redirection its target (a here-document its body).
//!
//! This is what the analysers of what a script does with data read: what a command sends
//! and where (`curl -d "$(env)" …`), what a variable holds when it runs later, which file a
//! later command runs. [`super::each_simple_command`] splits at substitutions instead, which
//! suits the checks of one command.

use crate::source::Span;

mod substitutions;

use substitutions::balanced;
pub(super) use substitutions::substitutions;

/// Substitutions read inside a word at most this deep: past that a word is taken as is.
const MAX_DEPTH: usize = 4;

/// A word of a command: where it is written and its text with quotes and escapes removed;
/// substitutions and expansions stay in the text as written (`$(env | grep KEY)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    /// Byte offset where its source starts.
    pub start: usize,
    /// Byte offset one past where its source ends.
    pub end: usize,
    /// The text after quote removal.
    pub text: String,
}

/// How a redirection uses its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RedirectKind {
    /// `<`: the file is read.
    Read,
    /// `>`, `>|`, `&>`: the file is written.
    Write,
    /// `>>`, `&>>`: the file is appended to.
    Append,
    /// `<<<`: the word is the input.
    HereString,
    /// `<<`: the lines up to the delimiter are the input.
    HereDoc,
}

/// A redirection of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Redirection {
    /// What it does.
    pub kind: RedirectKind,
    /// Byte offset of the operator.
    pub start: usize,
    /// The file, word or here-document delimiter that follows.
    pub target: Option<Token>,
    /// A here-document's body (the lines between the operator's line and the delimiter).
    pub body: Option<Span>,
}

/// One command of a pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Stage {
    /// Its words, the program first (after any assignments and prefixes).
    pub words: Vec<Token>,
    /// Its redirections.
    pub redirects: Vec<Redirection>,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset one past its last character.
    pub end: usize,
    /// [`Stage::program_index`], worked out once: the analysers ask it about 24 times for
    /// each stage (9 % of a skill of a million different blocks).
    program_at: ProgramAt,
}

/// A cache that takes no part in what a stage is (equal stages stay equal); filled once the
/// stage's words are all read.
#[derive(Debug, Clone, Default)]
struct ProgramAt(std::cell::OnceCell<Option<usize>>);

impl PartialEq for ProgramAt {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ProgramAt {}

/// A pipeline: commands joined by `|`, ended by a line break, `;`, `&&`, `||` or `&`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Statement {
    /// Its commands, in order.
    pub stages: Vec<Stage>,
}

impl Statement {
    /// Byte offset of its first character.
    pub(super) fn start(&self) -> usize {
        self.stages.first().map_or(0, |s| s.start)
    }

    /// Byte offset one past its last character.
    pub(super) fn end(&self) -> usize {
        self.stages.last().map_or(0, |s| s.end)
    }
}

/// Words that only prefix the program they run.
const PREFIXES: &[&str] = &[
    "sudo",
    "doas",
    "env",
    "command",
    "exec",
    "nohup",
    "time",
    "nice",
    "builtin",
    "setsid",
    "stdbuf",
    "caffeinate",
    "if",
    "then",
    "else",
    "elif",
    "do",
    "while",
    "until",
    "!",
];

impl Stage {
    /// Index of the word that names the program run, past assignments (`A=1`), prefixes
    /// (`sudo`, `env`, `nohup`) and their flags.
    pub(super) fn program_index(&self) -> Option<usize> {
        *self.program_at.0.get_or_init(|| self.find_program())
    }

    fn find_program(&self) -> Option<usize> {
        let mut i = 0;
        let mut after_prefix = false;
        // A prefix with nothing after it runs as itself (`env`, `time`).
        let mut last_prefix = None;
        // PowerShell's `$name = command …` runs the command.
        if pwsh_assigned(&self.words).is_some() {
            i = 2;
        }
        while let Some(w) = self.words.get(i) {
            if is_assignment(&w.text) || (after_prefix && w.text.starts_with('-')) {
                i += 1;
                continue;
            }
            // As `program_of` would give it, without making it: this runs for every stage.
            let p = super::program_name(&w.text);
            if PREFIXES.iter().any(|x| x.eq_ignore_ascii_case(p)) {
                after_prefix = true;
                last_prefix = Some(i);
                i += 1;
                continue;
            }
            return Some(i);
        }
        last_prefix
    }

    /// The program run, in lower case without its folder (`/usr/bin/curl` → `curl`).
    pub(super) fn program(&self) -> Option<String> {
        self.program_index()
            .map(|i| program_of(&self.words[i].text))
    }

    /// The words after the program.
    pub(super) fn args(&self) -> &[Token] {
        self.program_index()
            .map_or(&[][..], |i| &self.words[i + 1..])
    }

    /// The targets written or appended to by this command's redirections.
    pub(super) fn written(&self) -> impl Iterator<Item = &Token> {
        self.redirects
            .iter()
            .filter(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append))
            .filter_map(|r| r.target.as_ref())
    }
}

/// The program a word names, in lower case, without quotes or folder.
pub(super) fn program_of(word: &str) -> String {
    let w = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
    w.rsplit(['/', '\\'])
        .next()
        .unwrap_or(w)
        .to_ascii_lowercase()
}

/// `NAME=value` (a shell assignment): a name of letters, digits and `_`, then `=`.
pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit()
    })
}

/// The variable a PowerShell assignment (`$name = …`) fills, when `words` are one.
pub(super) fn pwsh_assigned(words: &[Token]) -> Option<&str> {
    match words {
        [name, eq, _, ..] if eq.text == "=" => {
            let n = name.text.strip_prefix('$')?;
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
                .then_some(n)
        }
        _ => None,
    }
}

/// The statements of `script`.
#[cfg(test)]
pub(super) fn statements(script: &str) -> Vec<Statement> {
    first_statements(script, usize::MAX).statements
}

/// The statements a reading of a script stopped at, and where it stopped.
pub(super) struct Read {
    /// The statements read, each whole (a here-document with its body).
    pub statements: Vec<Statement>,
    /// The offset it stopped at: the end of the script, or just past the statement (and the
    /// bodies of its here-documents) that made more than the number asked for.
    pub stopped: usize,
}

/// Stages (the commands of pipelines) read in one script at most, in all its statements:
/// a pipeline of a million stages on one line held each (40 times the script).
const MAX_STAGES: usize = 16_384;

/// The first statements of `script`: once more than `max` are read whole, or more than
/// [`MAX_STAGES`] stages in all (the statement being read is then cut there), the rest is
/// not read, so a hostile script of a million lines or stages costs what its first cost.
/// The first `max` are those [`statements`] gives.
pub(super) fn first_statements(script: &str, max: usize) -> Read {
    let mut lexer = Lexer {
        s: script,
        b: script.as_bytes(),
        i: 0,
        max,
        out: Vec::new(),
        statement: Statement::default(),
        stage: Stage::default(),
        stages: 0,
        heredocs: Vec::new(),
    };
    lexer.run();
    Read {
        statements: lexer.out,
        stopped: lexer.i,
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
    /// Statements to read whole before stopping.
    max: usize,
    out: Vec<Statement>,
    statement: Statement,
    stage: Stage,
    /// Stages read so far, in all statements.
    stages: usize,
    heredocs: Vec<Pending>,
}

impl Lexer<'_> {
    fn run(&mut self) {
        while self.i < self.b.len() {
            // A here-document still waiting for its body belongs to a statement read.
            if (self.out.len() > self.max || self.stages > MAX_STAGES) && self.heredocs.is_empty() {
                // The statement being read ends where the reading does.
                self.end_statement();
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

    fn word(&mut self) {
        if let Some(t) = self.token() {
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
                b'`' => {
                    let close = self.s[self.i + 1..]
                        .find('`')
                        .map_or(self.b.len(), |n| self.i + 1 + n);
                    let end = (close + 1).min(self.b.len());
                    text.push_str(&self.s[self.i..end]);
                    self.i = end;
                }
                _ => {
                    let ch = self.s[self.i..].chars().next().unwrap_or(' ');
                    text.push(ch);
                    self.i += ch.len_utf8();
                }
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
                b'`' => {
                    let close = self.s[self.i + 1..]
                        .find('`')
                        .map_or(self.b.len(), |n| self.i + 1 + n);
                    let end = (close + 1).min(self.b.len());
                    text.push_str(&self.s[self.i..end]);
                    self.i = end;
                }
                _ => {
                    let ch = self.s[self.i..].chars().next().unwrap_or(' ');
                    text.push(ch);
                    self.i += ch.len_utf8();
                }
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

#[cfg(test)]
mod tests;
