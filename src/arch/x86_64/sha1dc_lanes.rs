//! SHA-1 collision detection's filter on vectors: `L` consecutive blocks at once, one per
//! 32-bit lane (eight in ymm on AVX2, sixteen in zmm on AVX-512), each lane's result the
//! mask of DVs that `soft::ubc_mask` gives for its block.
//!
//! ```text
//! W[0..16]  = the lanes' blocks, transposed and byte-swapped (Lanes::words)
//! W[16..80] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])       the schedule, per lane
//! bad       = OR over the 156 rows (i, bi, j, bj, eq, dvs) of
//!             sign((W[i] << 31-bi) ^ (W[j] << 31-bj) ^ eq << 31) & dvs
//! mask      = !bad
//! ```
//!
//! Every row runs on every block, without a branch: the AND of the rows' outcomes is the
//! mask in any order, and a vector row costs a lane what a scalar row costs a block.
//! Words no row reads are dropped when compiled.

use crate::arch::x86_64::sha1_avx2;
use crate::arch::x86_64::simd::u32x::{Lanes, U32x8, U32x16};
use crate::cpu::{Avx2Token, Avx512Token};
use crate::sha1::dc::data::{CONDITIONS, Condition};

/// The masks of `L` blocks.
#[inline(always)]
fn group<V: Lanes<L>, const L: usize>(t: V::Token, blocks: &[[u8; 64]; L]) -> [u32; L] {
    let lanes: [&[[u8; 64]]; L] = core::array::from_fn(|l| core::slice::from_ref(&blocks[l]));
    let mut out = [0u32; L];
    mask_of::<V, L>(t, V::words(t, &lanes, 0)).store(&mut out);
    out
}

/// The masks of the blocks whose first sixteen words are `words`, one block per lane.
#[inline(always)]
fn mask_of<V: Lanes<L>, const L: usize>(t: V::Token, words: [V; 16]) -> V {
    let mut w = [V::splat(t, 0); 80];
    w[..16].copy_from_slice(&words);
    macro_rules! expand {
        ($($t:literal)*) => {$(
            expand_word::<V, L>(&mut w, $t);
        )*};
    }
    expand!(
        16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41
        42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67
        68 69 70 71 72 73 74 75 76 77 78 79
    );
    let mut bad = V::splat(t, 0);
    macro_rules! rows {
        ($($k:literal)*) => {$({
            const C: Condition = CONDITIONS[$k];
            row::<V, L, { 31 - C.bi as i32 }, { 31 - C.bj as i32 }, { C.eq == 1 }>(
                t, &w[C.i as usize], &w[C.j as usize], C.dvs, &mut bad,
            );
        })*};
    }
    rows!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
        30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56
        57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83
        84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107
        108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127
        128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147
        148 149 150 151 152 153 154 155
    );
    const { assert!(CONDITIONS.len() == 156) };
    bad.xor(V::splat(t, u32::MAX))
}

// The schedule's words and the rows are each one call where the crate is unoptimised
// (`simdcrypt_unoptimised`), so that `mask_of`'s frame holds no row's temporaries: inlined,
// a hundred and fifty-six rows' of them would need more stack than a small thread has.

/// `w[t]` of the schedule, from the words before it.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn expand_word<V: Lanes<L>, const L: usize>(w: &mut [V; 80], t: usize) {
    w[t] = V::xor3(w[t - 3], w[t - 8], w[t - 14])
        .xor(w[t - 16])
        .rol::<1, 31>();
}

/// One row on the lanes' words `wi` and `wj`, with `SI = 31 - bi`, `SJ = 31 - bj`, `EQ`
/// its `eq`: its `dvs` ORed into `bad` in the lanes where it fails.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn row<V: Lanes<L>, const L: usize, const SI: i32, const SJ: i32, const EQ: bool>(
    t: V::Token,
    wi: &V,
    wj: &V,
    dvs: u32,
    bad: &mut V,
) {
    let a = wi.shl::<SI>();
    let b = wj.shl::<SJ>();
    // Top bit: the two bits' XOR differs from `eq`, the row fails.
    let x = if EQ {
        V::xor3(a, b, V::splat(t, 1 << 31))
    } else {
        a.xor(b)
    };
    *bad = bad.or(x.sign().and(V::splat(t, dvs)));
}

/// A block of the lanes that the filter did not clear in a busy lane: its index in the
/// run, every lane's mask, and the lanes' chaining values before it.
pub(crate) struct Hit<const L: usize> {
    pub(crate) at: usize,
    pub(crate) masks: [u32; L],
    pub(crate) before: [[u32; 5]; L],
}

/// Compresses `n = min(len)` blocks of `L` streams at once (`blocks[l]` into
/// `states[l]`) with the filter on the same words, up to and including the first block
/// whose mask is non-zero in a lane of `busy` (bit `l`: lane `l`): that block's [`Hit`],
/// or `None` with all `n` compressed.
#[inline(always)]
fn compress_lanes<V: Lanes<L>, const L: usize>(
    t: V::Token,
    states: &mut [[u32; 5]; L],
    blocks: [&[[u8; 64]]; L],
    busy: u32,
) -> Option<Hit<L>> {
    let n = blocks.iter().map(|b| b.len()).min().unwrap_or(0);
    let mut s = sha1_avx2::load_states::<V, L>(t, states);
    for i in 0..n {
        let words = V::words(t, &blocks, i);
        let mask = mask_of::<V, L>(t, words);
        let before = s;
        sha1_avx2::block(t, &mut s, words);
        let mut masks = [0u32; L];
        mask.store(&mut masks);
        if (0..L).any(|l| busy >> l & 1 == 1 && masks[l] != 0) {
            sha1_avx2::store_states::<V, L>(&s, states);
            let mut b = [[0u32; 5]; L];
            sha1_avx2::store_states::<V, L>(&before, &mut b);
            return Some(Hit {
                at: i,
                masks,
                before: b,
            });
        }
    }
    sha1_avx2::store_states::<V, L>(&s, states);
    None
}

#[inline(never)]
#[target_feature(enable = "avx2")]
fn compress8_avx2(
    t: Avx2Token,
    states: &mut [[u32; 5]; 8],
    blocks: [&[[u8; 64]]; 8],
    busy: u32,
) -> Option<Hit<8>> {
    compress_lanes::<U32x8, 8>(t, states, blocks, busy)
}

/// The same source compiled with AVX-512 VL: the rows' three-input XORs become
/// `vpternlogd`, the rotates `vprold`.
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn compress8_avx512vl(
    t: Avx512Token,
    states: &mut [[u32; 5]; 8],
    blocks: [&[[u8; 64]]; 8],
    busy: u32,
) -> Option<Hit<8>> {
    compress_lanes::<U32x8, 8>(t.avx2(), states, blocks, busy)
}

/// `sha1dc_many`'s kernel: [`compress_lanes`] on eight lanes of ymm registers.
#[derive(Clone, Copy)]
pub(crate) enum Lanes8 {
    Avx2(Avx2Token),
    /// Compiled with AVX-512 VL.
    Avx512(Avx512Token),
}

impl Lanes8 {
    /// [`compress_lanes`] on eight lanes.
    pub(crate) fn compress(
        self,
        states: &mut [[u32; 5]; 8],
        blocks: [&[[u8; 64]]; 8],
        busy: u32,
    ) -> Option<Hit<8>> {
        match self {
            // SAFETY: the token proves the CPU has AVX2, with YMM state enabled.
            Lanes8::Avx2(t) => unsafe { compress8_avx2(t, states, blocks, busy) },
            // SAFETY: the token proves AVX2, AVX-512 F and VL, with YMM and ZMM state
            // enabled.
            Lanes8::Avx512(t) => unsafe { compress8_avx512vl(t, states, blocks, busy) },
        }
    }
}

/// `out[i]` = the mask of `blocks[i]`, `L` blocks at a time (the last group filled out
/// with zero blocks, whose masks are dropped).
#[inline(always)]
fn masks<V: Lanes<L>, const L: usize>(t: V::Token, blocks: &[[u8; 64]], out: &mut [u32]) {
    debug_assert_eq!(blocks.len(), out.len());
    let (groups, rest) = blocks.as_chunks::<L>();
    let (outs, rest_out) = out.as_chunks_mut::<L>();
    for (g, o) in groups.iter().zip(outs) {
        *o = group::<V, L>(t, g);
    }
    if !rest.is_empty() {
        let mut last = [[0u8; 64]; L];
        last[..rest.len()].copy_from_slice(rest);
        let m = group::<V, L>(t, &last);
        rest_out.copy_from_slice(&m[..rest_out.len()]);
    }
}

#[inline(never)]
#[target_feature(enable = "avx2")]
fn masks8_avx2(t: Avx2Token, blocks: &[[u8; 64]], out: &mut [u32]) {
    masks::<U32x8, 8>(t, blocks, out);
}

#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
fn masks16_avx512(t: Avx512Token, blocks: &[[u8; 64]], out: &mut [u32]) {
    masks::<U32x16, 16>(t, blocks, out);
}

/// The filter's masks of `blocks` into `out` (as long), eight blocks at a time in ymm.
pub(crate) fn masks_avx2(t: Avx2Token, blocks: &[[u8; 64]], out: &mut [u32]) {
    // SAFETY: the token proves the CPU has AVX2, with YMM state enabled.
    unsafe { masks8_avx2(t, blocks, out) }
}

/// The filter's masks of `blocks` into `out` (as long), sixteen blocks at a time in zmm.
pub(crate) fn masks_avx512(t: Avx512Token, blocks: &[[u8; 64]], out: &mut [u32]) {
    // SAFETY: the token proves the CPU has AVX-512 F and BW, with ZMM state enabled.
    unsafe { masks16_avx512(t, blocks, out) }
}
