//! Exfiltration: a script that reads something secret and sends data to the network. Each
//! half is a fact ([`Source`], [`Sink`]); the chain of both is an attack, with both
//! places. Either half alone is at most a warning, and most halves are not even that: tools
//! read configuration and post to their own service all the time.
//!
//! A credential store read anywhere in the script counts; the environment, a secret
//! variable or a token printed by a CLI counts only when it flows into what is sent (the
//! same pipeline or substitution, a variable filled from it, a file written from it), and
//! never through a header, where a token goes to the service it belongs to.

use super::super::statements::{RedirectKind, Stage, Token};
use super::unit::{Placed, Unit};
use super::vocab::{credential_store, expansions, host_of, is_secret_name, suspicious_host, urls};
use super::{Danger, DangerKind, Related};

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
}

/// Programs that output, copy or pack a file they are given: reading a credential store
/// with one of them is reading it.
const READERS: &[&str] = &[
    "cat",
    "tac",
    "head",
    "tail",
    "less",
    "more",
    "nl",
    "cp",
    "scp",
    "rsync",
    "tar",
    "zip",
    "7z",
    "7za",
    "gzip",
    "bzip2",
    "xz",
    "base64",
    "base32",
    "xxd",
    "od",
    "hexdump",
    "strings",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "awk",
    "gawk",
    "sed",
    "cut",
    "sort",
    "uniq",
    "sqlite3",
    "openssl",
    "gpg",
    "jq",
    "yq",
    "dd",
    "type",
    "get-content",
    "gc",
    "copy-item",
    "compress-archive",
    "xcopy",
    "robocopy",
    "python",
    "python3",
    "node",
    "perl",
    "ruby",
    "php",
    "curl",
    "wget",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "mail",
    "mailx",
    "mutt",
    "find",
    "xargs",
    "http",
    "xh",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr",
    "irm",
    "tee",
];

/// Programs that print every environment variable when given no name.
const ENV_PRINTERS: &[&str] = &["env", "printenv", "export", "declare", "typeset", "set"];

/// Words a filter of the environment looks for when it wants secrets.
const SECRET_FILTER: &[&str] = &[
    "token", "key", "secret", "pass", "cred", "auth", "aws", "github", "api",
];

/// Everything secret read and everything sent in `unit`.
pub(crate) fn facts(script: &str, unit: &Unit) -> (Vec<Source>, Vec<Sink>) {
    let mut sources = Vec::new();
    let mut sinks = Vec::new();
    for (placed, index, stage) in unit.stages() {
        let Some(p) = stage.program() else {
            // `$(< ~/.aws/credentials)`: a redirection alone reads the file.
            read_redirects(stage, placed, &mut sources);
            continue;
        };
        let before = sources.len();
        read_sources(script, placed, stage, &p, &mut sources);
        read_redirects(stage, placed, &mut sources);
        // What a pipeline writes, or a variable it fills, holds what it read.
        let file = placed
            .statement
            .stages
            .iter()
            .flat_map(Stage::written)
            .chain(output_file(stage, &p))
            .map(|t| t.text.clone())
            .next();
        for s in &mut sources[before..] {
            s.var = placed.assigned.clone();
            s.file = file.clone();
        }
        if let Some(sink) = send(script, placed, index, stage, &p) {
            sinks.push(sink);
        }
    }
    // `Y=$(echo "$X" | base64)`: what fills a variable from a tainted one taints it too.
    for placed in &unit.placed {
        let (Some(var), Some(first)) = (&placed.assigned, placed.statement.stages.first()) else {
            continue;
        };
        let from = first
            .words
            .iter()
            .flat_map(|w| expansions(&w.text).into_iter().map(|(_, n)| n.to_string()))
            .find_map(|n| {
                sources
                    .iter()
                    .position(|s| s.var.as_deref() == Some(n.as_str()))
            });
        if let Some(i) = from
            && sources[i].var.as_deref() != Some(var.as_str())
        {
            let mut copy = sources[i].clone();
            copy.var = Some(var.clone());
            copy.alone = false;
            sources.push(copy);
        }
    }
    (sources, sinks)
}

/// The file a reading program writes its output to (`tar -czf out.tgz …`, `zip out.zip …`,
/// `cp a b`).
fn output_file<'s>(stage: &'s Stage, p: &str) -> Option<&'s Token> {
    let args: Vec<&Token> = stage.args().iter().collect();
    match p {
        "tar" => args
            .iter()
            .position(|a| {
                a.text.starts_with('-') && a.text.contains('f')
                    || a.text.ends_with('f') && !a.text.contains('.')
            })
            .and_then(|i| args.get(i + 1).copied()),
        "zip" | "7z" | "7za" => args
            .iter()
            .find(|a| !a.text.starts_with('-') && a.text != "a")
            .copied(),
        "cp" | "copy-item" => args
            .iter()
            .rev()
            .find(|a| !a.text.starts_with('-'))
            .copied(),
        _ => None,
    }
}

fn source(start: usize, end: usize, what: &str, placed: &Placed) -> Source {
    Source {
        start,
        end,
        what: what.to_string(),
        strong: true,
        flow_only: false,
        alone: true,
        top: placed.top,
        var: None,
        file: None,
    }
}

/// What one command reads that is secret.
fn read_sources(script: &str, placed: &Placed, stage: &Stage, p: &str, out: &mut Vec<Source>) {
    let args = stage.args();
    let text = |i: usize| args.get(i).map_or("", |t| t.text.as_str());
    // What reads the environment or a token is shown as its whole pipeline: the filter and
    // the file it writes say what is kept.
    let whole = (placed.statement.start(), placed.statement.end());
    // A credential store given to a program that reads it.
    if READERS.contains(&p) {
        for a in args {
            if let Some(store) = credential_store(&a.text) {
                let mut s = source(a.start, a.end, &a.text, placed);
                s.alone = store.alarming;
                out.push(s);
                break;
            }
        }
    }
    // The environment, whole.
    let all_env = match p {
        "env" | "printenv" => args.iter().all(|a| a.text.starts_with('-')),
        "export" | "declare" | "typeset" => {
            args.iter().all(|a| a.text.starts_with('-')) && (p == "export" || !args.is_empty())
        }
        "set" => args.is_empty(),
        "get-childitem" | "gci" | "dir" | "ls" => {
            args.iter().any(|a| a.text.eq_ignore_ascii_case("env:"))
        }
        _ => false,
    } || args.iter().any(|a| is_proc_environ(&a.text));
    if all_env && !filters_for_other_things(placed) {
        let mut s = source(whole.0, whole.1, &script[whole.0..whole.1], placed);
        s.flow_only = true;
        s.alone = false;
        out.push(s);
    }
    // One secret variable printed (`printenv GITHUB_TOKEN`), a token a CLI prints.
    let printed_secret = ENV_PRINTERS.contains(&p)
        && args
            .iter()
            .any(|a| !a.text.starts_with('-') && is_secret_name(&a.text));
    let token_cli =
        matches!(
            (p, text(0), text(1)),
            ("gh", "auth", "token")
                | (
                    "gcloud",
                    "auth",
                    "print-access-token" | "print-identity-token"
                )
                | ("az", "account", "get-access-token")
                | ("git", "credential", "fill")
                | ("aws", "configure", "export-credentials")
                | ("op", "read", _)
                | ("pass", "show", _)
                | ("secret-tool", "lookup", _)
        ) || (p == "aws" && text(0) == "configure" && text(1) == "get" && is_secret_name(text(2)));
    // macOS keychain: one named item is how a tool keeps its own key; the whole
    // keychain, or every item, is harvesting.
    let keychain = p == "security"
        && matches!(
            text(0),
            "find-generic-password" | "find-internet-password" | "dump-keychain" | "export"
        );
    let named_item = args
        .iter()
        .any(|a| matches!(a.text.as_str(), "-s" | "-a" | "-l" | "-D" | "-c" | "-j"));
    let harvest = (keychain && !named_item)
        || matches!(p, "mimikatz" | "lazagne" | "vaultcmd")
        || (p == "cmdkey" && args.iter().any(|a| a.text.eq_ignore_ascii_case("/list")))
        || (p == "secret-tool" && text(0) == "search" && args.iter().any(|a| a.text == "--all"));
    if harvest {
        out.push(source(whole.0, whole.1, &script[whole.0..whole.1], placed));
    } else if printed_secret || token_cli || keychain {
        let mut s = source(whole.0, whole.1, &script[whole.0..whole.1], placed);
        s.strong = false;
        s.flow_only = true;
        s.alone = false;
        out.push(s);
    }
    // Hunting for keys over the home or root folder.
    if hunts_credentials(p, args) {
        out.push(source(whole.0, whole.1, &script[whole.0..whole.1], placed));
    }
}

fn is_proc_environ(word: &str) -> bool {
    word.starts_with("/proc/") && word.ends_with("/environ")
}

/// A pipeline that filters the environment for something other than secrets
/// (`env | grep -i proxy`).
fn filters_for_other_things(placed: &Placed) -> bool {
    let filters: Vec<&Stage> = placed
        .statement
        .stages
        .iter()
        .filter(|s| {
            matches!(
                s.program().as_deref(),
                Some(
                    "grep" | "egrep" | "rg" | "findstr" | "select-string" | "awk" | "sed" | "head"
                )
            )
        })
        .collect();
    !filters.is_empty()
        && !filters.iter().any(|s| {
            s.args().iter().any(|a| {
                let lower = a.text.to_ascii_lowercase();
                SECRET_FILTER.iter().any(|w| lower.contains(w))
            })
        })
}

/// `find ~ -name "*.pem"`, `grep -ri password /`: a search of the home or root folder for
/// keys and secrets.
fn hunts_credentials(p: &str, args: &[Token]) -> bool {
    let wide = args.iter().any(|a| {
        matches!(
            a.text.as_str(),
            "~" | "~/" | "/" | "$HOME" | "${HOME}" | "$HOME/" | "/home" | "/Users" | "/root"
        )
    });
    if !wide {
        return false;
    }
    let lower: Vec<String> = args.iter().map(|a| a.text.to_ascii_lowercase()).collect();
    match p {
        "find" => lower.windows(2).any(|w| {
            matches!(w[0].as_str(), "-name" | "-iname" | "-path")
                && [
                    ".pem",
                    ".key",
                    "id_rsa",
                    "id_ed25519",
                    "id_*",
                    ".kdbx",
                    ".env",
                    "credential",
                    "secret",
                    ".p12",
                    ".pfx",
                    "wallet",
                    ".ovpn",
                    "netrc",
                    ".keychain",
                ]
                .iter()
                .any(|k| w[1].contains(k))
        }),
        "grep" | "egrep" | "rg" => {
            lower
                .iter()
                .any(|a| a.starts_with('-') && (a.contains('r') || a.contains('R')))
                && lower.iter().any(|a| {
                    [
                        "password",
                        "passwd",
                        "secret",
                        "api_key",
                        "apikey",
                        "token",
                        "private key",
                    ]
                    .iter()
                    .any(|k| a.contains(k))
                })
        }
        _ => false,
    }
}

/// `< ~/.aws/credentials`: a file read by redirection.
fn read_redirects(stage: &Stage, placed: &Placed, out: &mut Vec<Source>) {
    for r in &stage.redirects {
        let Some(t) = r.target.as_ref().filter(|_| r.kind == RedirectKind::Read) else {
            continue;
        };
        if let Some(store) = credential_store(&t.text) {
            let mut s = source(r.start, t.end, &t.text, placed);
            s.alone = store.alarming;
            out.push(s);
        } else if is_proc_environ(&t.text) {
            let mut s = source(r.start, t.end, &t.text, placed);
            s.flow_only = true;
            s.alone = false;
            out.push(s);
        }
    }
}

/// What one command sends, when it sends data: its values, files and destination.
#[derive(Default)]
struct Sent<'s> {
    data: Vec<&'s Token>,
    excluded: Vec<&'s Token>,
    files: Vec<String>,
    dest: Option<&'s Token>,
    /// Data comes in on standard input (a pipe, a redirection).
    stdin: bool,
    /// Sent through a DNS name built from data.
    dns: bool,
}

/// The send of one command, if it sends data.
fn send(script: &str, placed: &Placed, index: usize, stage: &Stage, p: &str) -> Option<Sink> {
    let args = stage.args();
    let piped = index > 0
        || stage.redirects.iter().any(|r| {
            matches!(
                r.kind,
                RedirectKind::Read | RedirectKind::HereString | RedirectKind::HereDoc
            )
        });
    let sent = match p {
        "curl" | "curl.exe" => http_client(args, CURL_DATA, CURL_EXCLUDED, CURL_VALUED),
        "wget" => http_client(
            args,
            WGET_DATA,
            &["--header"],
            &["-o", "-O", "-P", "--output-document"],
        ),
        "invoke-webrequest" | "invoke-restmethod" | "iwr" | "irm" => http_client(
            args,
            &["-body", "-infile"],
            &["-headers", "-credential"],
            &["-method", "-outfile"],
        ),
        "http" | "https" | "xh" | "xhs" => httpie(args),
        "nc" | "ncat" | "netcat" | "telnet" | "socat" | "openssl" => stream(args, p, piped),
        "scp" | "rsync" => copy_out(args),
        "mail" | "mailx" | "mutt" | "sendmail" => {
            let mut s = Sent::default();
            let attached = args
                .windows(2)
                .filter(|w| w[0].text == "-a" || w[0].text == "-A")
                .map(|w| &w[1]);
            for a in attached {
                s.data.push(a);
                s.files.push(a.text.clone());
            }
            s.stdin = piped;
            s.dest = args.iter().rev().find(|a| a.text.contains('@'));
            (!s.data.is_empty() || piped).then_some(s)
        }
        "dig" | "nslookup" | "host" | "drill" | "kdig" | "delv" | "ping" | "ping6" | "getent"
        | "resolvectl" | "nping" | "traceroute" => dns(args),
        _ => None,
    }?;
    let dest_host = sent.dest.and_then(|d| host_of(&d.text));
    // Data spelled into the host name itself reaches whoever serves that domain's DNS.
    let host_dynamic = sent.dest.is_some_and(|d| {
        let t = d.text.split_once("://").map_or(d.text.as_str(), |(_, r)| r);
        let host = t.split('/').next().unwrap_or(t);
        host.contains("$(") || host.contains('`')
    });
    let strong = sent.dns
        || host_dynamic
        || dest_host.as_deref().is_some_and(suspicious_host)
        || sent
            .data
            .iter()
            .any(|d| urls(&d.text).any(|(_, u)| host_of(u).is_some_and(|h| suspicious_host(&h))));
    let end = sent
        .data
        .iter()
        .chain(sent.dest.iter())
        .map(|t| t.end)
        .max()
        .unwrap_or(stage.end)
        .max(stage.start);
    let mut vars: Vec<String> = Vec::new();
    let mut secrets = Vec::new();
    for d in sent.data.iter().chain(sent.dest.iter()) {
        vars.extend(expansions(&d.text).into_iter().map(|(_, n)| n.to_string()));
        let raw = script.get(d.start..d.end).unwrap_or("");
        for (at, name) in expansions(raw) {
            if is_secret_name(name) {
                let start = d.start + at;
                let braced = raw[at..].starts_with("${");
                secrets.push((start, start + 1 + usize::from(braced) * 2 + name.len()));
            }
        }
    }
    let what = match &dest_host {
        Some(h) => format!("{p} … {h}"),
        None => p.to_string(),
    };
    Some(Sink {
        start: stage
            .words
            .get(stage.program_index().unwrap_or(0))
            .map_or(stage.start, |w| w.start),
        end,
        what,
        strong,
        statement: placed.top_span,
        excluded: sent.excluded.iter().map(|t| (t.start, t.end)).collect(),
        vars,
        secrets,
        files: sent.files,
    })
    .filter(|_| sent.stdin || !sent.data.is_empty() || sent.dns || host_dynamic)
}

/// curl's options that send data, their value next (or attached).
const CURL_DATA: &[&str] = &[
    "-d",
    "--data",
    "--data-ascii",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--json",
    "-F",
    "--form",
    "--form-string",
    "-T",
    "--upload-file",
];
/// curl's options whose value is a credential or header of the request, not data.
const CURL_EXCLUDED: &[&str] = &[
    "-H",
    "--header",
    "-u",
    "--user",
    "-b",
    "--cookie",
    "--oauth2-bearer",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "--proxy-user",
    "-U",
];
/// curl's other options that take a value.
const CURL_VALUED: &[&str] = &[
    "-o",
    "--output",
    "-x",
    "--proxy",
    "-X",
    "--request",
    "-w",
    "--write-out",
    "-m",
    "--max-time",
    "--connect-timeout",
    "--retry",
    "-K",
    "--config",
    "--cacert",
    "--cert",
    "--key",
    "-E",
    "-r",
    "--range",
    "--resolve",
    "-c",
    "--cookie-jar",
    "-z",
    "--time-cond",
    "--limit-rate",
    "-C",
    "--continue-at",
    "-Y",
    "-y",
    "--max-redirs",
    "--interface",
];
const WGET_DATA: &[&str] = &["--post-data", "--post-file", "--body-data", "--body-file"];

/// The data, excluded values and destination of an HTTP client's arguments.
fn http_client<'s>(
    args: &'s [Token],
    data_flags: &[&str],
    excluded_flags: &[&str],
    valued: &[&str],
) -> Option<Sent<'s>> {
    let mut s = Sent::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let t = a.text.as_str();
        let lower = t.to_ascii_lowercase();
        let (flag, inline) = split_flag(
            &lower,
            data_flags.iter().chain(excluded_flags).chain(valued),
        );
        let takes = |list: &[&str]| list.iter().any(|f| f.eq_ignore_ascii_case(flag));
        if takes(data_flags) || takes(excluded_flags) || takes(valued) {
            let value = if inline { Some(a) } else { args.get(i + 1) };
            if !inline {
                i += 1;
            }
            if let Some(v) = value {
                if takes(data_flags) {
                    s.data.push(v);
                    s.files.extend(uploaded_file(flag, &v.text, inline));
                } else if takes(excluded_flags) {
                    s.excluded.push(v);
                }
            }
        } else if flag.eq_ignore_ascii_case("--method") || flag.eq_ignore_ascii_case("-method") {
            // `wget --method=POST` sends a body given elsewhere; nothing to add.
        } else if !t.starts_with('-') && s.dest.is_none() {
            s.dest = Some(a);
        } else if flag == "--url" {
            s.dest = args.get(i + 1);
        }
        i += 1;
    }
    // Data in the URL itself: a substitution (`?d=$(…)`).
    if let Some(d) = s.dest
        && (d.text.contains("$(") || d.text.contains('`'))
    {
        s.data.push(d);
    }
    Some(s)
}

/// `--data=@x` and `-d@x`: the flag of a word and whether its value is attached.
fn split_flag<'w, 'f>(word: &'w str, known: impl Iterator<Item = &'f &'f str>) -> (&'w str, bool) {
    if let Some((flag, _)) = word.split_once('=')
        && flag.starts_with("--")
    {
        return (flag, true);
    }
    if word.starts_with('-') && !word.starts_with("--") && word.len() > 2 {
        let short = &word[..2];
        if word.is_char_boundary(2) && known.into_iter().any(|k| *k == short) {
            return (short, true);
        }
    }
    (word, false)
}

/// The file a data option sends: `@file`, `name=@file;type=…`, `-T file`.
fn uploaded_file(flag: &str, value: &str, inline: bool) -> Option<String> {
    let v = if inline {
        value
            .split_once('=')
            .filter(|_| flag.starts_with("--"))
            .map_or_else(|| value.get(flag.len()..).unwrap_or(""), |(_, v)| v)
    } else {
        value
    };
    let file = if matches!(flag, "-T" | "--upload-file" | "--post-file" | "--body-file")
        || flag.eq_ignore_ascii_case("-infile")
    {
        Some(v)
    } else if let Some(rest) = v.strip_prefix('@') {
        Some(rest)
    } else {
        v.split_once("=@")
            .or_else(|| v.split_once("=<"))
            .map(|(_, f)| f)
    }?;
    let file = file.split(';').next().unwrap_or(file);
    (!file.is_empty() && file != "-").then(|| file.to_string())
}

/// HTTPie: `http POST url field=value file@path`, items after the URL.
fn httpie(args: &[Token]) -> Option<Sent<'_>> {
    let mut s = Sent::default();
    for a in args.iter().filter(|a| !a.text.starts_with('-')) {
        let t = a.text.as_str();
        if s.dest.is_none() && !t.chars().all(|c| c.is_ascii_uppercase()) {
            s.dest = Some(a);
        } else if s.dest.is_some() {
            if let Some((_, f)) = t
                .split_once("=@")
                .or_else(|| t.split_once('@').filter(|(k, _)| k.is_empty()))
            {
                s.files.push(f.to_string());
                s.data.push(a);
            } else if t.contains('=') {
                s.data.push(a);
            } else if t.contains(':') {
                s.excluded.push(a);
            }
        }
    }
    Some(s)
}

/// `nc host port`, `socat - TCP:host:port`, `openssl s_client -connect host:port`: a raw
/// stream to a host, fed by a pipe or a redirection.
fn stream<'s>(args: &'s [Token], p: &str, piped: bool) -> Option<Sent<'s>> {
    if args.iter().any(|a| {
        let t = a.text.as_str();
        t == "-z"
            || t == "-l"
            || t == "--listen"
            || (t.starts_with('-') && !t.starts_with("--") && t.contains('l') && p != "openssl")
    }) {
        return None;
    }
    let dest = match p {
        "socat" => args.iter().find(|a| {
            let l = a.text.to_ascii_lowercase();
            l.starts_with("tcp") || l.starts_with("udp") || l.starts_with("openssl:")
        }),
        "openssl" => {
            let i = args.iter().position(|a| a.text == "-connect")?;
            (args.first().is_some_and(|a| a.text == "s_client")).then(|| args.get(i + 1))?
        }
        _ => args.iter().find(|a| !a.text.starts_with('-')),
    }?;
    let mut s = Sent {
        dest: Some(dest),
        stdin: piped,
        ..Sent::default()
    };
    // `socat` addresses are `TCP:host:port`: the host is the second field.
    if p == "socat"
        && let Some(host) = dest.text.split(':').nth(1)
        && suspicious_host(&host.to_ascii_lowercase())
    {
        s.data.push(dest);
    }
    piped.then_some(s)
}

/// `scp file user@host:path`, `rsync -a dir host:path`: files copied to another machine.
fn copy_out(args: &[Token]) -> Option<Sent<'_>> {
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if matches!(
            t,
            "-i" | "-P" | "-o" | "-F" | "-c" | "-l" | "-S" | "-J" | "-e" | "--rsh" | "-p"
        ) {
            i += 2;
            continue;
        }
        if !t.starts_with('-') {
            operands.push(&args[i]);
        }
        i += 1;
    }
    let (last, files) = operands.split_last()?;
    let remote = |t: &str| {
        let head = t.split('/').next().unwrap_or(t);
        head.contains(':') && !t.contains("://") && !t.starts_with(['/', '.', '~'])
    };
    if !remote(&last.text) || files.iter().any(|f| remote(&f.text)) || files.is_empty() {
        return None;
    }
    Some(Sent {
        data: files.to_vec(),
        files: files.iter().map(|f| f.text.clone()).collect(),
        dest: Some(last),
        ..Sent::default()
    })
}

/// `dig $(…).example.com`: a name whose first labels come from data, under a fixed domain.
fn dns(args: &[Token]) -> Option<Sent<'_>> {
    let name = args.iter().find(|a| {
        let t = a.text.as_str();
        if t.starts_with(['-', '@', '+']) {
            return false;
        }
        let dynamic_end = [t.rfind(')'), t.rfind('`'), t.rfind('}')]
            .into_iter()
            .flatten()
            .max()
            .map(|i| i + 1)
            .or_else(|| expansions(t).last().map(|(at, n)| at + 1 + n.len()));
        dynamic_end.is_some_and(|end| {
            let suffix = &t[end.min(t.len())..];
            suffix.starts_with('.') && suffix[1..].contains(|c: char| c.is_ascii_alphabetic())
        }) && (t.contains("$(") || t.contains('`') || t.contains('$'))
    })?;
    Some(Sent {
        data: vec![name],
        dest: Some(name),
        dns: true,
        ..Sent::default()
    })
}

/// The chains of `sources` into `sinks` as attacks, and the halves worth a warning alone.
/// `followed` says whether flow was followed (a shell script); where it was not (other
/// languages), a secret read anywhere in the script counts.
pub(crate) fn judge(sources: &[Source], sinks: &[Sink], followed: bool, out: &mut Vec<Danger>) {
    let mut used = vec![false; sources.len()];
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
        let pick = sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.strong || k.strong)
            .filter(|(_, s)| flows(s) || !s.flow_only || !followed)
            .max_by_key(|(_, s)| (flows(s), s.strong, usize::MAX - s.start.abs_diff(k.start)));
        // A secret variable sent to a suspicious place is a chain of its own.
        let secret_var = k.secrets.first().filter(|_| k.strong);
        if let Some((i, s)) = pick {
            used[i] = true;
            out.push(chain(k, s.start, s.end, &s.what));
        } else if let Some(&(start, end)) = secret_var {
            out.push(chain(k, start, end, "a secret variable"));
        } else if k.strong {
            super::push(out, k.start, k.end, DangerKind::SendsData, &k.what);
        }
    }
    for (s, _) in sources.iter().zip(&used).filter(|(s, u)| !**u && s.alone) {
        super::push(out, s.start, s.end, DangerKind::ReadsCredentials, &s.what);
    }
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
