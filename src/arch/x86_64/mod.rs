//! x86-64: the vector types ([`simd`]), the AES-NI key expansion and single blocks, the
//! SHA extensions' kernels, the stitched CBC-HMAC-SHA1 kernel, the bindings of the
//! assembly in `asm/`, CPUID, and the stack and register wipes.

pub(crate) mod aes_ni;
#[cfg(all(feature = "cbc", feature = "sha1"))]
pub(crate) mod aesni_sha_ni;
pub(crate) mod cpuid;
#[cfg(feature = "sha1")]
pub(crate) mod sha1_avx2;
#[cfg(all(simdcrypt_asm, feature = "sha1"))]
pub(crate) mod sha1_avx2_asm;
#[cfg(feature = "sha1")]
pub(crate) mod sha1_avx512;
#[cfg(all(simdcrypt_asm, feature = "sha1"))]
pub(crate) mod sha1_shani_asm;
#[cfg(feature = "sha1")]
pub(crate) mod sha1_ssse3;
#[cfg(feature = "sha1")]
pub(crate) mod sha1dc_lanes;
#[cfg(feature = "sha1")]
pub(crate) mod sha1dc_shani;
#[cfg(feature = "sha1")]
pub(crate) mod sha_ni;
pub(crate) mod simd;
pub(crate) mod wipe;
pub(crate) mod xts_block;
#[cfg(all(simdcrypt_asm, feature = "xts"))]
pub(crate) mod xts_vaes_avx2_asm;
