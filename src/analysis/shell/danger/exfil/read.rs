//! The secret half of an exfiltration: credential stores read, the environment printed,
//! tokens printed by their CLIs, keys hunted for over the home folder.

use super::super::super::statements::{RedirectKind, Stage, Token};
use super::super::unit::Placed;
use super::super::vocab::{credential_store, is_secret_name};
use super::Source;

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
    "steghide",
    "outguess",
    "exiftool",
    "convert",
    "magick",
];

/// Programs that print every environment variable when given no name.
const ENV_PRINTERS: &[&str] = &["env", "printenv", "export", "declare", "typeset", "set"];

/// Words a filter of the environment looks for when it wants secrets.
const SECRET_FILTER: &[&str] = &[
    "token", "key", "secret", "pass", "cred", "auth", "aws", "github", "api",
];

/// The file a reading program writes its output to (`tar -czf out.tgz …`, `zip out.zip …`,
/// `cp a b`).
pub(super) fn output_file<'s>(stage: &'s Stage, p: &str) -> Option<&'s Token> {
    let args: Vec<&Token> = stage.args().iter().collect();
    let operands = || args.iter().filter(|a| !a.text.starts_with('-')).copied();
    let after = |flags: &[&str]| {
        args.iter()
            .position(|a| flags.contains(&a.text.as_str()))
            .and_then(|i| args.get(i + 1).copied())
    };
    match p {
        "tar" => args
            .iter()
            .position(|a| {
                a.text.starts_with('-') && a.text.contains('f')
                    || a.text.ends_with('f') && !a.text.contains('.')
            })
            .and_then(|i| args.get(i + 1).copied()),
        "zip" | "7z" | "7za" => operands().find(|a| a.text != "a"),
        "cp" | "copy-item" | "exiftool" | "convert" | "magick" => operands().last(),
        // Hidden in an image: the cover file carries what was embedded.
        "steghide" => after(&["-cf", "--coverfile", "-sf", "--stegofile"]),
        "openssl" => after(&["-out"]),
        "gpg" => after(&["-o", "--output"]),
        _ => None,
    }
}

/// At most this much of a statement names a source that is the whole statement: its name is
/// shown in a message, and each of the statement's stages (16,384 at most) made a copy of
/// all of it (a statement of 16 MB took 2 GB).
const MAX_WHOLE: usize = 4096;

/// A source that is the whole statement `placed`, named by its text (cut after
/// [`MAX_WHOLE`] bytes).
fn whole_source(script: &str, placed: &Placed) -> Source {
    let (start, end) = (placed.statement.start(), placed.statement.end());
    let text = script.get(start..end).unwrap_or("");
    if text.len() <= MAX_WHOLE {
        return source(start, end, text, placed);
    }
    let cut = crate::text::floor_boundary(text, MAX_WHOLE);
    source(start, end, &format!("{}…", &text[..cut]), placed)
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
        store: None,
        label: None,
        secret: None,
    }
}

/// What [`read_sources`] asks of a statement as a whole, answered once for all its stages:
/// each `env` of a pipeline of 16,000 `| env` ending in `| grep proxy` looked at every stage
/// for the filter again (13 s).
#[derive(Default)]
pub(super) struct Whole<'u> {
    /// The statement the answers are of.
    of: Option<&'u Placed>,
    /// [`filters_for_other_things`].
    other_filters: Option<bool>,
    /// It names a browser's key to its saved passwords.
    safe_storage: Option<bool>,
}

impl<'u> Whole<'u> {
    /// The answers for `placed`, forgotten when the stage is of another statement.
    fn of(&mut self, placed: &'u Placed) -> &mut Self {
        if !self.of.is_some_and(|p| std::ptr::eq(p, placed)) {
            *self = Whole {
                of: Some(placed),
                ..Whole::default()
            };
        }
        self
    }
}

/// What one command reads that is secret.
pub(super) fn read_sources<'u>(
    script: &str,
    placed: &'u Placed,
    stage: &Stage,
    p: &str,
    memo: &mut Whole<'u>,
    out: &mut Vec<Source>,
) {
    let memo = memo.of(placed);
    let args = stage.args();
    let text = |i: usize| args.get(i).map_or("", |t| t.text.as_str());
    // What reads the environment or a token is shown as its whole pipeline: the filter and
    // the file it writes say what is kept.
    let whole = || whole_source(script, placed);
    // A credential store given to a program that reads it.
    if READERS.contains(&p) {
        // A substitution is read as the statements inside it.
        for a in args
            .iter()
            .filter(|a| !a.text.contains("$(") && !a.text.contains('`'))
        {
            if let Some(store) = credential_store(&a.text) {
                let mut s = source(a.start, a.end, &a.text, placed);
                s.alone = store.alarming;
                s.store = Some(store.name);
                out.push(s);
                break;
            }
            // A project's `.env` holds its keys: read to be sent, it is a secret; read to
            // check a setting, nothing.
            if is_dotenv(&a.text) {
                let mut s = source(a.start, a.end, &a.text, placed);
                s.flow_only = true;
                s.alone = false;
                out.push(s);
                break;
            }
        }
    }
    // `for f in ~/.netrc .env; do … "$f" …; done`: the loop's variable holds each file.
    if p == "for" && text(1) == "in" {
        for a in args.iter().skip(2) {
            let store = credential_store(&a.text);
            if store.is_some() || is_dotenv(&a.text) {
                let mut s = source(a.start, a.end, &a.text, placed);
                s.alone = store.is_some_and(|st| st.alarming);
                s.flow_only = store.is_none();
                s.store = store.map(|st| st.name);
                s.var = Some(text(0).to_string());
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
    if all_env
        && !*memo
            .other_filters
            .get_or_insert_with(|| filters_for_other_things(placed))
    {
        let mut s = whole();
        s.label = Some("the environment");
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
        ) || (p == "aws" && text(0) == "configure" && text(1) == "get" && is_secret_name(text(2)))
            || (matches!(p, "npm" | "pnpm" | "yarn")
                && text(0) == "config"
                && text(1) == "get"
                && text(2).to_ascii_lowercase().contains("auth"));
    // The macOS keychain: the whole of it (or every item) is harvesting; one item read is
    // reading a credential store too, but may be the tool's own key, sent in a header: it
    // counts for an exfiltration only where it flows into what is sent.
    let keychain_item = p == "security"
        && matches!(text(0), "find-generic-password" | "find-internet-password")
        && args
            .iter()
            .any(|a| matches!(a.text.as_str(), "-s" | "-a" | "-l" | "-D" | "-c" | "-j"));
    let harvest = (p == "security"
        && matches!(
            text(0),
            "find-generic-password" | "find-internet-password" | "dump-keychain" | "export"
        )
        && !keychain_item)
        || matches!(p, "mimikatz" | "lazagne" | "vaultcmd")
        // The cluster's credentials, unredacted.
        || (p == "kubectl"
            && text(0) == "config"
            && text(1) == "view"
            && args.iter().any(|a| a.text == "--raw"))
        || (p == "cmdkey" && args.iter().any(|a| a.text.eq_ignore_ascii_case("/list")))
        || (p == "secret-tool" && text(0) == "search" && args.iter().any(|a| a.text == "--all"));
    if harvest {
        let mut s = whole();
        s.label = Some("stored credentials");
        out.push(s);
    } else if keychain_item {
        let mut s = whole();
        s.label = Some("a keychain item");
        s.flow_only = true;
        // A tool's own item (`-s mytool`) is read to be used; a browser's key to its
        // saved passwords (`Chrome Safe Storage`) is not the tool's to read.
        s.alone = *memo.safe_storage.get_or_insert_with(|| {
            script
                .get(s.start..s.end)
                .is_some_and(|t| t.to_ascii_lowercase().contains("safe storage"))
        });
        out.push(s);
    } else if printed_secret || token_cli {
        let mut s = whole();
        s.label = Some("a token");
        s.strong = false;
        s.flow_only = true;
        s.alone = false;
        // Named for the service it is for, so that a send elsewhere is told apart.
        s.secret = if printed_secret {
            args.iter()
                .find(|a| !a.text.starts_with('-') && is_secret_name(&a.text))
                .map(|a| a.text.clone())
        } else {
            Some(
                match p {
                    "gh" => "GITHUB_TOKEN",
                    "gcloud" => "GOOGLE_TOKEN",
                    "az" => "AZURE_TOKEN",
                    "aws" => "AWS_SECRET",
                    "npm" | "pnpm" | "yarn" => "NPM_TOKEN",
                    "git" => "GIT_CREDENTIAL",
                    _ => "STORED_SECRET",
                }
                .to_string(),
            )
        };
        out.push(s);
    }
    // Hunting for keys over the home or root folder.
    if hunts_credentials(p, args) {
        let mut s = whole();
        s.label = Some("the keys a search finds");
        out.push(s);
    }
}

/// A dotenv file (`.env`, `./app/.env.production`), as a path or an upload (`f=@.env`).
fn is_dotenv(word: &str) -> bool {
    let path = word
        .rsplit_once("=@")
        .map_or(word, |(_, p)| p)
        .trim_start_matches(['@', '<']);
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(
        name,
        ".env"
            | ".env.local"
            | ".env.production"
            | ".env.prod"
            | ".env.staging"
            | ".env.development"
    )
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
pub(super) fn read_redirects(stage: &Stage, placed: &Placed, out: &mut Vec<Source>) {
    for r in &stage.redirects {
        let Some(t) = r.target.as_ref().filter(|_| r.kind == RedirectKind::Read) else {
            continue;
        };
        if let Some(store) = credential_store(&t.text) {
            let mut s = source(r.start, t.end, &t.text, placed);
            s.alone = store.alarming;
            s.store = Some(store.name);
            out.push(s);
        } else if is_proc_environ(&t.text) {
            let mut s = source(r.start, t.end, &t.text, placed);
            s.flow_only = true;
            s.alone = false;
            out.push(s);
        }
    }
}
