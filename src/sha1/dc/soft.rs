//! Portable SHA-1 compression with collision detection: per block the expanded message,
//! the filter on it, the rounds, and the recompression test for each DV the filter leaves.
//!
//! ```text
//! W[0..80]  = the block's message schedule
//! mask      = filter(W)                       the DVs whose conditions W meets
//! mask == 0: state = compress(state, W)       (about 19 blocks in 20 of random data)
//! otherwise: the rounds again, saving the states before steps 58 and 65; for each DV d
//!            in the mask: W' = W ^ dm(d); from the saved state before d's step, the
//!            rounds backwards to step 0 (the input chaining value of the partner block,
//!            IHV') and forwards to step 80 on W'; a hit is IHV' + that = the block's
//!            output chaining value (the two blocks collide)
//! ```
//!
//! Not constant time: the input of a collision-detecting hash is public (git objects,
//! signed documents), and the filter and the recompressions branch on it.
#![forbid(unsafe_code)]

use super::data::{CONDITIONS, Condition, DVS};
use crate::sha1::soft::K;

/// The expanded message of one block.
#[inline(always)]
pub(crate) fn schedule(block: &[u8; 64]) -> [u32; 80] {
    let mut w = [0u32; 80];
    for (i, c) in block.as_chunks::<4>().0.iter().enumerate() {
        w[i] = u32::from_be_bytes(*c);
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    w
}

/// The filter: the mask of the DVs (bit `n` for DV `n` of [`DVS`]) whose unavoidable bit
/// conditions the expanded message `w` meets.
///
/// One row of [`CONDITIONS`] after the other, each unrolled with its constants (no bounds
/// checks, shifts by immediates) and without a branch on its outcome: the first
/// [`UNGUARDED`] rows, which rule out several DVs each, on every block; each later row only
/// where the mask still holds one of its DVs (the branch is rarely taken on data that is no
/// attack). An empty mask ends the filter at a few checkpoints.
#[inline(always)]
pub(crate) fn ubc_mask(w: &[u32; 80]) -> u32 {
    let mut mask = u32::MAX;
    macro_rules! rows {
        ($($k:literal)*) => {$({
            const C: Condition = CONDITIONS[$k];
            if $k < UNGUARDED || mask & C.dvs != 0 {
                let x = (w[C.i as usize] >> C.bi ^ w[C.j as usize] >> C.bj) & 1;
                mask &= !(C.dvs & (x ^ C.eq as u32).wrapping_neg());
            }
        })*};
    }
    rows!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    if mask == 0 {
        return 0;
    }
    rows!(25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59);
    if mask == 0 {
        return 0;
    }
    rows!(60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99);
    if mask == 0 {
        return 0;
    }
    rows!(100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155);
    mask
}

/// The rows of [`CONDITIONS`] that [`ubc_mask`] runs unguarded: the source's first
/// statements, which it tests on every block.
const UNGUARDED: usize = 25;

/// The boolean function of step `t`.
#[inline(always)]
fn f(t: usize, b: u32, c: u32, d: u32) -> u32 {
    match t / 20 {
        0 => d ^ (b & (c ^ d)),
        2 => (b & c) | (d & (b | c)),
        _ => b ^ c ^ d,
    }
}

/// Step `t` forwards: the state `[a, b, c, d, e]` before it becomes the state after it.
#[inline(always)]
fn step(s: &mut [u32; 5], t: usize, w: &[u32; 80]) {
    let [a, b, c, d, e] = *s;
    let x = a
        .rotate_left(5)
        .wrapping_add(f(t, b, c, d))
        .wrapping_add(e)
        .wrapping_add(K[t / 20])
        .wrapping_add(w[t]);
    *s = [x, a, b.rotate_left(30), c, d];
}

/// Step `t` backwards: the state after it becomes the state before it.
#[inline(always)]
fn unstep(s: &mut [u32; 5], t: usize, w: &[u32; 80]) {
    let [x, a, b30, c, d] = *s;
    let b = b30.rotate_right(30);
    let e = x
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(f(t, b, c, d))
        .wrapping_sub(K[t / 20])
        .wrapping_sub(w[t]);
    *s = [a, b, c, d, e];
}

fn add(a: &[u32; 5], b: &[u32; 5]) -> [u32; 5] {
    core::array::from_fn(|i| a[i].wrapping_add(b[i]))
}

/// The recompression test of DV `dv` on a block whose expanded message is `w`, whose
/// state before step `dv.step` is `saved` and whose output chaining value is `out`:
/// whether the block with the DV's difference, from the input chaining value that leads
/// to the same state at that step, gives the same output.
fn recompression_hits(
    dm: &[u32; 80],
    test_step: usize,
    w: &[u32; 80],
    saved: &[u32; 5],
    out: &[u32; 5],
) -> bool {
    let w2: [u32; 80] = core::array::from_fn(|t| w[t] ^ dm[t]);
    let mut back = *saved;
    for t in (0..test_step).rev() {
        unstep(&mut back, t, &w2);
    }
    let mut fwd = *saved;
    for t in test_step..80 {
        step(&mut fwd, t, &w2);
    }
    add(&back, &fwd) == *out
}

/// A block the filter did not clear: compresses it into `state` step by step, saving the
/// states before steps 58 and 65, then runs the recompression test of each DV in `mask`,
/// lowest first, up to the first hit: that DV's number, if one hit.
#[cold]
#[inline(never)]
pub(crate) fn compress_flagged(state: &mut [u32; 5], w: &[u32; 80], mask: u32) -> Option<u8> {
    let mut s = *state;
    let mut saved = [[0u32; 5]; 2];
    for t in 0..80 {
        if t == 58 {
            saved[0] = s;
        } else if t == 65 {
            saved[1] = s;
        }
        step(&mut s, t, w);
    }
    *state = add(state, &s);
    (0u8..32).zip(&DVS).find_map(|(n, dv)| {
        let hit = mask >> n & 1 == 1
            && recompression_hits(
                &dv.dm,
                dv.step,
                w,
                &saved[usize::from(dv.step == 65)],
                state,
            );
        hit.then_some(n)
    })
}

/// Compresses `blocks` into `state` with detection, up to the first block that a
/// recompression test flags: its index and the DV's number (that block compressed once,
/// the ones after it not), or `None` with every block compressed.
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) -> Option<(usize, u8)> {
    for (i, block) in blocks.iter().enumerate() {
        let w = schedule(block);
        let mask = ubc_mask(&w);
        if mask == 0 {
            let wk: [u32; 80] = core::array::from_fn(|t| w[t].wrapping_add(K[t / 20]));
            crate::sha1::soft::rounds(state, &wk);
        } else if let Some(dv) = compress_flagged(state, &w, mask) {
            return Some((i, dv));
        }
    }
    None
}
