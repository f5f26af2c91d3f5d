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
//! `#[inline(always)]`, so that their frames stay small (docs/design.md, "Stack and
//! register wipes").
//!
//! - [`aes`]: vectors of AES blocks (xmm AES-NI, ymm VAES-AVX2, zmm VAES-AVX-512) for ECB,
//!   XTS and CBC decryption.
//! - [`u32x`]: vectors of 32-bit lanes (xmm SSSE3, ymm AVX2, zmm AVX-512) for SHA-1's
//!   message schedule and multi-lane rounds.

pub(crate) mod aes;
pub(crate) mod u32x;
