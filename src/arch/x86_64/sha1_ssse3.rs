//! SHA-1 with the message schedule computed four words at a time in vector registers, and
//! the 80 rounds in scalar registers reading `W + K` from a stack buffer. Written once,
//! generic over the vector width ([`pipelined`]): one block per xmm register here
//! (SSSE3), two per ymm register in `avx2` (one per 128-bit lane).
//!
//! ```text
//! V[j] = W[4j..4j+4]                            (of each block of the group, per 128-bit lane)
//! V[j] = bswap32(block words 4j..4j+4)                                        j < 4
//! X    = (W[4j-3], W[4j-2], W[4j-1], 0) ^ V[j-2] ^ W[4j-14..4j-10] ^ V[j-4]   4 <= j < 8
//! V[j] = rol1(X) ^ (0, 0, 0, rol2(X.0))     (lane 3 needs W[4j], computed in lane 0)
//! V[j] = rol2(W[4j-6..4j-2] ^ V[j-4] ^ V[j-7] ^ V[j-8])                       8 <= j < 20
//!        (the same recurrence unrolled once: W[t] = rol2(W[t-6]^W[t-16]^W[t-28]^W[t-32]))
//! WK[4j..4j+4] = V[j] + K[j / 5]
//! for each group of BLOCKS blocks (an odd last block is paired with itself, its twin's
//! rounds skipped):
//!     rounds over WK of each block of the group, as in `soft`
//! software-pipelined: group i+1's schedule is computed step by step between the round
//! groups of group i (two WK buffers, swapped per group)
//! ```
// The schedule reads as its index recurrence.
#![allow(clippy::needless_range_loop)]

use crate::arch::x86_64::simd::u32x::{Blocks4, U32x4};
use crate::cpu::Ssse3Token;
use crate::sha1::soft::{self, K};

/// Step `j` (0..20) of a group's schedule: `V[j]` and `WK[4j..4j+4] = V[j] + K[j / 5]`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn schedule_step<V: Blocks4>(
    t: V::Token,
    j: usize,
    group: [&[u8; 64]; 2],
    v: &mut [V; 20],
    wk: &mut V::Wk,
) {
    let x = if j < 4 {
        V::load_be(t, group, j)
    } else if j < 8 {
        let x = v[j - 1]
            .down1()
            .xor(v[j - 2])
            .xor(V::middle(v[j - 3], v[j - 4]).xor(v[j - 4]));
        x.rol::<1, 31>().xor(x.up3().rol::<2, 30>())
    } else {
        let x = V::middle(v[j - 1], v[j - 2])
            .xor(v[j - 4])
            .xor(v[j - 7].xor(v[j - 8]));
        x.rol::<2, 30>()
    };
    v[j] = x;
    x.add(V::splat(t, K[j / 5])).store_wk(wk, j);
}

/// Blocks `B i .. B i + B` for `B = BLOCKS` (1 or 2), the last repeated where fewer are
/// left (its rounds are then skipped).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn group<V: Blocks4>(blocks: &[[u8; 64]], i: usize) -> Option<[&[u8; 64]; 2]> {
    let b0 = blocks.get(V::BLOCKS * i)?;
    let b1 = if V::BLOCKS == 2 {
        blocks.get(2 * i + 1).unwrap_or(b0)
    } else {
        b0
    };
    Some([b0, b1])
}

/// Runs `step(j)` for the steps `j` of the next group's schedule that go after round group
/// `g` (0..16) of block `b` of this group: spread so that the vector work fills the gaps
/// of the scalar round chain. One block per group: one step after each of the first twelve
/// round groups, two after the rest. Two: the first ten steps after the first ten round
/// groups of the first block, the other ten likewise in the second.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn steps_after<V: Blocks4>(b: usize, g: usize, mut step: impl FnMut(usize)) {
    if V::BLOCKS == 1 {
        if g < 12 {
            step(g);
        } else {
            step(2 * g - 12);
            step(2 * g - 11);
        }
    } else if g < 10 {
        step(10 * b + g);
    }
}

/// The rounds of block `b` (a constant at each call: the steps' indexes into `v` must be
/// constants) of this group, with the next group's schedule steps in their gaps.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn block<V: Blocks4>(
    t: V::Token,
    state: &mut [u32; 5],
    wk: &[[u32; 4]; 20],
    b: usize,
    upcoming: Option<[&[u8; 64]; 2]>,
    v: &mut [V; 20],
    next: &mut V::Wk,
) {
    // The closures are compiled with the caller's target features only where inlined.
    soft::rounds_with(
        state,
        flat(wk),
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        |g| {
            if let Some(n) = upcoming {
                steps_after::<V>(
                    b,
                    g,
                    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
                    |j| schedule_step(t, j, n, v, next),
                );
            }
        },
    );
}

/// The one-stream kernel body: compresses whole blocks into the state.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(super) fn pipelined<V: Blocks4>(t: V::Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let Some(first) = group::<V>(blocks, 0) else {
        return;
    };
    let mut v = [V::splat(t, 0); 20];
    let (mut buf_a, mut buf_b) = (V::WK_ZERO, V::WK_ZERO);
    let (mut cur, mut next) = (&mut buf_a, &mut buf_b);
    for j in 0..20 {
        schedule_step(t, j, first, &mut v, cur);
    }
    let mut i = 0;
    while V::BLOCKS * i < blocks.len() {
        let upcoming = group::<V>(blocks, i + 1);
        let wk = cur.as_ref();
        block(t, state, &wk[0], 0, upcoming, &mut v, next);
        if V::BLOCKS == 2 && 2 * i + 1 < blocks.len() {
            block(t, state, &wk[1], 1, upcoming, &mut v, next);
        }
        core::mem::swap(&mut cur, &mut next);
        i += 1;
    }
}

/// One block's schedule buffer as the rounds read it.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn flat(wk: &[[u32; 4]; 20]) -> &[u32; 80] {
    wk.as_flattened().try_into().expect("80 words")
}

#[inline(never)]
#[target_feature(enable = "ssse3")]
fn compress_ssse3(t: Ssse3Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    pipelined::<U32x4>(t, state, blocks);
}

/// Compresses whole blocks into the state.
pub(crate) fn compress(t: Ssse3Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has SSSE3.
    unsafe { compress_ssse3(t, state, blocks) }
}
