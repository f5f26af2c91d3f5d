//! AArch64: the ARMv8 Cryptography Extension's backends, behind `cfg(simdcrypt_aarch64)`
//! (little-endian AArch64 without the `pure` feature; `build.rs`).
//!
//! - [`aes`]: the vector type `Neon` (one AES block per register, 32 registers) that the
//!   generic ECB, CBC and XTS kernels run on, its single-block work, and the key expansion.
//! - [`sha1`]: SHA-1 on `SHA1C`/`SHA1P`/`SHA1M`/`SHA1H` and `SHA1SU0`/`SHA1SU1`.
//! - `aes_sha1`: CBC and HMAC-SHA1 stitched into one loop (`CbcHmacSha1`).
//! - [`detect`]: the features, from the kernel's hardware capabilities.
//! - [`wipe`]: the register wipe after a keyed call.

pub(crate) mod aes;
#[cfg(all(feature = "cbc", feature = "sha1"))]
pub(crate) mod aes_sha1;
pub(crate) mod detect;
#[cfg(feature = "sha1")]
pub(crate) mod sha1;
pub(crate) mod wipe;
