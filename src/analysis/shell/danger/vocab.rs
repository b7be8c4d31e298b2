//! What the attack analysers recognise in words, whatever the language: the files that
//! hold credentials, the names of variables that hold secrets, and destinations no tool
//! sends data to (a bare public address, a request catcher, a tunnel).

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::text::WordEnds;

/// Files and folders that hold credentials, as written after the home folder (or anywhere,
/// for the browser and system stores), lower case with `/` separators. These are the ones
/// whose reading alone is worth a warning: keys, tokens and password stores.
const ALARMING: &[&str] = &[
    ".aws/credentials",
    ".netrc",
    "_netrc",
    ".git-credentials",
    ".docker/config.json",
    ".pypirc",
    ".config/gh/hosts.yml",
    ".ssh/id_",
    ".ssh",
    ".aws",
    "wallet.dat",
    "login data",
    "key4.db",
    "key3.db",
    "logins.json",
    "cookies.sqlite",
    "default/cookies",
    "default/network/cookies",
    "cookies.binarycookies",
    ".electrum/wallets",
    "exodus.wallet",
    "solana/id.json",
    "nkbihfbeogaeaoehlefnkodbefgpgknn",
    "library/keychains",
    "login.keychain",
    "/etc/shadow",
    ".azure/accesstokens.json",
    ".azure/msal_token_cache",
    "gcloud/credentials.db",
    "gcloud/access_tokens.db",
    "application_default_credentials.json",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".pgpass",
    ".my.cnf",
    "**/.env",
    "**/*.env",
    "-name .env",
    "-name \".env\"",
    "-name '.env'",
    "-name \"*.env\"",
    "-name '*.env'",
];

/// The other credential stores: worth a finding when what is read is sent out (a shell
/// history, the user list, settings folders that may hold tokens).
const QUIET: &[&str] = &[
    ".kube/config",
    ".gnupg",
    ".npmrc",
    ".config",
    ".bash_history",
    ".zsh_history",
    "/etc/passwd",
];

static STORES: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .build(ALARMING.iter().chain(QUIET))
        .ok()
});

/// A credential store named in a word or string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Store {
    /// Byte offset of the match in the text.
    pub start: usize,
    /// Byte offset after it.
    pub end: usize,
    /// The store, as listed (`.aws/credentials`).
    pub name: &'static str,
    /// Whether reading it alone is worth a warning.
    pub alarming: bool,
}

/// The first credential store `text` names (with `\` read as `/`): a private key of
/// `~/.ssh` (not a `.pub`), cloud and registry credentials, browser password and cookie
/// databases, keychains, `/etc/shadow`.
pub(super) fn credential_store(text: &str) -> Option<Store> {
    let ac = STORES.as_ref()?;
    let normalized;
    let hay = if text.contains('\\') {
        normalized = text.replace('\\', "/");
        normalized.as_str()
    } else {
        text
    };
    // Asked of each match, but found once for the text: a word may name a store many times.
    let mut word_ends =
        WordEnds::new(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | ','));
    let mut profile_named_by: Option<Option<usize>> = None;
    ac.find_iter(hay).find_map(|m| {
        let i = m.pattern().as_usize();
        let alarming = i < ALARMING.len();
        let name = *ALARMING.get(i).or_else(|| QUIET.get(i - ALARMING.len()))?;
        let after = &hay[m.end()..];
        let before = &hay[..m.start()];
        let ok = match name {
            // A public key, `known_hosts` and `config` are not secrets.
            ".ssh/id_" => {
                let end = word_ends.of(hay, m.end());
                let rest = hay.as_bytes().get(m.end()..end).unwrap_or_default();
                !(rest.len() >= 4 && rest[rest.len() - 4..].eq_ignore_ascii_case(b".pub"))
            }
            // The whole folder (`tar czf x ~/.ssh`), not a file in it (`~/.ssh/config`).
            // The folder of every program's settings, in the home folder, not `app.config`.
            ".config" if !before.ends_with('/') => false,
            ".ssh" | ".aws" | ".config" => {
                let rest = after.trim_start_matches('/');
                rest.is_empty()
                    || rest.starts_with(|c: char| {
                        c.is_whitespace() || matches!(c, '"' | '\'' | ')' | ',')
                    })
            }
            // `.netrc` as a whole name, not `.netrc-example`.
            ".netrc" | "_netrc" | ".pypirc" | ".vault-token" | ".gnupg" | ".pgpass" | ".my.cnf"
            | ".npmrc" => !after
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            // Firefox's `logins.json` and `key4.db` are in a profile; anything named so
            // elsewhere is some program's own file.
            "logins.json" | "cookies.sqlite" => {
                let named_by = *profile_named_by.get_or_insert_with(|| {
                    let lower = hay.to_ascii_lowercase();
                    ["firefox", "mozilla", "profile"]
                        .iter()
                        .filter_map(|w| lower.find(w).map(|at| at + w.len()))
                        .min()
                });
                named_by.is_some_and(|end| end <= before.len())
            }
            _ => true,
        };
        // Same positions in `text`: only `\` was replaced, byte for byte.
        ok.then(|| Store {
            start: m.start(),
            end: m.end(),
            name,
            alarming,
        })
    })
}

/// The services a credential store holds credentials for, by their domains: a credential
/// sent to one of them is used, not stolen.
const PROVIDERS: &[(&str, &[&str])] = &[
    (".aws/credentials", &["amazonaws.com", "aws.amazon.com"]),
    (".aws", &["amazonaws.com", "aws.amazon.com"]),
    (".config/gh/hosts.yml", &["github.com"]),
    (
        ".git-credentials",
        &["github.com", "gitlab.com", "bitbucket.org"],
    ),
    (
        ".docker/config.json",
        &[
            "docker.io",
            "docker.com",
            "ghcr.io",
            "quay.io",
            "gcr.io",
            "pkg.dev",
        ],
    ),
    (".pypirc", &["pypi.org"]),
    ("gcloud/credentials.db", &["googleapis.com"]),
    ("gcloud/access_tokens.db", &["googleapis.com"]),
    ("application_default_credentials.json", &["googleapis.com"]),
    (
        ".azure/accesstokens.json",
        &["azure.com", "microsoftonline.com", "windows.net"],
    ),
    (
        ".azure/msal_token_cache",
        &["azure.com", "microsoftonline.com", "windows.net"],
    ),
    (
        ".terraform.d/credentials.tfrc.json",
        &["terraform.io", "hashicorp.cloud"],
    ),
];

/// Whether `host` is a service the credential store `store` (a name of
/// [`credential_store`]) holds credentials for.
pub(super) fn belongs_to(store: &str, host: &str) -> bool {
    PROVIDERS
        .iter()
        .filter(|(s, _)| *s == store)
        .flat_map(|(_, domains)| domains.iter())
        .any(|d| host == *d || host.ends_with(&format!(".{d}")))
}

/// Words in a variable's name that say it holds a secret (`GITHUB_TOKEN`, `DB_PASSWORD`).
const SECRET_WORDS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "ACCESS_KEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
    "SESSION_KEY",
];

/// Whether a variable name says it holds a secret: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
/// `OPENAI_API_KEY`, a name ending in `_KEY` or `_PASS`.
pub(super) fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_WORDS.iter().any(|w| upper.contains(w))
        || upper.ends_with("_KEY")
        || upper.ends_with("_PASS")
        || upper.ends_with("_PAT")
}

/// The variables a text expands (`$NAME`, `${NAME}`, `${NAME:-x}`, PowerShell's
/// `$env:NAME`), with the offset of their `$`.
pub(super) fn expansions(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let braced = b.get(i + 1) == Some(&b'{');
        let mut from = i + 1 + usize::from(braced);
        // `$env:NAME`: PowerShell's environment drive names the variable after the colon.
        if b.get(from..from + 4)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"env:"))
        {
            from += 4;
        }
        let len = b.get(from..).map_or(0, |r| {
            r.iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count()
        });
        if len > 0 && !b[from].is_ascii_digit() {
            out.push((i, &text[from..from + len]));
        }
        i = from + len;
    }
    out
}

/// Words in a host name that announce what it is for.
const HOSTILE_LABELS: &[&str] = &[
    "attacker",
    "evil",
    "exfil",
    "malicious",
    "malware",
    "hacker",
    "pwned",
    "c2",
    "backdoor",
    "stealer",
    "collector",
];

/// Services that collect whatever is sent to them, publish it, or tunnel it to a laptop:
/// where stolen data goes, and never where a tool's own service lives.
const CATCHERS: &[&str] = &[
    "webhook.site",
    "requestbin.com",
    "requestbin.net",
    "pipedream.net",
    "requestcatcher.com",
    "hookbin.com",
    "beeceptor.com",
    "mockbin.org",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok.app",
    "ngrok.dev",
    "trycloudflare.com",
    "loca.lt",
    "localtunnel.me",
    "serveo.net",
    "burpcollaborator.net",
    "oastify.com",
    "interact.sh",
    "oast.pro",
    "oast.live",
    "oast.site",
    "oast.online",
    "oast.fun",
    "oast.me",
    "dnslog.cn",
    "ceye.io",
    "canarytokens.com",
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "termbin.com",
    "transfer.sh",
    "file.io",
    "0x0.st",
    "temp.sh",
    "bashupload.com",
    "anonfiles.com",
    "gofile.io",
];

/// The host a URL (or `host:port`, or bare host) names, lower case, without user and port.
pub(super) fn host_of(url: &str) -> Option<String> {
    let quote = |c: char| matches!(c, '"' | '\'' | '<' | '>');
    let rest = url
        .trim_start_matches(quote)
        .split_once("://")
        .map_or(url, |(_, r)| r);
    // Trimmed at the authority's end, not the URL's: a URL of many that run together ends
    // where they all do, and trimming there again for each was quadratic.
    let authority = rest.split(['/', '?', '#']).next()?.trim_end_matches(quote);
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host
    } else {
        host.split(':').next()?
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// Whether `host` is a destination no tool's own service lives at: a public address
/// written as numbers, a request catcher, paste site or tunnel, or a name that says it is an
/// attacker's. Private, loopback and link-local addresses are a local service.
pub(crate) fn suspicious_host(host: &str) -> bool {
    if let Some(ip) = ipv4(host) {
        let [a, b, ..] = ip;
        let local = a == 10
            || a == 127
            || a == 0
            || (a == 192 && b == 168)
            || (a == 172 && (16..32).contains(&b))
            || (a == 169 && b == 254);
        return !local;
    }
    if CATCHERS.iter().any(|c| {
        host.strip_suffix(c)
            .is_some_and(|r| r.is_empty() || r.ends_with('.'))
    }) {
        return true;
    }
    host.split(['.', '-'])
        .any(|label| HOSTILE_LABELS.contains(&label))
}

fn ipv4(host: &str) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = host.split('.');
    for slot in &mut out {
        *slot = parts.next()?.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// The URLs written in `text` (`http://`, `https://`, `ftp://`), with their offsets. Where
/// URLs run together (`http://http://…`, no blank between them) they all end where the first
/// blank or quote after them is: found once for all of them, not read again for each.
pub(super) fn urls(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut ends = WordEnds::new(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ')' | '>' | ',')
    });
    text.match_indices("://").filter_map(move |(at, _)| {
        let scheme_start = text[..at]
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_alphabetic())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let scheme = &text[scheme_start..at];
        if !["http", "https", "ftp", "ftps"]
            .iter()
            .any(|s| s.eq_ignore_ascii_case(scheme))
        {
            return None;
        }
        let end = ends.of(text, at);
        Some((scheme_start, &text[scheme_start..end]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_environment_variables_expand() {
        assert_eq!(expansions("-Body $env:GITHUB_TOKEN")[0].1, "GITHUB_TOKEN");
    }

    #[test]
    fn credential_stores_and_look_alikes() {
        let name = |t: &str| credential_store(t).map(|s| s.name);
        assert_eq!(name("~/.aws/credentials"), Some(".aws/credentials"));
        assert_eq!(name("$HOME/.ssh/id_ed25519"), Some(".ssh/id_"));
        assert_eq!(name("~/.ssh/id_ed25519.pub"), None);
        assert_eq!(
            name("%LOCALAPPDATA%\\Google\\Chrome\\User Data\\Default\\Login Data"),
            Some("login data")
        );
        assert_eq!(
            name("~/.mozilla/firefox/x.default/logins.json"),
            Some("logins.json")
        );
        assert_eq!(name("fixtures/logins.json"), None);
        assert_eq!(name(".netrc-example"), None);
        assert_eq!(name("~/.ssh/config"), None);
        assert_eq!(name("~/.ssh/"), Some(".ssh"));
        assert_eq!(name("$HOME/.aws"), Some(".aws"));
        assert_eq!(name("~/.aws/config"), None);
        assert!(credential_store("/etc/passwd").is_some_and(|s| !s.alarming));
    }

    #[test]
    fn secret_names_and_expansions() {
        assert!(is_secret_name("GITHUB_TOKEN") && is_secret_name("openai_api_key"));
        assert!(is_secret_name("STRIPE_KEY") && !is_secret_name("KEYBOARD_LAYOUT"));
        assert!(!is_secret_name("HOME") && !is_secret_name("AUTHOR"));
        let found: Vec<&str> = expansions("a $X ${Y_1:-z} $1 $$ $")
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(found, ["X", "Y_1"]);
    }

    #[test]
    fn destinations() {
        assert_eq!(
            host_of("https://u:p@Api.Example.com:8443/x?y").as_deref(),
            Some("api.example.com")
        );
        assert_eq!(host_of("203.0.113.9:4444").as_deref(), Some("203.0.113.9"));
        assert!(suspicious_host("203.0.113.9") && !suspicious_host("192.168.1.20"));
        assert!(suspicious_host("abc.webhook.site") && suspicious_host("x.ngrok-free.app"));
        assert!(suspicious_host("collect.evil-corp.example"));
        assert!(!suspicious_host("api.github.com") && !suspicious_host("localhost"));
        assert!(!suspicious_host("devilbox.example"));
        let found: Vec<&str> = urls("curl 'https://a.example/x' and ftp://b")
            .map(|(_, u)| u)
            .collect();
        assert_eq!(found, ["https://a.example/x", "ftp://b"]);
    }
}
