//! Shell command lines as an agent runs them: which word is the program a command runs, and
//! which words are arguments of another program (`python scripts/x.py` runs `python`, not
//! the script) or files it writes (`> out.json`, `mkdir`).

/// What a word of a command line is to the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Role {
    /// The program the command runs (`scripts/x.sh --fast`).
    Program,
    /// An argument of another program, named by its file name in lower case (`python3`).
    Argument(String),
    /// A file the command writes or makes (`> out.json`, `mkdir -p x`, `touch x`).
    Output,
}

/// Words before the program that only set up how it runs.
const WRAPPERS: &[&str] = &[
    "sudo",
    "env",
    "nohup",
    "time",
    "exec",
    "command",
    "builtin",
    "nice",
    "caffeinate",
];

/// Programs whose arguments are files they make or remove.
const MAKERS: &[&str] = &["mkdir", "touch", "rm", "rmdir", "tee"];

/// Flags whose value is a file written.
const OUTPUT_FLAGS: &[&str] = &["-o", "--output", "--out", "--outfile", "--output-file"];

/// Programs that run a script named as their argument, with the extensions of the scripts
/// they run (`python x.py`, `uv run x.py`, `node x.js`, `bash x.sh`).
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["py"]),
    ("py", &["py"]),
    ("pypy", &["py"]),
    ("uv", &["py"]),
    ("pipx", &["py"]),
    ("poetry", &["py"]),
    ("pdm", &["py"]),
    ("hatch", &["py"]),
    ("node", &["js", "mjs", "cjs", "ts"]),
    ("nodejs", &["js", "mjs", "cjs"]),
    ("bun", &["ts", "js", "mjs", "cjs", "tsx"]),
    ("deno", &["ts", "js", "mjs", "tsx"]),
    ("tsx", &["ts", "tsx", "js", "mjs"]),
    ("ts-node", &["ts"]),
    ("npx", &["ts", "js", "mjs", "cjs"]),
    ("bunx", &["ts", "js", "mjs"]),
    ("pnpm", &["ts", "js", "mjs"]),
    ("bash", &["sh", "bash"]),
    ("sh", &["sh"]),
    ("zsh", &["zsh", "sh"]),
    ("dash", &["sh"]),
    ("ksh", &["sh", "ksh"]),
    ("fish", &["fish"]),
    ("source", &["sh", "bash", "zsh"]),
    (".", &["sh", "bash", "zsh"]),
    ("ruby", &["rb"]),
    ("perl", &["pl"]),
    ("php", &["php"]),
    ("lua", &["lua"]),
    ("rscript", &["r", "R"]),
    ("pwsh", &["ps1"]),
    ("powershell", &["ps1"]),
];

/// The extensions of the scripts `program` runs, when it is an interpreter.
pub(super) fn interpreter(program: &str) -> Option<&'static [&'static str]> {
    let name = program.rsplit('/').next().unwrap_or(program).to_lowercase();
    // `python3`, `python3.12`, `pypy3`: the version does not change what it runs.
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let base = if base.is_empty() { name.as_str() } else { base };
    INTERPRETERS
        .iter()
        .find(|(n, _)| *n == base || *n == name)
        .map(|(_, exts)| *exts)
}

/// One word of a command line, with its byte range in the line.
struct Token<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// The roles of words in command lines, each line split once for all the paths asked about
/// on it, one after the other: split again for each of a line's 400 paths, a megabyte of them
/// took 1.9 s.
#[derive(Default)]
pub(super) struct Roles<'a> {
    /// The line split last: where its text is and how long it is, and its commands.
    last: Option<((usize, usize), Segments<'a>)>,
}

/// The commands of a line, each as its words.
type Segments<'a> = Vec<Vec<Token<'a>>>;

impl<'a> Roles<'a> {
    /// The role of the word starting at byte `at` of the command line `line`; `None` when
    /// `at` is in no word (or in a comment).
    pub(super) fn role(&mut self, line: &'a str, at: usize) -> Option<Role> {
        // The same slice of the text again: its address and length.
        let key = (line.as_ptr() as usize, line.len());
        if self.last.as_ref().is_none_or(|(k, _)| *k != key) {
            self.last = Some((key, segments(line)));
        }
        role_in(&self.last.as_ref()?.1, at)
    }
}

/// The role of the word starting at byte `at` of the command line `line`; `None` when `at`
/// is in no word (or in a comment).
#[cfg(test)]
fn role(line: &str, at: usize) -> Option<Role> {
    role_in(&segments(line), at)
}

/// The index of the word of `tokens` (in order) that holds byte `at`.
fn token_at(tokens: &[Token<'_>], at: usize) -> Option<usize> {
    let i = tokens.partition_point(|t| t.start <= at).checked_sub(1)?;
    let t = tokens.get(i)?;
    (at < t.end.max(t.start + 1)).then_some(i)
}

/// The role of the word at byte `at` of the line whose commands are `segments`.
fn role_in(segments: &[Vec<Token<'_>>], at: usize) -> Option<Role> {
    // The commands are in order, and so are their words.
    let i = segments
        .partition_point(|s| s.first().is_some_and(|t| t.start <= at))
        .checked_sub(1)?;
    let segment = segments.get(i)?;
    let index = token_at(segment, at)?;
    let mut words = segment.iter().enumerate().skip_while(|(_, t)| {
        matches!(t.text, "$" | "%" | ">" | "❯" | "PS>") || is_assignment(t.text)
    });
    let (mut first, mut program) = words.next()?;
    while WRAPPERS.contains(&program.text) || program.text == "timeout" {
        let skip_value = program.text == "timeout";
        let mut rest = segment
            .iter()
            .enumerate()
            .skip(first + 1)
            .skip_while(|(_, t)| t.text.starts_with('-') || is_assignment(t.text));
        if skip_value {
            rest.next();
        }
        let Some(next) = rest.next() else { break };
        (first, program) = next;
    }
    if index == first {
        return Some(Role::Program);
    }
    let previous = index.checked_sub(1).and_then(|i| segment.get(i));
    let name = program.text.trim_matches(['"', '\'']);
    let name = name.rsplit('/').next().unwrap_or(name).to_lowercase();
    if index < first {
        return None;
    }
    if MAKERS.contains(&name.as_str())
        || previous.is_some_and(|p| p.text.ends_with('>') || OUTPUT_FLAGS.contains(&p.text))
    {
        return Some(Role::Output);
    }
    Some(Role::Argument(name))
}

/// `NAME=value` before a program.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The commands of a line (split at `&&`, `||`, `;`, `|`, `(`, `)` and backticks), each as
/// its words; a `#` word starts a comment.
fn segments(line: &str) -> Segments<'_> {
    let mut out: Vec<Vec<Token<'_>>> = vec![Vec::new()];
    let mut start: Option<usize> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        let breaks = c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '`');
        if breaks {
            if let Some(s) = start.take() {
                push(&mut out, line, s, i);
            }
            if !c.is_whitespace() && out.last().is_some_and(|l| !l.is_empty()) {
                out.push(Vec::new());
            }
            continue;
        }
        if c == '#' && start.is_none() {
            break;
        }
        if c == '"' || c == '\'' {
            quote = Some(c);
        }
        if c == '$' && chars.peek().is_some_and(|(_, n)| *n == '(') {
            if let Some(s) = start.take() {
                push(&mut out, line, s, i);
            }
            continue;
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        push(&mut out, line, s, line.len());
    }
    out.retain(|s| !s.is_empty());
    out
}

fn push<'a>(out: &mut [Vec<Token<'a>>], line: &'a str, start: usize, end: usize) {
    if let (Some(last), Some(text)) = (out.last_mut(), line.get(start..end)) {
        last.push(Token { start, end, text });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role_of(line: &str, word: &str) -> Option<Role> {
        role(line, line.find(word)?)
    }

    #[test]
    fn programs_and_their_arguments() {
        assert_eq!(
            role_of("scripts/x.sh --fast", "scripts"),
            Some(Role::Program)
        );
        assert_eq!(
            role_of("$ FOO=1 sudo ./scripts/x.sh", "./scripts"),
            Some(Role::Program)
        );
        assert_eq!(
            role_of("cd dir && scripts/x.sh", "scripts"),
            Some(Role::Program)
        );
        assert_eq!(
            role_of("python3 scripts/x.py a", "scripts"),
            Some(Role::Argument("python3".into()))
        );
        assert_eq!(
            role_of("uv run scripts/x.py", "scripts"),
            Some(Role::Argument("uv".into()))
        );
        assert_eq!(
            role_of("timeout 30 node \"scripts/x.js\"", "\"scripts"),
            Some(Role::Argument("node".into()))
        );
        assert_eq!(
            role_of("mkdir -p scripts/new", "scripts"),
            Some(Role::Output)
        );
        assert_eq!(role_of("run > out/report.json", "out/"), Some(Role::Output));
        assert_eq!(role_of("ls # scripts/x.sh", "scripts"), None);
        assert_eq!(
            role_of("x=$(scripts/get.sh)", "scripts"),
            Some(Role::Program)
        );
    }

    #[test]
    fn interpreters_and_what_they_run() {
        assert_eq!(interpreter("python3.12"), Some(&["py"][..]));
        assert_eq!(interpreter("/usr/bin/node").map(|e| e[0]), Some("js"));
        assert_eq!(interpreter("cat"), None);
    }
}
