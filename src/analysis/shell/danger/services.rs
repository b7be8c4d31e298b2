//! Which service a secret variable is for, by its name: `NPM_TOKEN` is npm's, so sent to
//! `registry.npmjs.org` it is used, sent to `npm-helper.example.dev` it is stolen.

use super::vocab::suspicious_host;

/// Words of a secret variable's name that name no service (`OPENAI_API_KEY` names OpenAI,
/// `API_TOKEN` nothing).
const GENERIC_WORDS: &[&str] = &[
    "API",
    "APIKEY",
    "KEY",
    "KEYS",
    "TOKEN",
    "TOKENS",
    "SECRET",
    "SECRETS",
    "ACCESS",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PAT",
    "AUTH",
    "BOT",
    "CLIENT",
    "ID",
    "PERSONAL",
    "PRIVATE",
    "PUBLIC",
    "SESSION",
    "CREDENTIAL",
    "CREDENTIALS",
    "APP",
    "USER",
    "ADMIN",
    "REFRESH",
    "BEARER",
    "OAUTH",
    "SERVICE",
    "ACCOUNT",
    "MY",
    "PROD",
    "DEV",
    "TEST",
    "WRITE",
    "READ",
    "DEPLOY",
    "UPLOAD",
    "PUBLISH",
    "ENV",
    "DEFAULT",
    "WEBHOOK",
    "SIGNING",
    "SHARED",
    "MASTER",
    "ROOT",
    "DB",
    "DATABASE",
    "HOST",
    "URL",
    "ORG",
    "PROJECT",
    "TEAM",
    "WORKSPACE",
    "REGISTRY",
    "CI",
];

/// Services whose tokens are named by a short word other than their domain's.
const SERVICE_ALIASES: &[(&str, &str)] = &[
    ("gh", "github"),
    ("aws", "amazonaws"),
    ("hf", "huggingface"),
    ("cf", "cloudflare"),
    ("npm", "npmjs"),
    ("gcp", "googleapis"),
    ("google", "googleapis"),
    ("azure", "windows"),
    ("azure", "microsoft"),
    ("do", "digitalocean"),
    ("tg", "telegram"),
];

/// Whether a secret variable called `name`, sent to `host`, leaves for somewhere else than
/// the service its name says it is for: `NPM_TOKEN` to `npm-helper.dev` does,
/// `TELEGRAM_BOT_TOKEN` to `api.telegram.org` and `GOOGLE_MAPS_API_KEY` to
/// `maps.googleapis.com` do not. A name that names no service (`API_TOKEN`) and a host of
/// this machine or the local network say nothing.
pub(crate) fn sent_elsewhere(name: &str, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let dotted = host.split('.').count();
    if !host.contains('.')
        || host.ends_with(".local")
        || host.ends_with(".internal")
        || host.ends_with(".localhost")
        || (dotted == 4
            && !suspicious_host(&host)
            && host.split('.').all(|p| p.parse::<u8>().is_ok()))
    {
        return false;
    }
    // The last label (the top-level domain) names no service.
    let labels: Vec<&str> = host.split('.').take(dotted.saturating_sub(1)).collect();
    // `exchangerate-api` serves `EXCHANGE_…` as `exchangerate` does: a label is also read
    // without the parts that only say what kind of endpoint it is (`npm-helper` is not npm's).
    let labels: Vec<&str> = labels
        .iter()
        .flat_map(|l| {
            let mut parts = l.split('-').filter(|p| !ENDPOINT_WORDS.contains(p));
            let core = parts
                .next()
                .filter(|_| l.contains('-') && parts.next().is_none());
            std::iter::once(*l).chain(core)
        })
        .collect();
    let (named, served) = named_and_served(name, &labels);
    if served {
        return false;
    }
    // A name of no service (`API_KEY`, `PASSWORD`) says where it belongs no better than the
    // host does; a domain where throwaway registrations cluster is nobody's API.
    named || throwaway(&host)
}

/// Whether `name` names a service (a word of it that is no [`GENERIC_WORDS`]), and whether
/// one of the host's `labels` serves it.
fn named_and_served(name: &str, labels: &[&str]) -> (bool, bool) {
    let serves = |word: &str| {
        labels.iter().any(|l| {
            l.strip_prefix(word)
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_alphanumeric()))
                || l.ends_with(word)
        })
    };
    let mut named = false;
    for word in name.split('_').filter(|w| w.len() >= 2) {
        let upper = word.to_ascii_uppercase();
        if GENERIC_WORDS.contains(&upper.as_str()) {
            continue;
        }
        named = true;
        let lower = word.to_ascii_lowercase();
        let aliases = SERVICE_ALIASES
            .iter()
            .filter(|(short, _)| *short == lower)
            .map(|(_, long)| *long);
        if serves(&lower) || aliases.into_iter().any(serves) {
            return (true, true);
        }
    }
    (named, false)
}

/// Whether the secret variable `name` is the credential of the service whose domain `host`
/// is under (`GITHUB_TOKEN` for `uploads.github.com`, not for `github.example.top`): a
/// request it authenticates goes to the user's own account there.
pub(crate) fn serves(name: &str, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let mut labels = host.rsplit('.');
    let domain = labels.nth(1).into_iter().collect::<Vec<_>>();
    named_and_served(name, &domain).1
}

/// Parts of a host's label that name a kind of endpoint, not a service (`exchangerate-api`).
const ENDPOINT_WORDS: &[&str] = &[
    "api", "apis", "app", "cdn", "static", "svc", "service", "gateway", "prod", "eu", "us",
];

/// Top-level domains most registered for abuse (cheap or free, unverified): a tool's own
/// service is seldom there, a collector often is.
const THROWAWAY_TLDS: &[&str] = &[
    "top", "xyz", "click", "pw", "tk", "ml", "ga", "cf", "gq", "icu", "buzz", "cyou", "sbs",
    "rest", "monster", "zip", "mov", "su", "cam", "bond", "lol", "quest", "cfd",
];

/// Whether `host` is under one of [`THROWAWAY_TLDS`].
fn throwaway(host: &str) -> bool {
    host.rsplit('.')
        .next()
        .is_some_and(|tld| THROWAWAY_TLDS.contains(&tld))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_sent_where_its_name_does_not_belong() {
        assert!(sent_elsewhere("NPM_TOKEN", "npm-helper.dev"));
        assert!(sent_elsewhere("GITHUB_TOKEN", "gh-refresh.example.net"));
        assert!(!sent_elsewhere("NPM_TOKEN", "registry.npmjs.org"));
        assert!(!sent_elsewhere("TELEGRAM_BOT_TOKEN", "api.telegram.org"));
        assert!(!sent_elsewhere(
            "GOOGLE_MAPS_API_KEY",
            "maps.googleapis.com"
        ));
        assert!(!sent_elsewhere("GH_TOKEN", "api.github.com"));
        assert!(!sent_elsewhere(
            "EXCHANGE_API_KEY",
            "api.exchangerate-api.com"
        ));
        // A name of no service, and a local host, say nothing.
        assert!(!sent_elsewhere("API_TOKEN", "api.example-service.com"));
        assert!(!sent_elsewhere("GITHUB_TOKEN", "localhost"));
        assert!(!sent_elsewhere("GITHUB_TOKEN", "192.168.1.4"));
        // A name of no service, sent to a domain where throwaway registrations cluster.
        assert!(sent_elsewhere("API_KEY", "keys-verify.top"));
        assert!(sent_elsewhere("PASSWORD", "probe.example.xyz"));
        assert!(!sent_elsewhere("API_KEY", "api.example-service.com"));
    }

    #[test]
    fn a_credential_of_the_service_at_the_host() {
        assert!(serves("GITHUB_TOKEN", "uploads.github.com"));
        assert!(serves("GH_TOKEN", "api.github.com"));
        assert!(!serves("GITHUB_TOKEN", "github.example.top"));
        assert!(!serves("API_TOKEN", "uploads.github.com"));
    }
}
