//! The scan of a line as a whole: what is reported, what is only masked, and the classes of
//! text that hold no credential (code, placeholders, references, examples, public keys).

use super::*;

/// The reported credentials of `line`, as written (the other test modules of the scan
/// use it too).
pub(super) fn reported(line: &str) -> Vec<&str> {
    scan_line(line)
        .into_iter()
        .filter(|s| s.reported)
        .map(|s| &line[s.start..s.end])
        .collect()
}

fn kinds(line: &str) -> Vec<SecretKind> {
    scan_line(line)
        .into_iter()
        .filter(|s| s.reported)
        .map(|s| s.kind)
        .collect()
}

/// A GitHub token with a valid checksum, from a made-up body.
fn github_token() -> String {
    let body = "R8c2ZkQ1yX4mP7tW9vB3nL6sD0fH5j";
    format!("ghp_{body}{}", formats::base62_checksum(body))
}

#[test]
fn hashes_are_not_secrets() {
    let hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    assert!(scan_line(&format!("- /in/input.csv sha256: {hash}")).is_empty());
    assert!(scan_line(&format!("    sha256: {hash}")).is_empty());
    assert!(reported(&format!("cache_key: sha256:{hash}")).is_empty());
    assert!(reported("api_key: 123e4567-e89b-12d3-a456-426614174000").is_empty());
}

#[test]
fn a_token_is_found_where_it_is() {
    let token = github_token();
    let line = format!("token: {token}");
    let found = scan_line(&line);
    assert_eq!(found.len(), 1);
    assert_eq!(&line[found[0].start..found[0].end], token);
    assert_eq!(
        found[0].kind,
        SecretKind::Token {
            what: "a GitHub personal access token",
            prefix_len: 4
        }
    );
}

#[test]
fn every_pair_of_a_one_line_json_object() {
    let line = r#"{"env": {"LOG": "debug", "DB_PASSWORD": "k9#mQ2!vL7pX", "A": "b"}}"#;
    assert_eq!(reported(line), ["k9#mQ2!vL7pX"]);
    assert!(scan_line(r#"{"a": "x:y", "note": "password: see the vault"}"#).is_empty());
}

#[test]
fn url_passwords() {
    let line = "clone https://bob:q7Rx2mVp9Lk4Wz8N@example.com/repo.git";
    let found = scan_line(line);
    assert_eq!(found.len(), 1);
    assert_eq!(&line[found[0].start..found[0].end], "q7Rx2mVp9Lk4Wz8N");
    assert_eq!(found[0].kind, SecretKind::UrlPassword);
    for line in [
        "https://bob@example.com/ and ssh://git@host:22/x",
        "postgres://user:${DB_PASSWORD}@db/app",
        "postgres://user:pass@db/app",
        "postgres://postgres:postgres@localhost:5432/app",
        "mongodb+srv://admin:<password>@cluster0.example.net",
        "redis://:p4ssw0rd@cache:6379",
        "https://user:password@example.com",
        // `p@ss:phrase`, escaped.
        "https://viewer:p%40ss%3Aphrase@service.invalid/api",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
    // In a text, a line with a URL and nothing else secret-like is read too.
    let text = "intro\nclone https://bob:q7Rx2mVp9Lk4Wz8N@example.com/repo.git\n";
    let hits: Vec<&str> = scan_text(text)
        .into_iter()
        .filter(|s| s.reported)
        .map(|s| &text[s.start..s.end])
        .collect();
    assert_eq!(hits, ["q7Rx2mVp9Lk4Wz8N"]);
    // A weak literal password is not reported, but it is not shown either.
    let weak = scan_line("redis://:p4ssw0rd@cache:6379");
    assert!(weak.len() == 1 && !weak[0].reported);
}

#[test]
fn assignments_to_secret_names() {
    assert_eq!(
        kinds("password=k9#mQ2!vL7pX"),
        [SecretKind::Assigned {
            name: "password".into(),
            literal: true
        }]
    );
    assert_eq!(
        kinds("api_key: \"Zq8x3Lw9Pk2Rv7Tn4Ys1\""),
        [SecretKind::Assigned {
            name: "api_key".into(),
            literal: false
        }]
    );
    assert_eq!(reported("run --password k9#mQ2!vL7pX"), ["k9#mQ2!vL7pX"]);
    assert_eq!(
        reported("run --api-key Zq8x3Lw9Pk2Rv7Tn4Ys1"),
        ["Zq8x3Lw9Pk2Rv7Tn4Ys1"]
    );
    assert_eq!(
        reported("const SECRET = 'Zq8x3Lw9Pk2Rv7Tn4Ys1';"),
        ["Zq8x3Lw9Pk2Rv7Tn4Ys1"]
    );
    assert_eq!(
        reported("DD_API_KEY=3e42dbd4f895fe93ff5cf40d860c4a85"),
        ["3e42dbd4f895fe93ff5cf40d860c4a85"]
    );
    // A key that reads like a word, a number, prose.
    for line in [
        "api_key=mykeyname",
        "pin_token=1234",
        "Justification: no token is needed for this",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn code_computing_a_secret_is_not_one() {
    for line in [
        r#"    token = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")"#,
        "const mapboxAccessToken = process.env.REMOTION_MAPBOX_TOKEN;",
        "\t\t\taccessToken: mapboxAccessToken,",
        "    sendResetPassword: async ({ user, url, token }, request) => {",
        "    password: req.body.password   // Could be { $gt: '' }",
        "    password: String(req.body.password)",
        "let TOKEN = tokenInfo.value;",
        "        TOKEN = generateToken();",
        "const token = Math.random().toString(36);",
        "const token = crypto.randomBytes(16).toString('hex');",
        "    val token = ByteArray(length)",
        "$token = bin2hex(random_bytes(16));  // OK - random_bytes is secure",
        "token = random.randint(0, 2**128)",
        "token = secrets.token_bytes(16)",
        "token = rand(2**128)",
        "token = SecureRandom.random_bytes(16)",
        "let privateKey = Curve25519.KeyAgreement.PrivateKey()",
        "api_key = config[\"api_key\"]",
        "apiKey: process.env.API_KEY!,",
        "password = \"env('PASSWORD')\"",
        "# Build with: docker build --secret id=npm_token,src=.npmrc .",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn placeholders_and_references_are_not_secrets() {
    for line in [
        "   -H \"Authorization: Bearer token123\" \\",
        "   -e GITHUB_TOKEN=ghp_xxx \\",
        r#"curl "https://PROJECT.firebaseio.com/users.json?auth=eyJhbGciOiJSUzI1NiIs...""#,
        r#"  "idToken": "eyJhbGciOiJSUzI1NiIs...","#,
        r#"  "refreshToken": "AGEhc0C...","#,
        "DATABASE_URL=postgres://user:pass@db:5432/app",
        "      POSTGRES_PASSWORD: test",
        "  password: ENC[datadog_password]",
        "API_TOKEN=<your-token>",
        "password=$DB_PASSWORD token=${API_TOKEN}",
        "password: \"{{ secret }}\"",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "password: <your password>",
        "password: changeme",
        "api_key: xxxx-xxxx-xxxx",
        "OPENAI_API_KEY=sk-...",
        "API_KEY=your_api_key_here",
        "secret_key: REDACTED",
        "password: !vault |",
        "token: '%GITHUB_TOKEN%'",
        "private_key: ./keys/deploy.pem",
        "token_url: https://auth.example.com/oauth/token",
        // A badge's short token is no generated credential.
        "![cov](https://img.shields.io/codecov/c/gh/o/r?logo=codecov&token=B1EnafGlRL)",
        // Examples an RFC published, and base64 that decodes to a phrase.
        "     Authorization: Bearer mF_9.B5f-4.1JqM",
        r#"       "access_token":"2YotnFZFEjr1zCsicMWpAA","#,
        "  password: 'bm90IG15IHJlYWwgcGFzc3dvcmQ=',",
        "  auth: 'aXNhYWNzOm5vdCBteSByZWFsIHBhc3N3b3Jk',",
        "  password: cGFzc3dvcmQ=",
        "const apiKey = 'mock-api-key-8f3k2m9x7q';",
        "stripe.api_key = \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\"",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
}

#[test]
fn example_passwords_are_not_reported() {
    for line in [
        "password = \"hardcoded\"",
        "ENV DB_PASSWORD=mysecret",
        "      - DB_PASSWORD=mysecret",
        r#"  -d '{"email":"test@test.com","password":"Test123!","returnSecureToken":true}' \"#,
        "  password: 'securePassword123'",
        "password=Passw0rd123!",
        "DB_PASSWORD=Winter2025!Tr0mb0ne",
        "printf 'password=KspDemo_7zQ2mX9pL4vN6sR8'",
        "let token = \"custom_A1B2C3D4.0123456789abcdef\";",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
    // Masked all the same: it may be someone's real password.
    let found = scan_line("ENV DB_PASSWORD=mysecret2024");
    assert!(found.len() == 1 && !found[0].reported);
}

#[test]
fn keys_meant_to_be_public_are_not_secrets() {
    for line in [
        "POST https://x-dsn.algolia.net/1/indexes/*/queries?x-algolia-api-key=3e42dbd4f895fe93ff5cf40d860c4a85&x-algolia-application-id=X",
        "NEXT_PUBLIC_SUPABASE_ANON_KEY=Zq8x3Lw9Pk2Rv7Tn4Ys1",
        "publishableKey: 'Zq8x3Lw9Pk2Rv7Tn4Ys1'",
        "-----BEGIN PUBLIC KEY-----",
    ] {
        assert!(reported(line).is_empty(), "{line}");
    }
    // A public key in DER (SubjectPublicKeyInfo), base64, as a registry publishes its keys.
    use base64::Engine as _;
    let mut spki = vec![0x30, 0x59, 0x30, 0x13, 0x06, 0x07];
    spki.extend([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
    spki.extend([0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);
    spki.extend([0x03, 0x42, 0x00, 0x04]);
    spki.extend((0u8..64).map(|i| i.wrapping_mul(97).wrapping_add(13)));
    let public = base64::engine::general_purpose::STANDARD.encode(&spki);
    assert!(reported(&format!("  key: \"{public}\"")).is_empty());
    // A docs site's search configuration.
    let text =
        "  algolia: {\n    appId: 'X1Y2Z3',\n    apiKey: '3e42dbd4f895fe93ff5cf40d860c4a85',\n";
    assert!(scan_text(text).iter().all(|s| !s.reported));
    assert_eq!(
        reported("ALGOLIA_ADMIN_KEY=3e42dbd4f895fe93ff5cf40d860c4a85"),
        ["3e42dbd4f895fe93ff5cf40d860c4a85"]
    );
}

#[test]
fn redaction_keeps_offsets() {
    let token = github_token();
    let text = format!("a: 1\ntoken: {token}\npassword=hunter2024 x");
    let shown = redact(&text);
    assert_eq!(shown.len(), text.len());
    assert!(shown.contains("ghp_R8****"));
    assert!(shown.contains("password=hu******** x"));
    assert!(!shown.contains("hunter2024") && !shown.contains("ZkQ1"));
    // A made-up token is masked too.
    let fake = redact("GITHUB_TOKEN=ghp_R8c2ZkQ1yX4mP7tW9vB3nL6sD0fH5jA2eG8u");
    assert!(!fake.contains("ZkQ1"), "{fake}");
    assert!(matches!(
        redact("nothing here"),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn a_key_block_is_masked_body_and_all() {
    let body = "MIIEowIBAAKCAQEAq7Rx2mVp9Lk4Wz8NfJ3bT6yHc1sD5gK0uQ8eP2aL7vXnM4rZ";
    let text = format!(
        "key:\n  -----BEGIN RSA PRIVATE KEY-----\n  {body}\n  {body}\n  -----END RSA PRIVATE KEY-----\n"
    );
    let found = scan_text(&text);
    assert_eq!(found.len(), 1);
    assert!(found[0].reported && found[0].kind == SecretKind::PrivateKey);
    let shown = redact(&text);
    assert!(!shown.contains(&body[..20]), "{shown}");
    assert_eq!(shown.lines().count(), text.lines().count());
    assert!(shown.contains("-----END RSA PRIVATE KEY-----"));
}

#[test]
fn helpers() {
    assert_eq!(mask("ghp_0123456789", 6), "ghp_01…");
    assert_eq!(mask("é", 6), "é…");
    assert!(is_placeholder("REDACTED") && is_placeholder("xxxxxxxx"));
    assert!(!is_placeholder("hunter2024"));
    assert!(looks_random("Zq8x3Lw9Pk2Rv7Tn4Ys1"));
    assert!(!looks_random("aaaaaaaaaaaaaaaaaaaa1") && !looks_random("short1"));
}

#[test]
fn a_line_of_tokens_is_capped_and_masked_whole() {
    let token = github_token();
    let line = format!("{token} ").repeat(100);
    let found = scan_line(&line);
    let reported = found.iter().filter(|s| s.reported).count();
    assert_eq!(reported, MAX_SECRETS_PER_LINE);
    // What the line holds past the cap is not read, so none of it is shown.
    assert!(!redact(&line).contains(&token[6..]));
    assert_eq!(found.last().map(|s| &s.kind), Some(&SecretKind::Unread));
}
