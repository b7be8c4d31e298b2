//! Something made by one statement and run by a later one: text decoded into a variable or
//! a file and then run (`X=$(echo … | base64 -d)`, then `eval "$X"`), a download saved and
//! then run (`curl -o x …`, `chmod +x x`, `./x`). A checksum or signature checked anywhere
//! in the script makes its downloads pinned ones.

use std::collections::HashMap;

use super::super::statements::{RedirectKind, Stage, Token, is_assignment};
use super::unit::Unit;
use super::vocab::expansions;
use super::{Danger, DangerKind, Related, runs_its_input};

/// Interpreters that run a file given as their first operand.
const RUN_FILE: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "python",
    "python3",
    "node",
    "perl",
    "ruby",
    "php",
    "source",
    ".",
    "pwsh",
    "powershell",
    // PowerShell and `cmd` start a saved program by name.
    "start-process",
    "saps",
    "start",
    "invoke-item",
];

/// Programs (and subcommands) that check a checksum or a signature.
fn verifies(p: &str, args: &[Token]) -> bool {
    let has = |f: &str| args.iter().any(|a| a.text == f);
    match p {
        "sha256sum" | "sha512sum" | "sha1sum" | "sha384sum" | "b2sum" | "md5sum" | "shasum" => {
            has("-c") || has("--check") || args.iter().any(|a| a.text.starts_with("-c"))
        }
        "gpg" | "gpgv" => has("--verify") || p == "gpgv",
        "cosign" => args.first().is_some_and(|a| a.text.starts_with("verify")),
        "minisign" => has("-V"),
        "slsa-verifier" | "get-filehash" | "get-authenticodesignature" => true,
        "certutil" => args
            .iter()
            .any(|a| a.text.eq_ignore_ascii_case("-hashfile")),
        "openssl" => args.first().is_some_and(|a| a.text == "dgst"),
        _ => false,
    }
}

/// Whether a command's text decodes or unpacks what it is given (`base64 -d`, `xxd -r`,
/// `openssl enc -d`, `uudecode`, a ROT13 `tr`).
pub(crate) fn decodes(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    // The words that matter, noted as they come: a statement of millions of words is not
    // held as a list of them.
    let mut seen = std::collections::HashSet::new();
    let mut ends_base64 = false;
    for w in lower
        .split(|c: char| c.is_whitespace() || matches!(c, '|' | '(' | ')' | ';' | '"' | '\'' | '`'))
    {
        ends_base64 |= w.ends_with("base64") || w == "b64";
        if DECODING_WORDS.contains(&w) {
            seen.insert(w);
        }
    }
    let has = |f: &str| seen.contains(f);
    (ends_base64 && (has("-d") || has("--decode") || has("-di") || has("-id")))
        || (has("xxd") && (has("-r") || has("-rp")))
        || (has("openssl") && has("-d"))
        || has("uudecode")
        || (has("base64") && text.contains(" -D"))
        || (has("certutil") && has("-decode"))
        || lower.contains("b64decode")
        || (has("tr") && lower.contains("n-za-m"))
        || has("rev")
        || ((has("printf") || has("echo"))
            && lower.contains("\\x")
            && text.matches("\\x").count() >= 4)
}

/// The words [`decodes`] asks about.
const DECODING_WORDS: &[&str] = &[
    "-d", "--decode", "-di", "-id", "xxd", "-r", "-rp", "openssl", "uudecode", "base64",
    "certutil", "-decode", "tr", "rev", "printf", "echo",
];

/// What a file or variable was made by.
struct Made {
    start: usize,
    end: usize,
    kind: DangerKind,
}

/// Decoded text and downloads run by a later statement of `unit`.
pub(crate) fn check(script: &str, unit: &Unit, out: &mut Vec<Danger>) {
    let mut vars: HashMap<String, Made> = HashMap::new();
    let mut files: HashMap<String, Made> = HashMap::new();
    let mut verified = false;
    for placed in unit.placed.iter().filter(|p| p.assigned.is_none()) {
        let statement = &placed.statement;
        let line = &script[statement.start()..statement.end()];
        let decoding = decodes(line);
        for (index, stage) in statement.stages.iter().enumerate() {
            remember_assignments(script, stage, &mut vars);
            let p = stage.program().unwrap_or_default();
            let args = stage.args();
            verified |= verifies(&p, args);
            if let Some(file) = downloaded(&p, stage) {
                // Saved into a folder of programs, it runs by its bare name (`thub init`).
                if let Some((dir, name)) = file.rsplit_once('/')
                    && dir.ends_with("/bin")
                    && !name.is_empty()
                {
                    files.insert(norm(name), made(stage, DangerKind::DownloadExecute));
                }
                files.insert(norm(&file), made(stage, DangerKind::DownloadExecute));
            }
            if decoding && index + 1 == statement.stages.len() {
                for t in stage.written() {
                    files.insert(norm(&t.text), made(stage, DangerKind::DecodeExecute));
                }
            }
            if p == "certutil"
                && decoding
                && let Some(last) = args.last()
            {
                files.insert(norm(&last.text), made(stage, DangerKind::DecodeExecute));
            }
            // Something run: a file by its path or through an interpreter, a variable's text.
            let Some(pi) = stage.program_index() else {
                continue;
            };
            let program_word = &stage.words[pi];
            let mut ran: Vec<&str> = vec![program_word.text.as_str()];
            if RUN_FILE.contains(&p.as_str())
                && let Some(operand) = args.iter().find(|a| !a.text.starts_with('-'))
            {
                ran.push(operand.text.as_str());
            }
            for r in ran {
                if let Some(m) = files.get(&norm(r)) {
                    emit(out, program_word.start, end_of(stage, r), m, r);
                }
                if let Some(m) = expanded_var(r, &vars) {
                    emit(out, program_word.start, end_of(stage, r), m, r);
                }
            }
            // `eval "$X"`, `bash -c "$X"`, `python3 -c "$X"`, `source <(echo "$X")`,
            // `bash <<< "$X"`.
            let runs_text = matches!(p.as_str(), "eval" | "source" | ".")
                || (RUN_FILE.contains(&p.as_str())
                    && args
                        .iter()
                        .any(|a| matches!(a.text.as_str(), "-c" | "-e" | "-Command" | "-command")));
            if runs_text {
                for a in args {
                    if let Some(m) = expanded_var(&a.text, &vars) {
                        emit(out, program_word.start, a.end, m, &a.text);
                    }
                }
            }
            let here = stage
                .redirects
                .iter()
                .filter(|r| r.kind == RedirectKind::HereString)
                .filter_map(|r| r.target.as_ref());
            if RUN_FILE.contains(&p.as_str())
                && runs_its_input(&p, &script[program_word.start..stage.end])
            {
                for t in here {
                    if let Some(m) = expanded_var(&t.text, &vars) {
                        emit(out, program_word.start, t.end, m, &t.text);
                    }
                }
                // `echo "$X" | sh`: what the stage before prints.
                if index > 0
                    && let Some(prev) = statement.stages.get(index - 1)
                    && matches!(prev.program().as_deref(), Some("echo" | "printf" | "cat"))
                {
                    for a in prev.args() {
                        if let Some(m) = expanded_var(&a.text, &vars) {
                            emit(out, prev.start, program_word.end, m, &a.text);
                        }
                    }
                }
            }
        }
    }
    if verified {
        out.retain(|d| d.kind != DangerKind::DownloadExecute || d.related.is_none());
    }
}

fn made(stage: &Stage, kind: DangerKind) -> Made {
    Made {
        start: stage.start,
        end: stage.end,
        kind,
    }
}

fn emit(out: &mut Vec<Danger>, start: usize, end: usize, m: &Made, ran: &str) {
    let verb = if m.kind == DangerKind::DownloadExecute {
        "downloaded"
    } else {
        "decoded"
    };
    if out.len() >= super::MAX_DANGERS {
        return;
    }
    out.push(Danger {
        start,
        end: end.max(start),
        kind: m.kind,
        what: format!("{} run after it is {verb}", super::exfil::shorten(ran)),
        related: Some(Related {
            start: m.start,
            end: m.end.max(m.start),
            what: format!("{verb} here"),
        }),
    });
}

/// Where the word `w` of `stage` ends (the stage's end when it is not found).
fn end_of(stage: &Stage, w: &str) -> usize {
    stage
        .words
        .iter()
        .find(|t| t.text == w)
        .map_or(stage.end, |t| t.end)
}

/// `NAME=$(… base64 -d)` and `NAME="$OTHER"` of a decoded `OTHER`.
fn remember_assignments(script: &str, stage: &Stage, vars: &mut HashMap<String, Made>) {
    for w in stage.words.iter().filter(|w| is_assignment(&w.text)) {
        let Some((name, value)) = w.text.split_once('=') else {
            continue;
        };
        let raw = &script[w.start..w.end];
        if (value.contains("$(") || value.contains('`')) && fetches(raw) {
            // `S=$(curl -fsSL URL)`: the variable holds a download.
            vars.insert(
                name.to_string(),
                Made {
                    start: w.start,
                    end: w.end,
                    kind: DangerKind::DownloadExecute,
                },
            );
        } else if (value.contains("$(") || value.contains('`')) && decodes(raw) {
            vars.insert(
                name.to_string(),
                Made {
                    start: w.start,
                    end: w.end,
                    kind: DangerKind::DecodeExecute,
                },
            );
        } else if let Some(m) = expanded_var(value, vars) {
            let copy = Made {
                start: m.start,
                end: m.end,
                kind: m.kind,
            };
            vars.insert(name.to_string(), copy);
        }
    }
}

/// A substitution that starts with a download printed to standard output (`$(curl -fsSL
/// URL)`, `` `wget -qO- URL` ``).
fn fetches(raw: &str) -> bool {
    ["$(", "`", "$( "].iter().any(|open| {
        [
            "curl ",
            "wget ",
            "iwr ",
            "irm ",
            "invoke-webrequest ",
            "invoke-restmethod ",
        ]
        .iter()
        .any(|f| raw.to_ascii_lowercase().contains(&format!("{open}{f}")))
    })
}

/// The decoded variable `text` expands, if any.
fn expanded_var<'m>(text: &str, vars: &'m HashMap<String, Made>) -> Option<&'m Made> {
    if vars.is_empty() {
        return None;
    }
    expansions(text).into_iter().find_map(|(_, n)| vars.get(n))
}

/// `./x`, `"x"` and `x`: one file.
fn norm(s: &str) -> String {
    s.trim_matches(['"', '\''])
        .trim_start_matches("./")
        .to_string()
}

/// The file a download command saves to: `curl -o F`, `curl -O URL` (the URL's last
/// segment), `curl … > F`, `wget -O F`, `wget URL`, `Invoke-WebRequest -OutFile F`.
fn downloaded(p: &str, stage: &Stage) -> Option<String> {
    let args = stage.args();
    let url = || {
        args.iter()
            .find(|a| a.text.contains("://"))
            .map(|a| a.text.as_str())
    };
    let basename = |u: &str| {
        let path = u.split(['?', '#']).next().unwrap_or(u);
        path.rsplit('/')
            .next()
            .filter(|b| !b.is_empty())
            .map(str::to_string)
    };
    let value_of = |flags: &[&str]| {
        args.iter().enumerate().find_map(|(i, a)| {
            let t = a.text.as_str();
            // `-o F`, and a cluster of short options ending in it (`-sLo F`).
            let clustered = t.len() > 2
                && !t.starts_with("--")
                && flags
                    .iter()
                    .any(|f| f.len() == 2 && t.starts_with('-') && t.ends_with(&f[1..]));
            if flags.contains(&t) || clustered {
                return args.get(i + 1).map(|v| v.text.clone());
            }
            flags.iter().find_map(|f| {
                t.strip_prefix(f)
                    .and_then(|r| r.strip_prefix('='))
                    .map(str::to_string)
            })
        })
    };
    match p {
        "curl" | "curl.exe" => value_of(&["-o", "--output"])
            .or_else(|| {
                args.iter()
                    .any(|a| {
                        a.text == "-O"
                            || a.text == "--remote-name"
                            || (a.text.starts_with('-')
                                && !a.text.starts_with("--")
                                && a.text.contains('O'))
                    })
                    .then(|| url().and_then(basename))
                    .flatten()
            })
            .or_else(|| stage.written().next().map(|t| t.text.clone())),
        // `wget -qO- URL`: to standard output, no file.
        "wget"
            if args.iter().any(|a| {
                a.text.starts_with('-') && !a.text.starts_with("--") && a.text.ends_with("O-")
            }) =>
        {
            None
        }
        "wget" => value_of(&["-O", "--output-document"])
            .filter(|f| f != "-")
            .or_else(|| {
                let dir = value_of(&["-P", "--directory-prefix"]);
                let base = url().and_then(basename)?;
                Some(dir.map_or(base.clone(), |d| {
                    format!("{}/{base}", d.trim_end_matches('/'))
                }))
            }),
        "invoke-webrequest" | "iwr" => value_of(&["-OutFile", "-outfile"]),
        "aria2c" => value_of(&["-o", "--out"]),
        _ => None,
    }
}
