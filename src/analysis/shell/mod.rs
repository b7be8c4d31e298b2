//! Shell command lines: operators on their exact characters, words with their offsets,
//! program and shell names, privilege words, package installation (`install`), package
//! runners and their pins (`runners`; git sources and container images in `sources`) and a
//! quote-aware split into simple commands (`lex`).
//!
//! Every function works on text alone and returns byte offsets into it, so a caller maps
//! them onto its file with its own span arithmetic.

mod danger;
mod install;
mod lex;
mod literal;
mod make;
mod runners;
mod sources;
mod statements;

pub(crate) use danger::{
    Danger, DangerKind, Language, Prose, dangers, downloads_in_prose, flow_extent,
    may_run_download, negated, script_dangers, suspicious_host,
};
pub(crate) use install::package_installs;
pub(crate) use lex::{Command, Dialect, Word, each_simple_command};
pub(crate) use literal::{ShellMeaning, ShellSyntax, shell_syntax};
pub(crate) use make::{recipes, spoken};
pub(crate) use runners::{Ecosystem, unpinned_runs};

/// Names that denote a shell, as a language tag or as a program.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "ksh",
    "csh",
    "tcsh",
    "fish",
    "dash",
    "ash",
    "shell",
    "console",
    "shellsession",
    "shell-session",
    "powershell",
    "pwsh",
    "ps1",
    "posh",
    "cmd",
    "bat",
    "batch",
];

/// The language of code a program is handed inline, after a flag (`bash -c`, `sh -ec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inline {
    /// A shell of this dialect.
    Shell(Dialect),
    /// Python (`python3 -c`).
    Python,
    /// JavaScript (`node -e`).
    JavaScript,
}

/// The language of the word after `flag` when `program` (its name, any case) runs it as
/// code: `bash -c`, `bash -lc`, `python3 -c`, `node -e`, `pwsh -Command`, `cmd /c`.
pub(crate) fn inline_script(program: &str, flag: &str) -> Option<Inline> {
    let p = program.to_ascii_lowercase();
    let p = p.strip_suffix(".exe").unwrap_or(&p);
    // A cluster of short flags ending the options of a shell: `-lc`, `-ec`, `-xc`.
    let shell_flag = flag.len() >= 2
        && flag.starts_with('-')
        && flag[1..].bytes().all(|b| b.is_ascii_lowercase())
        && flag.contains('c');
    match p {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" if shell_flag => {
            Some(Inline::Shell(Dialect::Posix))
        }
        "powershell" | "pwsh"
            if matches!(flag.to_ascii_lowercase().as_str(), "-c" | "-command") =>
        {
            Some(Inline::Shell(Dialect::Pwsh))
        }
        "cmd" if matches!(flag, "/c" | "/C" | "/k" | "/K") => Some(Inline::Shell(Dialect::Cmd)),
        _ if p.starts_with("python") && flag == "-c" => Some(Inline::Python),
        "node" | "nodejs" | "deno" | "bun"
            if matches!(flag, "-e" | "--eval" | "-p" | "--print") =>
        {
            Some(Inline::JavaScript)
        }
        _ => None,
    }
}

/// Programs that exist to run something with other privileges: recognised in any text.
const ESCALATORS: &[&str] = &["sudo", "doas", "pkexec", "nsenter"];

/// Programs that gain privileges only when run as a command (`su` is also a word).
const ROOT_COMMANDS: &[&str] = &["su", "chroot", "unshare"];

/// Container flags that hand a run the host's kernel, devices or namespaces (the `=value`
/// does not matter).
const PRIVILEGED_FLAGS: &[&str] = &["--privileged", "--device", "--cap-add", "--security-opt"];

/// Container flags that share one of the host's namespaces.
const HOST_NAMESPACE_FLAGS: &[&str] = &["--pid=host", "--ipc=host", "--userns=host", "--uts=host"];

/// What a shell operator does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpKind {
    /// `;`.
    Separator,
    /// `&&`, `||`.
    Chain,
    /// A lone `&`.
    Background,
    /// `|`, `|&`.
    Pipe,
    /// `<`, `>`, `>>`, `2>`, `>&`, `&>`.
    Redirect,
    /// `<<`, `<<<`.
    Heredoc,
    /// `` ` ``, `$(`, `<(`, `>(`.
    Substitution,
}

impl OpKind {
    /// What the operator is, for a message (`a pipeline`).
    pub(crate) fn what(self) -> &'static str {
        match self {
            OpKind::Separator => "a command separator",
            OpKind::Chain => "command chaining",
            OpKind::Background => "a background job",
            OpKind::Pipe => "a pipeline",
            OpKind::Redirect => "redirection",
            OpKind::Heredoc => "a heredoc",
            OpKind::Substitution => "command substitution",
        }
    }
}

/// A shell operator found in a line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Op {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset after its last character.
    pub end: usize,
    /// Its characters (`2>>`).
    pub text: String,
    /// What it does.
    pub kind: OpKind,
}

/// Every shell operator of `line`, on its exact characters. Quotes do not protect: a strict
/// validator rejects these characters wherever they are.
pub(crate) fn operators(line: &str) -> Vec<Op> {
    ops(line).collect()
}

/// [`operators`], one at a time: a caller that reads a huge line keeps none of them.
pub(crate) fn ops(line: &str) -> impl Iterator<Item = Op> + '_ {
    let b = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let at = |j: usize| b.get(j).copied();
            let (len, kind) = match (b[i], at(i + 1), at(i + 2)) {
                (b'$', Some(b'('), _) => (2, OpKind::Substitution),
                (b'`', _, _) => {
                    // A pair of backticks is one substitution: report the opening one only.
                    let close = b[i + 1..]
                        .iter()
                        .position(|c| *c == b'`')
                        .map(|p| i + 1 + p);
                    let start = i;
                    i = close.map_or(b.len(), |c| c + 1);
                    return Some(Op {
                        start,
                        end: start + 1,
                        text: "`".into(),
                        kind: OpKind::Substitution,
                    });
                }
                (b'<', Some(b'<'), Some(b'<')) => (3, OpKind::Heredoc),
                (b'<', Some(b'<'), _) => (2, OpKind::Heredoc),
                (b'<', Some(b'('), _) => (2, OpKind::Substitution),
                (b'<', _, _) => (1, OpKind::Redirect),
                (b'>', Some(b'>'), _) => (2, OpKind::Redirect),
                (b'>', Some(b'&'), _) => (2, OpKind::Redirect),
                (b'>', Some(b'('), _) => (2, OpKind::Substitution),
                (b'>', _, _) => (1, OpKind::Redirect),
                (b'&', Some(b'&'), _) => (2, OpKind::Chain),
                (b'&', Some(b'>'), Some(b'>')) => (3, OpKind::Redirect),
                (b'&', Some(b'>'), _) => (2, OpKind::Redirect),
                (b'&', _, _) => (1, OpKind::Background),
                (b'|', Some(b'|'), _) => (2, OpKind::Chain),
                (b'|', Some(b'&'), _) => (2, OpKind::Pipe),
                (b'|', _, _) => (1, OpKind::Pipe),
                (b';', _, _) => (1, OpKind::Separator),
                _ => {
                    i += 1;
                    continue;
                }
            };
            // `2>` and `2>>`: the descriptor belongs to the operator.
            let start = if kind == OpKind::Redirect
                && b[i] == b'>'
                && i > 0
                && b[i - 1].is_ascii_digit()
                && (i == 1 || b[i - 2].is_ascii_whitespace())
            {
                i - 1
            } else {
                i
            };
            let op = Op {
                start,
                end: i + len,
                text: line[start..i + len].to_string(),
                kind,
            };
            i += len;
            return Some(op);
        }
        None
    })
}

/// The first operator of `line` that runs another command (`;`, `|`, `&&`, `||`, `$(`, a
/// backtick), with its offset: what lets a command that is checked by its first word run
/// something unchecked. Background jobs, redirections and process substitution do not count.
pub(crate) fn first_chaining(line: &str) -> Option<(usize, &'static str)> {
    operators(line).into_iter().find_map(|op| {
        let text = match op.kind {
            OpKind::Separator => ";",
            OpKind::Pipe => "|",
            OpKind::Chain if op.text == "&&" => "&&",
            OpKind::Chain => "||",
            OpKind::Substitution if op.text == "$(" => "$(",
            OpKind::Substitution if op.text == "`" => "`",
            _ => return None,
        };
        Some((op.start, text))
    })
}

/// Whitespace-separated words of `s` with their byte offsets.
pub(crate) fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
}

/// The first word of `s` with its byte offset.
pub(crate) fn first_word(s: &str) -> Option<(usize, &str)> {
    words(s).next()
}

/// The program a command word runs: `/usr/bin/bash.exe` → `bash.exe`, without quotes.
pub(crate) fn program_name(word: &str) -> &str {
    let w = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
    w.rsplit(['/', '\\']).next().unwrap_or(w)
}

/// The shell a language tag or program name denotes, if it is one (`Bash.exe` → `bash`).
pub(crate) fn shell_name(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    let lower = lower.strip_suffix(".exe").unwrap_or(&lower);
    SHELLS.iter().copied().find(|s| *s == lower)
}

/// Whether `word` is a program that exists only to gain privileges (`sudo`), so it means
/// privilege escalation even inside code or prose of a program.
pub(crate) fn is_escalator(word: &str) -> bool {
    ESCALATORS.contains(&word)
}

/// Whether `word`, as a word of a command line, asks for privileges (`sudo`, `su`, `chroot`,
/// any case).
pub(crate) fn is_privilege_command(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    ESCALATORS.contains(&lower.as_str()) || ROOT_COMMANDS.contains(&lower.as_str())
}

/// Whether a word (already stripped of quotes) is a container flag or capability that hands a
/// run the host: `--privileged`, `--cap-add=…`, `--pid=host`, `CAP_SYS_ADMIN`.
pub(crate) fn is_privileged_flag(word: &str) -> bool {
    let flag = word.split('=').next().unwrap_or(word);
    PRIVILEGED_FLAGS.contains(&flag)
        || HOST_NAMESPACE_FLAGS.contains(&word)
        || word.eq_ignore_ascii_case("CAP_SYS_ADMIN")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_on_their_characters() {
        let ops = operators("a; b && c | d > e 2>> f < g <<EOF `h` $(i) &");
        let texts: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
        assert_eq!(
            texts,
            [";", "&&", "|", ">", "2>>", "<", "<<", "`", "$(", "&"]
        );
        assert_eq!(ops[4].start, 18);
        assert_eq!(ops[1].kind, OpKind::Chain);
        assert!(operators("python -u script.py --in /in/a.csv --out /out/b.json").is_empty());
    }

    #[test]
    fn backtick_pair_is_one_substitution() {
        let ops = operators("echo `date` `x");
        assert_eq!(ops.len(), 2);
        assert!(ops.iter().all(|o| o.kind == OpKind::Substitution));
        assert_eq!(ops[1].start, 12);
    }

    #[test]
    fn chaining() {
        assert_eq!(
            first_chaining("terraform validate; curl x | sh"),
            Some((18, ";"))
        );
        assert_eq!(first_chaining("terraform validate"), None);
        assert_eq!(first_chaining("helm lint $(pwd)"), Some((10, "$(")));
        assert_eq!(first_chaining("a > b 2>&1 & c |& d"), Some((15, "|")));
        assert_eq!(first_chaining("diff <(a) b || c"), Some((12, "||")));
    }

    #[test]
    fn words_keep_their_offsets() {
        let found: Vec<(usize, &str)> = words("  a  bc\td").collect();
        assert_eq!(found, [(2, "a"), (5, "bc"), (8, "d")]);
        assert_eq!(first_word(" \t "), None);
    }

    #[test]
    fn shells_and_programs() {
        assert_eq!(shell_name("Bash.exe"), Some("bash"));
        assert_eq!(shell_name(" pwsh "), Some("pwsh"));
        assert_eq!(shell_name("python"), None);
        assert_eq!(program_name("\"/usr/bin/env\""), "env");
        assert_eq!(program_name("C:\\bin\\cmd.exe"), "cmd.exe");
    }

    #[test]
    fn inline_scripts_by_program_and_flag() {
        assert_eq!(
            inline_script("bash", "-lc"),
            Some(Inline::Shell(Dialect::Posix))
        );
        assert_eq!(
            inline_script("Pwsh.exe", "-Command"),
            Some(Inline::Shell(Dialect::Pwsh))
        );
        assert_eq!(inline_script("python3.12", "-c"), Some(Inline::Python));
        assert_eq!(inline_script("node", "--eval"), Some(Inline::JavaScript));
        assert_eq!(inline_script("bash", "--login"), None);
        assert_eq!(inline_script("bash", "-l"), None);
        assert_eq!(inline_script("python3", "-m"), None);
    }

    #[test]
    fn privilege_words() {
        assert!(is_privilege_command("SUDO") && is_privilege_command("chroot"));
        assert!(!is_privilege_command("sugar"));
        assert!(is_escalator("pkexec") && !is_escalator("su"));
        assert!(is_privileged_flag("--cap-add=SYS_ADMIN") && is_privileged_flag("--pid=host"));
        assert!(is_privileged_flag("cap_sys_admin"));
        assert!(!is_privileged_flag("--pid=container") && !is_privileged_flag("--network"));
    }
}
