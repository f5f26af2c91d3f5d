//! Helpers shared by the kernels' unit tests.

use std::vec::Vec;

/// splitmix64: deterministic test data without a dependency.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next() as u8;
        }
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = std::vec![0; n];
        self.fill(&mut v);
        v
    }
}

/// `token` if the CPU has it. Otherwise says so on stderr and returns `None`, unless
/// `SIMDCRYPT_REQUIRE` names one of `backends`: then the test fails rather than skips.
pub(crate) fn token_or_skip<T>(token: Option<T>, backends: &[&str], what: &str) -> Option<T> {
    if token.is_none() {
        let req = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
        assert!(
            !req.split(',').any(|r| backends.contains(&r.trim())),
            "SIMDCRYPT_REQUIRE names {backends:?} but this CPU lacks {what}"
        );
        std::eprintln!("{what}: not on this CPU, not tested here");
    }
    token
}
