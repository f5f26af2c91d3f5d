//! The ISA code: each architecture's vector types, kernels and detection, behind the one
//! cfg `build.rs` sets for it (`simdcrypt_x86_64`, `simdcrypt_aarch64`; none with the `pure`
//! feature). The
//! algorithm folders hold the generic bodies these instantiate.

#[cfg(simdcrypt_aarch64)]
pub(crate) mod aarch64;
#[cfg(test)]
pub(crate) mod stack;
#[cfg(simdcrypt_x86_64)]
pub(crate) mod x86_64;

/// XTS's assembly twin.
#[cfg(all(simdcrypt_asm, feature = "xts"))]
pub(crate) use x86_64::xts_vaes_avx2_asm::Twin as XtsAsm;

/// The stitched CBC + HMAC-SHA1 kernel.
#[cfg(all(simdcrypt_aarch64, feature = "cbc", feature = "sha1"))]
pub(crate) use aarch64::aes_sha1::Stitched;
/// The stitched CBC + HMAC-SHA1 kernel.
#[cfg(all(simdcrypt_x86_64, feature = "cbc", feature = "sha1"))]
pub(crate) use x86_64::aesni_sha_ni::Stitched;
