//! Exfiltration: a script that reads something secret and sends data to the network. Each
//! half is a fact ([`Source`], [`Sink`]); the chain of both is an attack, with both
//! places. Either half alone is at most a warning, and most halves are not even that: tools
//! read configuration and post to their own service all the time.
//!
//! A credential store read anywhere in the script counts; the environment, a secret
//! variable or a token printed by a CLI counts only when it flows into what is sent (the
//! same pipeline or substitution, a variable filled from it, a file written from it), and
//! never through a header, where a token goes to the service it belongs to.

mod read;
mod send;

use super::super::statements::{RedirectKind, Stage, Token, is_assignment, pwsh_assigned};
use super::services::{sent_elsewhere, serves};
use super::unit::{Placed, Unit};
use super::vocab::{belongs_to, expansions, is_secret_name};
use super::{Danger, DangerKind, Related};
use read::{Whole, output_file, read_redirects, read_sources};
use send::{Values, send};

/// Where secret data comes from.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// Byte offset where it is written.
    pub start: usize,
    /// Byte offset after it.
    pub end: usize,
    /// What it is, for a message (`~/.aws/credentials`).
    pub what: String,
    /// Secret beyond doubt (a credential store, the whole environment), rather than one
    /// value that may be sent where it belongs (a token).
    pub strong: bool,
    /// Counts only where it flows into the send (the environment, a token).
    pub flow_only: bool,
    /// Worth a warning on its own (a credential store, not the environment).
    pub alone: bool,
    /// The top-level statement it is in; `usize::MAX` where flow is not followed.
    pub top: usize,
    /// The variable filled from it.
    pub var: Option<String>,
    /// The file written from it.
    pub file: Option<String>,
    /// The credential store it reads, when it is one (`.aws/credentials`).
    pub store: Option<&'static str>,
    /// What it reads, in words, when its text says it less well (`the environment`).
    pub label: Option<&'static str>,
    /// The secret variable it holds, by name (`T=$GITHUB_TOKEN`): sent where its name
    /// says it does not belong, it is stolen whatever the host.
    pub secret: Option<String>,
}

/// Where data is sent to the network.
#[derive(Debug, Clone)]
pub(crate) struct Sink {
    /// Byte offset of the command.
    pub start: usize,
    /// Byte offset after what it sends.
    pub end: usize,
    /// What it is, for a message (`curl -d … https://x`).
    pub what: String,
    /// Data goes somewhere no service lives (a request catcher, a bare public address) or
    /// is spelled into a DNS name.
    pub strong: bool,
    /// What it sends comes from elsewhere (a file, standard input, a substitution or a
    /// variable), not only words written in the command: a literal test payload sent to a
    /// request catcher is how webhooks are tried out.
    pub carries: bool,
    /// It uploads a file or what a pipe gives to a host beyond the local network: data
    /// leaves, which a skill should say it does.
    pub uploads: bool,
    /// The name it looks up is spelled from a variable (`host "$part.x.example"`): a secret
    /// that flows into it leaves through DNS, whoever serves the domain.
    pub spelled: bool,
    /// Its top-level statement's span; `(0, usize::MAX)` where flow is not followed.
    pub statement: (usize, usize),
    /// Spans whose content does not count as sent (headers, credentials of the request).
    pub excluded: Vec<(usize, usize)>,
    /// Variables expanded in what it sends.
    pub vars: Vec<String>,
    /// Where what it sends expands a variable named as a secret (`$GITHUB_TOKEN`).
    pub secrets: Vec<(usize, usize)>,
    /// Files it sends.
    pub files: Vec<String>,
    /// The host it sends to, when the command names it.
    pub host: Option<String>,
    /// It sends through a DNS name built from data, which no service is reached by.
    pub dns: bool,
    /// It sends nothing but what its URL spells: only a secret variable written there
    /// makes it a send.
    pub url_only: bool,
}

/// Everything secret read and everything sent in `unit`.
pub(crate) fn facts(script: &str, unit: &Unit) -> (Vec<Source>, Vec<Sink>) {
    let mut sources = Vec::new();
    let mut sinks = Vec::new();
    let mut values = Values::default();
    values.remember(
        unit.placed
            .iter()
            .filter(|p| p.assigned.is_none())
            .flat_map(|p| &p.statement.stages),
    );
    // What a statement's pipeline writes, found once for all its stages (a pipeline of
    // 100,000 stages was read again for each).
    let mut writes: Option<(&Placed, Option<String>)> = None;
    let mut whole = Whole::default();
    for (placed, index, stage) in unit.stages() {
        // Once the sources are full, what a stage reads is not looked for: it would be cut
        // off, and the stages of a pipeline of 16,000 `| env` each read the whole
        // statement again (13 s).
        let full = sources.len() >= MAX_SOURCES;
        let Some(p) = stage.program() else {
            // `$(< ~/.aws/credentials)`: a redirection alone reads the file.
            if !full {
                read_redirects(stage, placed, &mut sources);
            }
            continue;
        };
        let before = sources.len();
        if !full {
            read_sources(script, placed, stage, &p, &mut whole, &mut sources);
            read_redirects(stage, placed, &mut sources);
        }
        // What a pipeline writes, or a variable it fills, holds what it read.
        let written = match &writes {
            Some((of, written)) if std::ptr::eq(*of, placed) => written.clone(),
            _ => {
                let stages = placed.statement.stages.iter();
                let written = stages
                    .flat_map(Stage::written)
                    .map(|t| t.text.clone())
                    .next();
                writes = Some((placed, written.clone()));
                written
            }
        };
        let file = written.or_else(|| output_file(stage, &p).map(|t| t.text.clone()));
        // `$x = Get-Content …`: PowerShell fills a variable from the command itself.
        let var = placed.assigned.clone().or_else(|| {
            let first = placed.statement.stages.first()?;
            pwsh_assigned(&first.words).map(str::to_string)
        });
        for s in &mut sources[before..] {
            s.var = s.var.take().or_else(|| var.clone());
            s.file = file.clone();
        }
        if let Some(sink) = send(script, placed, index, stage, &p, &values)
            && sinks.len() < MAX_SOURCES
        {
            sinks.push(sink);
        }
        sources.truncate(MAX_SOURCES);
    }
    secret_copies(script, unit, &mut sources);
    propagate(unit, &mut sources);
    (sources, sinks)
}

/// Variables filled from a secret variable (`T=$GITHUB_TOKEN`, PowerShell's
/// `$t = $env:GITHUB_TOKEN`, `$k = [Convert]::ToBase64String(…$env:X…)`): a source that
/// counts where the variable flows.
fn secret_copies(script: &str, unit: &Unit, sources: &mut Vec<Source>) {
    for placed in unit.placed.iter().filter(|p| p.assigned.is_none()) {
        let Some(stage) = placed.statement.stages.first() else {
            continue;
        };
        let (var, value) = match stage.words.as_slice() {
            // PowerShell: `$name = …`, the value the rest of the statement.
            [name, eq, first, ..] if name.text.starts_with('$') && eq.text == "=" => (
                name.text.trim_start_matches('$').to_string(),
                (first.start, placed.statement.end()),
            ),
            [word, ..] if is_assignment(&word.text) => {
                let Some((name, _)) = word.text.split_once('=') else {
                    continue;
                };
                (name.to_string(), (word.start, word.end))
            }
            _ => continue,
        };
        let raw = script.get(value.0..value.1).unwrap_or("");
        let Some((at, name)) = expansions(raw)
            .into_iter()
            .find(|(_, n)| is_secret_name(n) && !n.eq_ignore_ascii_case(&var))
        else {
            continue;
        };
        if sources.len() >= MAX_SOURCES {
            return;
        }
        let start = value.0 + at;
        let end = raw[at..]
            .find(name)
            .map_or(start + 1, |i| start + i + name.len());
        sources.push(Source {
            start,
            end,
            what: name.to_string(),
            strong: false,
            flow_only: true,
            alone: false,
            top: placed.top,
            var: Some(var),
            file: None,
            store: None,
            label: None,
            secret: Some(name.to_string()),
        });
    }
}

/// Secrets and sends kept at most in one script, copies through files and variables
/// included: judging them is a product of the two.
const MAX_SOURCES: usize = 128;

/// Taint through the script: a statement that reads a file written from a secret, or
/// expands a variable filled from one, passes it on to the files it writes and the variable
/// it fills (`env > a; base64 a > b; steghide embed -ef b -cf logo.jpg`).
fn propagate(unit: &Unit, sources: &mut Vec<Source>) {
    let tainted = |sources: &[Source], words: &[&Token]| {
        sources.iter().position(|s| {
            s.file
                .as_ref()
                .is_some_and(|f| words.iter().any(|w| same_file(f, &w.text)))
                || s.var.as_ref().is_some_and(|v| {
                    words
                        .iter()
                        .any(|w| expansions(&w.text).iter().any(|(_, n)| n == v))
                })
        })
    };
    for _ in 0..3 {
        let mut added = false;
        for placed in &unit.placed {
            let stages = &placed.statement.stages;
            let read: Vec<&Token> = stages
                .iter()
                .flat_map(|s| {
                    s.words.iter().chain(
                        s.redirects
                            .iter()
                            .filter(|r| {
                                r.kind != RedirectKind::Write && r.kind != RedirectKind::Append
                            })
                            .filter_map(|r| r.target.as_ref()),
                    )
                })
                .collect();
            let Some(i) = tainted(sources, &read) else {
                continue;
            };
            let mut files: Vec<String> = stages
                .iter()
                .flat_map(|s| {
                    s.written()
                        .chain(output_file(s, &s.program().unwrap_or_default()))
                })
                .map(|t| t.text.clone())
                .collect();
            files.retain(|f| {
                !sources
                    .iter()
                    .any(|s| s.file.as_deref() == Some(f.as_str()))
            });
            let mut vars: Vec<String> = placed.assigned.iter().cloned().collect();
            if let Some(first) = stages.first()
                && let Some(name) = pwsh_assigned(&first.words)
            {
                vars.push(name.to_string());
            }
            // `Y="$X"`: a plain assignment copies the variable.
            for w in stages.iter().flat_map(|s| &s.words) {
                if let Some((name, value)) = w.text.split_once('=')
                    && is_assignment(&w.text)
                    && tainted(
                        sources,
                        &[&Token {
                            text: value.to_string(),
                            ..w.clone()
                        }],
                    )
                    .is_some()
                {
                    vars.push(name.to_string());
                }
            }
            vars.retain(|v| !sources.iter().any(|s| s.var.as_deref() == Some(v.as_str())));
            for (file, var) in files
                .into_iter()
                .map(|f| (Some(f), None))
                .chain(vars.into_iter().map(|v| (None, Some(v))))
            {
                if sources.len() >= MAX_SOURCES {
                    return;
                }
                let mut copy = sources[i].clone();
                copy.file = file;
                copy.var = var;
                copy.alone = false;
                sources.push(copy);
                added = true;
            }
        }
        if !added {
            break;
        }
    }
}

/// The chains of `sources` into `sinks` as attacks, and the halves worth a warning alone.
/// `followed` says whether flow was followed (a shell script); where it was not (other
/// languages), a secret read anywhere in the script counts.
pub(crate) fn judge(
    script: &str,
    sources: &[Source],
    sinks: &[Sink],
    followed: bool,
    out: &mut Vec<Danger>,
) {
    // A credential store read for the service it belongs to is used, not stolen.
    let mut used: Vec<bool> = sources
        .iter()
        .map(|s| {
            s.store.is_some_and(|st| {
                sinks
                    .iter()
                    .any(|k| k.host.as_deref().is_some_and(|h| belongs_to(st, h)))
            })
        })
        .collect();
    for k in sinks {
        let flows = |s: &Source| {
            let inside = s.start >= k.statement.0
                && s.start < k.statement.1
                && !k
                    .excluded
                    .iter()
                    .any(|(a, b)| s.start >= *a && s.start < *b);
            inside
                || s.var.as_ref().is_some_and(|v| k.vars.contains(v))
                || s.file
                    .as_ref()
                    .is_some_and(|f| k.files.iter().any(|g| same_file(f, g)))
        };
        // A secret variable sent where its name says it does not belong (`$NPM_TOKEN` to a
        // host that is not npm's): stolen whatever the host.
        let elsewhere =
            |name: &str| k.strong || k.host.as_deref().is_some_and(|h| sent_elsewhere(name, h));
        let pick = sources
            .iter()
            .enumerate()
            .filter(|_| !k.url_only)
            .filter(|(_, s)| {
                s.strong
                    || k.strong
                    || (k.spelled && flows(s))
                    || (flows(s) && s.secret.as_deref().is_some_and(elsewhere))
            })
            // A credential sent to the service it is for (`~/.aws/credentials` to AWS).
            .filter(|(_, s)| {
                !s.store
                    .is_some_and(|st| k.host.as_deref().is_some_and(|h| belongs_to(st, h)))
            })
            .filter(|(_, s)| flows(s) || !s.flow_only || !followed)
            .max_by_key(|(_, s)| (flows(s), s.strong, usize::MAX - s.start.abs_diff(k.start)));
        // A secret variable sent to a suspicious place is a chain of its own.
        let secret_var = k.secrets.iter().find(|(a, b)| {
            let written = script.get(*a..*b).unwrap_or("");
            expansions(written)
                .first()
                .is_some_and(|(_, name)| elsewhere(name))
        });
        if let Some((i, s)) = pick {
            used[i] = true;
            // Every secret that flows into this send is part of this chain.
            for (j, other) in sources.iter().enumerate() {
                if flows(other) {
                    used[j] = true;
                }
            }
            // A pipeline that reads and sends is shown up to the send.
            let end = if s.start < k.start && k.start < s.end {
                let kept = script.get(s.start..k.start).unwrap_or("");
                s.start
                    + kept
                        .trim_end_matches(|c: char| c.is_whitespace() || c == '|')
                        .len()
            } else {
                s.end
            };
            out.push(chain(k, s.start, end, s.label.unwrap_or(&s.what)));
        } else if let Some(&(start, end)) = secret_var {
            out.push(chain(k, start, end, "a secret variable"));
        } else if k.strong && k.carries && (k.dns || k.spelled) {
            super::push(out, k.start, k.end, DangerKind::SendsData, &k.what);
        } else if (k.uploads || (k.strong && k.carries)) && !to_own_account(script, k) {
            // Data that is not secret, sent to a request catcher or a bare address: a report
            // the user asked to share looks just so. Only a send the description does not
            // announce is worth a word; a secret read or concealment makes it an attack.
            super::push(out, k.start, k.end, DangerKind::Uploads, &k.what);
        }
    }
    for (s, _) in sources.iter().zip(&used).filter(|(s, u)| !**u && s.alone) {
        super::push(out, s.start, s.end, DangerKind::ReadsCredentials, &s.what);
    }
}

/// Whether a send is authenticated, in its headers, with the credential of the service it
/// goes to (`-H "Authorization: Bearer $GITHUB_TOKEN"` to `uploads.github.com`): what it
/// uploads goes to the user's own account there, as a release step does.
fn to_own_account(script: &str, k: &Sink) -> bool {
    let Some(host) = &k.host else {
        return false;
    };
    k.excluded.iter().any(|(a, b)| {
        let header = script.get(*a..*b).unwrap_or("");
        expansions(header)
            .iter()
            .any(|(_, name)| is_secret_name(name) && serves(name, host))
    })
}

fn chain(k: &Sink, start: usize, end: usize, what: &str) -> Danger {
    Danger {
        start: k.start,
        end: k.end.max(k.start),
        kind: DangerKind::Exfiltration,
        what: k.what.clone(),
        related: Some(Related {
            start,
            end: end.max(start),
            what: format!("reads {}", shorten(what)),
        }),
    }
}

/// `./out.tgz` and `out.tgz`, `"$F"` and `$F`: one file.
fn same_file(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.trim_matches(['"', '\''])
            .trim_start_matches("./")
            .to_string()
    };
    norm(a) == norm(b)
}

/// At most 60 characters of `s`, on one line.
pub(crate) fn shorten(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = one.chars().take(60).collect();
    if one.chars().count() > 60 {
        out.push('…');
    }
    out
}
