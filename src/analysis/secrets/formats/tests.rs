//! Each format is reported when it is built as its issuer builds it, and silent when it
//! is an example, a placeholder or truncated. Tokens are made here from a seeded generator
//! (and GitHub's from their checksum), so no credential-shaped literal sits in the source.

use base64::Engine as _;

use super::super::{SecretKind, scan_line};
use super::base62_checksum;

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const UPPER_BASE32: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const URL_SAFE: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// `n` characters of `alphabet`, the same for the same `seed` (SplitMix64).
fn random(n: usize, alphabet: &[u8], seed: u64) -> String {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            char::from(alphabet[(z % alphabet.len() as u64) as usize])
        })
        .collect()
}

fn digits(n: usize, seed: u64) -> String {
    random(n, b"0123456789", seed)
}

/// A GitHub token with a valid checksum.
fn github_token(prefix: &str, seed: u64) -> String {
    let body = random(30, BASE62, seed);
    format!("{prefix}{body}{}", base62_checksum(&body))
}

/// What each credential found in `line` is, reported ones only.
fn reported(line: &str) -> Vec<String> {
    scan_line(line)
        .into_iter()
        .filter(|s| s.reported)
        .map(|s| match s.kind {
            SecretKind::Token { what, .. } => what.to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

fn b64url(json: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json)
}

#[test]
fn github_tokens_carry_their_checksum() {
    // CRC-32's check value (0xCBF43926 for `123456789`), in base62.
    assert_eq!(base62_checksum("123456789"), "3jZRME");
    for (prefix, what) in [
        ("ghp_", "a GitHub personal access token"),
        ("gho_", "a GitHub OAuth token"),
        ("ghu_", "a GitHub user-to-server token"),
        ("ghs_", "a GitHub server-to-server token"),
        ("ghr_", "a GitHub refresh token"),
    ] {
        let token = github_token(prefix, 1);
        assert_eq!(reported(&format!("token: {token}")), [what]);
        // One character changed: the checksum fails, it is made up (masked, not reported).
        let mut forged = token.clone().into_bytes();
        forged[10] = if forged[10] == b'a' { b'b' } else { b'a' };
        let forged = String::from_utf8(forged).unwrap_or_default();
        let found = scan_line(&format!("token: {forged}"));
        assert_eq!(found.len(), 1, "{forged}");
        assert!(!found[0].reported);
    }
    for line in [
        "-e GITHUB_TOKEN=ghp_xxx",
        "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
        "ghp_short",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
    // npm's tokens are built the same way.
    assert_eq!(reported(&github_token("npm_", 3)), ["an npm access token"]);
    // Too long is not the format either.
    assert!(reported(&format!("{}A", github_token("ghp_", 2))).is_empty());
    // Glued to the word before it: not reported (a word is seldom a credential), but
    // masked, since a message may quote it whole.
    let token = github_token("ghp_", 4);
    let found = scan_line(&format!("unknown key `x{token}`"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!found[0].reported);
    assert_eq!(found[0].end - found[0].start, token.len());
    // After another format's prefix in the same word (`sk-` of `task-`).
    let found = scan_line(&format!("unknown key `task-{token}`"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].end - found[0].start, token.len());
    // Behind a failed token of its own format in the same word, which is read once: the
    // rest of the word is masked from the next prefix on, the key after it is not.
    let line = format!("unknown key `aghp_x{token}` sk-");
    let found = scan_line(&line);
    assert!(found.iter().all(|s| !s.reported), "{found:?}");
    let shown = crate::analysis::secrets::redact(&line);
    assert!(!shown.contains(&token[4..]), "{shown}");
    assert!(shown.starts_with("unknown key `aghp_x") && shown.ends_with("` sk-"));
}

#[test]
fn fine_grained_and_gitlab_tokens() {
    let pat = format!(
        "github_pat_{}_{}",
        random(22, BASE62, 3),
        random(59, BASE62, 4)
    );
    assert_eq!(reported(&pat), ["a GitHub fine-grained token"]);
    assert!(reported(&format!("github_pat_{}", random(40, BASE62, 3))).is_empty());
    let glpat = format!("glpat-{}", random(20, URL_SAFE, 5));
    assert_eq!(
        reported(&format!("token={glpat}")),
        ["a GitLab personal access token"]
    );
    assert!(reported("glpat-xxxxxxxxxxxxxxxxxxxx").is_empty());
    assert!(reported(&format!("glpat-{}", random(12, BASE62, 5))).is_empty());
}

#[test]
fn aws_access_key_ids() {
    let id = format!("AKIA{}", random(16, UPPER_BASE32, 6));
    assert_eq!(
        reported(&format!("key {id} here")),
        ["an AWS access key id"]
    );
    let temporary = format!("ASIA{}", random(16, UPPER_BASE32, 7));
    assert_eq!(reported(&temporary), ["an AWS temporary access key id"]);
    for line in [
        // AWS's documentation example, a placeholder, too short, too long, not base32.
        "AKIAIOSFODNN7EXAMPLE",
        "AKIAXXXXXXXXXXXXXXXX",
        "AKIA1234",
        &format!("{id}A"),
        &format!("AKIA{}", random(16, b"0189", 8)),
        &format!("x{id}"),
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn slack_tokens_and_webhooks() {
    let bot = format!(
        "xoxb-{}-{}-{}",
        digits(11, 9),
        digits(13, 10),
        random(24, BASE62, 11)
    );
    assert_eq!(reported(&bot), ["a Slack token"]);
    let app = format!(
        "xapp-1-A{}-{}-{}",
        random(10, UPPER_BASE32, 12),
        digits(13, 13),
        random(64, b"0123456789abcdef", 14)
    );
    assert_eq!(reported(&app), ["a Slack token"]);
    let hook = format!(
        "https://hooks.slack.com/services/T{}/B{}/{}",
        random(8, UPPER_BASE32, 15),
        random(10, UPPER_BASE32, 16),
        random(24, BASE62, 17)
    );
    assert_eq!(reported(&hook), ["a Slack webhook URL"]);
    for line in [
        "xoxb-your-token-here",
        "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "SLACK_BOT_TOKEN=xoxb-...",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn stripe_openai_anthropic_google() {
    let live = format!("sk_live_{}", random(24, BASE62, 18));
    assert_eq!(reported(&live), ["a Stripe live secret key"]);
    let restricted = format!("rk_live_{}", random(99, BASE62, 19));
    assert_eq!(reported(&restricted), ["a Stripe live secret key"]);
    assert!(reported(&format!("sk_test_{}", random(24, BASE62, 18))).is_empty());

    let project = format!("sk-proj-{}", random(156, URL_SAFE, 20));
    assert_eq!(reported(&project), ["an OpenAI API key"]);
    let legacy = format!(
        "sk-{}T3BlbkFJ{}",
        random(20, BASE62, 21),
        random(20, BASE62, 22)
    );
    assert_eq!(reported(&legacy), ["an OpenAI API key"]);
    let other = format!("sk-{}", random(32, b"0123456789abcdef", 23));
    assert_eq!(reported(&other), ["an API secret key"]);

    let anthropic = format!("sk-ant-api03-{}AA", random(93, URL_SAFE, 24));
    assert_eq!(reported(&anthropic), ["an Anthropic API key"]);
    let admin = format!("sk-ant-admin01-{}AA", random(93, URL_SAFE, 25));
    assert_eq!(reported(&admin), ["an Anthropic API key"]);

    let google = format!("AIza{}", random(35, URL_SAFE, 26));
    assert_eq!(reported(&format!("key={google}")), ["a Google API key"]);
    let letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let hf = format!("hf_{}", random(34, letters, 30));
    assert_eq!(reported(&hf), ["a Hugging Face access token"]);
    let pypi = format!("pypi-AgEIcHlwaS5vcmc{}", random(150, URL_SAFE, 31));
    assert_eq!(reported(&pypi), ["a PyPI upload token"]);

    for line in [
        "sk-proj-...",
        "OPENAI_API_KEY=sk-...",
        "sk-1234567890abcdef1234567890abcdef",
        "sk-ant-api03-Zq8x3Lw9Pk2Rv7Tn4Ys1Qm5Hj6Kd0Bf",
        "the task-0123456789abcdefghijklmnopqrstuvwxyz0123 ran",
        "AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q",
        "AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "from huggingface_hub import hf_hub_download",
        "HF_TOKEN=hf_...",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn json_web_tokens_decode() {
    let header = b64url(r#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = b64url(r#"{"sub":"u-81f3c2","iat":1716239022,"exp":1716325422}"#);
    let signature = random(43, URL_SAFE, 27);
    let jwt = format!("{header}.{payload}.{signature}");
    assert_eq!(
        reported(&format!("Authorization: Bearer {jwt}")),
        ["a JSON Web Token"]
    );
    let anon = b64url(r#"{"iss":"supabase","role":"anon","exp":1983812996}"#);
    let example = b64url(r#"{"sub":"1234567890","name":"John Doe","iat":1516239022}"#);
    let no_alg = b64url(r#"{"typ":"JWT"}"#);
    let unregistered = b64url(r#"{"some":"payload"}"#);
    for line in [
        // Truncated, as docs show them.
        "\"idToken\": \"eyJhbGciOiJSUzI1NiIs...\"".to_string(),
        format!("{header}.{payload}"),
        format!("{header}{payload}{signature}"),
        format!("{header}.{payload}.abc"),
        // A browser's anonymous key, an example's claims, no algorithm, not JSON.
        format!("{header}.{anon}.{signature}"),
        format!("{header}.{example}.{signature}"),
        format!("{header}.{unregistered}.{signature}"),
        format!("{no_alg}.{payload}.{signature}"),
        format!("eyJ{}.{payload}.{signature}", random(20, BASE62, 28)),
    ] {
        assert!(reported(&line).is_empty(), "{line}");
    }
}

#[test]
fn private_key_blocks_need_a_body() {
    let body = random(
        64,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        29,
    );
    let joined = format!(
        r#"{{"key": "-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body}\n-----END RSA PRIVATE KEY-----\n"}}"#
    );
    let found = scan_line(&joined);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, SecretKind::PrivateKey);
    // The body is masked with the header.
    assert_eq!(Some(found[0].masked_end), joined.find("\\n-----END"));
    for line in [
        "-----BEGIN OPENSSH PRIVATE KEY-----".to_string(),
        "x -----BEGIN PRIVATE KEY----- y".to_string(),
        r"-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----".to_string(),
        r"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----".to_string(),
        r"-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----".to_string(),
        format!(r"-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----"),
    ] {
        assert!(reported(&line).is_empty(), "{line}");
    }
}

#[test]
fn hostile_lines_stay_linear() {
    // Each would cost a scan of the rest of the line per prefix if prefixes were re-read:
    // minutes for these lines, against well under a second.
    for unit in [
        "eyJ.",
        "-----BEGIN ",
        "hooks.slack.com/",
        "://a",
        "sk-proj-",
        "xsk-proj-",
        "aghp_",
    ] {
        let line = unit.repeat(40_000);
        let started = std::time::Instant::now();
        let _ = scan_line(&line);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{unit}"
        );
    }
}

/// A key body on one line that runs past the window a body is looked for in is reached to
/// its end, so that all of it is masked; a footer ends it, and the next header too.
#[test]
fn a_key_body_reaches_its_end() {
    let body: String = (0..40_000).map(|i| ['Q', 'k', '7', 'w'][i % 4]).collect();
    let (_, reach) = super::key_body(&format!("{body}\" next"), "", 0);
    assert_eq!(reach, body.len());
    let (found, reach) = super::key_body("\\nAAAA\\n-----END PRIVATE KEY-----\\nBBBB", "CCCC", 99);
    assert_eq!((found.as_str(), reach), ("AAAA", 6));
}
