//! The mutator of the property tests: a seeded xorshift, fragments that mean something to
//! YAML, JSON or toolc, and the mutations (deletions, splices, byte changes, duplications,
//! spaces widened to several bytes).

/// xorshift64*: deterministic, so a failure reproduces from the printed seed.
pub struct Rng(u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Up to `max` random bytes.
    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max);
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Fragments that mean something to YAML, JSON or toolc, spliced in by the mutator.
const FRAGMENTS: &[&[u8]] = &[
    b":",
    b": ",
    b"- ",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b"\"",
    b"'",
    b"\\",
    b"#",
    b"# toolc: ignore DOJ003 -- x",
    b"# toolc: ignore NOPE",
    b"&a ",
    b"*a",
    b"*a ",
    b"!!str ",
    b"!!binary ",
    b"? ",
    b"|",
    b">-",
    b"---\n",
    b"...\n",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b"\0",
    b"\xef\xbb\xbf",
    b"\xe9",
    b"\xff\xfe",
    "é".as_bytes(),
    "𝄞".as_bytes(),
    b"  ",
    b"{name}",
    b"../",
    b"0x1F",
    b"1e999",
    b"-.inf",
    b"null",
    b"%YAML 1.2\n",
    b"%TAG ! tag:x,2000:\n",
    // Spaces of more than one byte: an offset "one past the space" lands inside them.
    "\u{a0}".as_bytes(),
    "\u{85}".as_bytes(),
    "\u{2028}".as_bytes(),
    "\u{3000}".as_bytes(),
    b"e.g. ",
    b". ",
];

/// Spaces of more than one byte, put in place of an ASCII space by the mutator.
const WIDE_SPACES: &[char] = &['\u{a0}', '\u{85}', '\u{2028}', '\u{2029}', '\u{3000}'];

/// `TOOLC_FUZZ_SCALE=100` runs a hundred times as many cases; `TOOLC_FUZZ_SEED` changes them.
pub fn scale() -> usize {
    std::env::var("TOOLC_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

pub fn rng(seed: u64) -> Rng {
    let extra = std::env::var("TOOLC_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0);
    // xorshift never leaves zero.
    Rng((seed ^ extra.wrapping_mul(0x9e37_79b9_7f4a_7c15)).max(1))
}

pub fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            4 => {
                // Spaces between two words made wide, a quarter of them: the same words and
                // the same structure (indentation and `key: value` stay), other byte lengths.
                let wide = WIDE_SPACES[rng.below(WIDE_SPACES.len())].to_string();
                let mut widened = Vec::with_capacity(out.len());
                for (i, &b) in out.iter().enumerate() {
                    let word = |b: &u8| b.is_ascii_alphanumeric() || *b >= 0x80;
                    let between = i > 0 && word(&out[i - 1]) && out.get(i + 1).is_some_and(word);
                    if b == b' ' && between && rng.below(4) == 0 {
                        widened.extend_from_slice(wide.as_bytes());
                    } else {
                        widened.push(b);
                    }
                }
                out = widened;
            }
            0 => {
                let end = (at + rng.below(8)).min(out.len());
                out.drain(at..end);
            }
            1 => {
                let f = FRAGMENTS[rng.below(FRAGMENTS.len())];
                out.splice(at..at, f.iter().copied());
            }
            2 => {
                if at < out.len() {
                    out[at] = rng.next() as u8;
                }
            }
            _ => {
                // Duplicate a slice: repeated keys, repeated structure.
                let end = (at + rng.below(40)).min(out.len());
                let copy = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, copy);
            }
        }
    }
    out
}
