//! SHA-1 collision detection on SHA-NI, one stream: the whole filter, branch-free, on the
//! schedule the rounds compute, one block behind the rounds.
//!
//! ```text
//! WINDOWS = the 156 rows, four of one shape (bits, eq, distance j - i) on four
//!           consecutive word indices a window: 53 windows           (when compiled)
//! for each block n:
//!     the 80 rounds on SHA-NI (sha_ni's quads, in the CPU's schedule form), each message
//!     vector M[j] stored in order as it is made, in this block's buffer
//!     after quad j, slice j of the windows on block n-1's buffer:
//!         A = W[t..t+4], B = W[t+k..t+k+4] (two loads), B's bit bj moved to bit bi,
//!         bad |= the lanes' DVs where bit bi of A ^ B differs from eq        (xmm)
//!     then block n-1's mask = !(OR of bad's lanes): exact; non-zero (about one random
//!     block in 20): its recompression tests, out of line
//! after the last block: its own windows and tests
//! ```
//!
//! The filter of a block depends on its words only, never on a chaining value, and so
//! runs beside the next block's rounds; but only where the two are interleaved in program
//! order, each slice between two quads: the reorder buffer retires in order, and a whole
//! block's filter after its rounds fills it behind the rounds' chain. An empty `asm!`
//! that takes the round state and the slice's result keeps LLVM's scheduler from moving
//! the slices together; the windows load through a pointer LLVM cannot see through, which
//! keeps it from holding the stored vectors in registers for them (and spilling the
//! rounds' registers). No row branches: the mask is exact after the windows, so only the
//! rare non-zero mask takes a branch the predictor can miss. Why so (and the scalar
//! shapes measured against it): docs/design.md, "SHA-1 collision detection".

use core::arch::x86_64::*;

use super::sha_ni::{Form, bswap128, forms, load_state, pieces, quad, ring, store_state};
use crate::sha1::dc::data::{CONDITIONS, Condition};
use crate::sha1::dc::soft;
use crate::sha1::twenty;

/// A block's 80 expanded words in order.
#[repr(C, align(16))]
struct Spill([u32; 80]);

impl Spill {
    /// Stores message vector `M[j]` (words `4j..4j + 4`, word `4j` in its top lane) in
    /// order.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn put(&mut self, j: usize, v: __m128i) {
        let q: &mut [u32; 4] = (&mut self.0[4 * j..4 * j + 4]).try_into().expect("4 words");
        // SAFETY: `q` is 16 writable bytes, 16-byte aligned (`Spill` is, and `q` starts
        // 16j bytes into it); SSE2 is part of x86-64.
        unsafe { _mm_store_si128(q.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(v)) }
    }

    /// The words, through a pointer the compiler cannot see through: their loads then
    /// read memory (the load ports), where LLVM would otherwise keep the stored vectors
    /// in registers for them, out of registers the rounds need.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn opaque(&self) -> Words<'_> {
        Words(
            core::hint::black_box(self.0.as_ptr()),
            core::marker::PhantomData,
        )
    }
}

/// A [`Spill`]'s words behind a pointer ([`Spill::opaque`]).
struct Words<'a>(*const u32, core::marker::PhantomData<&'a Spill>);

impl Words<'_> {
    /// Words `t..t + 4` (`t <= 76`), word `t` in the bottom lane.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn window(&self, t: usize) -> __m128i {
        assert!(t <= 76);
        // SAFETY: the pointer is to the 80 words of the `Spill` this borrows, so
        // `t..t + 4` lie inside it; `loadu` has no alignment requirement; SSE2 is part of
        // x86-64.
        unsafe { _mm_loadu_si128(self.0.add(t).cast()) }
    }
}

/// Four rows of the filter that differ only in their words: row `l` (lane `l`) tests bit
/// `bi` of `W[t + l]` against bit `bj` of `W[t + l + k]` (XOR `eq`) and rules out
/// `dvs[l]` (0 where the lane holds no row).
#[derive(Clone, Copy)]
struct Window {
    t: u8,
    k: u8,
    bi: u8,
    bj: u8,
    eq: u8,
    dvs: [u32; 4],
}

/// The most windows [`WINDOWS`] may need.
const MAX_WINDOWS: usize = 64;

/// Whether two rows differ only in their words' index (the same distance between them).
const fn same_shape(a: &Condition, b: &Condition) -> bool {
    a.bi == b.bi && a.bj == b.bj && a.eq == b.eq && a.j - a.i == b.j - b.i
}

/// Every row of [`CONDITIONS`] in a [`Window`], and how many windows: for the first row
/// not yet placed, the rows of its shape from the least word index not yet placed, four
/// word indices a window.
const WINDOWS: ([Window; MAX_WINDOWS], usize) = {
    let none = Window {
        t: 0,
        k: 0,
        bi: 0,
        bj: 0,
        eq: 0,
        dvs: [0; 4],
    };
    let mut out = [none; MAX_WINDOWS];
    let mut placed = [false; CONDITIONS.len()];
    let mut n = 0;
    let mut r = 0;
    while r < CONDITIONS.len() {
        if placed[r] {
            r += 1;
            continue;
        }
        let c = &CONDITIONS[r];
        assert!(c.j >= c.i);
        let mut t = c.i;
        let mut q = 0;
        while q < CONDITIONS.len() {
            if !placed[q] && same_shape(&CONDITIONS[q], c) && CONDITIONS[q].i < t {
                t = CONDITIONS[q].i;
            }
            q += 1;
        }
        let k = c.j - c.i;
        assert!(t as usize + 3 + (k as usize) < 80);
        out[n] = Window {
            t,
            k,
            bi: c.bi,
            bj: c.bj,
            eq: c.eq,
            dvs: [0; 4],
        };
        let mut q = 0;
        while q < CONDITIONS.len() {
            let d = &CONDITIONS[q];
            if !placed[q] && same_shape(d, c) && d.i >= t && d.i < t + 4 {
                out[n].dvs[(d.i - t) as usize] |= d.dvs;
                placed[q] = true;
            }
            q += 1;
        }
        n += 1;
    }
    assert!(n <= MAX_WINDOWS);
    (out, n)
};

/// [`WINDOWS`]' windows, where [`window`] reads them: a static, so that an unoptimised
/// build indexes it in place (a `const` indexed at run time is copied whole first).
static TABLE: [Window; MAX_WINDOWS] = WINDOWS.0;

/// The most windows in one of the 20 slices ([`slice`]).
const PER_SLICE: usize = 3;
const _: () = assert!(WINDOWS.1.div_ceil(20) <= PER_SLICE);

/// Windows `J * n / 20 .. (J + 1) * n / 20` of the `n` in [`WINDOWS`] (slice `J` of 20):
/// the DVs they rule out on `w`, ORed lane by lane into `bad`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn slice<const J: usize>(w: &Words<'_>, bad: &mut __m128i) {
    let n = WINDOWS.1;
    let (lo, hi) = (J * n / 20, (J + 1) * n / 20);
    // Constant conditions and indexes: optimised, each window folds to its instructions.
    let mut i = 0;
    while i < PER_SLICE {
        if lo + i < hi {
            window(w, lo + i, bad);
        }
        i += 1;
    }
}

/// Window `n` of [`TABLE`]: the DVs it rules out on `w`, ORed lane by lane into `bad`.
/// Inlined with a constant `n` (from [`slice`]), its loads from the table, shifts and
/// choices fold away; unoptimised, it is one call with one small frame, so that the
/// kernel's frame stays small.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
#[cfg_attr(simdcrypt_unoptimised, inline(never))]
fn window(w: &Words<'_>, n: usize, bad: &mut __m128i) {
    let wd = &TABLE[n];
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let a = w.window(wd.t.into());
        let b = w.window(usize::from(wd.t) + usize::from(wd.k));
        // Bit bj of each word of `b` moved to bit bi.
        let b = if wd.bi > wd.bj {
            _mm_sll_epi32(b, _mm_cvtsi32_si128(i32::from(wd.bi - wd.bj)))
        } else if wd.bi < wd.bj {
            _mm_srl_epi32(b, _mm_cvtsi32_si128(i32::from(wd.bj - wd.bi)))
        } else {
            b
        };
        let bit = _mm_set1_epi32(1 << wd.bi);
        // All ones where the two bits are equal (their XOR is 0).
        let x = _mm_and_si128(_mm_xor_si128(a, b), bit);
        let same = _mm_cmpeq_epi32(x, _mm_setzero_si128());
        let dvs = _mm_loadu_si128(wd.dvs.as_ptr().cast());
        // Ruled out: where the bits differ (eq 0) or are equal (eq 1).
        let f = if wd.eq == 1 {
            _mm_and_si128(same, dvs)
        } else {
            _mm_andnot_si128(same, dvs)
        };
        *bad = _mm_or_si128(*bad, f);
    }
}

/// The OR of the four lanes.
#[inline(always)]
fn or_lanes(v: __m128i) -> u32 {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let h = _mm_or_si128(v, _mm_shuffle_epi32::<0x4e>(v));
        let h = _mm_or_si128(h, _mm_shuffle_epi32::<0xb1>(h));
        _mm_cvtsi128_si32(h) as u32
    }
}

/// The mask of the block in `w` from what its windows ruled out (`bad`, lane by lane),
/// and, if it is non-zero, its recompression tests: the block compressed from `before` to `after`.
/// The DV of the first hit, if one hits.
#[inline(always)]
fn finish_block(
    w: &Spill,
    bad: __m128i,
    before: (__m128i, __m128i),
    after: (__m128i, __m128i),
) -> Option<u8> {
    let mask = !or_lanes(bad);
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
    soft::test_compressed(&input, &output, &w.0, mask)
}

/// Compresses `head` and then `rest` (one sequence of blocks: a message's whole blocks
/// and its padded last ones) into `state` with collision detection, up to the first block
/// that a recompression test flags: its index and the DV's number (that block compressed once,
/// the ones after it not), or `None` with every block compressed. `FORM` is the
/// schedule's form (`sha_ni::forms`).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_impl<const FORM: u8>(
    state: &mut [u32; 5],
    [head, rest]: [&[[u8; 64]]; 2],
) -> Option<(usize, u8)> {
    let len = head.len() + rest.len();
    let (mut abcd, mut e) = load_state(state);
    // Each block's words go to one buffer while the rows read the other's.
    let (mut w0, mut w1) = (Spill([0; 80]), Spill([0; 80]));
    let mut before = (abcd, e);
    macro_rules! one {
        ($at:expr, $w:ident, $prev:ident) => {{
            let at: usize = $at;
            let block = if at < head.len() { &head[at] } else { &rest[at - head.len()] };
            let mut m = ring(pieces(block).map(|v| bswap128(v)));
            for (j, v) in m[..4].iter().enumerate() {
                $w.put(j, *v);
            }
            let (abcd0, e0) = (abcd, e);
            let mut s = abcd;
            let mut x = _mm_add_epi32(e0, m[0]);
            let mut last = s;
            let mut bad = _mm_setzero_si128();
            let pw = $prev.opaque();
            macro_rules! step {
                        ($j:literal, $f:literal) => {
                            quad!($j, $f, s, x, m, last, FORM);
                            if $j >= 3 && $j < 19 {
                                $w.put($j + 1, m[($j + 1) % 8]);
                            }
                            slice::<$j>(&pw, &mut bad);
                            // SAFETY: an empty template: it only ties the slice's result and the
                            // round state to one point in the instruction order.
                            unsafe {
                                core::arch::asm!(
                                    "/* {0:x} {1:x} */",
                                    inout(xmm_reg) s,
                                    inout(xmm_reg) bad,
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
    // Optimised, the two buffers' roles are fixed in two copies of the loop body (their
    // addresses constants); unoptimised, one copy picks them, which halves the frame.
    #[cfg(not(simdcrypt_unoptimised))]
    while at < len {
        one!(at, w0, w1);
        at += 1;
        if at == len {
            break;
        }
        one!(at, w1, w0);
        at += 1;
    }
    #[cfg(simdcrypt_unoptimised)]
    while at < len {
        let (now, prev) = if at % 2 == 0 {
            (&mut w0, &w1)
        } else {
            (&mut w1, &w0)
        };
        one!(at, now, prev);
        at += 1;
    }
    if at > 0 {
        let w = if at % 2 == 1 { &w0 } else { &w1 };
        let mut bad = _mm_setzero_si128();
        let pw = w.opaque();
        macro_rules! all {
            ($j:literal, $f:literal) => {
                slice::<$j>(&pw, &mut bad);
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
        fn $name(state: &mut [u32; 5], parts: [&[[u8; 64]]; 2]) -> Option<(usize, u8)> {
            compress_impl::<{ $form }>(state, parts)
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
    compress_parts(form, state, [blocks, &[]])
}

/// [`compress`] over `parts[0]` and then `parts[1]`, in one call (index into the two).
pub(crate) fn compress_parts(
    form: Form,
    state: &mut [u32; 5],
    parts: [&[[u8; 64]]; 2],
) -> Option<(usize, u8)> {
    match form {
        // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1, and the
        // `Avx512Token` AVX, AVX2 and AVX-512 F/VL.
        Form::Vector(..) => unsafe { vector(state, parts) },
        // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1.
        Form::Rol2(_) => unsafe { rol2(state, parts) },
        // SAFETY: as for `Rol2`.
        Form::ShaUnit(_) => unsafe { sha_unit(state, parts) },
    }
}

/// The mask [`WINDOWS`] give on the expanded message `w` (what the kernel's slices find,
/// all at once), for the tests.
#[cfg(test)]
pub(crate) fn windows_mask(w: &[u32; 80]) -> u32 {
    let spill = Spill(*w);
    let words = spill.opaque();
    // SAFETY: SSE2 is part of x86-64.
    let mut bad = unsafe { _mm_setzero_si128() };
    macro_rules! all {
        ($j:literal, $f:literal) => {
            slice::<$j>(&words, &mut bad);
        };
    }
    twenty!(all);
    !or_lanes(bad)
}
