//! SHA-1 collision detection on SHA-NI, one stream: the filter on the schedule the rounds
//! compute, in the integer units the `sha1rnds4` chain leaves idle, one block behind the
//! rounds.
//!
//! ```text
//! for each block n:
//!     the 80 rounds on SHA-NI (sha_ni's quads, in the CPU's schedule form), each message
//!     vector M[j] stored as it is made (word t at index t ^ 3 of this block's buffer)
//!     after quad j, slice j of the 47 unguarded rows on block n-1's buffer (scalar)
//!     then block n-1's mask: the guarded rows of the DVs left (soft::guarded), and for a
//!     non-zero mask (about one random block in 20) its recompression tests
//! after the last block: its own filter and tests
//! ```
//!
//! The filter of a block depends on its words only, never on a chaining value, and so
//! runs beside the next block's rounds; but only where the two are interleaved in program
//! order, each slice between two quads: the reorder buffer retires in order, and a whole
//! block's filter after its rounds fills it behind the rounds' chain. An empty `asm!`
//! that takes the round state and the slice's result keeps LLVM's scheduler from moving
//! the slices together; the rows read the stored words with volatile loads, which keeps
//! LLVM from reading them out of the vector registers (`pextrd`, on the ports the rounds
//! use).

use core::arch::x86_64::*;

use super::sha_ni::{Form, bswap128, forms, load_state, pieces, quad, ring, store_state};
use crate::sha1::dc::data::{CONDITIONS, UNGUARDED};
use crate::sha1::dc::soft;
use crate::sha1::twenty;

/// A block's 80 expanded words as the message vectors hold them, one vector after
/// another: word `t` at index `t ^ 3`.
#[repr(C, align(16))]
struct Spill([u32; 80]);

impl Spill {
    /// Stores message vector `M[j]` (words `4j..4j + 4`).
    #[inline(always)]
    fn put(&mut self, j: usize, v: __m128i) {
        let q: &mut [u32; 4] = (&mut self.0[4 * j..4 * j + 4]).try_into().expect("4 words");
        // SAFETY: `q` is 16 writable bytes, 16-byte aligned (`Spill` is, and `q` starts
        // 16j bytes into it); SSE2 is part of x86-64.
        unsafe { _mm_store_si128(q.as_mut_ptr().cast(), v) }
    }

    /// Word `t` of the block, loaded from memory.
    #[inline(always)]
    fn word(&self, t: usize) -> u32 {
        let r = &self.0[t ^ 3];
        // SAFETY: `r` is a reference to an initialised `u32`, valid and aligned.
        unsafe { core::ptr::read_volatile(r) }
    }

    /// The words in order.
    fn words(&self) -> [u32; 80] {
        core::array::from_fn(|t| self.0[t ^ 3])
    }
}

/// Slice `J` of 20 of the unguarded rows (`soft::ubc_mask`'s first pass): the DVs they
/// rule out on `w`, ORed into `bad`.
#[inline(always)]
fn slice<const J: usize>(w: &Spill, bad: &mut u32) {
    let (lo, hi) = (J * UNGUARDED.len() / 20, (J + 1) * UNGUARDED.len() / 20);
    for &k in &UNGUARDED[lo..hi] {
        let c = &CONDITIONS[usize::from(k)];
        *bad |= soft::row_fails(c, w.word(c.i.into()), w.word(c.j.into()));
    }
}

/// The mask of the block in `w` from what its unguarded rows ruled out (`bad`), and, if
/// it is non-zero, its recompression tests: the block compressed from `before` to `after`.
/// The DV of the first hit, if one hits.
#[inline(always)]
fn finish_block(
    w: &Spill,
    bad: u32,
    before: (__m128i, __m128i),
    after: (__m128i, __m128i),
) -> Option<u8> {
    let mask = soft::guarded::<3>(&w.0, !bad);
    if mask == 0 {
        return None;
    }
    test(w, mask, before, after)
}

/// The recompression tests of a block the filter left (`finish_block`), out of line.
#[cold]
#[inline(never)]
fn test(w: &Spill, mask: u32, before: (__m128i, __m128i), after: (__m128i, __m128i)) -> Option<u8> {
    let (mut input, mut output) = ([0; 5], [0; 5]);
    // SAFETY: SSE4.1 is proven by the token behind every caller (`compress_impl`'s entries).
    unsafe {
        store_state(&mut input, before.0, before.1);
        store_state(&mut output, after.0, after.1);
    }
    soft::test_compressed(&input, &output, &w.words(), mask)
}

/// Compresses `blocks` into `state` with collision detection, up to the first block that
/// a recompression test flags: its index and the DV's number (that block compressed once,
/// the ones after it not), or `None` with every block compressed. `FORM` is the
/// schedule's form (`sha_ni::forms`).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_impl<const FORM: u8>(state: &mut [u32; 5], blocks: &[[u8; 64]]) -> Option<(usize, u8)> {
    let (mut abcd, mut e) = load_state(state);
    // Each block's words go to one buffer while the rows read the other's.
    let (mut w0, mut w1) = (Spill([0; 80]), Spill([0; 80]));
    let mut before = (abcd, e);
    macro_rules! one {
        ($at:expr, $w:ident, $prev:ident) => {{
            let at: usize = $at;
            let mut m = ring(pieces(&blocks[at]).map(|v| bswap128(v)));
            for (j, v) in m[..4].iter().enumerate() {
                $w.put(j, *v);
            }
            let (abcd0, e0) = (abcd, e);
            let mut s = abcd;
            let mut x = _mm_add_epi32(e0, m[0]);
            let mut last = s;
            let mut bad = 0u32;
            macro_rules! step {
                        ($j:literal, $f:literal) => {
                            quad!($j, $f, s, x, m, last, FORM);
                            if $j >= 3 && $j < 19 {
                                $w.put($j + 1, m[($j + 1) % 8]);
                            }
                            slice::<$j>(&$prev, &mut bad);
                            // SAFETY: an empty template: it only ties the slice's result and the
                            // round state to one point in the instruction order.
                            unsafe {
                                core::arch::asm!(
                                    "/* {0:x} {1:e} */",
                                    inout(xmm_reg) s,
                                    inout(reg) bad,
                                    options(pure, nomem, nostack, preserves_flags),
                                )
                            };
                        };
                    }
            twenty!(step);
            e = _mm_sha1nexte_epu32(last, e0);
            abcd = _mm_add_epi32(s, abcd0);
            if at > 0 {
                // Block at - 1, compressed from `before` to (abcd0, e0).
                if let Some(dv) = finish_block(&$prev, bad, before, (abcd0, e0)) {
                    store_state(state, abcd0, e0);
                    return Some((at - 1, dv));
                }
            }
            before = (abcd0, e0);
        }};
    }
    let mut at = 0;
    while at < blocks.len() {
        one!(at, w0, w1);
        at += 1;
        if at == blocks.len() {
            break;
        }
        one!(at, w1, w0);
        at += 1;
    }
    if at > 0 {
        let w = if at % 2 == 1 { &w0 } else { &w1 };
        let mut bad = 0;
        macro_rules! all {
            ($j:literal, $f:literal) => {
                slice::<$j>(w, &mut bad);
                // SAFETY: an empty template: the rows stay scalar (LLVM would gather
                // them into vectors with `pinsrd`).
                unsafe {
                    core::arch::asm!(
                        "/* {0:e} */",
                        inout(reg) bad,
                        options(pure, nomem, nostack, preserves_flags),
                    )
                };
            };
        }
        twenty!(all);
        if let Some(dv) = finish_block(w, bad, before, (abcd, e)) {
            store_state(state, abcd, e);
            return Some((at - 1, dv));
        }
    }
    store_state(state, abcd, e);
    None
}

/// [`compress_impl`] in each schedule form, compiled with the features it needs.
macro_rules! entry {
    ($(#[$doc:meta])* $name:ident, $form:expr, $features:literal) => {
        $(#[$doc])*
        #[inline(never)]
        #[target_feature(enable = $features)]
        fn $name(state: &mut [u32; 5], blocks: &[[u8; 64]]) -> Option<(usize, u8)> {
            compress_impl::<{ $form }>(state, blocks)
        }
    };
}

entry!(
    /// The vector form, with AVX-512 VL.
    vector,
    forms::VECTOR,
    "sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl"
);
entry!(
    /// The `rol2` form (SSE).
    rol2,
    forms::ROL2,
    "sha,sse2,ssse3,sse4.1"
);
entry!(
    /// The whole schedule on the SHA unit.
    sha_unit,
    forms::SHA_UNIT,
    "sha,sse2,ssse3,sse4.1"
);

/// Compresses whole blocks into the state with collision detection, up to the first
/// block a recompression test flags: its index and the DV's number (that block
/// compressed once, the ones after it not), or `None` with every block compressed.
pub(crate) fn compress(
    form: Form,
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
) -> Option<(usize, u8)> {
    match form {
        // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1, and the
        // `Avx512Token` AVX, AVX2 and AVX-512 F/VL.
        Form::Vector(..) => unsafe { vector(state, blocks) },
        // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1.
        Form::Rol2(_) => unsafe { rol2(state, blocks) },
        // SAFETY: as for `Rol2`.
        Form::ShaUnit(_) => unsafe { sha_unit(state, blocks) },
    }
}
