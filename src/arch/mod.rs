//! The ISA code: each architecture's vector types, kernels and detection, behind the one
//! cfg `build.rs` sets for it (`simdcrypt_x86_64`; none with the `pure` feature). The
//! algorithm folders hold the generic bodies these instantiate.

#[cfg(simdcrypt_neon_check)]
pub(crate) mod aarch64;
#[cfg(simdcrypt_x86_64)]
pub(crate) mod x86_64;

/// XTS's assembly twin.
#[cfg(all(simdcrypt_asm, feature = "xts"))]
pub(crate) use x86_64::xts_vaes_avx2_asm::Twin as XtsAsm;
