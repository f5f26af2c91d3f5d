//! Hand-written SIMD AES-XTS, AES-CBC and SHA-1 for x86-64 and AArch64, chosen at run
//! time, with constant-time portable fallbacks.
//!
//! ```
//! let aes = simdcrypt::Aes::new(&[0u8; 32])?;
//! let mut blocks = [[0u8; 16]; 4];
//! aes.encrypt_blocks(&mut blocks);
//! println!("AES runs on {}", aes.backend());
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
//! | backend | instructions |
//! |---|---|
//! | `portable` | none: constant-time Rust, bitsliced AES |
//! | `aesni` | AES-NI, PCLMULQDQ, SSE4.1 (128-bit) |
//! | `vaes-avx2` | VAES, VPCLMULQDQ on 256-bit AVX2 registers |
//! | `vaes-avx512` | VAES, VPCLMULQDQ on 512-bit AVX-512 registers |
//! | `aesni-sha-ni` | AES-NI and the SHA extensions stitched in one loop ([`CbcHmacSha1`]) |
//! | `armv8-aes` | AArch64: the ARMv8 AES and PMULL instructions |
//! | `armv8-sha1` | AArch64: the ARMv8 SHA-1 instructions |
//! | `armv8-aes-sha1` | AArch64: the ARMv8 AES and SHA-1 instructions stitched ([`CbcHmacSha1`]) |
//!
//! The environment variable `SIMDCRYPT_BACKEND` (with `std`) caps the automatic choice for
//! the whole process, as `OPENSSL_ia32cap` does for OpenSSL: `SIMDCRYPT_BACKEND=aesni`
//! makes every algorithm use at most AES-NI's features, `portable` turns every SIMD kernel
//! off. See [`automatic_features`] and `backend_env_problem` (with `std`).
//!
//! # Feature flags
//!
//! - `std` (default): `SIMDCRYPT_BACKEND`, `std::error::Error`; implies `alloc`.
//! - `alloc`: the APIs that return a `Vec`.
//! - `xts`, `cbc`, `sha1` (default): the algorithms ([`Xts`]; [`Cbc`]; [`Sha1`], HMAC-SHA1
//!   and `sha1_many`; [`CbcHmacSha1`] and `krb5` with `cbc` and `sha1` together). [`Aes`]
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
//!   signatures or content addressing that must resist collisions.
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
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
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
pub use sha1::{HmacSha1, HmacSha1Key, Sha1, hmac_sha1, sha1, sha1_many};
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
