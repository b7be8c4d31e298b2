//! Python and JavaScript read lightly: not parsed, but searched for the calls that matter.
//! Shell commands handed to `os.system`, `subprocess` or `child_process` are read as shell
//! (every check of a command applies to them); text decoded and run (`exec(b64decode(…))`,
//! `eval(atob(…))`, also through a variable on a later line); secrets read (a credential
//! store's path, the whole environment serialised, a secret variable) and data sent
//! (`requests.post`, `fetch` with a body, a DNS lookup of a name built from data), as the
//! two halves of an exfiltration; a socket wired to a shell.

use std::sync::LazyLock;

use regex::Regex;

mod flow;
mod literals;
mod run;

use super::exfil::{Sink, Source, judge};
use super::vocab::{credential_store, host_of, is_secret_name, suspicious_host, urls};
use super::{Danger, DangerKind, finish, lines, push};
use literals::{Literals, floor, literal, literals, split_top};

/// The language of a script read lightly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    /// Python.
    Python,
    /// JavaScript or TypeScript.
    JavaScript,
    /// Another language (Go, Ruby, Perl, PHP): only the calls most of them spell alike, a
    /// secret environment variable read and a request that posts data.
    Other,
}

/// What one call's arguments are read for at most.
const MAX_CALL: usize = 4096;

/// Calls of one kind read in one script at most: a script of a million `os.system(` calls
/// costs no more.
const MAX_CALLS: usize = 256;

/// Shell commands handed to the system.
static PY_SHELL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(os\.system|os\.popen|subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput)\s*\(").ok()
});
static JS_SHELL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(exec|execSync|spawn|spawnSync|execFile|execFileSync|execa|execaSync)\s*\(").ok()
});

/// Decoders whose output, run, is hidden code.
static PY_DECODE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(b64decode|b32decode|b85decode|a85decode|decodebytes|fromhex|unhexlify|zlib\.decompress|bz2\.decompress|lzma\.decompress|marshal\.loads|codecs\.decode)\s*\(|\bjoin\s*\(\s*(map\s*\(\s*)?chr\b").ok()
});
static JS_DECODE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\batob\s*\(|\bBuffer\.from\s*\([^)\n]*['"](base64|hex)['"]|\bString\.fromCharCode\s*\(|\bdecodeURIComponent\s*\(\s*escape\s*\("#).ok()
});
/// Calls that fetch text from the network: run, it is a download run.
static PY_FETCH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\burlopen\s*\(|\b(requests|httpx)\.get\s*\(|\bhttp\.request\s*\(\s*['\x22]GET")
        .ok()
});
static JS_FETCH: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\bfetch\s*\(|\bhttps?\.get\s*\(|\baxios\.get\s*\(").ok());
static PY_RUN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(exec|eval|compile)\s*\(|\bos\.system\s*\(").ok());
static JS_RUN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(|\bvm\.runIn\w+\s*\(|\bexecSync\s*\(",
    )
    .ok()
});
/// `name = …` at the start of a statement.
static ASSIGNED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=[^=]").ok());

/// The whole environment made into data.
static ENV_DUMP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(json\.dumps|str|repr|b64encode)\s*\(\s*(dict\s*\(\s*)?os\.environ\b|\b(data|json|params)\s*=\s*(dict\s*\(\s*)?os\.environ\b|\bJSON\.stringify\s*\(\s*process\.env\s*[,)]|\bObject\.(entries|values)\s*\(\s*process\.env\s*\)|\b(body|data)\s*:\s*process\.env\s*[,}]|\bfor\s+\w+\s*,\s*\w+\s+in\s+os\.environ\.items\s*\(\s*\)(?:[^\n]*\n){0,3}?[^\n]*\b(KEY|TOKEN|SECRET|PASS)|\bfor\s*\(\s*(?:const|let|var)\s*\[\s*\w+\s*,\s*\w+\s*\]\s+of\s+Object\.entries\s*\(\s*process\.env\s*\)\s*\)(?:[^\n]*\n){0,3}?[^\n]*\b(KEY|TOKEN|SECRET|PASS)|\bObject\.entries\s*\(\s*process\.env\s*\)\s*\.filter\b[^\n]*\b(KEY|TOKEN|SECRET|PASS)").ok()
});
/// One environment variable read by name.
static ENV_VAR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\bos\.(environ\s*\[\s*|environ\.get\s*\(\s*|getenv\s*\(\s*)["']([A-Za-z0-9_]+)["']|\bprocess\.env\.([A-Za-z0-9_]+)|\bprocess\.env\[\s*["']([A-Za-z0-9_]+)["']|\b(?:os\.Getenv|os\.LookupEnv|getenv|System\.getenv|env::var|ENV\.fetch)\s*\(\s*["']([A-Za-z0-9_]+)["']|\bENV\[\s*["']([A-Za-z0-9_]+)["']|\$ENV\{\s*["']?([A-Za-z0-9_]+)"#).ok()
});

/// The name an [`ENV_VAR`] match reads.
fn env_name<'s>(c: &regex::Captures<'s>) -> Option<regex::Match<'s>> {
    (2..=7).find_map(|i| c.get(i))
}
/// Calls that send data over the network.
static PY_SEND: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\b(requests|httpx|session|client|sess|http)\.(post|put|patch)\s*\(|\brequests\.request\s*\(\s*["'](POST|PUT|PATCH)|\burlopen\s*\([^)\n]*\bdata\s*=|\burlopen\s*\([^)\n]*,\s*(json\.dumps|[\w.]*\.encode\s*\(|data\b|body\b|payload\b)|\bRequest\s*\([^)\n]*\bdata\s*=|\.request\s*\(\s*["'](POST|PUT)["']|\.(sendall|sendto)\s*\(|\bsmtplib\.SMTP|\.storbinary\s*\("#).ok()
});
static JS_SEND: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\bfetch\s*\(|\baxios\.(post|put|patch)\s*\(|\baxios\s*\(|\bhttps?\.request\s*\(|\bnavigator\.sendBeacon\s*\(|\bXMLHttpRequest\b").ok()
});
/// Calls that post data in other languages: Go's `http.Post`, Ruby's `Net::HTTP.post`,
/// Perl's `LWP`/`HTTP::Tiny` `->post`, PHP's `curl_exec`, Rust's `reqwest` `.post(`.
static OTHER_SEND: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\bhttp\.(Post|PostForm)\s*\(|\bhttp\.NewRequest\s*\(\s*(http\.Method(Post|Put)|"(POST|PUT|PATCH)")|\bNet::HTTP\.(post|post_form)\b|->(post|put)\s*\(|\bcurl_exec\s*\(|\.post\s*\(\s*["']https?://"#).ok()
});

/// A request whose URL is built from data (`f"https://h/?k={v}"`, `` `https://h/${v}` ``).
static DATA_URL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\b(requests\.get|httpx\.get|urlopen|fetch|axios\.get)\s*\(\s*(f["']https?://[^"'\n]*\{|`https?://[^`\n]*\$\{|["']https?://[^"'\n]*[?=/&]["']\s*\+)"#).ok()
});

/// A DNS lookup of a name built from data (`f"{data}.x.example"`, `` `${d}.x` ``,
/// `d + ".x"`).
static DNS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\b(gethostbyname(_ex)?|getaddrinfo|resolver\.(resolve|query)|dns\.(resolve\w*|lookup))\s*\(\s*(f["'][^"'\n]*\}\.[A-Za-z]|`[^`\n]*\}\.[A-Za-z]|[^)\n]*\+\s*["']\.[A-Za-z])"#).ok()
});

/// Calls that open a file or build a path to one, in Python and JavaScript.
const READ_CALLS: &[&str] = &[
    "open(",
    "read_text(",
    "read_bytes(",
    "expanduser(",
    "Path(",
    "path.join(",
    "copy(",
    "copyfile(",
    "copy2(",
    "connect(",
    "readFile",
    "createReadStream(",
    "homedir()",
    "home()",
    "glob(",
];

/// Every dangerous call of a Python or JavaScript `source`.
pub(crate) fn script_dangers(source: &str, lang: Language) -> Vec<Danger> {
    let mut out = Vec::new();
    lines(source, &mut out);
    let mut sources: Vec<Source> = Vec::new();
    let mut sinks: Vec<Sink> = Vec::new();
    shell_strings(source, lang, &mut out, &mut sources, &mut sinks);
    out.extend(named_paths(source, &mut sources));
    run::decoded_and_run(source, lang, &mut out);
    if lang == Language::Python {
        run::downloaded_and_run(source, &mut out);
    }
    secrets_and_sends(source, lang, &mut sources, &mut sinks);
    judge(source, &sources, &sinks, false, &mut out);
    flow::secret_sends(source, lang, &mut out);
    if lang == Language::JavaScript {
        js_reverse_shell(source, &mut out);
    }
    finish(source, out)
}

/// Shell commands handed to the system, read as shell; their secrets and sends join the
/// script's.
fn shell_strings(
    source: &str,
    lang: Language,
    out: &mut Vec<Danger>,
    sources: &mut Vec<Source>,
    sinks: &mut Vec<Sink>,
) {
    let re = match lang {
        Language::Python => PY_SHELL.as_ref(),
        Language::JavaScript => JS_SHELL.as_ref(),
        Language::Other => None,
    };
    let Some(re) = re else {
        return;
    };
    for m in re.find_iter(source).take(MAX_CALLS) {
        if out.len() >= super::MAX_DANGERS {
            return;
        }
        let Some(arg) = command_argument(source, m.end()) else {
            continue;
        };
        let (found, facts) = super::shell_dangers(&arg.command, super::Dialect::Posix, false);
        let map = |s: usize, e: usize| match arg.exact {
            Some(base) => (base + s, base + e),
            None => (m.start(), arg.end),
        };
        for mut d in found {
            (d.start, d.end) = map(d.start, d.end);
            if let Some(r) = &mut d.related {
                (r.start, r.end) = map(r.start, r.end);
            }
            out.push(d);
        }
        let (src, snk) = facts;
        sources.extend(src.into_iter().map(|mut s| {
            (s.start, s.end) = map(s.start, s.end);
            s.top = usize::MAX;
            s
        }));
        sinks.extend(snk.into_iter().map(|mut k| {
            (k.start, k.end) = map(k.start, k.end);
            k.statement = (0, usize::MAX);
            k
        }));
    }
}

/// The command a call is given: one string, or a list of strings (other elements stand as
/// `X`). `exact` is where the string's text starts, when the command is that text as
/// written (no escapes), so offsets map one to one.
struct Argument {
    command: String,
    exact: Option<usize>,
    end: usize,
}

fn command_argument(source: &str, from: usize) -> Option<Argument> {
    let rest = source.get(from..)?;
    let rest = &rest[..floor(rest, MAX_CALL)];
    let lead = rest.len() - rest.trim_start().len();
    let at = from + lead;
    let body = rest.trim_start();
    if body.starts_with('[') {
        let close = body.find(']')?;
        let mut command = String::new();
        for element in split_top(&body[1..close]) {
            let e = element.trim();
            let (text, _) = literal(e).unwrap_or(("X", 0));
            if !command.is_empty() {
                command.push(' ');
            }
            command.push_str(text);
        }
        return Some(Argument {
            command,
            exact: None,
            end: at + close + 1,
        });
    }
    let (text, skip) = literal(body)?;
    // `spawn("bash", ["-c", "…"])`: the list after the program.
    let after = &body[skip + text.len()..];
    if let Some(list) = after.trim_start().strip_prefix(',')
        && list.trim_start().starts_with('[')
    {
        let list_at = body.len() - list.trim_start().len();
        let inner = command_argument(source, at + list_at)?;
        return Some(Argument {
            command: format!("{text} {}", inner.command),
            exact: None,
            end: inner.end,
        });
    }
    let escaped = text.contains('\\') || text.contains('{') && body.starts_with('f');
    Some(Argument {
        command: text.to_string(),
        exact: (!escaped).then_some(at + skip),
        end: at + skip + text.len() + 1,
    })
}

/// The identifiers of a piece of code, in order.
fn identifiers(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

/// Secrets the script reads and data it sends, found on its text.
fn secrets_and_sends(
    source: &str,
    lang: Language,
    sources: &mut Vec<Source>,
    sinks: &mut Vec<Sink>,
) {
    let fact = |start: usize, end: usize, what: &str, strong: bool, alone: bool| Source {
        start,
        end,
        what: what.to_string(),
        strong,
        flow_only: false,
        alone,
        top: usize::MAX,
        var: None,
        file: None,
        store: None,
        label: None,
        secret: None,
    };
    // Libraries and calls that exist to lift browser cookies and saved passwords.
    for w in STEALERS {
        if let Some(at) = source.find(w) {
            sources.push(fact(at, at + w.len(), w, true, true));
        }
    }
    if let Some(re) = ENV_DUMP.as_ref() {
        for m in re.find_iter(source).take(8) {
            sources.push(fact(
                m.start(),
                m.end(),
                "the whole environment",
                true,
                false,
            ));
        }
    }
    if let Some(re) = ENV_VAR.as_ref() {
        for c in re.captures_iter(source).take(64) {
            let Some(name) = env_name(&c) else {
                continue;
            };
            if is_secret_name(name.as_str()) {
                let m = c.get(0).map_or(name.range(), |m| m.range());
                sources.push(fact(m.start, m.end, name.as_str(), false, false));
            }
        }
    }
    let suspicious_anywhere =
        urls(source).any(|(_, u)| host_of(u).is_some_and(|h| suspicious_host(&h)));
    let send = match lang {
        Language::Python => PY_SEND.as_ref(),
        Language::JavaScript => JS_SEND.as_ref(),
        Language::Other => OTHER_SEND.as_ref(),
    };
    let mut push_sink =
        |start: usize, end: usize, what: &str, strong: bool, host: Option<String>| {
            sinks.push(Sink {
                start,
                end,
                what: what.to_string(),
                strong,
                carries: true,
                uploads: false,
                spelled: false,
                statement: (0, usize::MAX),
                excluded: Vec::new(),
                vars: Vec::new(),
                secrets: Vec::new(),
                files: Vec::new(),
                dns: what.starts_with("a DNS name"),
                host,
                url_only: false,
            });
        };
    if let Some(re) = send {
        for m in re.find_iter(source).take(32) {
            let call = &source[m.start()..m.start() + floor(&source[m.start()..], 400)];
            let sends = match lang {
                Language::Python => !call.contains(".send") || source.contains("socket"),
                Language::Other => true,
                Language::JavaScript => {
                    !(call.starts_with("fetch")
                        || call.starts_with("axios(")
                        || call.contains(".request"))
                        || call.contains("body:")
                        || [
                            "'POST'", "\"POST\"", "'PUT'", "\"PUT\"", "'post'", "\"post\"",
                        ]
                        .iter()
                        .any(|w| call.contains(w))
                }
            };
            if !sends {
                continue;
            }
            let here = urls(call).map(|(_, u)| u).next();
            let strong = here.map_or(suspicious_anywhere, |u| {
                host_of(u).is_some_and(|h| suspicious_host(&h))
            });
            let what = here
                .and_then(host_of)
                .unwrap_or_else(|| m.as_str().trim_end_matches(['(', ' ']).to_string());
            push_sink(m.start(), m.end(), &what, strong, here.and_then(host_of));
        }
    }
    if let Some(re) = DATA_URL.as_ref() {
        for m in re.find_iter(source).take(32) {
            let call = &source[m.start()..m.start() + floor(&source[m.start()..], 400)];
            let here = urls(call).map(|(_, u)| u).next();
            let host = here.and_then(host_of);
            let strong = host.as_deref().is_some_and(suspicious_host);
            push_sink(
                m.start(),
                m.end(),
                host.as_deref().unwrap_or("a URL built from data"),
                strong,
                host.clone(),
            );
        }
    }
    if let Some(re) = DNS.as_ref() {
        for m in re.find_iter(source).take(8) {
            push_sink(m.start(), m.end(), "a DNS name built from data", true, None);
        }
    }
}

/// Lines after a path is named within which the code that opens it counts
/// (`paths = […]`, then a loop that reads each).
const READ_WINDOW: usize = 3;

/// Credential stores named in string literals where the code opens files or builds paths
/// (a scanner's list of patterns, or a sentence naming a key file, reads nothing); and
/// places that run what is written there, written to (a persistence).
fn named_paths(source: &str, sources: &mut Vec<Source>) -> Vec<Danger> {
    let mut lines: Vec<(usize, Literals, bool)> = Vec::new();
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        let code = line.trim_start();
        let comment = code.starts_with('#') || code.starts_with("//");
        let lits = if comment || !line.contains(['"', '\'', '`']) {
            Literals {
                joined: String::new(),
                code: line.to_string(),
                span: (0, 0),
            }
        } else {
            literals(line)
        };
        let reads = !comment && READ_CALLS.iter().any(|c| lits.code.contains(c));
        lines.push((at, lits, reads));
        at += line.len();
    }
    let mut out = Vec::new();
    let suspicious_script = ["curl", "wget", "/dev/tcp", "base64", "socket", "nc -e"]
        .iter()
        .any(|w| source.contains(w));
    for (i, (base, lits, _)) in lines.iter().enumerate() {
        if lits.joined.is_empty() {
            continue;
        }
        let reads = lines[i..].iter().take(READ_WINDOW).any(|(_, _, r)| *r);
        let (start, end) = (base + lits.span.0, base + lits.span.1);
        if reads && let Some(store) = credential_store(&lits.joined) {
            sources.push(Source {
                start,
                end: end.max(start),
                what: store.name.to_string(),
                strong: true,
                flow_only: false,
                alone: store.alarming,
                top: usize::MAX,
                var: None,
                file: None,
                store: Some(store.name),
                label: None,
                secret: None,
            });
        }
        let writes = WRITE_CALLS.iter().any(|c| lits.code.contains(c));
        if writes && let Some(place) = super::persist::place(&lits.joined, suspicious_script) {
            push(
                &mut out,
                start,
                end.max(start),
                DangerKind::Persistence,
                &format!("writes {place}"),
            );
        }
    }
    out
}

/// Calls and libraries whose use is reading a browser's or the system's stored
/// credentials.
const STEALERS: &[&str] = &[
    "CryptUnprotectData",
    "browser_cookie3",
    "pycookiecheat",
    "SecKeychainFindGenericPassword",
    "SecItemCopyMatching",
    "chrome-cookies-secure",
];

/// Calls that write a file, in Python and JavaScript.
const WRITE_CALLS: &[&str] = &[
    "open(",
    "write_text(",
    "write_bytes(",
    "writeFile",
    "appendFile",
    "createWriteStream(",
    "copy(",
    "copyfile(",
    "copy2(",
    "symlink",
];

/// `net.connect(…)` piped into a spawned shell: a reverse shell in Node.
fn js_reverse_shell(source: &str, out: &mut Vec<Danger>) {
    let socket = ["net.Socket", "net.connect", "net.createConnection"]
        .iter()
        .any(|w| source.contains(w));
    if !socket || !source.contains(".pipe(") {
        return;
    }
    let Some(at) = source.find("spawn(") else {
        return;
    };
    let call = &source[at..at + floor(&source[at..], 80)];
    if [
        "/bin/sh",
        "/bin/bash",
        "'sh'",
        "\"sh\"",
        "'bash'",
        "\"bash\"",
        "cmd.exe",
    ]
    .iter()
    .any(|s| call.contains(s))
    {
        push(
            out,
            at,
            at + 5,
            DangerKind::ReverseShell,
            "a socket piped into a shell",
        );
    }
}

#[cfg(test)]
mod tests;
