//! SHA-1 with the message schedule computed four words at a time in SSE registers, and the
//! 80 rounds in scalar registers reading `W + K` from a stack buffer.
//!
//! ```text
//! V[j] = W[4j..4j+4]
//! V[j] = bswap32(block words 4j..4j+4)                                        j < 4
//! X    = (W[4j-3], W[4j-2], W[4j-1], 0) ^ V[j-2] ^ W[4j-14..4j-10] ^ V[j-4]   4 <= j < 8
//! V[j] = rol1(X) ^ (0, 0, 0, rol2(X.0))     (lane 3 needs W[4j], computed in lane 0)
//! V[j] = rol2(W[4j-6..4j-2] ^ V[j-4] ^ V[j-7] ^ V[j-8])                       8 <= j < 20
//!        (the same recurrence unrolled once: W[t] = rol2(W[t-6]^W[t-16]^W[t-28]^W[t-32]))
//! WK[4j..4j+4] = V[j] + K[j / 5]
//! rounds: as in `soft`, over WK
//! ```
// The schedule and the lanes read as their index recurrences.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::{K, soft};
use crate::cpu::Ssse3Token;

/// 32-bit rotate left of every lane.
macro_rules! rol {
    ($x:expr, $n:literal, $m:literal) => {{
        let x = $x;
        _mm_or_si128(_mm_slli_epi32::<$n>(x), _mm_srli_epi32::<$m>(x))
    }};
}

/// Loads 16 bytes (unaligned).
#[inline(always)]
pub(crate) fn load(b: &[u8; 64], i: usize) -> __m128i {
    let c: &[u8; 16] = b[16 * i..16 * i + 16].try_into().expect("16 bytes");
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is part
    // of x86-64.
    unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
}

/// Stores four words (unaligned).
#[inline(always)]
pub(crate) fn store(d: &mut [u32; 4], v: __m128i) {
    // SAFETY: `d` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), v) }
}

/// The message schedule of one block plus the round constants, four words at a time.
#[inline]
#[target_feature(enable = "ssse3")]
fn schedule(block: &[u8; 64], wk: &mut [[u32; 4]; 20]) {
    let bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    let mut v = [_mm_setzero_si128(); 20];
    for j in 0..4 {
        v[j] = _mm_shuffle_epi8(load(block, j), bswap);
    }
    for j in 4..8 {
        let x = _mm_xor_si128(
            _mm_xor_si128(_mm_srli_si128::<4>(v[j - 1]), v[j - 2]),
            _mm_xor_si128(_mm_alignr_epi8::<8>(v[j - 3], v[j - 4]), v[j - 4]),
        );
        let fix = rol!(_mm_slli_si128::<12>(x), 2, 30);
        v[j] = _mm_xor_si128(rol!(x, 1, 31), fix);
    }
    for j in 8..20 {
        let x = _mm_xor_si128(
            _mm_xor_si128(_mm_alignr_epi8::<8>(v[j - 1], v[j - 2]), v[j - 4]),
            _mm_xor_si128(v[j - 7], v[j - 8]),
        );
        v[j] = rol!(x, 2, 30);
    }
    for j in 0..20 {
        let k = _mm_set1_epi32(K[j / 5] as i32);
        store(&mut wk[j], _mm_add_epi32(v[j], k));
    }
}

#[target_feature(enable = "ssse3")]
fn compress_impl(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut wk = [[0u32; 4]; 20];
    for b in blocks {
        schedule(b, &mut wk);
        soft::rounds(state, flat(&wk));
    }
}

/// The schedule buffer as the rounds read it.
#[inline(always)]
pub(crate) fn flat(wk: &[[u32; 4]; 20]) -> &[u32; 80] {
    wk.as_flattened().try_into().expect("80 words")
}

/// Compresses whole blocks into the state.
pub(crate) fn compress(_: Ssse3Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has SSSE3.
    unsafe { compress_impl(state, blocks) }
}
