//! SHA-1 collision detection on SHA-NI, one stream: the filter on the schedule the rounds
//! compute, one block behind the rounds, its prefix branch-free between the quads.
//!
//! ```text
//! WINDOWS = the 156 rows, four of one shape (bits, eq, distance j - i) on four
//!           consecutive word indices a window: 53 windows, ordered greedily by the DVs
//!           they leave on random blocks                                (when compiled)
//! for each block n:
//!     the 80 rounds on SHA-NI (sha_ni's quads, in the CPU's schedule form), each message
//!     vector M[j] stored in order as it is made, in this block's buffer
//!     after quad j, window j of the first 20 on block n-1's buffer:
//!         A = W[t..t+4], B = W[t+k..t+k+4] (two loads), B's bit bj moved to bit bi,
//!         bad |= the lanes' DVs where bit bi of A ^ B differs from eq        (xmm)
//!     then block n-1's mask = !(OR of bad's lanes); non-zero (about one random block in
//!     5), out of line: each DV's rows the prefix left, up to the first that fails; still
//!     non-zero (one in 20): its recompression tests
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
//! rounds' registers). No row branches in the prefix: only the non-zero mask it leaves
//! takes a branch the predictor can miss. Why so (and the scalar
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
    /// A pointer to words `t..t + N` (`t + N <= 80`), readable for `4 N` bytes.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load<const N: usize>(&self, t: usize) -> *const u32 {
        assert!(t + N <= 80);
        // SAFETY: the pointer is to the 80 words of the `Spill` this borrows, so `t`
        // lies inside it.
        unsafe { self.0.add(t) }
    }
}

/// Up to eight rows of the filter that differ only in their words: row `l` (lane `l`)
/// tests bit `bi` of `W[t + l]` against bit `bj` of `W[t + l + k]` (XOR `eq`) and rules
/// out `dvs[l]` (0 where the lane holds no row). A four-lane table uses `dvs[..4]`.
#[derive(Clone, Copy)]
struct Window {
    t: u8,
    k: u8,
    bi: u8,
    bj: u8,
    eq: u8,
    dvs: [u32; 8],
}

/// The most windows a table may need.
const MAX_WINDOWS: usize = 64;

/// The rows of [`CONDITIONS`] grouped into windows of one register width, and the order
/// in which the kernel runs them.
#[derive(Clone, Copy)]
struct Windows {
    /// The windows, in the order they run: each next one the window that leaves the
    /// fewest DVs expected on random blocks ([`Windows::new`]).
    w: [Window; MAX_WINDOWS],
    /// How many.
    n: usize,
    /// The window (its place in `w`) that holds each row of [`CONDITIONS`].
    of: [u8; CONDITIONS.len()],
}

/// Whether two rows differ only in their words' index (the same distance between them).
const fn same_shape(a: &Condition, b: &Condition) -> bool {
    a.bi == b.bi && a.bj == b.bj && a.eq == b.eq && a.j - a.i == b.j - b.i
}

/// Expected DVs left, in units of 2^-50, for a DV that `n` rows ruled out on random
/// blocks: each of a DV's rows holds on half of them, independently (a DV's conditions
/// are linearly independent).
#[cfg(test)]
const fn left(n: u32) -> u64 {
    if n >= 50 { 0 } else { 1 << (50 - n) }
}

/// How many padding blocks order the windows ([`padding_blocks`]).
#[cfg(test)]
const PADDING: usize = 64;

/// The expanded words of padding blocks, which a message whose length is a multiple of 64
/// bytes, or leaves 56 to 63 in its last block, ends with (the marker and the length, or
/// the length alone): for the lengths 0 to 15 and 16 spread up to 2^40, each with and
/// without the marker. The same block ends every such message of that length, so a prefix
/// that leaves a DV on it sends every call out of line ([`Windows::new`] orders for them
/// first; on random lengths up to 2^40 it then leaves about as many as on random blocks).
#[cfg(test)]
const fn padding_blocks() -> [[u32; 80]; PADDING] {
    let mut out = [[0; 80]; PADDING];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut n = 0;
    while n < PADDING / 2 {
        let len = if n < 16 {
            n as u64
        } else {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            x >> 24
        };
        let mut marker = 0;
        while marker < 2 {
            let w = &mut out[2 * n + marker];
            w[0] = if marker == 1 { 0x8000_0000 } else { 0 };
            w[14] = ((8 * len) >> 32) as u32;
            w[15] = (8 * len) as u32;
            let mut t = 16;
            while t < 80 {
                w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
                t += 1;
            }
            marker += 1;
        }
        n += 1;
    }
    out
}

/// The DVs that window `wd` (of `lanes` lanes) rules out on the expanded words `w`.
#[cfg(test)]
const fn rules_out(wd: &Window, lanes: usize, w: &[u32; 80]) -> u32 {
    let mut bad = 0;
    let mut l = 0;
    while l < lanes {
        let (i, j) = (wd.t as usize + l, (wd.t + wd.k) as usize + l);
        if wd.dvs[l] != 0 && (w[i] >> wd.bi ^ w[j] >> wd.bj) & 1 != wd.eq as u32 {
            bad |= wd.dvs[l];
        }
        l += 1;
    }
    bad
}

impl Windows {
    /// Every row of [`CONDITIONS`] in a window of `lanes` lanes: for the first row not yet
    /// placed, the rows of its shape from the least word index not yet placed, `lanes`
    /// word indices a window; then in `order` (window `order[p]` of these runs `p`th:
    /// [`ORDER_4`], [`ORDER_8`]).
    const fn new(lanes: usize, order: &[u8]) -> Windows {
        assert!(lanes <= 8);
        let none = Window {
            t: 0,
            k: 0,
            bi: 0,
            bj: 0,
            eq: 0,
            dvs: [0; 8],
        };
        let mut w = [none; MAX_WINDOWS];
        let mut of = [0u8; CONDITIONS.len()];
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
            let k = c.j - c.i;
            let mut t = c.i;
            let mut q = 0;
            while q < CONDITIONS.len() {
                if !placed[q] && same_shape(&CONDITIONS[q], c) && CONDITIONS[q].i < t {
                    t = CONDITIONS[q].i;
                }
                q += 1;
            }
            // Both loads inside the 80 words.
            if t as usize + lanes + k as usize > 80 {
                t = (80 - lanes - k as usize) as u8;
            }
            w[n] = Window {
                t,
                k,
                bi: c.bi,
                bj: c.bj,
                eq: c.eq,
                dvs: [0; 8],
            };
            let mut q = 0;
            while q < CONDITIONS.len() {
                let d = &CONDITIONS[q];
                if !placed[q] && same_shape(d, c) && d.i >= t && (d.i as usize) < t as usize + lanes
                {
                    w[n].dvs[(d.i - t) as usize] |= d.dvs;
                    placed[q] = true;
                    of[q] = n as u8;
                }
                q += 1;
            }
            n += 1;
            assert!(n <= MAX_WINDOWS);
        }
        // The order, checked to be one of the `n` windows each.
        assert!(order.len() >= n);
        let mut out = [none; MAX_WINDOWS];
        let mut at = [u8::MAX; MAX_WINDOWS];
        let mut p = 0;
        while p < n {
            let x = order[p] as usize;
            assert!(x < n && at[x] == u8::MAX);
            at[x] = p as u8;
            out[p] = w[x];
            p += 1;
        }
        let mut q = 0;
        while q < CONDITIONS.len() {
            of[q] = at[of[q] as usize];
            q += 1;
        }
        Windows { w: out, n, of }
    }
}

/// The greedy order of a width's windows (the `n` of `w`, `lanes` lanes, in the order
/// [`Windows::new`] groups them): each next window the one that leaves the fewest DVs on
/// the [`padding_blocks`], then the one that most lowers the expected number of DVs left
/// on random blocks. [`ORDER_4`] and [`ORDER_8`] are its output, checked by the tests (a
/// generator run when compiled would cost every build seconds).
#[cfg(test)]
fn greedy_order(w: &[Window; MAX_WINDOWS], n: usize, lanes: usize) -> std::vec::Vec<u8> {
    let pads = padding_blocks();
    let mut order = std::vec::Vec::new();
    let mut taken = [false; MAX_WINDOWS];
    let mut rows = [0u32; 32];
    let mut ruled = [0u32; PADDING];
    let mut p = 0;
    while p < n {
        let (mut best, mut left_pads, mut gain) = (n, 0, 0);
        let mut x = 0;
        while x < n {
            if !taken[x] {
                let mut g = 0;
                let mut d = 0;
                while d < 32 {
                    let mut c = 0;
                    let mut l = 0;
                    while l < lanes {
                        c += w[x].dvs[l] >> d & 1;
                        l += 1;
                    }
                    g += left(rows[d]) - left(rows[d] + c);
                    d += 1;
                }
                let mut lp = 0;
                let mut b = 0;
                while b < PADDING {
                    lp += (!(ruled[b] | rules_out(&w[x], lanes, &pads[b]))).count_ones();
                    b += 1;
                }
                if best == n || lp < left_pads || (lp == left_pads && g > gain) {
                    (best, left_pads, gain) = (x, lp, g);
                }
            }
            x += 1;
        }
        taken[best] = true;
        order.push(best as u8);
        let mut d = 0;
        while d < 32 {
            let mut l = 0;
            while l < lanes {
                rows[d] += w[best].dvs[l] >> d & 1;
                l += 1;
            }
            d += 1;
        }
        let mut b = 0;
        while b < PADDING {
            ruled[b] |= rules_out(&w[best], lanes, &pads[b]);
            b += 1;
        }
        p += 1;
    }
    order
}

/// The most rows of one DV ([`Tail`]).
const MAX_TAIL: usize = 16;

/// Each DV's rows outside a width's prefix, and how many.
type Tail = [([Condition; MAX_TAIL], usize); 32];

/// The rows of each DV that the first `prefix` windows of `t` leave out.
const fn tail(t: &Windows, prefix: usize) -> Tail {
    let none = Condition {
        i: 0,
        bi: 0,
        j: 0,
        bj: 0,
        eq: 0,
        dvs: 0,
    };
    let mut out = [([none; MAX_TAIL], 0); 32];
    let mut q = 0;
    while q < CONDITIONS.len() {
        if t.of[q] as usize >= prefix {
            let mut d = 0;
            while d < 32 {
                if CONDITIONS[q].dvs >> d & 1 == 1 {
                    let n = out[d].1;
                    assert!(n < MAX_TAIL);
                    out[d].0[n] = CONDITIONS[q];
                    out[d].1 = n + 1;
                }
                d += 1;
            }
        }
        q += 1;
    }
    out
}

/// A filter register of `N` lanes: words `t..t + N` of a window's two loads.
trait Lanes: Copy {
    /// The windows for this width ([`Windows::new`]).
    const WINDOWS: Windows;
    /// How many of them run on every block, between the quads ([`slice`]); the rest of
    /// the rows run per DV, only for the DVs these leave ([`rest`]).
    const PREFIX: usize;
    /// The rows after the prefix, per DV ([`tail`]).
    fn tail() -> &'static Tail;
    /// All lanes zero.
    fn zero() -> Self;
    /// Prefix windows `J * P / 20 .. (J + 1) * P / 20` (slice `J` of 20, `P` the prefix):
    /// the DVs they rule out on `w`, ORed lane by lane into `self`.
    fn slice<const J: usize>(&mut self, w: &Words<'_>);
    /// [`Lanes::slice`] where no rounds run beside it (the last block's filter).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn alone<const J: usize>(&mut self, w: &Words<'_>) {
        self.slice::<J>(w);
    }
    /// The OR of the lanes.
    fn or_lanes(self) -> u32;
    /// Ties `self` and the round state `s` to one point in the instruction order (an empty
    /// `asm!`).
    fn tie(&mut self, s: &mut __m128i);
}

/// Four lanes (SSE2).
#[derive(Clone, Copy)]
struct X4(__m128i);

/// The order of the four-lane windows ([`greedy_order`]'s).
#[rustfmt::skip]
const ORDER_4: [u8; 53] = [
    15, 10, 1, 16, 9, 14, 42, 11, 2, 25, 13, 6, 35, 4, 26, 0, 5, 12, 41, 32, 7, 37, 28, 43, 3,
    21, 27, 44, 23, 45, 20, 46, 8, 19, 38, 22, 18, 17, 33, 30, 34, 50, 40, 36, 24, 49, 31, 39,
    47, 52, 29, 51, 48,
];
const WINDOWS_4: Windows = Windows::new(4, &ORDER_4);
static TABLE_4: [Window; MAX_WINDOWS] = WINDOWS_4.w;
static TAIL_4: Tail = tail(&WINDOWS_4, X4::PREFIX);

/// One window's test on registers of either width: `$a`, `$b` its two loads.
macro_rules! rule_out {
    ($acc:expr, $wd:expr, $a:expr, $b:expr, $sll:ident, $srl:ident, $set1:ident, $xor:ident,
     $and:ident, $andnot:ident, $cmpeq:ident, $zero:ident, $or:ident, $dvs:expr) => {{
        let wd: &Window = $wd;
        let (a, b) = ($a, $b);
        // Bit bj of each word of `b` moved to bit bi.
        let b = if wd.bi > wd.bj {
            $sll(b, _mm_cvtsi32_si128(i32::from(wd.bi - wd.bj)))
        } else if wd.bi < wd.bj {
            $srl(b, _mm_cvtsi32_si128(i32::from(wd.bj - wd.bi)))
        } else {
            b
        };
        let bit = $set1(1 << wd.bi);
        // All ones where the two bits are equal (their XOR is 0).
        let same = $cmpeq($and($xor(a, b), bit), $zero());
        let dvs = $dvs;
        // Ruled out: where the bits differ (eq 0) or are equal (eq 1).
        let f = if wd.eq == 1 {
            $and(same, dvs)
        } else {
            $andnot(same, dvs)
        };
        $acc = $or($acc, f);
    }};
}

impl Lanes for X4 {
    const WINDOWS: Windows = WINDOWS_4;
    const PREFIX: usize = 28;
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn tail() -> &'static Tail {
        &TAIL_4
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero() -> X4 {
        // SAFETY: SSE2 is part of x86-64.
        X4(unsafe { _mm_setzero_si128() })
    }
    #[inline(always)]
    fn or_lanes(self) -> u32 {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let h = _mm_or_si128(self.0, _mm_shuffle_epi32::<0x4e>(self.0));
            let h = _mm_or_si128(h, _mm_shuffle_epi32::<0xb1>(h));
            _mm_cvtsi128_si32(h) as u32
        }
    }
    #[inline(always)]
    fn tie(&mut self, s: &mut __m128i) {
        // SAFETY: an empty template: it only ties the two values to one point in the
        // instruction order.
        unsafe {
            core::arch::asm!(
                "/* {0:x} {1:x} */",
                inout(xmm_reg) *s,
                inout(xmm_reg) self.0,
                options(pure, nomem, nostack, preserves_flags),
            )
        };
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn slice<const J: usize>(&mut self, w: &Words<'_>) {
        let (lo, hi) = (J * Self::PREFIX / 20, (J + 1) * Self::PREFIX / 20);
        // Constant conditions and indexes: optimised, each window folds to its instructions.
        let mut n = lo;
        while n < hi {
            window(w, n, self);
            n += 1;
        }
    }
}

impl X4 {
    /// The DVs that window `wd` rules out on `w`, ORed lane by lane into `self`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rule_out(&mut self, w: &Words<'_>, wd: &Window) {
        let t = usize::from(wd.t);
        let (a, b) = (w.load::<4>(t), w.load::<4>(t + usize::from(wd.k)));
        // SAFETY: the loads are 16 bytes inside the 80 words (`Words::load`); SSE2 is
        // part of x86-64.
        unsafe {
            rule_out!(
                self.0,
                wd,
                _mm_loadu_si128(a.cast()),
                _mm_loadu_si128(b.cast()),
                _mm_sll_epi32,
                _mm_srl_epi32,
                _mm_set1_epi32,
                _mm_xor_si128,
                _mm_and_si128,
                _mm_andnot_si128,
                _mm_cmpeq_epi32,
                _mm_setzero_si128,
                _mm_or_si128,
                _mm_loadu_si128(wd.dvs.as_ptr().cast())
            )
        }
    }
}

/// Eight lanes on AVX-512 VL: each window one `asm!` on ymm16-ymm19 (and `k1`). The SHA
/// instructions have legacy-SSE encodings only, and a VEX.256 write to ymm0-ymm15 between
/// them makes every switch cost some hundred nanoseconds (docs/design.md, "SHA-1
/// collision detection"); ymm16-ymm31, which legacy SSE cannot name, do not, and LLVM
/// cannot be asked to keep to them. Between the rounds the windows OR into memory
/// ([`z8_window`]: no `vptestmd` and no lane crossing, which measured slower there);
/// alone, into a register ([`z8_window_alone`]: the memory form's store-to-load chain is
/// its latency there).
#[derive(Clone, Copy)]
struct Z8 {
    /// What the windows between the rounds ruled out.
    mem: Acc8,
    /// What the windows of a block with no rounds beside them ruled out (lanes ORed in
    /// pairs).
    reg: __m128i,
}

/// [`Z8`]'s accumulator, in memory.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Acc8([u32; 8]);

/// The order of the eight-lane windows ([`greedy_order`]'s).
#[rustfmt::skip]
const ORDER_8: [u8; 37] = [
    6, 8, 5, 1, 9, 17, 0, 16, 7, 29, 3, 2, 26, 18, 13, 21, 23, 4, 25, 15, 12, 11, 31, 10, 32,
    20, 22, 28, 34, 24, 14, 33, 27, 30, 36, 19, 35,
];
const WINDOWS_8: Windows = Windows::new(8, &ORDER_8);
static TAIL_8: Tail = tail(&WINDOWS_8, Z8::PREFIX);

/// A window of eight lanes as [`Z8`]'s `asm!` reads it (offsets fixed by `repr(C)`).
#[repr(C, align(64))]
struct Window8 {
    /// The lanes' DVs.
    dvs: [u32; 8],
    /// Bit `bi`.
    bit: u32,
    /// Bit `bi` if `eq`, else 0: `A ^ rol(B, bi - bj) ^ eq_bit` has bit `bi` set where the
    /// row fails.
    eq_bit: u32,
}

/// [`WINDOWS_8`] as the `asm!` reads it.
static TABLE_8: [Window8; MAX_WINDOWS] = {
    let mut out = [const {
        Window8 {
            dvs: [0; 8],
            bit: 0,
            eq_bit: 0,
        }
    }; MAX_WINDOWS];
    let mut n = 0;
    while n < WINDOWS_8.n {
        let w = &WINDOWS_8.w[n];
        out[n] = Window8 {
            dvs: w.dvs,
            bit: 1 << w.bi,
            eq_bit: (w.eq as u32) << w.bi,
        };
        n += 1;
    }
    out
};

impl Lanes for Z8 {
    const WINDOWS: Windows = WINDOWS_8;
    const PREFIX: usize = 16;
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn tail() -> &'static Tail {
        &TAIL_8
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero() -> Z8 {
        Z8 {
            mem: Acc8([0; 8]),
            reg: X4::zero().0,
        }
    }
    #[inline(always)]
    fn or_lanes(self) -> u32 {
        self.mem
            .0
            .iter()
            .fold(X4(self.reg).or_lanes(), |a, b| a | b)
    }
    #[inline(always)]
    fn tie(&mut self, s: &mut __m128i) {
        // SAFETY: an empty template: it only ties the round state and the accumulator's
        // last write (the window's `asm!` before it) to one point in the instruction order.
        unsafe {
            core::arch::asm!(
                "/* {0:x} {1} */",
                inout(xmm_reg) *s,
                in(reg) self.mem.0.as_ptr(),
                options(nostack, preserves_flags),
            )
        };
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn slice<const J: usize>(&mut self, w: &Words<'_>) {
        if J * Self::PREFIX / 20 < (J + 1) * Self::PREFIX / 20 {
            // SAFETY: a `Z8` runs only inside the entry that enables AVX-512 F/VL
            // (`vector`), on a CPU whose token proves them.
            unsafe { z8_window::<J>(w.load::<8>(0), &mut self.mem) }
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn alone<const J: usize>(&mut self, w: &Words<'_>) {
        if J * Self::PREFIX / 20 < (J + 1) * Self::PREFIX / 20 {
            // SAFETY: as in `slice`.
            unsafe { z8_window_alone::<J>(w.load::<8>(0), &mut self.reg) }
        }
    }
}

/// Window `J * P / 20` of [`WINDOWS_8`] (`P` = [`Z8::PREFIX`]) on the words at `w`, ORed
/// into `acc`: `A = W[t..t+8]` rotated to put bit `bi` on top, `B = W[t+k..t+k+8]` bit
/// `bj`, their XOR spread down (all ones where the bits differ), and `acc |= dvs` where
/// that fails the row (`eq` 0: where they differ).
///
/// # Safety
/// The CPU has AVX-512 F and VL; `w` points to the 80 words of a [`Spill`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn z8_window<const J: usize>(w: *const u32, acc: &mut Acc8) {
    // SAFETY: the caller's contract; the window's loads lie inside the 80 words (`t + k +
    // 8 <= 80`, `Windows::new`), the table's inside `TABLE_8`, and `acc` is 32 writable
    // bytes; the asm writes only the registers it names and `acc`.
    unsafe {
        core::arch::asm!(
            "vprold ymm16, ymmword ptr [{w} + {a}], {ra}",
            "vprold ymm17, ymmword ptr [{w} + {b}], {rb}",
            "vpxord ymm16, ymm16, ymm17",
            "vpsrad ymm16, ymm16, 31",
            "vmovdqa32 ymm18, ymmword ptr [{acc}]",
            "vpternlogd ymm18, ymm16, ymmword ptr [rip + {tab} + {dvs}], {imm}",
            "vmovdqa32 ymmword ptr [{acc}], ymm18",
            w = in(reg) w,
            acc = in(reg) acc.0.as_mut_ptr(),
            tab = sym TABLE_8,
            a = const 4 * WINDOWS_8.w[J * Z8::PREFIX / 20].t as usize,
            b = const 4 * (WINDOWS_8.w[J * Z8::PREFIX / 20].t as usize
                + WINDOWS_8.w[J * Z8::PREFIX / 20].k as usize),
            ra = const 31 - WINDOWS_8.w[J * Z8::PREFIX / 20].bi as u32,
            rb = const 31 - WINDOWS_8.w[J * Z8::PREFIX / 20].bj as u32,
            dvs = const 64 * (J * Z8::PREFIX / 20),
            // acc | (differ & dvs) where the row needs the bits equal, else
            // acc | (!differ & dvs).
            imm = const if WINDOWS_8.w[J * Z8::PREFIX / 20].eq == 0 { 0xf8 } else { 0xf2 },
            out("ymm16") _,
            out("ymm17") _,
            out("ymm18") _,
            options(nostack, preserves_flags),
        )
    };
}

/// [`z8_window`] where no rounds run beside it (the last block's filter), ORed into an
/// xmm register, not memory (whose store-to-load chain would then be the window's
/// latency): `A = W[t..t+8]`, `B = W[t+k..t+k+8]` rotated left by `bi - bj` (bit `bj` to bit
/// `bi`), `k1` = the lanes where bit `bi` of `A ^ B ^ eq_bit` is set (the row fails), their
/// DVs loaded under `k1`, the two halves ORed into `acc`.
///
/// # Safety
/// The CPU has AVX-512 F and VL; `w` points to the 80 words of a [`Spill`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn z8_window_alone<const J: usize>(w: *const u32, acc: &mut __m128i) {
    // SAFETY: the caller's contract; the window's loads lie inside the 80 words (`t + k +
    // 8 <= 80`, `Windows::new`) and the table's inside `TABLE_8`; the asm writes only the
    // registers it names.
    unsafe {
        core::arch::asm!(
            "vmovdqu32 ymm16, ymmword ptr [{w} + {a}]",
            "vprold ymm17, ymmword ptr [{w} + {b}], {r}",
            "vpternlogd ymm16, ymm17, dword ptr [rip + {tab} + {eq}]{{1to8}}, 0x96",
            "vptestmd k1, ymm16, dword ptr [rip + {tab} + {bit}]{{1to8}}",
            "vmovdqu32 ymm18{{k1}}{{z}}, ymmword ptr [rip + {tab} + {dvs}]",
            "vextracti32x4 xmm19, ymm18, 1",
            "vpternlogd {acc}, xmm18, xmm19, 0xfe",
            w = in(reg) w,
            acc = inout(xmm_reg) *acc,
            tab = sym TABLE_8,
            a = const 4 * WINDOWS_8.w[J * Z8::PREFIX / 20].t as usize,
            b = const 4 * (WINDOWS_8.w[J * Z8::PREFIX / 20].t as usize
                + WINDOWS_8.w[J * Z8::PREFIX / 20].k as usize),
            r = const (32 + WINDOWS_8.w[J * Z8::PREFIX / 20].bi as u32
                - WINDOWS_8.w[J * Z8::PREFIX / 20].bj as u32) % 32,
            eq = const 64 * (J * Z8::PREFIX / 20) + 36,
            bit = const 64 * (J * Z8::PREFIX / 20) + 32,
            dvs = const 64 * (J * Z8::PREFIX / 20),
            out("ymm16") _,
            out("ymm17") _,
            out("ymm18") _,
            out("ymm19") _,
            out("k1") _,
            options(pure, readonly, nostack, preserves_flags),
        )
    };
}

const _: () = assert!(X4::PREFIX <= X4::WINDOWS.n);
const _: () = assert!(Z8::PREFIX <= 20 && Z8::PREFIX <= Z8::WINDOWS.n);

/// Window `n` of the four-lane table: the DVs it rules out on `w`, ORed lane by lane into
/// `bad`. Inlined with a constant `n` (from [`X4::slice`]), its loads from the table,
/// shifts and choices fold away; unoptimised, it is one call with one small frame, so that
/// the kernel's frame stays small.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
#[cfg_attr(simdcrypt_unoptimised, inline(never))]
fn window(w: &Words<'_>, n: usize, bad: &mut X4) {
    bad.rule_out(w, &TABLE_4[n]);
}

/// The mask of the block in `w` from what its prefix windows ruled out (`bad`, lane by
/// lane), and, if that leaves a DV (about one random block in 10), the rest: the DVs'
/// other rows and the recompression tests of the block compressed from `before` to
/// `after`. The DV of the first hit, if one hits.
#[inline(always)]
fn finish_block<V: Lanes>(
    w: &Spill,
    bad: V,
    before: (__m128i, __m128i),
    after: (__m128i, __m128i),
) -> Option<u8> {
    let mask = !bad.or_lanes();
    if mask == 0 {
        return None;
    }
    rest(w, V::tail(), mask, before, after)
}

/// The mask `mask` (the prefix's) narrowed to the exact one by the rows of each DV in it
/// that the prefix left (`tail`): each DV's up to the first that fails.
#[inline(always)]
fn narrow(w: &[u32; 80], tail: &Tail, mask: u32) -> u32 {
    let mut out = mask;
    let mut left = mask;
    while left != 0 {
        let d = left.trailing_zeros() as usize;
        left &= left - 1;
        let (rows, n) = &tail[d];
        if rows[..*n].iter().any(|c| {
            (w[usize::from(c.i)] >> c.bi ^ w[usize::from(c.j)] >> c.bj) & 1 != u32::from(c.eq)
        }) {
            out &= !(1 << d);
        }
    }
    out
}

/// [`finish_block`]'s rest, out of line.
#[inline(never)]
fn rest(
    w: &Spill,
    tail: &Tail,
    mask: u32,
    before: (__m128i, __m128i),
    after: (__m128i, __m128i),
) -> Option<u8> {
    let mask = narrow(&w.0, tail, mask);
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
/// schedule's form (`sha_ni::forms`), `V` the filter's width.
///
/// Always inlined into its entries (`entry!`), which compile it with their features
/// (LLVM would not inline a body this large into a caller with more features than its
/// own, and the entries' features would then not reach it).
///
/// # Safety
/// Only in a function compiled with SHA, SSSE3 and SSE4.1, on a CPU that has them.
#[inline(always)]
unsafe fn compress_impl<const FORM: u8, V: Lanes>(
    state: &mut [u32; 5],
    [head, rest]: [&[[u8; 64]]; 2],
) -> Option<(usize, u8)> {
    // SAFETY: the caller's contract: the CPU has the features of every intrinsic and
    // `#[target_feature]` function called here, and the code is compiled with them.
    unsafe {
        let len = head.len() + rest.len();
        let (mut abcd, mut e) = load_state(state);
        // Each block's words go to one buffer while the rows read the other's.
        let (mut w0, mut w1) = (Spill([0; 80]), Spill([0; 80]));
        let mut before = (abcd, e);
        macro_rules! one {
            ($at:expr, $w:ident, $prev:ident) => {{
                let at: usize = $at;
                let block = if at < head.len() {
                    &head[at]
                } else {
                    &rest[at - head.len()]
                };
                let mut m = ring(pieces(block).map(|v| bswap128(v)));
                for (j, v) in m[..4].iter().enumerate() {
                    $w.put(j, *v);
                }
                let (abcd0, e0) = (abcd, e);
                let mut s = abcd;
                let mut x = _mm_add_epi32(e0, m[0]);
                let mut last = s;
                let mut bad = V::zero();
                let pw = $prev.opaque();
                macro_rules! step {
                    ($j:literal, $f:literal) => {
                        quad!($j, $f, s, x, m, last, FORM);
                        if $j >= 3 && $j < 19 {
                            $w.put($j + 1, m[($j + 1) % 8]);
                        }
                        bad.slice::<$j>(&pw);
                        bad.tie(&mut s);
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
            let mut bad = V::zero();
            let pw = w.opaque();
            macro_rules! all {
                ($j:literal, $f:literal) => {
                    bad.alone::<$j>(&pw);
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
}

/// [`compress_impl`] in each schedule form, compiled with the features it needs.
macro_rules! entry {
    ($(#[$doc:meta])* $name:ident, $form:expr, $lanes:ty, $features:literal) => {
        $(#[$doc])*
        #[inline(never)]
        #[target_feature(enable = $features)]
        fn $name(state: &mut [u32; 5], parts: [&[[u8; 64]]; 2]) -> Option<(usize, u8)> {
            // SAFETY: this function is compiled with the features `compress_impl` needs,
            // and its callers hold the tokens that prove them (`compress_parts`).
            unsafe { compress_impl::<{ $form }, $lanes>(state, parts) }
        }
    };
}

entry!(
    /// The vector form, with AVX-512 VL.
    vector,
    forms::VECTOR,
    Z8,
    "sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl"
);
entry!(
    /// The `rol2` form (SSE).
    rol2,
    forms::ROL2,
    X4,
    "sha,sse2,ssse3,sse4.1"
);
entry!(
    /// The whole schedule on the SHA unit.
    sha_unit,
    forms::SHA_UNIT,
    X4,
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

/// What a table's first `n` windows rule out on `w`, row by row in scalar code: the mask
/// they leave.
#[cfg(test)]
fn table_mask(t: &Windows, n: usize, w: &[u32; 80]) -> u32 {
    let mut bad = 0;
    for wd in &t.w[..n] {
        for (l, dvs) in wd.dvs.iter().enumerate() {
            let (i, j) = (usize::from(wd.t) + l, usize::from(wd.t + wd.k) + l);
            if *dvs != 0 && (w[i] >> wd.bi ^ w[j] >> wd.bj) & 1 != u32::from(wd.eq) {
                bad |= dvs;
            }
        }
    }
    !bad
}

/// What the filter of the eight-lane kernel (`eight`, AVX-512 VL: the caller checks it)
/// or the four-lane kernels gives on the expanded message `w`, for the tests: the mask
/// after the kernel's prefix windows (between the rounds, and alone: asserted equal), the same from its table in scalar code, after all
/// the table's windows in scalar code, and after the prefix and the per-DV rest
/// ([`narrow`]), the exact mask.
#[cfg(test)]
pub(crate) fn windows_masks(eight: bool, w: &[u32; 80]) -> [u32; 4] {
    fn masks<V: Lanes>(w: &[u32; 80]) -> [u32; 4] {
        let spill = Spill(*w);
        let words = spill.opaque();
        let (mut bad, mut alone) = (V::zero(), V::zero());
        macro_rules! all {
            ($j:literal, $f:literal) => {
                bad.slice::<$j>(&words);
                alone.alone::<$j>(&words);
            };
        }
        twenty!(all);
        let prefix = !bad.or_lanes();
        assert_eq!(
            !alone.or_lanes(),
            prefix,
            "the windows alone and between the rounds"
        );
        [
            prefix,
            table_mask(&V::WINDOWS, V::PREFIX, w),
            table_mask(&V::WINDOWS, V::WINDOWS.n, w),
            narrow(w, V::tail(), prefix),
        ]
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    fn eight_lanes(w: &[u32; 80]) -> [u32; 4] {
        masks::<Z8>(w)
    }
    if eight {
        assert!(crate::cpu::Avx512Token::get().is_some());
        // SAFETY: the CPU has AVX-512 F and VL (the token's detection).
        unsafe { eight_lanes(w) }
    } else {
        masks::<X4>(w)
    }
}

/// [`greedy_order`] for the eight-lane (`eight`) or four-lane windows, and the order
/// the kernels use ([`ORDER_8`], [`ORDER_4`]), for the tests.
#[cfg(test)]
pub(crate) fn window_orders(eight: bool) -> (std::vec::Vec<u8>, std::vec::Vec<u8>) {
    let (lanes, order): (usize, &[u8]) = if eight { (8, &ORDER_8) } else { (4, &ORDER_4) };
    let identity: std::vec::Vec<u8> = (0..MAX_WINDOWS as u8).collect();
    let grouped = Windows::new(lanes, &identity);
    (greedy_order(&grouped.w, grouped.n, lanes), order.to_vec())
}

/// How many windows the eight-lane (`eight`) or four-lane kernels have, and how many of
/// them run on every block, for the tests.
#[cfg(test)]
pub(crate) fn window_counts(eight: bool) -> (usize, usize) {
    if eight {
        (Z8::WINDOWS.n, Z8::PREFIX)
    } else {
        (X4::WINDOWS.n, X4::PREFIX)
    }
}
