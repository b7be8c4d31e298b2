//! A quick hash of a path's text, for maps and sets keyed by paths. Paths are looked up once
//! per file per run (thousands of times): SipHash over their bytes was a visible share of a
//! warm run. No key is chosen by anyone who could make them clash on purpose to any effect
//! but a slower lookup: every lookup compares the text it finds.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A set of texts (paths as `&str` or `&OsStr`) hashed with [`Quick`].
pub(crate) type QuickSet<T> = HashSet<T, BuildHasherDefault<Quick>>;

/// A map from texts (paths as `&str` or `&OsStr`) hashed with [`Quick`].
pub(crate) type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<Quick>>;

/// A hasher of bytes, eight at a time.
#[derive(Default)]
pub(crate) struct Quick(u64);

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

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> u64 {
        let mut quick = Quick::default();
        quick.write(text.as_bytes());
        quick.finish()
    }

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
