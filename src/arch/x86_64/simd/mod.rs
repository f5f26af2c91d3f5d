//! The register-width layer the SIMD kernels are written over (as memchr's `Vector`).
//!
//! A kernel body is written once, generic over a vector trait, with `#[inline(always)]`;
//! each width gets a thin `#[target_feature]` entry that takes the capability token and
//! calls the body, so after inlining every intrinsic sits in a function compiled for its
//! features. The vector types are newtypes whose values can only be made from a token
//! (`zero`, `splat`, `load`...): holding a value proves the CPU has the width's
//! instructions, which is why the operations on values are safe functions.
//!
//! Unoptimised builds (opt-level 0, `simdcrypt_unoptimised`) leave out the
//! `#[inline(always)]`: there the compiler gives every inlined temporary a stack slot of its
//! own, and a kernel with its helpers inlined had frames of up to 140 KB (a 128 KiB thread
//! stack overflowed); called, each helper's frame is freed on return, and the deepest call
//! writes about 40 KB. Speed is not what such a build is for.
//!
//! - [`aes`]: vectors of AES blocks (xmm AES-NI, ymm VAES-AVX2, zmm VAES-AVX-512) for ECB,
//!   XTS and CBC decryption.
//! - [`u32x`]: vectors of 32-bit lanes (xmm SSSE3, ymm AVX2, zmm AVX-512) for SHA-1's
//!   message schedule and multi-lane rounds.

pub(crate) mod aes;
pub(crate) mod u32x;
