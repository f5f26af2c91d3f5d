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
//! software-pipelined: block i+1's schedule is computed step by step between the round
//! groups of block i (two WK buffers, swapped per block)
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

/// Step `j` (0..20) of one block's schedule: `V[j]` and `WK[4j..4j+4] = V[j] + K[j / 5]`.
#[inline]
#[target_feature(enable = "ssse3")]
fn schedule_step(j: usize, block: &[u8; 64], v: &mut [__m128i; 20], wk: &mut [[u32; 4]; 20]) {
    let x = if j < 4 {
        let bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
        _mm_shuffle_epi8(load(block, j), bswap)
    } else if j < 8 {
        let x = _mm_xor_si128(
            _mm_xor_si128(_mm_srli_si128::<4>(v[j - 1]), v[j - 2]),
            _mm_xor_si128(_mm_alignr_epi8::<8>(v[j - 3], v[j - 4]), v[j - 4]),
        );
        let fix = rol!(_mm_slli_si128::<12>(x), 2, 30);
        _mm_xor_si128(rol!(x, 1, 31), fix)
    } else {
        let x = _mm_xor_si128(
            _mm_xor_si128(_mm_alignr_epi8::<8>(v[j - 1], v[j - 2]), v[j - 4]),
            _mm_xor_si128(v[j - 7], v[j - 8]),
        );
        rol!(x, 2, 30)
    };
    v[j] = x;
    store(
        &mut wk[j],
        _mm_add_epi32(x, _mm_set1_epi32(K[j / 5] as i32)),
    );
}

#[target_feature(enable = "ssse3")]
fn compress_impl(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let Some(first) = blocks.first() else {
        return;
    };
    let mut v = [_mm_setzero_si128(); 20];
    let (mut buf_a, mut buf_b) = ([[0u32; 4]; 20], [[0u32; 4]; 20]);
    let (mut cur, mut next) = (&mut buf_a, &mut buf_b);
    for j in 0..20 {
        schedule_step(j, first, &mut v, cur);
    }
    for i in 0..blocks.len() {
        // The next block's schedule runs in the gaps of this block's rounds: one step
        // after each of the first twelve groups of five rounds, two after the rest.
        let upcoming = blocks.get(i + 1);
        let (nx, vv) = (&mut *next, &mut v);
        soft::rounds_with(state, flat(cur), |g| {
            if let Some(n) = upcoming {
                if g < 12 {
                    schedule_step(g, n, vv, nx);
                } else {
                    schedule_step(2 * g - 12, n, vv, nx);
                    schedule_step(2 * g - 11, n, vv, nx);
                }
            }
        });
        core::mem::swap(&mut cur, &mut next);
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
