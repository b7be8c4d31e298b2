//! A POSIX shell script read as statements of pipelines of words, each word keeping its
//! command substitutions (`$(…)`, backticks), parameter expansions and process
//! substitutions inside it, and each redirection its target (a here-document its body).
//!
//! This is what the analysers of what a script does with data read: what a command sends
//! and where (`curl -d "$(env)" …`), what a variable holds when it runs later, which file a
//! later command runs. [`super::each_simple_command`] splits at substitutions instead, which
//! suits the checks of one command.

use crate::source::Span;

mod lexer;
mod substitutions;

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
    first_statements(script, Limits::statements(usize::MAX)).statements
}

/// The statements a reading of a script stopped at, and where it stopped.
pub(super) struct Read {
    /// The statements read, each whole (a here-document with its body) unless the reading
    /// was cut inside one.
    pub statements: Vec<Statement>,
    /// The offset it stopped at: the end of the script, or just past the statement (and the
    /// bodies of its here-documents) that made more than the number asked for.
    pub stopped: usize,
    /// Where the first part of the script left unread starts (a word, a redirection or a
    /// statement past a limit); `None` when all of it was read.
    pub unread: Option<usize>,
    /// Words and redirections read.
    pub words: usize,
}

/// Stages (the commands of pipelines) read in one script at most, in all its statements:
/// a pipeline of a million stages on one line held each (40 times the script).
const MAX_STAGES: usize = 16_384;

/// Words and redirections read in one script at most, in all its statements: a command of
/// two million words held each (50 times the script). Four times the words of the longest
/// command line Windows starts, and far more than a script a person writes. The lexer of
/// simple commands holds no more of one command's words, nor of a line's here-documents.
pub(super) const MAX_WORDS: usize = 65_536;

/// How much of a script [`first_statements`] reads at most.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// Statements read whole before stopping.
    pub statements: usize,
    /// Words and redirections kept.
    pub words: usize,
}

impl Limits {
    /// As many statements as `statements`, and the words of [`MAX_WORDS`].
    pub(super) fn statements(statements: usize) -> Limits {
        Limits {
            statements,
            words: MAX_WORDS,
        }
    }
}

/// The first statements of `script`: once more than `limits.statements` are read whole, or
/// more than [`MAX_STAGES`] stages or `limits.words` words in all (the statement being read
/// is then cut there), the rest is not read, so a hostile script of a million lines, stages
/// or words costs what its first cost. The first statements are those [`statements`] gives.
pub(super) fn first_statements(script: &str, limits: Limits) -> Read {
    lexer::read(script, limits)
}

#[cfg(test)]
mod tests;
