//! Whether a literal is a credential or stands for one: placeholders and references, code
//! that computes a value, and how random a value is (Shannon entropy, character classes,
//! and whether it reads as words). Secret scanners judge generic assignments the same way:
//! a name that says "secret" and a value random enough that nobody typed it as an example.

/// The bar a value must clear to be reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bar {
    /// Generated credentials (keys, secrets): long and random.
    Random,
    /// Passwords and tokens: random, or a mixed-class password that is not a word sequence.
    Password,
}

/// Shortest value a generated credential is (shorter ones cannot reach the entropy bar).
const MIN_RANDOM: usize = 12;
/// Bits a character a generated credential carries at least (the generic rule of secret
/// scanners uses the same 3.5).
const RANDOM_ENTROPY: f64 = 3.5;
/// The same for a hex credential, whose sixteen characters carry 4 bits at most (secret
/// scanners lower the bar for hex the same way).
const HEX_ENTROPY: f64 = 3.0;
/// Shortest hex value that counts: hex API keys have 32 characters and more.
const MIN_HEX: usize = 16;
/// Shortest password that counts.
const MIN_PASSWORD: usize = 8;
/// Bits a character a password carries at least: eight different characters in eight.
const PASSWORD_ENTROPY: f64 = 3.0;

/// Credentials published as examples by the standards that define them (OAuth 2.0's
/// RFC 6749 and RFC 6750) and by Stripe's documentation (its test key's body, copied into
/// many a "vulnerable code" sample as a live key): known to everyone, so no secret
/// wherever they are copied.
const PUBLISHED_EXAMPLES: &[&str] = &[
    "4eC39HqLyjWDarjtT1zdp7dc",
    "2YotnFZFEjr1zCsicMWpAA",
    "tGzv3JOkF0XG5Qx2TlKWIA",
    "mF_9.B5f-4.1JqM",
    "czZCaGRSa3F0MzpnWDFmQmF0M2JW",
    "gX1fBat3bV",
    "SplxlOBeZQQYbYS6WxSbIA",
];

/// Values that stand for a secret when they are the whole value (lower case).
const PLACEHOLDER_WORDS: &[&str] = &[
    "none", "null", "nil", "empty", "required", "optional", "true", "false", "n/a", "todo", "tbd",
    "secret", "password", "passwd", "token", "test", "pass", "admin", "root", "user", "guest",
    "default", "demo", "example",
];

/// Parts that make a value a placeholder wherever they are in it (lower case).
const PLACEHOLDER_PARTS: &[&str] = &[
    "redacted",
    "placeholder",
    "example",
    "sample",
    "dummy",
    "fake",
    "demo",
    "test",
    "mock",
    "invalid",
    "changeme",
    "change_me",
    "change-me",
    "xxx",
    "***",
    "...",
    "…",
    "${",
    "{{",
    "}}",
    "$(",
    "%(",
    "#{",
    "<%",
];

/// File extensions of a value that names a file holding the secret rather than being one.
const FILE_EXTENSIONS: &[&str] = &[
    ".pem", ".key", ".json", ".txt", ".env", ".p12", ".pfx", ".crt", ".cer", ".jks", ".yaml",
    ".yml", ".toml", ".ini", ".conf", ".gpg", ".age",
];

/// A value that stands for a secret rather than being one: a variable or template reference
/// (`${VAR}`, `$VAR`, `{{ secret }}`, `%VAR%`, `<your-token>`), a reference into a secret
/// store (`ENC[…]`, `arn:…`, `env:…`), a YAML tag or alias, a truncated or masked example
/// (`eyJhbGci…`, `ghp_xxx`, `****`), or a word that says so (`changeme`, `REDACTED`).
pub(crate) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.len() < 4 {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    let first = v.chars().next().unwrap_or('x');
    v.starts_with(['$', '<', '{', '%', '*', '[', '!', '&', '@'])
        || v.chars().all(|c| c == first)
        || PLACEHOLDER_WORDS.contains(&lower.as_str())
        || PLACEHOLDER_PARTS.iter().any(|p| lower.contains(p))
        || lower.starts_with("your")
        || lower.starts_with("env:")
        || lower.starts_with("enc[")
        || lower.starts_with("arn:")
        || lower.starts_with("vault:")
        || is_sequence(v)
        || PUBLISHED_EXAMPLES.iter().any(|e| v.contains(e))
}

/// Consecutive characters, in any case, alone or interleaved with another
/// (`abcdefgh…0123456789`, `AbCdEf…`, `A1B2C3…`), for half the value or in a run of eight
/// (or five interleaved): a made-up example. A generated value has no such run (one in
/// 62⁷ a place).
fn is_sequence(v: &str) -> bool {
    let b = v.as_bytes();
    let step = |x: u8, y: u8| {
        x.is_ascii_alphanumeric()
            && y.to_ascii_lowercase() == x.to_ascii_lowercase().wrapping_add(1)
    };
    b.len() >= 8
        && [(1, 7), (2, 4)].into_iter().any(|(stride, long_run)| {
            let (mut steps, mut runs, mut longest) = (0, [0usize; 2], 0);
            for i in stride..b.len() {
                let run = &mut runs[i % stride];
                if step(b[i - stride], b[i]) {
                    steps += 1;
                    *run += 1;
                    longest = longest.max(*run);
                } else {
                    *run = 0;
                }
            }
            steps * 2 >= b.len() - stride || longest >= long_run
        })
}

/// A value that is code computing the secret, not the secret: a call (`os.environ.get(…)`,
/// `generateToken()`), an index (`ENV['X']`), or a property path (`process.env.API_KEY`,
/// `req.body.password`), or options (`id=npm_token,src=.npmrc`). `quoted` values are string
/// literals, so only a whole call, a property path of identifiers (`"config.api.token"`
/// names a setting) or options count there.
pub(super) fn is_expression(value: &str, quoted: bool) -> bool {
    (!quoted && value.contains(['(', ')', '[', ']']))
        // The middle of a concatenation: `"(pw=" + safe + ")"`.
        || value.starts_with(' ')
        || value.ends_with(' ')
        || is_call(value)
        || is_property_path(value)
        || is_option_list(value)
}

/// `name(…)` as a whole, even quoted: a configuration's function (`"env('PASSWORD')"`).
fn is_call(value: &str) -> bool {
    let Some((name, _)) = value.split_once('(') else {
        return false;
    };
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        && value.ends_with(')')
}

/// `id=npm_token,src=.npmrc`: options of a command, not a credential (base64 has `=` only
/// at its end).
fn is_option_list(value: &str) -> bool {
    let inner_equals = value.trim_end_matches('=').contains('=');
    inner_equals || (value.contains(',') && value.contains('='))
}

/// `a.b.c` of identifiers, perhaps ending in `!` or `?` (TypeScript's assertions).
fn is_property_path(value: &str) -> bool {
    let v = value.trim_end_matches(['!', '?']);
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    v.contains('.') && v.split('.').all(ident)
}

/// A file path or URL: where a secret is kept, not the secret.
pub(super) fn is_location(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.contains("://")
        || value.starts_with("./")
        || value.starts_with("../")
        || value.starts_with("~/")
        || FILE_EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// Digest algorithms that name a checksum (`sha256:…`, `sha512-…`).
const DIGESTS: &[&str] = &[
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "blake3",
];

/// A UUID, a SHA-1 or SHA-256 hex digest, or a digest named by its algorithm
/// (`sha256:…`, `sha512-…`): identifiers and checksums, not credentials.
pub(super) fn is_identifier_or_hash(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let named_digest = DIGESTS.iter().any(|d| {
        lower
            .strip_prefix(d)
            .is_some_and(|rest| rest.starts_with([':', '-', '=']))
    });
    if named_digest {
        return true;
    }
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    let mut parts = value.split('-');
    let uuid = [8, 4, 4, 4, 12]
        .iter()
        .all(|n| parts.next().is_some_and(|p| p.len() == *n && hex(p)))
        && parts.next().is_none();
    uuid || (matches!(value.len(), 40 | 64) && hex(value))
}

/// Shannon entropy of `value`'s bytes, in bits a byte.
pub(super) fn entropy(value: &str) -> f64 {
    let mut counts = [0u16; 256];
    for b in value.bytes() {
        counts[usize::from(b)] = counts[usize::from(b)].saturating_add(1);
    }
    let n = value.len() as f64;
    counts
        .iter()
        .filter(|k| **k > 0)
        .map(|k| {
            let p = f64::from(*k) / n;
            -p * p.log2()
        })
        .sum()
}

/// Long enough, varied enough (3.5 bits a character) and not only letters, words or an
/// identifier: a generated credential rather than a name or a phrase.
pub(crate) fn looks_random(value: &str) -> bool {
    let (min, bar) = if is_hex(value) {
        (MIN_HEX, HEX_ENTROPY)
    } else {
        (MIN_RANDOM, RANDOM_ENTROPY)
    };
    value.len() >= min
        && !value.contains(char::is_whitespace)
        && value
            .bytes()
            .any(|b| !(b.is_ascii_alphabetic() || matches!(b, b'_' | b'.' | b'-')))
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && entropy(value) >= bar
        && !is_word_sequence(value)
        && !is_identifier_or_hash(value)
}

/// Only hex digits (of one case).
fn is_hex(value: &str) -> bool {
    let b = value.as_bytes();
    (b.iter()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
        || b.iter()
            .all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(c)))
        && !b.is_empty()
}

/// A password as people choose them for real: at least eight characters of three classes
/// (lower, upper, digits, symbols), eight different ones, and not words with a number
/// (`Summer2024!`, `P@ssw0rd`, `securePassword123`), which is what examples are made of.
fn looks_like_password(value: &str) -> bool {
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
        value
            .bytes()
            .any(|b| b.is_ascii_punctuation() && !matches!(b, b'_' | b'.' | b'-')),
    ];
    value.len() >= MIN_PASSWORD
        && !value.contains(char::is_whitespace)
        && classes.iter().filter(|c| **c).count() >= 3
        && entropy(value) >= PASSWORD_ENTROPY
        && !is_word_sequence(value)
}

/// Whether `value` clears `bar` and is no placeholder.
/// A base64 value is judged by what it decodes to, when that is text or a key.
pub(super) fn strong(value: &str, bar: Bar) -> bool {
    if is_placeholder(value) || is_location(value) {
        return false;
    }
    super::decoded::judged(value).unwrap_or_else(|| strong_as_written(value, bar))
}

/// [`strong`], without decoding.
pub(super) fn strong_as_written(value: &str, bar: Bar) -> bool {
    if is_placeholder(value) || is_location(value) {
        return false;
    }
    match bar {
        Bar::Random => looks_random(value),
        Bar::Password => looks_random(value) || looks_like_password(value),
    }
}

/// A letter as a word would have it: letters as they are, and a digit or symbol that
/// stands for a letter between two letters (`p@ssw0rd`, `s3cret`).
fn letter(b: &[u8], i: usize) -> Option<u8> {
    let c = b[i];
    if c.is_ascii_alphabetic() {
        return Some(c);
    }
    let between = i > 0
        && b[i - 1].is_ascii_alphabetic()
        && b.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
    let leet = match c {
        b'0' => b'o',
        b'1' => b'l',
        b'3' => b'e',
        b'4' | b'@' => b'a',
        b'5' | b'$' => b's',
        b'7' => b't',
        _ => return None,
    };
    between.then_some(leet)
}

/// Most of the letters (three quarters) are in words: runs of three or more letters with
/// a vowel, in lower case or capitalised (`secure`, `Password`), or upper-case runs with as
/// many vowels as words have, one in five (`PASSWORD`). camelCase splits into words;
/// random strings break into short runs of mixed case without vowels.
pub(super) fn is_word_sequence(value: &str) -> bool {
    // Hex has letters for digits: `deadbeef` in a digest is no word.
    if is_hex(value) {
        return false;
    }
    let b = value.as_bytes();
    let (mut letters, mut in_words) = (0usize, 0usize);
    let mut word: Vec<u8> = Vec::new();
    let mut close = |word: &mut Vec<u8>| {
        letters += word.len();
        if is_word(word) {
            in_words += word.len();
        }
        word.clear();
    };
    for i in 0..b.len() {
        match letter(b, i) {
            Some(c) => {
                let camel =
                    c.is_ascii_uppercase() && word.last().is_some_and(|p| p.is_ascii_lowercase());
                if camel {
                    close(&mut word);
                }
                word.push(c);
            }
            None => close(&mut word),
        }
    }
    close(&mut word);
    letters > 0 && in_words * 4 >= letters * 3
}

/// One run of letters that reads as a word (see [`is_word_sequence`]).
fn is_word(word: &[u8]) -> bool {
    if word.len() < 3 {
        return false;
    }
    let vowel = |c: &u8| {
        matches!(
            c.to_ascii_lowercase(),
            b'a' | b'e' | b'i' | b'o' | b'u' | b'y'
        )
    };
    let vowels = word.iter().filter(|c| vowel(c)).count();
    let mut run = 0;
    let mut longest = 0;
    for c in word {
        run = if vowel(c) { 0 } else { run + 1 };
        longest = longest.max(run);
    }
    let rest = &word[1..];
    let shaped = if rest.iter().all(u8::is_ascii_lowercase) {
        vowels > 0
    } else if word.iter().all(u8::is_ascii_uppercase) {
        vowels * 5 >= word.len()
    } else {
        false
    };
    shaped && longest <= 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        for v in [
            "REDACTED",
            "xxxxxxxx",
            "ghp_xxx",
            "eyJhbGciOiJSUzI1NiIs...",
            "AGEhc0C…",
            "ENC[datadog_password]",
            "${DB_PASSWORD}",
            "$TOKEN",
            "{{ secret }}",
            "<your-token>",
            "%API_KEY%",
            "changeme",
            "your-api-key-here",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "arn:aws:secretsmanager:us-east-1:1:secret:x",
            "!vault",
            "test",
        ] {
            assert!(is_placeholder(v), "{v}");
        }
        for v in ["hunter2024", "Zq8x3Lw9Pk2Rv7Tn4Ys1", "k9#mQ2!vL7pX"] {
            assert!(!is_placeholder(v), "{v}");
        }
    }

    #[test]
    fn expressions_and_locations() {
        for (v, quoted) in [
            ("os.environ.get(\"GITHUB_TOKEN\")", false),
            ("process.env.MAPBOX_TOKEN", false),
            ("process.env.MAPBOX_TOKEN!", false),
            ("tokenInfo.value", false),
            ("generateToken()", false),
            ("ENV['API_KEY']", false),
            ("config.api.token", true),
            ("env('PASSWORD')", true),
        ] {
            assert!(is_expression(v, quoted), "{v}");
        }
        assert!(!is_expression("k9(mQ2!vL7pX", true));
        assert!(!is_expression("Zq8x3Lw9Pk2Rv7Tn4Ys1", false));
        assert!(is_location("https://example.com/mcp"));
        assert!(is_location("./secrets/key.pem") && is_location("keys/prod.pem"));
        assert!(!is_location("Zq8x3Lw9Pk2Rv7Tn4Ys1"));
    }

    #[test]
    fn words_are_not_random() {
        for v in [
            "securePassword123",
            "Password123!",
            "Passw0rd123!",
            "Test123!",
            "Summer2024!",
            "hunter2hunter2",
            "my-super-secret-key-2024",
            "/etc/secrets/db_password",
            "apiKeyV2Prod",
            "Winter2025!Tr0mb0ne",
        ] {
            assert!(is_word_sequence(v), "{v}");
            assert!(!strong(v, Bar::Password), "{v}");
        }
        for v in [
            "Zq8x3Lw9Pk2Rv7Tn4Ys1",
            "3e42dbd4f895fe93ff5cf40d860c4a85",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9pQ3LmN2",
            "k9#mQ2!vL7pX",
        ] {
            assert!(!is_word_sequence(v), "{v}");
        }
    }

    #[test]
    fn bars() {
        assert!(strong("Zq8x3Lw9Pk2Rv7Tn4Ys1", Bar::Random));
        assert!(strong("3e42dbd4f895fe93ff5cf40d860c4a85", Bar::Random));
        // A password of mixed classes is a password, not a generated key.
        assert!(strong("k9#mQ2!vL7pX", Bar::Password));
        assert!(!strong("k9#mQ2!v", Bar::Random));
        for v in [
            "mysecret",
            "hardcoded",
            "token123",
            "Test123!",
            "1234567890123",
        ] {
            assert!(!strong(v, Bar::Password), "{v}");
        }
        // Identifiers and digests are not credentials.
        assert!(!strong("123e4567-e89b-12d3-a456-426614174000", Bar::Random));
        assert!(!strong(&"ab12".repeat(16), Bar::Random));
        assert!(!strong("aaaaaaaaaaaaaaaaaaaa1", Bar::Random));
    }

    #[test]
    fn entropy_counts_bits() {
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
        assert_eq!(entropy("aaaa"), 0.0);
    }
}
