//! The code a Markdown file gives its reader to run: fenced blocks of shell (```` ```bash ````,
//! `sh`, `shell`, `console`, and a block with no language whose lines read as commands), of
//! PowerShell and `cmd`, of Python and JavaScript, and the `RUN` lines of a Dockerfile.
//!
//! Each block keeps its place: its text is the block's content with everything that is not
//! code (a console's prompts and output, a Dockerfile's other instructions) blanked out byte
//! for byte, so an offset into it is an offset into the file.

use crate::analysis::shell::Dialect;
use crate::source::Span;
use crate::syntax::markdown::{Fence, each_fence, inside_fence};

/// What a block's code is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Code {
    /// A shell.
    Shell(Dialect),
    /// Python.
    Python,
    /// JavaScript or TypeScript.
    JavaScript,
}

/// How the code of a block runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setting {
    /// The reader (an agent) is given it to run.
    Told,
    /// It runs while an image is built (a Dockerfile's `RUN`): inside a container, where
    /// installers piped into a shell and `sudo` are the custom.
    Image,
}

/// One block of code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// Its language.
    pub code: Code,
    /// How it runs.
    pub setting: Setting,
    /// Where its content is in the text.
    pub span: Span,
    /// Its content, with what is not code blanked (same length as `span`).
    pub text: String,
}

/// Info strings of shell blocks.
const SHELLS: &[&str] = &[
    "bash",
    "sh",
    "shell",
    "zsh",
    "ksh",
    "console",
    "shellsession",
    "shell-session",
    "sh-session",
    "bash-session",
    "terminal",
];

/// Programs a line of commands starts with: a block with no language is shell when most of
/// its lines start with one of them.
const COMMON_PROGRAMS: &[&str] = &[
    "curl",
    "wget",
    "git",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bun",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "python",
    "python3",
    "node",
    "deno",
    "cd",
    "ls",
    "cat",
    "echo",
    "printf",
    "export",
    "mkdir",
    "cp",
    "mv",
    "rm",
    "chmod",
    "chown",
    "sudo",
    "apt",
    "apt-get",
    "brew",
    "yum",
    "dnf",
    "docker",
    "kubectl",
    "helm",
    "bash",
    "sh",
    "zsh",
    "make",
    "go",
    "cargo",
    "tar",
    "unzip",
    "ssh",
    "scp",
    "rsync",
    "crontab",
    "dig",
    "nslookup",
    "nc",
    "base64",
    "eval",
    "source",
    "env",
    "printenv",
    "tee",
    "find",
    "grep",
    "sed",
    "awk",
    "xargs",
    "touch",
    "ln",
    "systemctl",
    "launchctl",
    "security",
    "aws",
    "gcloud",
    "az",
    "gh",
    "terraform",
    "jq",
    "open",
    "set",
    "for",
    "if",
    "while",
    "exec",
    "nohup",
    "powershell",
    "pwsh",
    "iwr",
    "irm",
];

/// What a block of code is and where, before its text is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockPlace {
    /// Its language.
    pub code: Code,
    /// How it runs.
    pub setting: Setting,
    /// Where its content is in the text.
    pub span: Span,
    /// What of its content is code.
    kept: Kept,
}

/// What of a block's content is code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    /// All of it.
    Whole,
    /// A console's commands after their prompts (all of it when it has no prompts).
    Prompts,
    /// A Dockerfile's `RUN` lines.
    RunLines,
}

impl BlockPlace {
    /// The block itself, its text made from `text`.
    pub(crate) fn block(self, text: &str) -> Block {
        let content = text.get(self.span.start..self.span.end).unwrap_or("");
        let text = match self.kept {
            Kept::Whole => content.to_string(),
            Kept::Prompts => prompts(content),
            Kept::RunLines => run_lines(content),
        };
        Block {
            code: self.code,
            setting: self.setting,
            span: self.span,
            text,
        }
    }
}

/// The blocks of code of the Markdown `text` (offsets into `text`), one at a time; the
/// tests' view of [`runnable_places`] with their texts made.
#[cfg(test)]
pub(crate) fn runnable_blocks(text: &str) -> impl Iterator<Item = Block> + '_ {
    runnable_places(text).map(|p| p.block(text))
}

/// Where the blocks of code of the Markdown `text` are (offsets into `text`), one at a time,
/// each made into a [`Block`] with its text when it is read: a text of a million blocks is
/// never held as a list of them.
pub(crate) fn runnable_places(text: &str) -> impl Iterator<Item = BlockPlace> + '_ {
    places_of(text, each_fence(text, 0))
}

/// [`runnable_places`] of `text` whose fenced blocks are `fences` (offsets into `text`),
/// already found by a reading of the same Markdown: it is not parsed again.
pub(crate) fn places_of<'t>(
    text: &'t str,
    fences: impl Iterator<Item = Fence> + 't,
) -> impl Iterator<Item = BlockPlace> + 't {
    fences.filter_map(|fence| runnable(text, &fence))
}

/// The block of code `fence` of `text` holds, if it holds code.
fn runnable(text: &str, fence: &Fence) -> Option<BlockPlace> {
    let info = fence
        .info
        .and_then(|i| text.get(i.start..i.end))
        .map(str::to_ascii_lowercase);
    let span = inside_fence(text, fence.span);
    let content = text.get(span.start..span.end)?;
    let shell = |dialect| (Code::Shell(dialect), Setting::Told, Kept::Prompts);
    let (code, setting, kept) = match info.as_deref() {
        Some(i) if SHELLS.contains(&i) => shell(Dialect::Posix),
        Some("powershell" | "pwsh" | "ps1" | "ps") => shell(Dialect::Pwsh),
        Some("cmd" | "bat" | "batch") => (Code::Shell(Dialect::Cmd), Setting::Told, Kept::Whole),
        Some("dockerfile" | "containerfile" | "docker") => {
            (Code::Shell(Dialect::Posix), Setting::Image, Kept::RunLines)
        }
        Some("python" | "py" | "python3") => (Code::Python, Setting::Told, Kept::Whole),
        Some(
            "javascript" | "js" | "node" | "mjs" | "cjs" | "typescript" | "ts" | "jsx" | "tsx",
        ) => (Code::JavaScript, Setting::Told, Kept::Whole),
        None if looks_like_commands(content) => shell(Dialect::Posix),
        _ => return None,
    };
    Some(BlockPlace {
        code,
        setting,
        span,
        kept,
    })
}

/// `s` with every character but line breaks replaced by spaces (as many bytes).
fn blank(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b == b'\n' || b == b'\r' {
                b as char
            } else {
                ' '
            }
        })
        .collect()
}

/// A console transcript's commands: the lines after a `$ ` prompt (and the lines they
/// continue with `\`), the rest blanked; a block without prompts as it is.
fn prompts(content: &str) -> String {
    let prompted = |l: &str| {
        let t = l.trim_start();
        t.starts_with("$ ")
            || t == "$"
            || t.starts_with("PS> ")
            || t.starts_with("PS ") && t.contains("> ")
    };
    if !content.lines().any(prompted) {
        return content.to_string();
    }
    let mut out = String::with_capacity(content.len());
    let mut continued = false;
    for line in content.split_inclusive('\n') {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        if prompted(line) {
            let cut = if t.starts_with('$') {
                1 + usize::from(t.starts_with("$ "))
            } else {
                t.find("> ").map_or(t.len(), |i| i + 2)
            };
            out.push_str(&blank(&line[..lead + cut.min(t.len())]));
            out.push_str(&line[lead + cut.min(t.len())..]);
            continued = line.trim_end().ends_with('\\');
        } else if continued {
            out.push_str(line);
            continued = line.trim_end().ends_with('\\');
        } else {
            out.push_str(&blank(line));
        }
    }
    out
}

/// A Dockerfile's `RUN` lines (shell form, with their continuation lines), the rest blanked.
fn run_lines(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    let mut continued = false;
    for line in content.split_inclusive('\n') {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        let is_run = t.get(..4).is_some_and(|r| r.eq_ignore_ascii_case("run "))
            && !t[4..].trim_start().starts_with('[');
        if is_run {
            out.push_str(&blank(&line[..lead + 4]));
            out.push_str(&line[lead + 4..]);
            continued = line.trim_end().ends_with('\\');
        } else if continued {
            out.push_str(line);
            continued = line.trim_end().ends_with('\\');
        } else {
            out.push_str(&blank(line));
        }
    }
    out
}

/// Whether a piece of code in prose (`` `curl -d @x https://…` ``) reads as a command: its
/// first word, past a `$ ` prompt, is a program commands start with, or a path run.
pub(crate) fn looks_like_command(code: &str) -> bool {
    let t = code.trim_start().trim_start_matches("$ ");
    let first = t.split_whitespace().next().unwrap_or("");
    COMMON_PROGRAMS.contains(&first) || first.starts_with("./") || first.starts_with('(')
}

/// Whether most lines of a block with no language read as commands.
fn looks_like_commands(content: &str) -> bool {
    let mut lines = 0;
    let mut commands = 0;
    for line in content.lines() {
        let t = line.trim_start().trim_start_matches("$ ");
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        lines += 1;
        let first = t.split_whitespace().next().unwrap_or("");
        let assignment = first.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
        });
        if COMMON_PROGRAMS.contains(&first) || first.starts_with("./") || assignment {
            commands += 1;
        }
    }
    lines > 0 && commands * 2 > lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(Code, Setting, String)> {
        runnable_blocks(text)
            .map(|b| {
                assert_eq!(b.text.len(), b.span.end - b.span.start);
                (b.code, b.setting, b.text.trim().to_string())
            })
            .collect()
    }

    #[test]
    fn shell_blocks_and_their_places() {
        let text = "Run:\n\n```bash\ncurl -d @x https://h\n```\n\n```json\n{\"a\": 1}\n```\n";
        let b: Vec<Block> = runnable_blocks(text).collect();
        assert_eq!(b.len(), 1);
        assert_eq!(
            &text[b[0].span.start..b[0].span.end],
            "curl -d @x https://h\n"
        );
        assert_eq!(b[0].code, Code::Shell(Dialect::Posix));
    }

    #[test]
    fn prompts_output_and_dockerfiles() {
        let console = "```console\n$ env | grep TOKEN\nTOKEN=abc\n$ ls \\\n  -la\n```\n";
        assert_eq!(
            found(console),
            [(
                Code::Shell(Dialect::Posix),
                Setting::Told,
                "env | grep TOKEN\n         \n  ls \\\n  -la".to_string()
            )]
        );
        let docker = "```dockerfile\nFROM alpine\nRUN apk add curl \\\n  && curl -s https://x | sh\nCMD [\"x\"]\n```\n";
        let d = found(docker);
        assert_eq!(d[0].1, Setting::Image);
        assert!(
            d[0].2
                .starts_with("apk add curl \\\n  && curl -s https://x | sh")
        );
        assert!(!d[0].2.contains("FROM") && !d[0].2.contains("CMD"));
    }

    #[test]
    fn a_block_without_language_is_shell_when_it_reads_as_commands() {
        assert_eq!(found("```\nnpm install\nnpm run build\n```\n").len(), 1);
        assert!(found("```\nThe quick brown fox\njumps over\n```\n").is_empty());
        assert_eq!(found("```python\nimport os\n```\n")[0].0, Code::Python);
        assert!(found("```yaml\nrun: curl x | sh\n```\n").is_empty());
    }
}
