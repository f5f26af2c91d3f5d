//! Test machinery shared by simdcrypt's integration tests (`tests/`, `oracle/tests/`), the
//! library's own `#[cfg(test)]` modules and the fuzz crate's seed writer:
//!
//! - [`vectors`]: the reader of the repository's known-answer vector files (`vectors/`),
//!   and hex;
//! - [`Rng`]: the one deterministic generator of test data;
//! - [`require`]: what `SIMDCRYPT_REQUIRE` demands, the per-backend loop built on it, and
//!   [`token_or_skip`], which skips (or fails) a unit test on a CPU without its kernel;
//! - [`rerun`]: running the test binary again in a child process, through the target's
//!   runner (`CARGO_TARGET_<TRIPLE>_RUNNER`, as under `qemu-aarch64`) where one is set;
//! - [`cbc`], [`xts`]: test data and the XTS tweak conventions, spelled out independently
//!   of the library;
//! - `strategies` (with the feature `proptest`): proptest strategies for keys and messages;
//! - `sha1` (with the feature `sha1`): SHA-1 test data, padding and the checks every
//!   one-stream compression kernel passes, against RustCrypto `sha1`;
//! - the helpers that name simdcrypt's types, as macros: [`backend_helpers!`] (the
//!   per-backend loop), [`xts_helpers!`], [`algorithm_helpers!`] (`Cbc`, `Sha1`,
//!   `CbcHmacSha1`); and [`with_xts_mode!`], the RustCrypto XTS reference.
//!
//! # Why macros for what names simdcrypt's types
//!
//! This crate does not depend on simdcrypt: the library's unit tests use it as a
//! dev-dependency, and a dependency back on simdcrypt would build a second copy of the
//! library for them. And each test build has its own set of algorithms (`cargo test
//! --no-default-features --features std,xts` has no `Cbc`), which a compiled helper could
//! not follow. So what is generic over the backend type is generic here ([`require`]),
//! and what names simdcrypt's types is a `macro_rules!` macro that expands in the calling
//! test file, where `::simdcrypt` is that build's, with its features; one per algorithm,
//! so that a test file invokes those its build has:
//!
//! ```text
//! #![cfg(feature = "xts")]
//!
//! // backends::<Aes>(), and the `Dispatched` trait the algorithm macros implement
//! simdcrypt_testkit::backend_helpers!();
//! // backends::<Xts>(), each_xts(key), assert_sector_forms(..) and the other XTS checks
//! simdcrypt_testkit::xts_helpers!();
//! ```
//!
//! A file that mixes algorithms gates each algorithm macro as it gates its tests
//! (`#[cfg(feature = "cbc")] simdcrypt_testkit::algorithm_helpers!(Cbc);`). The items the macros
//! define are private to the test crate, and allowed to go unused there. The helpers
//! then read as plain functions in the tests (`for b in backends::<Xts>()`), and the code
//! that needs no simdcrypt type stays ordinary code here.

mod helpers;

pub mod cbc;
pub mod require;
pub mod rerun;
#[cfg(feature = "sha1")]
pub mod sha1;
#[cfg(feature = "sha1")]
pub mod sha1dc;
#[cfg(feature = "proptest")]
pub mod strategies;
pub mod vectors;
pub mod xts;

pub use require::{backends_under_test, required, token_or_skip};
pub use rerun::rerun_self;
pub use vectors::{Record, hex, records, try_hex, try_records, vector_path};

/// splitmix64: deterministic test data without a dependency. The state is public so that a
/// test can name its seed (`Rng(42)`); the same seed gives the same data everywhere.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fills `buf`, one output (its low byte) per byte.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next() as u8;
        }
    }

    /// `n` fresh bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0; n];
        self.fill(&mut v);
        v
    }
}

/// `len` deterministic bytes for `seed`: the same in every test that asks for them, so
/// that vectors can be compared across test files.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    Rng(seed).bytes(len)
}

/// Evaluates `$body` with `$x` bound to RustCrypto's XTS (`xts_mode::Xts128`) under the
/// full XTS key `$key` (`Key1 || Key2`): AES-128 for a 32-byte key, AES-256 otherwise.
/// The independent reference of the XTS tests.
///
/// It expands to paths into `::aes` and `::xts_mode`, which the calling crate must depend
/// on (every user here has them as dev-dependencies); this crate itself does not.
#[macro_export]
macro_rules! with_xts_mode {
    ($key:expr, |$x:ident| $body:expr) => {{
        let key: &[u8] = $key;
        let (k1, k2) = key.split_at(key.len() / 2);
        if key.len() == 32 {
            $crate::with_xts_mode!(@with ::aes::Aes128, k1, k2, $x, $body)
        } else {
            $crate::with_xts_mode!(@with ::aes::Aes256, k1, k2, $x, $body)
        }
    }};
    (@with $c:ty, $k1:ident, $k2:ident, $x:ident, $body:expr) => {{
        let $x = ::xts_mode::Xts128::new(
            <$c as ::aes::cipher::KeyInit>::new_from_slice($k1).unwrap(),
            <$c as ::aes::cipher::KeyInit>::new_from_slice($k2).unwrap(),
        );
        $body
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_outputs() {
        // The first outputs of splitmix64 seeded with 0 and 1234567 (Vigna's reference
        // implementation, splitmix64.c).
        let mut r = Rng(0);
        assert_eq!(r.next(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next(), 0x6e78_9e6a_a1b9_65f4);
        let mut r = Rng(1_234_567);
        assert_eq!(r.next(), 6_457_827_717_110_365_317);
        assert_eq!(r.next(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn bytes_are_the_low_bytes_and_repeat_per_seed() {
        let mut r = Rng(0);
        assert_eq!(bytes(0, 2), [0xaf, 0xf4]);
        assert_eq!(r.bytes(2), bytes(0, 2));
        assert_ne!(bytes(1, 16), bytes(2, 16));
        let mut buf = [0u8; 3];
        Rng(9).fill(&mut buf);
        assert_eq!(buf.as_slice(), bytes(9, 3));
    }
}
