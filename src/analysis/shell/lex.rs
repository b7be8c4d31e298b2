//! A quote-aware split of a script into simple commands, with words and redirections.

use super::statements::MAX_WORDS;

/// The language a script is written in, for quoting, escapes and operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// A POSIX shell (`sh`, `bash`).
    Posix,
    /// Windows `cmd`.
    Cmd,
    /// PowerShell.
    Pwsh,
    /// One process and its arguments, no shell: a `>` is just an argument.
    Process,
    /// Python source: not a shell, so split like [`Dialect::Process`]; analysers that read
    /// Python (cycod's write finder) look at it on their own.
    Python,
}

impl Dialect {
    /// True for the shells, whose operators (`;`, `|`, `>`, …) split and redirect commands.
    pub(crate) fn is_shell(self) -> bool {
        matches!(self, Dialect::Posix | Dialect::Cmd | Dialect::Pwsh)
    }
}

/// A word of a command: its unquoted text and where its source starts and ends.
#[derive(Debug, Clone)]
pub(crate) struct Word {
    /// The text after quotes and escapes are removed.
    pub text: String,
    /// Byte offset where its source starts.
    pub start: usize,
    /// Byte offset one past where its source ends.
    pub end: usize,
}

/// A redirection into a file: the operator's span and its target word.
#[derive(Debug, Clone)]
pub(crate) struct Redirect {
    /// Byte offset of the operator (with its stream number).
    pub start: usize,
    /// Byte offset one past the operator.
    pub end: usize,
    /// The file written, when a word follows.
    pub target: Option<Word>,
}

/// A simple command: its words (program first) and its redirections into files.
#[derive(Debug, Default)]
pub(crate) struct Command {
    /// The words, in order.
    pub words: Vec<Word>,
    /// Redirections into files (`>`, `>>`, `&>`), not stream duplications.
    pub redirects: Vec<Redirect>,
}

/// A heredoc whose body starts at the next line.
struct PendingHeredoc {
    delimiter: String,
    strip_tabs: bool,
}

/// The simple commands of `script` as [`each_simple_command`] reads them, in a list.
#[cfg(test)]
pub(crate) fn simple_commands(script: &str, dialect: Dialect) -> Vec<Command> {
    let mut commands = Vec::new();
    each_simple_command(script, dialect, |c| commands.push(c));
    commands
}

/// Split `script` into simple commands: at line breaks and at `;`, `|`, `&`, `(`, `)` and
/// backticks (none of them outside a shell), with comments, here-documents and input
/// redirections left out. Each is handed to `each` as it ends: a script of a million
/// commands is never held as a list of them.
pub(crate) fn each_simple_command(script: &str, dialect: Dialect, mut each: impl FnMut(Command)) {
    let bytes = script.as_bytes();
    let escape = match dialect {
        Dialect::Posix | Dialect::Process | Dialect::Python => b'\\',
        Dialect::Pwsh => b'`',
        Dialect::Cmd => b'^',
    };
    let shell = dialect.is_shell();
    let mut current = Command::default();
    let mut word: Option<Word> = None;
    let mut redirect_pending: Option<(usize, usize)> = None;
    let mut heredocs: Vec<PendingHeredoc> = Vec::new();
    let mut i = 0;

    // Ends the word being built: a redirect target, or a word of the command.
    let finish_word = |word: &mut Option<Word>,
                       current: &mut Command,
                       redirect_pending: &mut Option<(usize, usize)>| {
        if let Some(w) = word.take() {
            // Words past the script's budget are not read (`SEC057` says where reading
            // stopped); a command of two million `{` held each, 13 times the script.
            let held = current.words.len() + current.redirects.len();
            match redirect_pending.take() {
                _ if held >= MAX_WORDS => {}
                Some((start, end)) => current.redirects.push(Redirect {
                    start,
                    end,
                    target: Some(w),
                }),
                None => current.words.push(w),
            }
        }
    };
    let push_char = |word: &mut Option<Word>, c: char, at: usize, end: usize| match word {
        Some(w) => {
            w.text.push(c);
            w.end = end;
        }
        None => {
            *word = Some(Word {
                text: c.to_string(),
                start: at,
                end,
            });
        }
    };

    while i < bytes.len() {
        let Some(c) = script[i..].chars().next() else {
            break;
        };
        let next = bytes.get(i + 1).copied();
        let len = c.len_utf8();
        match c {
            '\n' => {
                finish_word(&mut word, &mut current, &mut redirect_pending);
                end_command(&mut each, &mut current, &mut redirect_pending);
                i += 1;
                if !heredocs.is_empty() {
                    i = skip_heredoc_bodies(script, i, &mut heredocs);
                }
            }
            ' ' | '\t' | '\r' => {
                finish_word(&mut word, &mut current, &mut redirect_pending);
                i += 1;
            }
            '#' if shell && dialect != Dialect::Cmd && word.is_none() => {
                i = script[i..].find('\n').map_or(script.len(), |n| i + n);
            }
            '\'' if dialect != Dialect::Cmd => {
                let close = script[i + 1..]
                    .find('\'')
                    .map_or(script.len(), |n| i + 1 + n);
                let text = &script[i + 1..close];
                let end = (close + 1).min(script.len());
                let w = word.get_or_insert_with(|| Word {
                    text: String::new(),
                    start: i,
                    end,
                });
                w.text.push_str(text);
                w.end = end;
                i = end;
            }
            '"' => {
                let mut j = i + 1;
                let mut text = String::new();
                while j < bytes.len() {
                    let Some(ch) = script[j..].chars().next() else {
                        break;
                    };
                    if ch == '"' {
                        break;
                    }
                    if bytes[j] == escape && j + 1 < bytes.len() {
                        j += 1;
                        if let Some(escaped) = script[j..].chars().next() {
                            text.push(escaped);
                            j += escaped.len_utf8();
                        }
                        continue;
                    }
                    text.push(ch);
                    j += ch.len_utf8();
                }
                let end = (j + 1).min(script.len());
                let w = word.get_or_insert_with(|| Word {
                    text: String::new(),
                    start: i,
                    end,
                });
                w.text.push_str(&text);
                w.end = end;
                i = end;
            }
            _ if bytes[i] == escape && shell && i + 1 < bytes.len() => {
                // An escaped newline continues the line; any other escaped char is literal.
                let Some(escaped) = script[i + 1..].chars().next() else {
                    break;
                };
                if escaped != '\n' {
                    push_char(&mut word, escaped, i, i + 1 + escaped.len_utf8());
                }
                i += 1 + escaped.len_utf8();
            }
            ';' | '|' | '&' | '(' | ')' | '`' if shell => {
                if c == '&' && next == Some(b'>') {
                    // `&>file`: stdout and stderr into a file.
                    finish_word(&mut word, &mut current, &mut redirect_pending);
                    let op_end = if bytes.get(i + 2) == Some(&b'>') {
                        i + 3
                    } else {
                        i + 2
                    };
                    redirect_pending = Some((i, op_end));
                    i = op_end;
                    continue;
                }
                // `$(`: the `$` belongs to the substitution, not to a word.
                if c == '('
                    && let Some(w) = word.as_mut().filter(|w| w.text.ends_with('$'))
                {
                    w.text.pop();
                }
                finish_word(&mut word, &mut current, &mut redirect_pending);
                end_command(&mut each, &mut current, &mut redirect_pending);
                i += 1;
            }
            '>' if shell => {
                // `2>&1` and `>&2` duplicate a stream; they write no file.
                let digits_before = word.as_ref().is_some_and(|w| {
                    !w.text.is_empty() && w.text.bytes().all(|b| b.is_ascii_digit())
                });
                let start = if digits_before {
                    let s = word.as_ref().map_or(i, |w| w.start);
                    word = None;
                    s
                } else {
                    finish_word(&mut word, &mut current, &mut redirect_pending);
                    i
                };
                let mut op_end = i + 1;
                if matches!(bytes.get(op_end), Some(b'>' | b'|')) {
                    op_end += 1;
                }
                if bytes.get(op_end) == Some(&b'&') {
                    i = op_end + 1;
                    // Skip the stream number or `-` that follows.
                    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'-') {
                        i += 1;
                    }
                    continue;
                }
                redirect_pending = Some((start, op_end));
                i = op_end;
            }
            '<' if shell && dialect == Dialect::Posix && next == Some(b'<') => {
                finish_word(&mut word, &mut current, &mut redirect_pending);
                if bytes.get(i + 2) == Some(&b'<') {
                    // A here-string: its word is data.
                    i += 3;
                    continue;
                }
                let strip_tabs = bytes.get(i + 2) == Some(&b'-');
                let mut j = i + 2 + usize::from(strip_tabs);
                while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                    j += 1;
                }
                let start = j;
                while j < bytes.len()
                    && !matches!(
                        bytes[j],
                        b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b'>' | b'<' | b')'
                    )
                {
                    j += 1;
                }
                let delimiter: String = script[start..j]
                    .chars()
                    .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                    .collect();
                if !delimiter.is_empty() && heredocs.len() < MAX_WORDS {
                    heredocs.push(PendingHeredoc {
                        delimiter,
                        strip_tabs,
                    });
                }
                i = j;
            }
            '<' if shell => {
                finish_word(&mut word, &mut current, &mut redirect_pending);
                i += 1;
                // The input file is read, not written: swallow its word.
                redirect_pending = None;
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
                    i += 1;
                }
                while i < bytes.len()
                    && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b')')
                {
                    i += 1;
                }
            }
            _ => {
                push_char(&mut word, c, i, i + len);
                i += len;
            }
        }
    }
    finish_word(&mut word, &mut current, &mut redirect_pending);
    end_command(&mut each, &mut current, &mut redirect_pending);
}

fn end_command(
    each: &mut impl FnMut(Command),
    current: &mut Command,
    redirect_pending: &mut Option<(usize, usize)>,
) {
    if let Some((start, end)) = redirect_pending.take() {
        current.redirects.push(Redirect {
            start,
            end,
            target: None,
        });
    }
    if !current.words.is_empty() || !current.redirects.is_empty() {
        each(std::mem::take(current));
    }
}

/// Skip the bodies of pending heredocs starting at `from` (a line start); returns where
/// normal lexing resumes.
fn skip_heredoc_bodies(script: &str, from: usize, heredocs: &mut Vec<PendingHeredoc>) -> usize {
    let mut pos = from;
    for doc in heredocs.drain(..) {
        loop {
            if pos >= script.len() {
                return script.len();
            }
            let line_end = script[pos..].find('\n').map_or(script.len(), |n| pos + n);
            let line = script[pos..line_end].trim_end_matches('\r');
            let line = if doc.strip_tabs {
                line.trim_start_matches('\t')
            } else {
                line
            };
            pos = (line_end + 1).min(script.len());
            // The body keeps the YAML block's indentation stripped, but be lenient with
            // trailing or leading blanks around the delimiter.
            if line.trim() == doc.delimiter {
                break;
            }
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &Command) -> Vec<&str> {
        command.words.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn commands_words_and_quotes() {
        let script = "echo 'a b' \"c\\\"d\" # note\nls | wc -l; x=$(y)";
        let commands = simple_commands(script, Dialect::Posix);
        let all: Vec<Vec<&str>> = commands.iter().map(words).collect();
        assert_eq!(
            all,
            [
                vec!["echo", "a b", "c\"d"],
                vec!["ls"],
                vec!["wc", "-l"],
                vec!["x="],
                vec!["y"]
            ]
        );
        assert_eq!(
            (commands[0].words[1].start, commands[0].words[1].end),
            (5, 10)
        );
    }

    #[test]
    fn redirections_into_files_only() {
        let commands = simple_commands("a > out.txt 2>&1 < in.txt", Dialect::Posix);
        assert_eq!(words(&commands[0]), ["a"]);
        let targets: Vec<Option<&str>> = commands[0]
            .redirects
            .iter()
            .map(|r| r.target.as_ref().map(|t| t.text.as_str()))
            .collect();
        assert_eq!(targets, [Some("out.txt")]);
        assert_eq!(commands[0].redirects[0].start, 2);
    }

    #[test]
    fn heredoc_bodies_are_data() {
        let script = "cat <<EOF\nrm -rf /\nEOF\nls";
        let commands = simple_commands(script, Dialect::Posix);
        let all: Vec<Vec<&str>> = commands.iter().map(words).collect();
        assert_eq!(all, [vec!["cat"], vec!["ls"]]);
    }

    #[test]
    fn dialects() {
        let run = simple_commands("tool > x ; y", Dialect::Process);
        assert_eq!(words(&run[0]), ["tool", ">", "x", ";", "y"]);
        let pwsh = simple_commands("Write-Output `\"hi`\" # c", Dialect::Pwsh);
        assert_eq!(words(&pwsh[0]), ["Write-Output", "\"hi\""]);
        let cmd = simple_commands("echo a^&b & dir", Dialect::Cmd);
        assert_eq!(words(&cmd[0]), ["echo", "a&b"]);
        assert_eq!(words(&cmd[1]), ["dir"]);
    }

    #[test]
    fn python_is_not_a_shell() {
        assert!(!Dialect::Python.is_shell() && !Dialect::Process.is_shell());
        assert!(Dialect::Posix.is_shell() && Dialect::Cmd.is_shell() && Dialect::Pwsh.is_shell());
        let py = simple_commands("open(p, 'w') > x ; y", Dialect::Python);
        assert_eq!(py.len(), 1);
    }
}
