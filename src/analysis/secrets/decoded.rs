//! A base64 value judged by what it decodes to: a phrase (`bm90IG15IHJlYWwgcGFzc3dvcmQ=` is
//! "not my real password") or a `user:password` pair with an example password is no
//! credential, nor is a public key in DER (`MFkwEwYHKoZIzj0CAQYI…`, a SubjectPublicKeyInfo).
//! A generated secret decodes to bytes that are neither.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};

use super::strength::{Bar, is_placeholder, strong_as_written};

/// Shortest value worth decoding (shorter ones are judged as written): `cGFzc3dvcmQ=` is
/// "password", as a Kubernetes secret holds it.
const MIN_ENCODED: usize = 8;

/// What `value` decoded says it is: `Some(false)` for a phrase, an example pair or a public
/// key, `Some(true)` for a strong `user:password` pair or password, `None` when it does not
/// decode to text or a key (it is judged as written).
pub(super) fn judged(value: &str) -> Option<bool> {
    if value.len() < MIN_ENCODED || !value.len().is_multiple_of(4) {
        return None;
    }
    let bytes = STANDARD
        .decode(value)
        .or_else(|_| URL_SAFE.decode(value))
        .ok()?;
    if is_public_key(&bytes) {
        return Some(false);
    }
    let text = std::str::from_utf8(&bytes).ok()?;
    if !text.chars().all(|c| c.is_ascii_graphic() || c == ' ') {
        return None;
    }
    Some(match text.split_once(':') {
        Some((user, password)) => password != user && strong_as_written(password, Bar::Password),
        None => !is_placeholder(text) && strong_as_written(text, Bar::Password),
    })
}

/// A DER SubjectPublicKeyInfo: a SEQUENCE whose first element is the algorithm (a SEQUENCE)
/// and whose second is the key (a BIT STRING). Private keys (PKCS#1, PKCS#8) start with a
/// version INTEGER instead.
fn is_public_key(der: &[u8]) -> bool {
    let Some(inner) = content(der, 0x30) else {
        return false;
    };
    let algorithm = (inner.first() == Some(&0x30))
        .then(|| element_len(inner))
        .flatten();
    algorithm.is_some_and(|n| inner.get(n) == Some(&0x03))
}

/// The content of the DER element at the start of `der`, if it is of type `tag`.
fn content(der: &[u8], tag: u8) -> Option<&[u8]> {
    if der.first() != Some(&tag) {
        return None;
    }
    let (size, len) = der_length(der.get(1..)?)?;
    der.get(1 + size..1 + size + len)
}

/// The length of the DER element at the start of `der`, header and content.
fn element_len(der: &[u8]) -> Option<usize> {
    let (size, len) = der_length(der.get(1..)?)?;
    let total = 1 + size + len;
    (total <= der.len()).then_some(total)
}

/// A DER length at the start of `bytes`: how many bytes it takes, and its value.
fn der_length(bytes: &[u8]) -> Option<(usize, usize)> {
    let first = *bytes.first()?;
    if first < 0x80 {
        return Some((1, usize::from(first)));
    }
    let n = usize::from(first & 0x7f);
    if n == 0 || n > 4 {
        return None;
    }
    let len = bytes
        .get(1..=n)?
        .iter()
        .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
    Some((1 + n, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(bytes: &[u8]) -> String {
        STANDARD.encode(bytes)
    }

    #[test]
    fn phrases_and_example_pairs() {
        assert_eq!(judged(&encode(b"not my real password")), Some(false));
        assert_eq!(judged(&encode(b"isaacs:not my real password")), Some(false));
        assert_eq!(judged(&encode(b"user:password")), Some(false));
        assert_eq!(judged(&encode(b"deploy:k9#mQ2!vL7pX")), Some(true));
        // Random bytes are judged as written.
        assert_eq!(judged("Zq8x3Lw9Pk2Rv7Tn4Ys1Qm5H"), None);
    }

    #[test]
    fn public_keys_are_not_secrets() {
        // SEQUENCE { SEQUENCE { OID, OID }, BIT STRING } as an EC public key has it.
        let mut spki = vec![0x30, 0x1d, 0x30, 0x13, 0x06, 0x07];
        spki.extend([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
        spki.extend([0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);
        spki.extend([0x03, 0x06, 0x00, 0x04, 0x11, 0x22, 0x33, 0x44]);
        assert!(is_public_key(&spki));
        assert_eq!(judged(&encode(&spki)), Some(false));
        // A private key starts with its version.
        let pkcs8 = [
            0x30, 0x0a, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
        ];
        assert!(!is_public_key(&pkcs8));
        assert!(!is_public_key(&[0x30, 0x82]));
        assert!(!is_public_key(&[]));
    }
}
