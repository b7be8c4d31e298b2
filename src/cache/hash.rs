//! A quick hash of a path's text, and maps keyed by it. Paths are looked up once per file
//! per run (thousands of times): SipHash over their bytes, or a `Path`'s hash part by part,
//! was a visible share of a warm run. No key is chosen by anyone who could make them clash
//! on purpose to any effect but a slower lookup: every lookup compares the text it finds.
//! Also the check of the cache file's bytes ([`Check`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What checks that bytes read back from the cache file are the bytes written (XXH3-128):
/// it guards against damage, not forgery (a cache file is another build's unless this build
/// wrote it), and is many times cheaper than SHA-256 over the megabytes a run reads.
pub type Check = [u8; 16];

/// The [`Check`] of `bytes`.
pub fn check(bytes: &[u8]) -> Check {
    xxhash_rust::xxh3::xxh3_128(bytes).to_le_bytes()
}

/// A [`Check`] computed over bytes given in parts.
#[derive(Default, Clone)]
pub struct Checker(xxhash_rust::xxh3::Xxh3Default);

impl Checker {
    /// Add `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The check of every part given.
    pub fn finish(&self) -> Check {
        self.0.digest128().to_le_bytes()
    }
}

/// The hash of `text`, eight bytes at a time: what [`Quick`] gives for it.
pub fn of(text: &str) -> u64 {
    let mut quick = Quick::default();
    quick.write(text.as_bytes());
    quick.finish()
}

/// A map from [`of`] (already a hash: used as it is).
pub type ByHash<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// A set of texts (paths as `&str` or `&OsStr`) hashed with [`of`]'s mixing.
pub type QuickSet<T> = std::collections::HashSet<T, BuildHasherDefault<Quick>>;

/// A map from texts (paths as `&str` or `&OsStr`) hashed with [`of`]'s mixing.
pub type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<Quick>>;

/// A hasher of bytes, eight at a time (see [`of`]).
#[derive(Default)]
pub struct Quick(u64);

impl Hasher for Quick {
    fn finish(&self) -> u64 {
        // Every bit of the input reaches the low bits, which pick the bucket.
        let mut h = self.0;
        h ^= h >> 32;
        h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
        h ^ (h >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = self.0 ^ (bytes.len() as u64).wrapping_mul(K);
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0; 8];
            w.copy_from_slice(word);
            h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(31);
        }
        let mut w = [0; 8];
        w[..words.remainder().len()].copy_from_slice(words.remainder());
        self.0 = (h ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
}

/// The hasher of a key that is a hash already.
#[derive(Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed through here; anything else still hashes.
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_paths_spread_over_the_low_bits() {
        let mut buckets = std::collections::HashSet::new();
        for i in 0..1000 {
            buckets.insert(of(&format!("/r/.dojops/tools/tool-{i:05}/tool.yaml")) & 0xfff);
        }
        // 1,000 keys in 4,096 buckets: about 890 distinct when spread at random.
        assert!(buckets.len() > 800, "{}", buckets.len());
        assert_ne!(of("ab"), of("ba"));
        assert_ne!(of(""), of("\0"));
        let mut set: QuickSet<&str> = QuickSet::default();
        assert!(set.insert("/a/b") && !set.insert("/a/b") && set.contains("/a/b"));
    }
}
