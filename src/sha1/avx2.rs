//! SHA-1 on AVX2: the message schedule of two blocks at once (one per 128-bit lane) with
//! scalar BMI2 rounds, and eight independent messages at once (one per 32-bit lane).
//!
//! One stream ([`compress`]):
//! ```text
//! for each pair of blocks (B0, B1) (an odd last block is paired with itself):
//!     V[j] = (W0[4j..4j+4] | W1[4j..4j+4])        low lane from B0, high lane from B1
//!     V[j] for j < 20 by the recurrence of the SSSE3 backend, lane by lane
//!     WK0[4j..] = low lane of V[j] + K[j / 5],  WK1[4j..] = high lane of V[j] + K[j / 5]
//!     rounds(WK0); rounds(WK1)     (scalar; rorx for the rotates, andn in Ch)
//! software-pipelined: the schedule of pair i+1 is computed step by step between the
//! round groups of pair i (two WK buffers, swapped per pair)
//! ```
//!
//! Eight messages ([`compress8`]):
//! ```text
//! a..e = the eight states, transposed: lane i of a is message i's a
//! for each block index:
//!     W[t] = word t of each lane's block (8x8 transposes of the loaded rows, bswap)  t < 16
//!     for t in 0..80:
//!         W[t % 16] = rol1(W[(t-3) % 16] ^ W[(t-8) % 16] ^ W[(t-14) % 16] ^ W[t % 16])  t >= 16
//!         e += rol5(a) + f(b, c, d) + W[t % 16] + K[t / 20];  b = rol30(b);  rename
//!     a..e += the values before the block
//! ```
// The schedule and the lanes read as their index recurrences.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::{K, soft, ssse3};
use crate::cpu::{Avx2Token, Avx512Token};

/// 32-bit rotate left of every lane of a ymm register.
macro_rules! rol {
    ($x:expr, $n:literal, $m:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_slli_epi32::<$n>(x), _mm256_srli_epi32::<$m>(x))
    }};
}

/// Two 16-byte pieces, `lo` into the low lane and `hi` into the high lane.
#[inline]
#[target_feature(enable = "avx2")]
fn load2(lo: &[u8; 64], hi: &[u8; 64], i: usize) -> __m256i {
    _mm256_inserti128_si256::<1>(
        _mm256_castsi128_si256(ssse3::load(lo, i)),
        ssse3::load(hi, i),
    )
}

/// Step `j` (0..20) of the schedules of two blocks: `V[j]` (four words of each block) and
/// `WK[4j..4j+4] = V[j] + K[j / 5]` for both.
#[inline]
#[target_feature(enable = "avx2")]
fn schedule_step(
    j: usize,
    b0: &[u8; 64],
    b1: &[u8; 64],
    v: &mut [__m256i; 20],
    wk0: &mut [[u32; 4]; 20],
    wk1: &mut [[u32; 4]; 20],
) {
    let x = if j < 4 {
        let bswap = _mm256_set_epi8(
            12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4,
            5, 6, 7, 0, 1, 2, 3,
        );
        _mm256_shuffle_epi8(load2(b0, b1, j), bswap)
    } else if j < 8 {
        let x = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_srli_si256::<4>(v[j - 1]), v[j - 2]),
            _mm256_xor_si256(_mm256_alignr_epi8::<8>(v[j - 3], v[j - 4]), v[j - 4]),
        );
        let fix = rol!(_mm256_slli_si256::<12>(x), 2, 30);
        _mm256_xor_si256(rol!(x, 1, 31), fix)
    } else {
        let x = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_alignr_epi8::<8>(v[j - 1], v[j - 2]), v[j - 4]),
            _mm256_xor_si256(v[j - 7], v[j - 8]),
        );
        rol!(x, 2, 30)
    };
    v[j] = x;
    let s = _mm256_add_epi32(x, _mm256_set1_epi32(K[j / 5] as i32));
    ssse3::store(&mut wk0[j], _mm256_castsi256_si128(s));
    ssse3::store(&mut wk1[j], _mm256_extracti128_si256::<1>(s));
}

/// `W + K` of two blocks, one per 128-bit lane.
struct Sched {
    wk0: [[u32; 4]; 20],
    wk1: [[u32; 4]; 20],
}

const EMPTY: Sched = Sched {
    wk0: [[0; 4]; 20],
    wk1: [[0; 4]; 20],
};

/// Blocks `2i` and `2i + 1` (an odd last block twice: its twin's rounds are skipped).
#[inline(always)]
fn pair(blocks: &[[u8; 64]], i: usize) -> Option<(&[u8; 64], &[u8; 64])> {
    let b0 = blocks.get(2 * i)?;
    Some((b0, blocks.get(2 * i + 1).unwrap_or(b0)))
}

/// The kernel body, expanded into each entry below so that it is compiled with that
/// entry's features (a macro: `#[inline(always)]` cannot be combined with
/// `#[target_feature]`, and the helpers it calls need the caller's features).
macro_rules! compress_body {
    ($state:expr, $blocks:expr) => {{
        let state: &mut [u32; 5] = $state;
        let blocks: &[[u8; 64]] = $blocks;
        let mut v = [_mm256_setzero_si256(); 20];
        let (mut buf_a, mut buf_b) = (EMPTY, EMPTY);
        let (mut cur, mut next) = (&mut buf_a, &mut buf_b);
        let Some((b0, b1)) = pair(blocks, 0) else {
            return;
        };
        for j in 0..20 {
            schedule_step(j, b0, b1, &mut v, &mut cur.wk0, &mut cur.wk1);
        }
        let mut i = 0;
        while 2 * i < blocks.len() {
            // The next pair's schedule runs in the gaps of this pair's rounds: its first ten
            // steps after the first ten groups of five rounds of the first block, the other
            // ten likewise in the second (measured: 13% faster than computing it in one go).
            let upcoming = pair(blocks, i + 1);
            let (nx, vv) = (&mut *next, &mut v);
            soft::rounds_with(state, ssse3::flat(&cur.wk0), |g| {
                if let Some((n0, n1)) = upcoming
                    && g < 10
                {
                    schedule_step(g, n0, n1, vv, &mut nx.wk0, &mut nx.wk1);
                }
            });
            if 2 * i + 1 < blocks.len() {
                soft::rounds_with(state, ssse3::flat(&cur.wk1), |g| {
                    if let Some((n0, n1)) = upcoming
                        && g < 10
                    {
                        schedule_step(10 + g, n0, n1, vv, &mut nx.wk0, &mut nx.wk1);
                    }
                });
            }
            core::mem::swap(&mut cur, &mut next);
            i += 1;
        }
    }};
}

#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_impl(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    compress_body!(state, blocks)
}

/// The same kernel with AVX-512 VL enabled as well: LLVM then forms `vprold` for the
/// schedule's rotates and `vpternlogd` for its three-input XORs.
#[target_feature(enable = "avx2,bmi1,bmi2,avx512f,avx512vl")]
fn compress_avx512_impl(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    compress_body!(state, blocks)
}

/// Compresses whole blocks into the state.
pub(crate) fn compress(_: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has AVX2, BMI1 and BMI2, with YMM state enabled.
    unsafe { compress_impl(state, blocks) }
}

/// [`compress`] compiled for AVX-512 VL.
pub(crate) fn compress_avx512(_: Avx512Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has AVX2, BMI1, BMI2, AVX-512 F and VL, with the
    // YMM and ZMM state enabled.
    unsafe { compress_avx512_impl(state, blocks) }
}

/// Loads 32 bytes (unaligned).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load256(b: &[u8; 64], half: usize) -> __m256i {
    let c: &[u8; 32] = b[32 * half..32 * half + 32].try_into().expect("32 bytes");
    // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement; the caller
    // runs with AVX enabled.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Transposes an 8x8 matrix of 32-bit words held as eight rows.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    [
        _mm256_permute2x128_si256::<0x20>(u0, u4),
        _mm256_permute2x128_si256::<0x20>(u1, u5),
        _mm256_permute2x128_si256::<0x20>(u2, u6),
        _mm256_permute2x128_si256::<0x20>(u3, u7),
        _mm256_permute2x128_si256::<0x31>(u0, u4),
        _mm256_permute2x128_si256::<0x31>(u1, u5),
        _mm256_permute2x128_si256::<0x31>(u2, u6),
        _mm256_permute2x128_si256::<0x31>(u3, u7),
    ]
}

#[inline]
#[target_feature(enable = "avx2")]
fn v_ch(b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d)))
}

#[inline]
#[target_feature(enable = "avx2")]
fn v_parity(b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(b, c), d)
}

#[inline]
#[target_feature(enable = "avx2")]
fn v_maj(b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_and_si256(b, c),
        _mm256_and_si256(d, _mm256_or_si256(b, c)),
    )
}

/// One round over eight lanes; `$t` is the round number (a literal-free expression is
/// fine: the loop is unrolled by five and the roles renamed).
macro_rules! vround {
    ($f:ident, $k:ident, $w:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {{
        let t: usize = $t;
        if t >= 16 {
            $w[t % 16] = rol!(
                _mm256_xor_si256(
                    _mm256_xor_si256($w[(t + 13) % 16], $w[(t + 8) % 16]),
                    _mm256_xor_si256($w[(t + 2) % 16], $w[t % 16]),
                ),
                1,
                31
            );
        }
        let x = _mm256_add_epi32(_mm256_add_epi32($e, $k), $w[t % 16]);
        let x = _mm256_add_epi32(x, $f($b, $c, $d));
        $e = _mm256_add_epi32(x, rol!($a, 5, 27));
        $b = rol!($b, 30, 2);
    }};
}

macro_rules! vround5 {
    ($f:ident, $k:ident, $w:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        vround!($f, $k, $w, $t, $a, $b, $c, $d, $e);
        vround!($f, $k, $w, $t + 1, $e, $a, $b, $c, $d);
        vround!($f, $k, $w, $t + 2, $d, $e, $a, $b, $c);
        vround!($f, $k, $w, $t + 3, $c, $d, $e, $a, $b);
        vround!($f, $k, $w, $t + 4, $b, $c, $d, $e, $a);
    };
}

#[target_feature(enable = "avx2")]
fn compress8_impl(states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    let n = blocks.iter().map(|b| b.len()).min().unwrap_or(0);
    let mut s = [_mm256_setzero_si256(); 5];
    for (k, v) in s.iter_mut().enumerate() {
        let col: [u32; 8] = core::array::from_fn(|i| states[i][k]);
        // SAFETY: `col` is 32 readable bytes; `loadu` has no alignment requirement.
        *v = unsafe { _mm256_loadu_si256(col.as_ptr().cast()) };
    }
    let bswap = _mm256_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
        6, 7, 0, 1, 2, 3,
    );
    for i in 0..n {
        let lo = transpose8(core::array::from_fn(|l| load256(&blocks[l][i], 0)));
        let hi = transpose8(core::array::from_fn(|l| load256(&blocks[l][i], 1)));
        let mut w: [__m256i; 16] = core::array::from_fn(|t| {
            _mm256_shuffle_epi8(if t < 8 { lo[t] } else { hi[t - 8] }, bswap)
        });
        let [mut a, mut b, mut c, mut d, mut e] = s;
        // Written out (not a loop) so that every index into the W ring is a constant.
        let k = _mm256_set1_epi32(K[0] as i32);
        vround5!(v_ch, k, w, 0, a, b, c, d, e);
        vround5!(v_ch, k, w, 5, a, b, c, d, e);
        vround5!(v_ch, k, w, 10, a, b, c, d, e);
        vround5!(v_ch, k, w, 15, a, b, c, d, e);
        let k = _mm256_set1_epi32(K[1] as i32);
        vround5!(v_parity, k, w, 20, a, b, c, d, e);
        vround5!(v_parity, k, w, 25, a, b, c, d, e);
        vround5!(v_parity, k, w, 30, a, b, c, d, e);
        vround5!(v_parity, k, w, 35, a, b, c, d, e);
        let k = _mm256_set1_epi32(K[2] as i32);
        vround5!(v_maj, k, w, 40, a, b, c, d, e);
        vround5!(v_maj, k, w, 45, a, b, c, d, e);
        vround5!(v_maj, k, w, 50, a, b, c, d, e);
        vround5!(v_maj, k, w, 55, a, b, c, d, e);
        let k = _mm256_set1_epi32(K[3] as i32);
        vround5!(v_parity, k, w, 60, a, b, c, d, e);
        vround5!(v_parity, k, w, 65, a, b, c, d, e);
        vround5!(v_parity, k, w, 70, a, b, c, d, e);
        vround5!(v_parity, k, w, 75, a, b, c, d, e);
        s = [
            _mm256_add_epi32(s[0], a),
            _mm256_add_epi32(s[1], b),
            _mm256_add_epi32(s[2], c),
            _mm256_add_epi32(s[3], d),
            _mm256_add_epi32(s[4], e),
        ];
    }
    for (k, v) in s.iter().enumerate() {
        let mut col = [0u32; 8];
        // SAFETY: `col` is 32 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(col.as_mut_ptr().cast(), *v) };
        for (st, x) in states.iter_mut().zip(col) {
            st[k] = x;
        }
    }
}

/// Compresses `n = min(len)` blocks of eight independent streams at once: `blocks[i]` into
/// `states[i]`.
pub(crate) fn compress8(_: Avx2Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    // SAFETY: the token proves the CPU has AVX2, with YMM state enabled.
    unsafe { compress8_impl(states, blocks) }
}
