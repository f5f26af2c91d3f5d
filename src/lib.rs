//! Hand-written SIMD AES-XTS, AES-CBC and SHA-1 for x86-64 and AArch64, chosen at run
//! time, with constant-time portable fallbacks.
//!
//! # Examples
//!
//! One per algorithm family; each type picks its backend when it is made, and `backend()`
//! says which.
//!
//! AES, the block cipher ([`Aes`], always there):
//!
//! ```
//! let aes = simdcrypt::Aes::new(&[0u8; 32])?; // AES-256
//! let mut blocks = [[0u8; 16]; 4];
//! aes.encrypt_blocks(&mut blocks);
//! aes.decrypt_blocks(&mut blocks);
//! assert_eq!(blocks, [[0u8; 16]; 4]);
//! println!("AES runs on {}", aes.backend());
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! XTS ([`Xts`], feature `xts`): whole sectors numbered from a first one.
//!
//! ```
//! # #[cfg(feature = "xts")] {
//! let key: Vec<u8> = (0..64).collect(); // XTS-AES-256: Key1 ‖ Key2, distinct halves
//! let xts = simdcrypt::Xts::new(&key)?;
//! let mut disk = vec![0u8; 8 * 4096];
//! xts.encrypt_sectors(&mut disk, 4096, 1000)?; // sectors 1000..1008
//! xts.decrypt_sectors(&mut disk, 4096, 1000)?;
//! assert!(disk.iter().all(|&b| b == 0));
//! # }
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! CBC ([`Cbc`], feature `cbc`): whole blocks, the IV updated to chain on.
//!
//! ```
//! # #[cfg(feature = "cbc")] {
//! let cbc = simdcrypt::Cbc::new(&[7u8; 16])?; // AES-128
//! let mut buf = [0u8; 64];
//! let mut iv = [0u8; 16];
//! getrandom::fill(&mut iv).expect("OS random numbers"); // fresh and unpredictable per message
//! let sent = iv; // travels with the ciphertext
//! cbc.encrypt(&mut iv, &mut buf)?; // `iv` now chains this stream on, never a next message's IV
//! cbc.decrypt(&mut sent.clone(), &mut buf)?;
//! assert_eq!(buf, [0u8; 64]);
//! # }
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! SHA-1 and HMAC-SHA1 ([`Sha1`], [`HmacSha1Key`], feature `sha1`):
//!
//! ```
//! # #[cfg(feature = "sha1")] {
//! assert_eq!(simdcrypt::sha1(b"abc")[..4], [0xa9, 0x99, 0x3e, 0x36]);
//! let key = simdcrypt::HmacSha1Key::new(b"Jefe"); // set up once, for many messages
//! let tag = key.mac(b"what do ya want for nothing?");
//! assert_eq!(tag[..4], [0xef, 0xfc, 0xdf, 0x6a]); // RFC 2202 case 2
//! key.verify(b"what do ya want for nothing?", &tag)?;
//! # }
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! CBC encryption and HMAC-SHA1 in one pass ([`CbcHmacSha1`], features `cbc` and `sha1`),
//! and Kerberos `aes256-cts-hmac-sha1-96` on it (`krb5`, with `alloc` too):
//!
//! ```
//! # #[cfg(all(feature = "cbc", feature = "sha1", feature = "alloc"))] {
//! let c = simdcrypt::CbcHmacSha1::new(&[7u8; 16], b"mac key")?;
//! let mut buf = [1u8; 1504];
//! let mut iv = [0u8; 16];
//! getrandom::fill(&mut iv).expect("OS random numbers"); // fresh per message
//! let tag = c.seal(&iv, &mut buf)?; // encrypts in place, MACs the plaintext
//! c.open(&iv, &mut buf, &tag)?; // decrypts, checks the tag (wipes buf if wrong)
//! assert_eq!(buf, [1u8; 1504]);
//!
//! let key = simdcrypt::krb5::Aes256CtsHmacSha196::new(&[3u8; 32])?;
//! let wrap = key.usage_keys(24);
//! let mut confounder = [0u8; 16];
//! getrandom::fill(&mut confounder).expect("OS random numbers"); // fresh per message
//! let ct = wrap.encrypt(&confounder, b"NFS WRITE payload");
//! assert_eq!(wrap.decrypt(&ct)?, b"NFS WRITE payload");
//! # }
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! # Backends
//!
//! Every keyed type picks the best kernel family ([`Backend`]) this CPU runs when it is
//! made, from features detected once per process ([`cpu::detected`]). `available_backends()`
//! lists an algorithm's backends that run here, best first; `with_backend` asks for one and
//! is an [`Error::BackendUnavailable`] where the CPU lacks it; `backend()` says which one an
//! instance uses.
//!
//! | backend | instructions | AES | XTS | CBC | SHA-1 | `sha1_many` | `Sha1Dc` | CBC-HMAC-SHA1 |
//! |---|---|---|---|---|---|---|---|---|
//! | `portable` | none: constant-time Rust (bitsliced AES) | last | last | last | last | last | last | last |
//! | `aesni` | AES-NI, PCLMULQDQ, SSE4.1 | 3 | 3 | 3 | | | | 3 |
//! | `vaes-avx2` | VAES, VPCLMULQDQ on 256-bit registers | 1 | 2 | 1 | | | | 2 |
//! | `vaes-avx2-asm` | the same, hand-written assembly (`asm/xts_vaes_avx2.S`) | | explicit | | | | | |
//! | `vaes-avx512` | VAES, VPCLMULQDQ on 512-bit registers | 2 | 1 | 2 | | | | |
//! | `ssse3` | SIMD message schedule | | | | 6 | 5 | 6 | |
//! | `avx2` | SIMD message schedule, two blocks at once, BMI2 rounds; 8 lanes for `sha1_many` | | | | 5 | 2 | 5 | |
//! | `avx2-asm` | the same, hand-written assembly (`asm/sha1_avx2.S`) | | | | 3 | | 3 | |
//! | `avx512` | the AVX2 schedule kernel built with AVX-512 VL (`vprold`, `vpternlogd`); 16 zmm or 8 ymm lanes for `sha1_many` | | | | 4 | 1 | 4 | |
//! | `sha-ni` | SHA extensions; for `Sha1Dc`, the filter between the rounds | | | | 2 | 4 | 1 | |
//! | `sha-ni-asm` | the same, hand-written assembly, one and two streams (`asm/sha1_shani.S`); runs of under 16 blocks and padded tails go through the intrinsics | | | | 1 | 3 | 2 | |
//! | `aesni-sha-ni` | AES-NI and SHA-NI stitched in one loop (`CbcHmacSha1`, `krb5` only) | | | | | | | 1 |
//! | `armv8-aes` | AArch64: the ARMv8 AES and PMULL instructions on NEON registers | 4 | 4 | 4 | | | | 5 |
//! | `armv8-sha1` | AArch64: the ARMv8 SHA-1 instructions; two interleaved streams for HMAC keying and `sha1_many` pairs | | | | 7 | 6 | 7 | |
//! | `armv8-aes-sha1` | AArch64: the ARMv8 AES and SHA-1 instructions stitched in one loop (`CbcHmacSha1`, `krb5` only) | | | | | | | 4 |
//!
//! A number is the backend's place in the algorithm's default order (1 is tried first; one
//! list over the architectures, of which a CPU runs its own rows; `portable` last);
//! `explicit` marks a backend that only `with_backend` selects. The README has the same
//! table (a test checks both against the dispatch table).
//!
//! The environment variable `SIMDCRYPT_BACKEND` (with `std`) caps the automatic choice for
//! the whole process, as `OPENSSL_ia32cap` does for OpenSSL: `SIMDCRYPT_BACKEND=aesni`
//! makes every algorithm use at most AES-NI's features, `portable` turns every SIMD kernel
//! off. See [`automatic_features`] and `backend_env_problem` (with `std`).
//!
//! # Debug builds
//!
//! A debug build compiles this crate at opt-level 0, where the kernels' intrinsics are
//! function calls: XTS, CBC and SHA-1 run 40 to 250 times slower than in a release build.
//! One section in the dependent's `Cargo.toml` compiles simdcrypt alone optimised, the rest
//! of the program still for debugging:
//!
//! ```toml
//! [profile.dev.package.simdcrypt]
//! opt-level = 3
//! ```
//!
//! That takes XTS and CBC from under 1% of their release speed to about half, SHA-1 to all
//! of it; `debug-assertions = false` and `overflow-checks = false` in the same section take
//! XTS and CBC to 75-90%. The stack wipes reach as deep as the frames of the level the
//! crate is built at, either way.
//!
//! # Feature flags
//!
//! - `std` (default): `SIMDCRYPT_BACKEND`, `std::error::Error`; implies `alloc`.
//! - `alloc`: the APIs that return a `Vec`.
//! - `xts`, `cbc`, `sha1` (default): the algorithms ([`Xts`]; [`Cbc`]; [`Sha1`], HMAC-SHA1,
//!   `sha1_many` and [`Sha1Dc`]; [`CbcHmacSha1`] and `krb5` with `cbc` and `sha1` together). [`Aes`]
//!   is always there. A program that uses one algorithm builds only its kernels with
//!   `default-features = false` and that feature.
//! - `asm` (default): the hand-written assembly in `asm/`, built with `cc` (a build
//!   dependency of this feature alone): the first SHA-1 backend where SHA-NI runs, and the
//!   assembly twins.
//! - `cipher`: `Aes128`, `Aes192`, `Aes256` implement RustCrypto's `cipher` 0.5
//!   traits, so these kernels drop into `ctr`, `cbc`, `xts-mode` and the like.
//! - `digest`: [`Sha1`] implements RustCrypto's `digest` 0.11 traits (with the block-level
//!   `Sha1Core`), so `hmac::Hmac<simdcrypt::Sha1>` and `pbkdf2::pbkdf2_hmac` use it.
//! - `rayon`: multi-threaded multi-sector XTS.
//!
//! Items behind `cipher`, `digest` and `rayon` are left out of a plain `cargo doc`: build
//! the docs with `cargo doc --features cipher,digest,rayon` to see them (docs.rs does,
//! and marks each with its feature).
//!
//! The `no-asm` feature, or the environment variable `SIMDCRYPT_NO_ASM` set at build time,
//! leaves out the assembly even where `asm` is on (the intrinsics kernels remain).
//!
//! # Safety model
//!
//! All `unsafe` code sits in the SIMD kernels and the assembly bindings. `cpu` is the only
//! module that executes CPUID; it hands out zero-sized *capability tokens* that nothing
//! else can make. Each kernel is a `#[target_feature]` function reached only through a
//! wrapper that takes the token, so every call into SIMD code has one justification: the
//! token exists, so the CPU has the instructions. Every `unsafe` block says why it is sound
//! in a `SAFETY:` comment. The portable backends are `#![forbid(unsafe_code)]`. Inputs are
//! validated before anything is written, so an `Err` leaves the caller's buffers as they
//! were.
//!
//! # Security notes
//!
//! - No backend branches on, or indexes memory by, key or data bytes: the portable AES is
//!   bitsliced (no S-box tables). A valgrind-based check (`examples/ct_check.rs`, run in
//!   CI) marks keys and messages secret and fails on any secret-dependent branch or
//!   address in the backends valgrind can run (it hides SHA-NI, VAES and AVX-512).
//! - Key schedules are zeroized on drop; `Debug` never prints key material.
//! - XTS and CBC provide confidentiality only, no integrity: an attacker can change
//!   ciphertext undetected. Authenticate separately (for example HMAC over the
//!   ciphertext) where that matters.
//! - SHA-1 is broken for collision resistance. It is here for HMAC-SHA1 and for
//!   interoperability with protocols and formats that fixed it; do not use it for new
//!   signatures. Content addressing on SHA-1 (git object ids) takes [`Sha1Dc`], which
//!   detects the known collision attacks.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// A build with some of the algorithm features off leaves parts of the shared AES, vector
// and dispatch code unused; the full build keeps the lint.
#![cfg_attr(
    not(all(feature = "xts", feature = "cbc", feature = "sha1")),
    allow(dead_code, unused_imports)
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

/// `Debug` for a type that holds secrets: its name and the one field given (with `()`, a
/// method), the rest left out.
macro_rules! debug_shows {
    ($t:ident, $field:ident $($call:tt)?) => {
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($t))
                    .field(stringify!($field), &self.$field $($call)?)
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use debug_shows;

pub mod aes;
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64, test))]
mod arch;
mod backend;
mod block;
#[cfg(feature = "cbc")]
pub mod cbc;
#[cfg(all(feature = "cbc", feature = "sha1"))]
pub mod cbc_hmac;
#[cfg(feature = "cipher")]
mod cipher_impl;
pub mod cpu;
mod ct;
#[cfg(feature = "digest")]
mod digest_impl;
mod dispatch;
mod error;
#[cfg(all(feature = "alloc", feature = "cbc", feature = "sha1"))]
pub mod krb5;
#[cfg(feature = "sha1")]
pub mod sha1;
mod tuning;
mod vector;
mod wipe;
#[cfg(feature = "xts")]
pub mod xts;

pub use aes::{Aes, Block};
#[cfg(feature = "std")]
pub use backend::backend_env_problem;
pub use backend::{Backend, automatic_features};
#[cfg(feature = "cbc")]
pub use cbc::Cbc;
#[cfg(all(feature = "cbc", feature = "sha1"))]
pub use cbc_hmac::CbcHmacSha1;
#[cfg(feature = "cipher")]
pub use cipher_impl::{Aes128, Aes192, Aes256};
#[cfg(feature = "digest")]
pub use digest_impl::Sha1Core;
pub use error::{BackendName, Error};
#[cfg(feature = "sha1")]
pub use sha1::{
    Collision, HmacSha1, HmacSha1Key, Sha1, Sha1Dc, hmac_sha1, sha1, sha1_many, sha1dc, sha1dc_many,
};
#[cfg(feature = "xts")]
pub use xts::Xts;

/// The README's and the guide's examples run as doc tests (in the build with every
/// algorithm, which they use).
#[cfg(all(
    doctest,
    feature = "std",
    feature = "xts",
    feature = "cbc",
    feature = "sha1"
))]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../docs/guide.md")]
pub struct Doctests;

/// The name of this CPU's row in the per-microarchitecture tuning table (e.g.
/// `"AMD Zen 4"`), or `None` where the defaults apply: for tools and reports.
#[doc(hidden)]
pub fn tuning_row() -> Option<&'static str> {
    tuning::current().map(|r| r.name)
}

/// Backend names accepted in `SIMDCRYPT_REQUIRE`-style lists, for tests and tools.
#[doc(hidden)]
pub fn all_backends() -> &'static [Backend] {
    &backend::ALL
}
