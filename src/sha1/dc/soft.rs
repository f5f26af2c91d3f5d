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

use super::data::{CONDITIONS, Condition, DVS, GUARDED, UNGUARDED};
use crate::sha1::soft::K;

/// The expanded message of one block, unrolled with constant indices: each word comes
/// from the registers that hold the ones before it (a loop reloads `w[t - 3]` right after
/// storing it, and the store-to-load latency chains the 64 words).
#[inline(always)]
pub(crate) fn schedule(block: &[u8; 64]) -> [u32; 80] {
    let mut w = [0u32; 80];
    for (i, c) in block.as_chunks::<4>().0.iter().enumerate() {
        w[i] = u32::from_be_bytes(*c);
    }
    macro_rules! expand {
        ($($t:literal)*) => {$(
            w[$t] = (w[$t - 3] ^ w[$t - 8] ^ w[$t - 14] ^ w[$t - 16]).rotate_left(1);
        )*};
    }
    expand!(
        16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41
        42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67
        68 69 70 71 72 73 74 75 76 77 78 79
    );
    w
}

/// The filter: the mask of the DVs (bit `n` for DV `n` of [`DVS`]) whose unavoidable bit
/// conditions the expanded message `w` meets.
///
/// Two passes, whose AND of the rows' outcomes is the source's: the [`UNGUARDED`] rows
/// unrolled with their constants (no bounds checks, shifts by immediates), each applied
/// without a branch on its outcome; then, for each DV still in the mask (one or two on
/// data that is no attack), its other rows ([`GUARDED`]) up to the first it fails.
#[inline(always)]
pub(crate) fn ubc_mask(w: &[u32; 80]) -> u32 {
    let mut mask = u32::MAX;
    macro_rules! unguarded {
        ($($k:literal)*) => {$({
            const C: Condition = CONDITIONS[UNGUARDED[$k] as usize];
            let x = (w[C.i as usize] >> C.bi ^ w[C.j as usize] >> C.bj) & 1;
            mask &= !(C.dvs & (x ^ C.eq as u32).wrapping_neg());
        })*};
    }
    unguarded!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
        30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46
    );
    let mut left = mask;
    while left != 0 {
        let d = left.trailing_zeros() as usize;
        left &= left - 1;
        let (rows, n) = &GUARDED[d];
        if rows[..*n].iter().any(|c| !holds(c, w)) {
            mask &= !(1 << d);
        }
    }
    mask
}

/// Whether `w` meets the condition `c`.
#[inline(always)]
fn holds(c: &Condition, w: &[u32; 80]) -> bool {
    let x = (w[usize::from(c.i)] >> c.bi ^ w[usize::from(c.j)] >> c.bj) & 1;
    x == u32::from(c.eq)
}

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

/// Step `t` backwards: the state after it becomes the state before it. `zero` is 0, from
/// `black_box` (below).
///
/// Written for the chain of a recompression test's 58 or 65 steps: `d` here is the `e`
/// the step before made, so it should enter last, through one or two operations of the
/// boolean function and one subtraction, the rest summed off the chain. LLVM reassociates
/// the steps' sums into one (the boolean function then three additions before the next
/// step: six cycles a step where three do); an XOR with a zero it cannot see makes the
/// part off the chain a value of its own.
#[inline(always)]
fn unstep(s: &mut [u32; 5], t: usize, w: &[u32; 80], zero: u32) {
    let [x, a, b30, c, d] = *s;
    let b = b30.rotate_right(30);
    let rest = x
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(K[t / 20].wrapping_add(w[t]))
        ^ zero;
    let f = match t / 20 {
        0 => (b & c) ^ (!b & d),
        2 => (b & c) | ((b | c) & d),
        _ => (b ^ c) ^ d,
    };
    *s = [a, b, c, d, rest.wrapping_sub(f)];
}

fn add(a: &[u32; 5], b: &[u32; 5]) -> [u32; 5] {
    core::array::from_fn(|i| a[i].wrapping_add(b[i]))
}

/// Steps forwards (`steps!(s, w; 3 4 5)`) or backwards (`unsteps!(s, w, zero; 5 4 3)`) with
/// literal step numbers: each step's boolean function and constant fixed when compiled.
macro_rules! steps {
    ($s:ident, $w:ident; $($t:literal)*) => {$( step(&mut $s, $t, $w); )*};
}
macro_rules! unsteps {
    ($s:ident, $w:ident, $zero:ident; $($t:literal)*) => {$( unstep(&mut $s, $t, $w, $zero); )*};
}

/// The recompression test of a DV with difference `dm` whose test step is `test_step`
/// (58 or 65) on a block whose expanded message is `w`, whose state before that step is
/// `saved` and whose output chaining value is `out`: whether the block with the DV's
/// difference, from the input chaining value that leads to the same state at that step,
/// gives the same output.
fn recompression_hits(
    dm: &[u32; 80],
    test_step: usize,
    w: &[u32; 80],
    saved: &[u32; 5],
    out: &[u32; 5],
) -> bool {
    let w2: [u32; 80] = core::array::from_fn(|t| w[t] ^ dm[t]);
    let w2 = &w2;
    let mut back = *saved;
    let mut fwd = *saved;
    let zero = core::hint::black_box(0);
    if test_step == 58 {
        unsteps!(
            back, w2, zero; 57 56 55 54 53 52 51 50 49 48 47 46 45 44 43 42 41 40 39 38 37 36 35 34 33
            32 31 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7
            6 5 4 3 2 1 0
        );
        steps!(
            fwd, w2; 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
        );
    } else {
        debug_assert_eq!(test_step, 65);
        unsteps!(
            back, w2, zero; 64 63 62 61 60 59 58 57 56 55 54 53 52 51 50 49 48 47 46 45 44 43 42 41 40
            39 38 37 36 35 34 33 32 31 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15
            14 13 12 11 10 9 8 7 6 5 4 3 2 1 0
        );
        steps!(
            fwd, w2; 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
        );
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
    steps!(
        s, w; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
        28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52
        53 54 55 56 57
    );
    let at58 = s;
    steps!(
        s, w; 58 59 60 61 62 63 64
    );
    let at65 = s;
    steps!(
        s, w; 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
    );
    *state = add(state, &s);
    first_hit(w, mask, &at58, &at65, state)
}

/// The recompression test of each DV in `mask`, lowest first, on a block whose expanded
/// message is `w`, whose states before steps 58 and 65 are `at58` and `at65` and whose
/// output chaining value is `out`: the number of the first DV that hits.
fn first_hit(
    w: &[u32; 80],
    mask: u32,
    at58: &[u32; 5],
    at65: &[u32; 5],
    out: &[u32; 5],
) -> Option<u8> {
    (0u8..32).zip(&DVS).find_map(|(n, dv)| {
        let saved = if dv.step == 58 { at58 } else { at65 };
        let hit = mask >> n & 1 == 1 && recompression_hits(&dv.dm, dv.step, w, saved, out);
        hit.then_some(n)
    })
}

/// A block the filter did not clear, already compressed (from `input` to `out`, on a SIMD
/// backend): the states before steps 65 and 58 found from the state after step 79
/// (`out - input`) by the rounds backwards (22 steps, where compressing again to save them
/// is 65), then the recompression test of each DV in `mask`, as [`compress_flagged`].
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
#[cold]
#[inline(never)]
pub(crate) fn test_compressed(
    input: &[u32; 5],
    out: &[u32; 5],
    w: &[u32; 80],
    mask: u32,
) -> Option<u8> {
    let mut s: [u32; 5] = core::array::from_fn(|i| out[i].wrapping_sub(input[i]));
    let zero = core::hint::black_box(0);
    unsteps!(
        s, w, zero; 79 78 77 76 75 74 73 72 71 70 69 68 67 66 65
    );
    let at65 = s;
    unsteps!(
        s, w, zero; 64 63 62 61 60 59 58
    );
    first_hit(w, mask, &s, &at65, out)
}

/// The DV whose recompression test flags `block`, compressed (on a SIMD backend) from
/// `input` to `out` after the filter left `mask`; `None` if none does.
#[cfg(simdcrypt_x86_64)]
pub(crate) fn flagged(input: &[u32; 5], out: &[u32; 5], block: &[u8; 64], mask: u32) -> Option<u8> {
    test_compressed(input, out, &schedule(block), mask)
}

/// The blocks [`compress_filtered`] filters before it compresses them: 4 KiB, which stay in
/// the L1 cache between the two passes.
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
const AHEAD: usize = 64;

/// The filter of a SIMD backend's collision detection: the masks of many blocks at once.
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Filter {
    /// The portable schedule and [`ubc_mask`], block by block.
    Portable,
    /// Eight blocks at once in ymm (`arch::x86_64::sha1dc_lanes`).
    #[cfg(simdcrypt_x86_64)]
    Avx2(crate::cpu::Avx2Token),
    /// Sixteen blocks at once in zmm.
    #[cfg(simdcrypt_x86_64)]
    Avx512(crate::cpu::Avx512Token),
}

#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
impl Filter {
    /// The widest filter this CPU runs (the assembly SHA-NI backend's).
    #[cfg(simdcrypt_asm)]
    pub(crate) fn widest() -> Filter {
        if let Some(t) = crate::cpu::Avx512Token::get() {
            Filter::Avx512(t)
        } else if let Some(t) = crate::cpu::Avx2Token::get() {
            Filter::Avx2(t)
        } else {
            Filter::Portable
        }
    }

    /// `out[i]` = the mask of `blocks[i]` (`out` as long as `blocks`).
    pub(crate) fn masks(self, blocks: &[[u8; 64]], out: &mut [u32]) {
        match self {
            Filter::Portable => {
                for (m, b) in out.iter_mut().zip(blocks) {
                    *m = ubc_mask(&schedule(b));
                }
            }
            #[cfg(simdcrypt_x86_64)]
            Filter::Avx2(t) => crate::arch::x86_64::sha1dc_lanes::masks_avx2(t, blocks, out),
            #[cfg(simdcrypt_x86_64)]
            Filter::Avx512(t) => crate::arch::x86_64::sha1dc_lanes::masks_avx512(t, blocks, out),
        }
    }
}

/// [`compress`] with the filter on `filter` and the compression on `kernel` (a SIMD
/// backend's plain SHA-1): the masks of up to [`AHEAD`] blocks, then `kernel` over each
/// run of blocks whose masks are empty, and each block between the runs alone, then its
/// recompression tests ([`test_compressed`]).
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
pub(crate) fn compress_filtered(
    kernel: crate::sha1::Kernel,
    filter: Filter,
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
) -> Option<(usize, u8)> {
    let mut masks = [0u32; AHEAD];
    for (c, ahead) in blocks.chunks(AHEAD).enumerate() {
        let masks = &mut masks[..ahead.len()];
        filter.masks(ahead, masks);
        let mut i = 0;
        while i < ahead.len() {
            let run = masks[i..]
                .iter()
                .position(|&m| m != 0)
                .unwrap_or(ahead.len() - i);
            if run > 0 {
                kernel.compress(state, &ahead[i..i + run]);
                i += run;
            }
            if i < ahead.len() {
                let input = *state;
                kernel.compress(state, core::slice::from_ref(&ahead[i]));
                if let Some(dv) = test_compressed(&input, state, &schedule(&ahead[i]), masks[i]) {
                    return Some((c * AHEAD + i, dv));
                }
                i += 1;
            }
        }
    }
    None
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
