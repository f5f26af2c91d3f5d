//! SHA-1 on AVX-512: sixteen independent messages at once (one per 32-bit lane of a zmm
//! register, [`compress16`]), and eight at once in ymm registers with the AVX-512 VL
//! instructions ([`compress8`]). Both are `avx2::lanes`, the multi-lane body (its
//! pseudo-code is in sha1_avx2.rs), over another vector type or compiled with other
//! features: `compress16` over `U32x16` (zmm, `W[t]` for `t < 16` by a 16x16 transpose
//! of the lanes' byte-swapped blocks), `compress8` over `U32x8Vl` (ymm), both with `vprold`
//! for the rotates and one `vpternlogd` for each boolean function and three-input XOR.
//!
//! `sha1_many` (many.rs) runs sixteen lanes while more than eight messages are in flight,
//! then eight. The `avx512` backend's one-stream kernel is sha1_avx2.rs's schedule kernel
//! compiled with AVX-512 VL (`avx2::compress_avx512`).

use crate::arch::x86_64::sha1_avx2 as avx2;
use crate::arch::x86_64::simd::u32x::{U32x8Vl, U32x16};
use crate::cpu::Avx512Token;

#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
fn compress16_avx512(t: Avx512Token, states: &mut [[u32; 5]; 16], blocks: [&[[u8; 64]]; 16]) {
    avx2::lanes::<U32x16, 16>(t, states, blocks);
}

#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn compress8_avx512vl(t: Avx512Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    avx2::lanes::<U32x8Vl, 8>(t, states, blocks);
}

/// Compresses `n = min(len)` blocks of sixteen independent streams at once: `blocks[i]`
/// into `states[i]` (zmm registers).
pub(crate) fn compress16(t: Avx512Token, states: &mut [[u32; 5]; 16], blocks: [&[[u8; 64]]; 16]) {
    // SAFETY: the token proves the CPU has AVX-512 F and BW, with the ZMM state enabled.
    unsafe { compress16_avx512(t, states, blocks) }
}

/// Compresses `n = min(len)` blocks of eight independent streams at once: `blocks[i]` into
/// `states[i]` (ymm registers, with the AVX-512 VL rotates and ternary logic).
pub(crate) fn compress8(t: Avx512Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    // SAFETY: the token proves the CPU has AVX2, AVX-512 F and VL, with the YMM and ZMM
    // state enabled.
    unsafe { compress8_avx512vl(t, states, blocks) }
}

#[cfg(test)]
mod tests;
