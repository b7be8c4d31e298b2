//! Finds the first obvious write in a command: a file removed, moved or redirected into, a
//! `git push`, an HTTP request that changes something.
//!
//! This is a lint for mislabelled `read` tools, so it only reports what is unmistakable: a
//! shell lexer (`analysis::shell::each_simple_command`) splits the script into simple commands
//! (quotes, comments, heredoc bodies and `$(…)` handled), and each command is matched
//! against commands and flags that write.

use crate::analysis::shell::{Command, Dialect, Word, each_simple_command};

/// An obvious write: where it is in the command and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Write {
    /// Byte offset in the command text.
    pub start: usize,
    /// Byte offset one past the end.
    pub end: usize,
    /// What writes, for the message (`rm`, `git push`, `>`).
    pub what: String,
}

/// The first obvious write in `script`, if any.
pub(crate) fn first_write(script: &str, dialect: Dialect) -> Option<Write> {
    if dialect == Dialect::Python {
        return python_write(script);
    }
    // Each command as it is read: a script of a million commands was held as a list.
    let mut first = None;
    each_simple_command(script, dialect, |command| {
        if first.is_none() {
            first = command_write(&command, dialect);
        }
    });
    first
}

/// Words that start a command without being it.
const PREFIXES: &[&str] = &[
    "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", "time", "sudo", "env",
    "nohup", "exec", "command", "builtin", "xargs", "call", "&",
];

/// Targets of `>` that are not files.
fn harmless_target(target: &str) -> bool {
    let t = target.to_ascii_lowercase();
    t.starts_with("/dev/") || t == "nul" || t == "$null" || t.starts_with('&')
}

fn command_write(command: &Command, dialect: Dialect) -> Option<Write> {
    if dialect.is_shell() {
        for r in &command.redirects {
            if r.target.as_ref().is_some_and(|t| harmless_target(&t.text)) {
                continue;
            }
            return Some(Write {
                start: r.start,
                end: r.end,
                what: "a `>` redirection into a file".to_string(),
            });
        }
    }
    let mut words = command.words.iter().peekable();
    // Skip assignments (`FOO=bar cmd`) and keywords/wrappers with their options.
    while let Some(w) = words.peek() {
        let t = w.text.as_str();
        let assignment = dialect != Dialect::Cmd
            && t.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            });
        let wrapper = PREFIXES.contains(&t) || (t.starts_with('-') && t.len() > 1);
        if assignment || wrapper || t.is_empty() {
            words.next();
        } else {
            break;
        }
    }
    let head = words.next()?;
    if matches!(
        head.text.as_str(),
        "for" | "case" | "in" | "function" | "rem" | "REM" | "::"
    ) || head.text.starts_with("::")
    {
        return None;
    }
    let args: Vec<&Word> = words.collect();
    let name = head
        .text
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&head.text)
        .trim_end_matches(".exe");
    let lower = name.to_ascii_lowercase();
    let whole = |what: &str| {
        Some(Write {
            start: head.start,
            end: head.end,
            what: format!("`{what}`"),
        })
    };
    let with_arg = |arg: &Word, what: String| {
        Some(Write {
            start: head.start,
            end: arg.end,
            what: format!("`{what}`"),
        })
    };
    match dialect {
        Dialect::Cmd => {
            if CMD_WRITERS.contains(&lower.as_str()) {
                return whole(name);
            }
        }
        Dialect::Pwsh => {
            if PWSH_WRITERS.iter().any(|w| w.eq_ignore_ascii_case(name)) {
                return whole(name);
            }
            if matches!(
                lower.as_str(),
                "invoke-webrequest" | "invoke-restmethod" | "iwr" | "irm"
            ) {
                return pwsh_web_write(&args);
            }
        }
        Dialect::Posix | Dialect::Process | Dialect::Python => {}
    }
    if POSIX_WRITERS.contains(&name) && dialect != Dialect::Cmd {
        return whole(name);
    }
    match name {
        "sed" | "perl" => args
            .iter()
            .find(|a| {
                a.text.starts_with("--in-place")
                    || (a.text.starts_with('-')
                        && !a.text.starts_with("--")
                        && a.text[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                        && a.text[1..].contains('i'))
            })
            .and_then(|a| with_arg(a, format!("{name} {}", a.text))),
        "tee" => args
            .iter()
            .find(|a| !a.text.starts_with('-') && !harmless_target(&a.text))
            .and(whole("tee")),
        "git" => subcommand(&args, &["-C", "-c", "--git-dir", "--work-tree"])
            .filter(|(s, _)| GIT_WRITES.contains(&s.as_str()))
            .and_then(|(s, w)| with_arg(w, format!("git {s}"))),
        "kubectl" | "oc" => subcommand(&args, &["-n", "--namespace", "--context", "--kubeconfig"])
            .filter(|(s, _)| KUBECTL_WRITES.contains(&s.as_str()))
            .and_then(|(s, w)| with_arg(w, format!("{name} {s}"))),
        "docker" | "podman" => subcommand(&args, &["-H", "--host", "--context", "--config"])
            .filter(|(s, _)| DOCKER_WRITES.contains(&s.as_str()))
            .and_then(|(s, w)| with_arg(w, format!("{name} {s}"))),
        "npm" | "pnpm" | "yarn" | "pip" | "pip3" => subcommand(&args, &[])
            .filter(|(s, _)| PACKAGE_WRITES.contains(&s.as_str()))
            .and_then(|(s, w)| with_arg(w, format!("{name} {s}"))),
        "terraform" | "tofu" => subcommand(&args, &[])
            .filter(|(s, _)| matches!(s.as_str(), "apply" | "destroy" | "import" | "taint"))
            .and_then(|(s, w)| with_arg(w, format!("{name} {s}"))),
        "curl" => curl_write(&args),
        "wget" => wget_write(head, &args),
        "gh" => gh_write(head, &args),
        _ => None,
    }
}

/// Commands that always change files.
const POSIX_WRITERS: &[&str] = &[
    "rm", "rmdir", "mv", "cp", "dd", "mkdir", "touch", "chmod", "chown", "chgrp", "ln", "truncate",
    "shred", "install", "unlink", "rsync", "scp", "mkfifo", "patch",
];
const CMD_WRITERS: &[&str] = &[
    "del", "erase", "rd", "rmdir", "move", "copy", "xcopy", "robocopy", "ren", "rename", "md",
    "mkdir", "mklink",
];
const PWSH_WRITERS: &[&str] = &[
    "Remove-Item",
    "Set-Content",
    "Add-Content",
    "Out-File",
    "New-Item",
    "Move-Item",
    "Copy-Item",
    "Rename-Item",
    "Clear-Content",
    "Clear-Item",
    "Set-Item",
    "Set-ItemProperty",
    "New-ItemProperty",
    "Remove-ItemProperty",
    "Export-Csv",
    "Export-Clixml",
    "del",
    "erase",
    "rd",
    "ri",
    "mi",
    "cpi",
    "ni",
    "md",
    "ren",
    "rni",
];
const GIT_WRITES: &[&str] = &[
    "push",
    "commit",
    "reset",
    "clean",
    "rm",
    "mv",
    "rebase",
    "merge",
    "apply",
    "am",
    "cherry-pick",
    "revert",
    "stash",
    "checkout",
    "switch",
    "restore",
    "pull",
    "add",
];
const KUBECTL_WRITES: &[&str] = &[
    "apply", "create", "delete", "edit", "patch", "replace", "scale", "set", "label", "annotate",
    "rollout", "drain", "cordon", "uncordon", "taint", "expose", "run", "cp",
];
const DOCKER_WRITES: &[&str] = &[
    "rm", "rmi", "push", "kill", "stop", "tag", "build", "commit", "cp",
];
const PACKAGE_WRITES: &[&str] = &[
    "install",
    "i",
    "add",
    "remove",
    "uninstall",
    "publish",
    "update",
    "upgrade",
    "ci",
    "link",
];
const GH_WRITE_VERBS: &[&str] = &[
    "create",
    "delete",
    "edit",
    "close",
    "comment",
    "merge",
    "reopen",
    "review",
    "upload",
    "fork",
    "rename",
    "archive",
    "unarchive",
    "lock",
    "unlock",
    "transfer",
    "pin",
    "unpin",
    "ready",
    "sync",
    "clone",
    "download",
    "set-default",
];

/// The first argument that is not an option (options in `valued` take the next word).
fn subcommand<'w>(args: &[&'w Word], valued: &[&str]) -> Option<(String, &'w Word)> {
    let mut skip_next = false;
    for a in args {
        if skip_next {
            skip_next = false;
            continue;
        }
        if a.text.starts_with('-') {
            skip_next = valued.contains(&a.text.as_str());
            continue;
        }
        return Some((a.text.clone(), a));
    }
    None
}

fn is_changing_method(m: &str) -> bool {
    matches!(
        m.to_ascii_uppercase().as_str(),
        "POST" | "PUT" | "PATCH" | "DELETE"
    )
}

fn flag_write(from: &Word, to: &Word) -> Option<Write> {
    Some(Write {
        start: from.start,
        end: to.end,
        what: format!(
            "`{}`",
            if std::ptr::eq(from, to) {
                from.text.clone()
            } else {
                format!("{} {}", from.text, to.text)
            }
        ),
    })
}

/// `curl` that sends data, uses a changing method, or saves to a file.
fn curl_write(args: &[&Word]) -> Option<Write> {
    for (k, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        let next = args.get(k + 1);
        if t == "-X" || t == "--request" {
            if let Some(m) = next.filter(|m| is_changing_method(&m.text)) {
                return flag_write(a, m);
            }
            continue;
        }
        if let Some(m) = t
            .strip_prefix("--request=")
            .or_else(|| t.strip_prefix("-X"))
        {
            if is_changing_method(m) {
                return flag_write(a, a);
            }
            continue;
        }
        if matches!(t, "-o" | "--output") {
            if next.is_some_and(|n| harmless_target(&n.text) || n.text == "-") {
                continue;
            }
            return flag_write(a, a);
        }
        if t.starts_with("--data")
            || t.starts_with("--output=")
            || matches!(
                t,
                "-d" | "-F" | "--form" | "-T" | "--upload-file" | "--json" | "-O" | "--remote-name"
            )
        {
            return flag_write(a, a);
        }
        // A cluster of short flags (`-sSLO`) that contains a writing one.
        if t.len() > 2
            && t.starts_with('-')
            && !t.starts_with("--")
            && t[1..].bytes().all(|b| b.is_ascii_alphabetic())
            && t[1..].contains(['d', 'F', 'T', 'O'])
        {
            return flag_write(a, a);
        }
    }
    None
}

/// `wget` saves what it downloads unless told to print it (`-O -`) or only check (`--spider`).
fn wget_write(head: &Word, args: &[&Word]) -> Option<Write> {
    let mut to_stdout = false;
    for (k, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        if t.starts_with("--post") || t == "--method=POST" {
            return flag_write(a, a);
        }
        if t == "--spider"
            || t == "--output-document=-"
            || t == "-O-"
            || t == "-qO-"
            || ((t == "-O" || t == "-qO") && args.get(k + 1).is_some_and(|n| n.text == "-"))
        {
            to_stdout = true;
        }
    }
    (!to_stdout).then(|| Write {
        start: head.start,
        end: head.end,
        what: "`wget` (it saves the download to a file)".to_string(),
    })
}

/// `gh api` with a changing method or fields, and `gh <group> <verb>` verbs that change things.
fn gh_write(head: &Word, args: &[&Word]) -> Option<Write> {
    let first = args.first()?;
    if first.text == "api" {
        for (k, a) in args.iter().enumerate() {
            let t = a.text.as_str();
            if matches!(t, "-X" | "--method") {
                if let Some(m) = args.get(k + 1).filter(|m| is_changing_method(&m.text)) {
                    return flag_write(a, m);
                }
            } else if let Some(m) = t.strip_prefix("--method=").or_else(|| t.strip_prefix("-X")) {
                if is_changing_method(m) {
                    return flag_write(a, a);
                }
            } else if matches!(t, "-f" | "-F" | "--field" | "--raw-field" | "--input") {
                return flag_write(a, a);
            }
        }
        return None;
    }
    let verb = args.get(1)?;
    GH_WRITE_VERBS.contains(&verb.text.as_str()).then(|| Write {
        start: head.start,
        end: verb.end,
        what: format!("`gh {} {}`", first.text, verb.text),
    })
}

/// `Invoke-WebRequest`/`Invoke-RestMethod` with a changing `-Method` or an `-OutFile`.
fn pwsh_web_write(args: &[&Word]) -> Option<Write> {
    for (k, a) in args.iter().enumerate() {
        if a.text.eq_ignore_ascii_case("-Method")
            && let Some(m) = args.get(k + 1).filter(|m| is_changing_method(&m.text))
        {
            return flag_write(a, m);
        }
        if a.text.eq_ignore_ascii_case("-OutFile") {
            return flag_write(a, a);
        }
    }
    None
}

/// Python calls that change files.
const PYTHON_WRITERS: &[&str] = &[
    "os.remove(",
    "os.unlink(",
    "os.rmdir(",
    "os.removedirs(",
    "os.rename(",
    "os.replace(",
    "os.mkdir(",
    "os.makedirs(",
    "shutil.rmtree(",
    "shutil.move(",
    "shutil.copy(",
    "shutil.copy2(",
    "shutil.copyfile(",
    "shutil.copytree(",
    ".write_text(",
    ".write_bytes(",
    ".unlink(",
    ".rmdir(",
    ".mkdir(",
];

/// The first file-changing call in a Python script, or an `open(…)` in a writing mode.
fn python_write(script: &str) -> Option<Write> {
    let mut offset = 0;
    for line in script.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or(line);
        for pattern in PYTHON_WRITERS {
            if let Some(at) = code.find(pattern) {
                let name = pattern.trim_start_matches('.').trim_end_matches('(');
                let lead = usize::from(pattern.starts_with('.'));
                return Some(Write {
                    start: offset + at + lead,
                    end: offset + at + pattern.len() - 1,
                    what: format!("`{name}`"),
                });
            }
        }
        let mut next = code.find("open(");
        while let Some(at) = next {
            next = code[at + 5..].find("open(").map(|n| at + 5 + n);
            let preceded_ok = at == 0
                || !code.as_bytes()[at - 1].is_ascii_alphanumeric()
                    && code.as_bytes()[at - 1] != b'_';
            // Its arguments end at the next `open(` too: a line of many with no `)` was read
            // to its end for each of them.
            let args = &code[at + 5..next.unwrap_or(code.len())];
            let args = &args[..args.find(')').unwrap_or(args.len())];
            let writing = args.split(['\'', '"']).skip(1).step_by(2).any(|lit| {
                !lit.is_empty()
                    && lit.bytes().all(|b| b"rwabxt+".contains(&b))
                    && lit.contains(['w', 'a', 'x', '+'])
            });
            if preceded_ok && writing {
                return Some(Write {
                    start: offset + at,
                    end: offset + at + 4,
                    what: "`open` in a writing mode".to_string(),
                });
            }
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests;
