//! The network half of an exfiltration: uploads (`curl -d`, `-F`, `-T`, `wget
//! --post-file`, `Invoke-RestMethod -Body`, HTTPie items), raw streams fed by a pipe
//! (`nc`, `socat`, `openssl s_client`), copies to another host (`scp`, `rsync`), mail with
//! an attachment, and DNS lookups of names built from data.

use super::super::super::statements::{RedirectKind, Stage, Token};
use super::super::unit::Placed;
use super::super::vocab::{expansions, host_of, is_secret_name, suspicious_host, urls};
use super::Sink;

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
    /// A DNS name spelled from a variable.
    spelled: bool,
}

/// The send of one command, if it sends data.
pub(super) fn send(
    script: &str,
    placed: &Placed,
    index: usize,
    stage: &Stage,
    p: &str,
    values: &Values,
) -> Option<Sink> {
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
        | "resolvectl" | "nping" | "traceroute" | "resolve-dnsname" => dns(args),
        _ => None,
    }?;
    // `curl "$HOOK?t=…"`: the destination a variable was given in the script.
    let dest_host = sent.dest.and_then(|d| match values.expand(&d.text) {
        Some(url) => host_of(&url),
        None => host_of(&d.text),
    });
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
                // Up to the name's end (past `env:` in PowerShell), and the brace.
                let named = raw[at..].find(name).map_or(1, |i| i + name.len());
                secrets.push((start, start + named + usize::from(braced)));
            }
        }
    }
    let carries = sent.stdin
        || sent.dns
        || !sent.files.is_empty()
        || sent
            .data
            .iter()
            .any(|d| d.text.contains('$') || d.text.contains('`') || d.text.starts_with('@'));
    // A file or what a pipe gives, sent to a host that is not this machine's or the
    // local network's.
    let uploads = (sent.stdin || !sent.files.is_empty())
        && dest_host.as_deref().is_some_and(|h| !is_local(h));
    // Nothing sent but what the URL spells (`curl https://h/?k=$NPM_TOKEN`): it counts
    // only for a secret variable written there.
    let url_only = !(sent.stdin || !sent.data.is_empty() || sent.dns || host_dynamic);
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
        carries,
        uploads,
        spelled: sent.spelled,
        statement: placed.top_span,
        excluded: sent.excluded.iter().map(|t| (t.start, t.end)).collect(),
        vars,
        secrets,
        files: sent.files,
        host: dest_host.clone(),
        dns: sent.dns,
        url_only,
    })
    .filter(|k| !k.url_only || !k.secrets.is_empty())
    // What goes to this machine or the local network (a local service, the user's own
    // backup box) does not leave.
    .filter(|_| host_dynamic || sent.dns || !dest_host.as_deref().is_some_and(is_local))
}

/// The plain values the script gives its variables (`HOOK=https://h/x`), to tell where a
/// send written with one goes.
#[derive(Default)]
pub(super) struct Values(Vec<(String, String)>);

/// Variables remembered in one script at most.
const MAX_VALUES: usize = 64;

impl Values {
    /// The literal assignments of `stages` (`NAME=value` with nothing expanded in it).
    pub(super) fn remember<'s>(&mut self, stages: impl Iterator<Item = &'s Stage>) {
        for stage in stages {
            for w in &stage.words {
                let Some((name, value)) = w.text.split_once('=') else {
                    break;
                };
                if !super::is_assignment(&w.text) || self.0.len() >= MAX_VALUES {
                    break;
                }
                if !value.contains(['$', '`']) {
                    self.0.retain(|(n, _)| n != name);
                    self.0.push((name.to_string(), value.to_string()));
                }
            }
        }
    }

    /// `word` with a leading `$NAME` or `${NAME}` replaced by its value, when it has one.
    fn expand(&self, word: &str) -> Option<String> {
        let w = word.trim_start_matches(['"', '\'']);
        let rest = w.strip_prefix('$')?;
        let (name, after) = match rest.strip_prefix('{') {
            Some(r) => r.split_once('}')?,
            None => {
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                rest.split_at(len)
            }
        };
        let (_, value) = self.0.iter().rev().find(|(n, _)| n == name)?;
        Some(format!("{value}{after}"))
    }
}

/// A host of this machine or the local network (`localhost`, `127.0.0.1`, `10.…`,
/// `*.local`, `*.internal`).
fn is_local(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host.ends_with(".local")
        || host.ends_with(".internal")
        || host.ends_with(".lan")
        || host.starts_with('[')
        || (!suspicious_host(host)
            && host.split('.').count() == 4
            && host.split('.').all(|p| p.parse::<u8>().is_ok()))
        || !host.contains('.')
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
        let (flag, inline) = split_flag(t, data_flags.iter().chain(excluded_flags).chain(valued));
        // `-d` and `-D`, `-F` and `-f` are different options; PowerShell's are in any case.
        let takes = |list: &[&str]| {
            list.iter().any(|f| {
                if f.len() == 2 {
                    *f == flag
                } else {
                    f.eq_ignore_ascii_case(flag)
                }
            })
        };
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
    if word.starts_with('-')
        && !word.starts_with("--")
        && word.len() > 2
        && let Some(short) = word.get(..2)
        && known.into_iter().any(|k| *k == short)
    {
        return (short, true);
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
    // A name built by a command, or from a secret, carries data; `$SERVICE.example.com`
    // looks a host up, unless what fills the variable is secret (followed as flow).
    let t = name.text.as_str();
    let built =
        t.contains("$(") || t.contains('`') || expansions(t).iter().any(|(_, n)| is_secret_name(n));
    Some(Sent {
        data: vec![name],
        dest: Some(name),
        dns: built,
        spelled: !expansions(t).is_empty(),
        ..Sent::default()
    })
}
