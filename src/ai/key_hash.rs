//! The hashers for the engine's maps: [`KeyHasher`] for keys packed into one `u64`
//! (the Battleship counter's sea states, the Shell search's children): multiply by
//! the golden ratio and fold the high bits down; [`MixHasher`] for keys of several
//! words (the last boats' cell sets, the Shell solver's positions): each word
//! rotated in and multiplied. Deterministic (no per-process seed, so runs repeat)
//! and far cheaper than SipHash on keys that are already well spread; the keys come
//! from the engine's own searches, not from anyone choosing collisions.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The golden-ratio multiplier (2^64 / φ, odd).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A multiply-and-fold hasher for `u64` keys.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(GOLDEN);
        self.0 = h ^ (h >> 29);
    }
}

/// A map from packed `u64` keys, hashed with [`KeyHasher`].
pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// A multiply-rotate hasher for keys of several words.
#[derive(Default)]
pub struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(GOLDEN);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

/// A map from keys of several words, hashed with [`MixHasher`].
pub type MixMap<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn a_key_hashes_to_its_multiply_and_fold() {
        let hash = BuildHasherDefault::<KeyHasher>::default().hash_one(12_345_u64);
        let h = 12_345_u64.wrapping_mul(GOLDEN);
        assert_eq!(hash, h ^ (h >> 29));
    }

    #[test]
    fn a_wide_key_hashes_both_of_its_words() {
        let build = BuildHasherDefault::<MixHasher>::default();
        let low = build.hash_one(1_u128);
        let high = build.hash_one(1_u128 << 64);
        assert_ne!(low, high);
        assert_eq!(low, build.hash_one(1_u128));
    }
}
