//! SHA-1 on AVX-512: sixteen independent messages at once (one per 32-bit lane of a zmm
//! register, [`compress16`]), and eight at once in ymm registers with the AVX-512 VL
//! instructions ([`compress8`]).
//!
//! ```text
//! lanes = 16 (zmm) or 8 (ymm)
//! a..e = the lanes' states, transposed: lane i of a is message i's a
//! for each block index:
//!     W[t] = word t of each lane's block, byte-swapped                         t < 16
//!            (each lane's 64-byte block is one row; a lanes x 16 transpose of words
//!             turns the rows into the sixteen W vectors)
//!     save = a..e
//!     for t in 0..80:
//!         if t >= 16:
//!             W[t % 16] = vprold1(xor3(W[(t-3) % 16], W[(t-8) % 16], W[(t-14) % 16])
//!                                 ^ W[t % 16])                 (xor3: one vpternlogd)
//!         f = vpternlogd(b, c, d) with Ch (0xca), Parity (0x96) or Maj (0xe8)
//!         e += vprold5(a) + f + W[t % 16] + K[t / 20];  b = vprold30(b)
//!         rename (a, b, c, d, e) = (e, a, b, c, d)
//!     a..e += save
//! ```
//!
//! `sha1_many` (many.rs) runs sixteen lanes while more than eight messages are in flight,
//! then eight. The `avx512` backend's one-stream kernel is avx2.rs's schedule kernel
//! compiled with AVX-512 VL (`avx2::compress_avx512`).
//!
//! The 16x16 transpose: `vpunpck{l,h}dq` then `vpunpck{l,h}qdq` transpose the 4x4 word
//! blocks inside each 128-bit lane of four rows at a time; two rounds of `vshufi32x4` then
//! transpose the 4x4 matrix of 128-bit lanes across those groups (64 shuffles per 16
//! blocks).
//!
//! Every lane runs the same instructions on its own words: no branch and no memory index
//! depends on the data. The number of blocks (the fewest of any lane, a public length) is
//! the only thing that steers the loop.
// The lanes read as their index recurrences.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::{K, avx2};
use crate::cpu::Avx512Token;

/// Loads one 64-byte block into a zmm register.
#[inline]
#[target_feature(enable = "avx512f")]
fn load512(b: &[u8; 64]) -> __m512i {
    // SAFETY: `b` is 64 readable bytes; `loadu` has no alignment requirement; the caller
    // runs with AVX-512 F enabled.
    unsafe { _mm512_loadu_si512(b.as_ptr().cast()) }
}

/// Transposes a 16x16 matrix of 32-bit words held as sixteen rows.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose16(r: [__m512i; 16]) -> [__m512i; 16] {
    // Within each 128-bit lane: 4x4 transposes of the rows taken four at a time. After
    // them, 128-bit lane L of v[g][c] is column 4L + c of rows 4g..4g+4.
    let v: [[__m512i; 4]; 4] = core::array::from_fn(|g| {
        let t0 = _mm512_unpacklo_epi32(r[4 * g], r[4 * g + 1]);
        let t1 = _mm512_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
        let t2 = _mm512_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
        let t3 = _mm512_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
        [
            _mm512_unpacklo_epi64(t0, t2),
            _mm512_unpackhi_epi64(t0, t2),
            _mm512_unpacklo_epi64(t1, t3),
            _mm512_unpackhi_epi64(t1, t3),
        ]
    });
    // Then a 4x4 transpose of 128-bit lanes across v[0..4][c], for each c.
    let mut out = [_mm512_setzero_si512(); 16];
    for c in 0..4 {
        let lo01 = _mm512_shuffle_i32x4::<0x44>(v[0][c], v[1][c]);
        let hi01 = _mm512_shuffle_i32x4::<0xee>(v[0][c], v[1][c]);
        let lo23 = _mm512_shuffle_i32x4::<0x44>(v[2][c], v[3][c]);
        let hi23 = _mm512_shuffle_i32x4::<0xee>(v[2][c], v[3][c]);
        out[c] = _mm512_shuffle_i32x4::<0x88>(lo01, lo23);
        out[4 + c] = _mm512_shuffle_i32x4::<0xdd>(lo01, lo23);
        out[8 + c] = _mm512_shuffle_i32x4::<0x88>(hi01, hi23);
        out[12 + c] = _mm512_shuffle_i32x4::<0xdd>(hi01, hi23);
    }
    out
}

/// The sixteen schedule words of block `i` of each of sixteen lanes, transposed.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn words16(blocks: &[&[[u8; 64]]; 16], i: usize) -> [__m512i; 16] {
    let bswap = _mm512_broadcast_i32x4(_mm_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    ));
    transpose16(core::array::from_fn(|l| {
        _mm512_shuffle_epi8(load512(&blocks[l][i]), bswap)
    }))
}

/// The sixteen schedule words of block `i` of each of eight lanes, transposed.
#[inline]
#[target_feature(enable = "avx2")]
fn words8(blocks: &[&[[u8; 64]]; 8], i: usize) -> [__m256i; 16] {
    let bswap = _mm256_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
        6, 7, 0, 1, 2, 3,
    );
    let lo = avx2::transpose8(core::array::from_fn(|l| avx2::load256(&blocks[l][i], 0)));
    let hi = avx2::transpose8(core::array::from_fn(|l| avx2::load256(&blocks[l][i], 1)));
    core::array::from_fn(|t| _mm256_shuffle_epi8(if t < 8 { lo[t] } else { hi[t - 8] }, bswap))
}

/// `vpternlogd` truth tables over (b, c, d) = (0xf0, 0xcc, 0xaa).
const CH: i32 = 0xca;
const PARITY: i32 = 0x96;
const MAJ: i32 = 0xe8;

/// One round over all lanes; `$ops` names the lane operations `(add, xor, rol, ternlog)`
/// of one register width; `$t` is the round number (a constant after unrolling, so every
/// index into the W ring is a constant).
macro_rules! vround {
    (($add:ident, $xor:ident, $rol:ident, $tern:ident), $f:ident, $k:ident, $w:ident, $t:expr,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {{
        let t: usize = $t;
        if t >= 16 {
            let x3 = $tern::<PARITY>($w[(t + 13) % 16], $w[(t + 8) % 16], $w[(t + 2) % 16]);
            $w[t % 16] = $rol::<1>($xor(x3, $w[t % 16]));
        }
        let x = $add($add($e, $k), $w[t % 16]);
        let x = $add(x, $tern::<$f>($b, $c, $d));
        $e = $add(x, $rol::<5>($a));
        $b = $rol::<30>($b);
    }};
}

macro_rules! vround5 {
    ($ops:tt, $f:ident, $k:ident, $w:ident, $t:expr,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        vround!($ops, $f, $k, $w, $t, $a, $b, $c, $d, $e);
        vround!($ops, $f, $k, $w, $t + 1, $e, $a, $b, $c, $d);
        vround!($ops, $f, $k, $w, $t + 2, $d, $e, $a, $b, $c);
        vround!($ops, $f, $k, $w, $t + 3, $c, $d, $e, $a, $b);
        vround!($ops, $f, $k, $w, $t + 4, $b, $c, $d, $e, $a);
    };
}

/// The 80 rounds of one block over all lanes: `$s` (the five state vectors) updated in
/// place, `$w` (the sixteen schedule vectors) consumed.
macro_rules! block {
    (($add:ident, $xor:ident, $rol:ident, $tern:ident), $set1:ident, $s:ident, $w:ident) => {{
        let [mut a, mut b, mut c, mut d, mut e] = $s;
        let k = $set1(K[0] as i32);
        vround5!(($add, $xor, $rol, $tern), CH, k, $w, 0, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), CH, k, $w, 5, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), CH, k, $w, 10, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), CH, k, $w, 15, a, b, c, d, e);
        let k = $set1(K[1] as i32);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 20, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 25, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 30, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 35, a, b, c, d, e);
        let k = $set1(K[2] as i32);
        vround5!(($add, $xor, $rol, $tern), MAJ, k, $w, 40, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), MAJ, k, $w, 45, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), MAJ, k, $w, 50, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), MAJ, k, $w, 55, a, b, c, d, e);
        let k = $set1(K[3] as i32);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 60, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 65, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 70, a, b, c, d, e);
        vround5!(($add, $xor, $rol, $tern), PARITY, k, $w, 75, a, b, c, d, e);
        $s = [
            $add($s[0], a),
            $add($s[1], b),
            $add($s[2], c),
            $add($s[3], d),
            $add($s[4], e),
        ];
    }};
}

/// A multi-lane kernel: `$lanes` messages, one per 32-bit lane of `$vec`; `$words` gives
/// block `i` of every lane as the sixteen transposed, byte-swapped schedule words.
macro_rules! lanes_kernel {
    ($name:ident, $features:literal, $lanes:literal, $vec:ty, $words:ident,
     $loadu:ident, $storeu:ident, $zero:ident, $set1:ident, $ops:tt) => {
        #[target_feature(enable = $features)]
        fn $name(states: &mut [[u32; 5]; $lanes], blocks: [&[[u8; 64]]; $lanes]) {
            let n = blocks.iter().map(|b| b.len()).min().unwrap_or(0);
            let mut s: [$vec; 5] = [$zero(); 5];
            for (k, v) in s.iter_mut().enumerate() {
                let col: [u32; $lanes] = core::array::from_fn(|i| states[i][k]);
                // SAFETY: `col` is `size_of::<$vec>()` readable bytes; `loadu` has no
                // alignment requirement.
                *v = unsafe { $loadu(col.as_ptr().cast()) };
            }
            for i in 0..n {
                let mut w = $words(&blocks, i);
                block!($ops, $set1, s, w);
            }
            for (k, v) in s.iter().enumerate() {
                let mut col = [0u32; $lanes];
                // SAFETY: `col` is `size_of::<$vec>()` writable bytes; `storeu` has no
                // alignment requirement.
                unsafe { $storeu(col.as_mut_ptr().cast(), *v) };
                for (st, x) in states.iter_mut().zip(col) {
                    st[k] = x;
                }
            }
        }
    };
}

lanes_kernel!(
    compress16_impl,
    "avx512f,avx512bw",
    16,
    __m512i,
    words16,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    _mm512_setzero_si512,
    _mm512_set1_epi32,
    (
        _mm512_add_epi32,
        _mm512_xor_si512,
        _mm512_rol_epi32,
        _mm512_ternarylogic_epi32
    )
);

lanes_kernel!(
    compress8_impl,
    "avx2,avx512f,avx512vl",
    8,
    __m256i,
    words8,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_setzero_si256,
    _mm256_set1_epi32,
    (
        _mm256_add_epi32,
        _mm256_xor_si256,
        _mm256_rol_epi32,
        _mm256_ternarylogic_epi32
    )
);

/// Compresses `n = min(len)` blocks of sixteen independent streams at once: `blocks[i]`
/// into `states[i]` (zmm registers).
pub(crate) fn compress16(_: Avx512Token, states: &mut [[u32; 5]; 16], blocks: [&[[u8; 64]]; 16]) {
    // SAFETY: the token proves the CPU has AVX-512 F and BW, with the ZMM state enabled.
    unsafe { compress16_impl(states, blocks) }
}

/// Compresses `n = min(len)` blocks of eight independent streams at once: `blocks[i]` into
/// `states[i]` (ymm registers, with the AVX-512 VL rotates and ternary logic).
pub(crate) fn compress8(_: Avx512Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    // SAFETY: the token proves the CPU has AVX2, AVX-512 F and VL, with the YMM and ZMM
    // state enabled.
    unsafe { compress8_impl(states, blocks) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    use crate::sha1::testing::{blocks, reference, state};
    use crate::sha1::{IV as H0, soft};
    use crate::test_util::{Rng, token_or_skip};

    fn token() -> Option<Avx512Token> {
        token_or_skip(Avx512Token::get(), &["avx512"], "AVX-512 F/BW/VL")
    }

    /// Every lane of a `L`-lane kernel against the portable compression function (and
    /// RustCrypto's), for block counts 0..=12, unequal per lane (the kernel does the
    /// fewest).
    fn lanes_match<const L: usize>(
        rng: &mut Rng,
        kernel: impl Fn(&mut [[u32; 5]; L], [&[[u8; 64]]; L]),
    ) {
        for n in 0..=12 {
            let starts: [[u32; 5]; L] = core::array::from_fn(|_| state(rng));
            let msgs: Vec<Vec<[u8; 64]>> =
                (0..L).map(|l| blocks(rng, n + (l * 7 + n) % 3)).collect();
            let mut states = starts;
            kernel(&mut states, core::array::from_fn(|l| &msgs[l][..]));
            for l in 0..L {
                let mut want = starts[l];
                soft::compress(&mut want, &msgs[l][..n]);
                assert_eq!(states[l], want, "{L} lanes, lane {l}, {n} blocks");
                assert_eq!(want, reference(&starts[l], &msgs[l][..n]));
            }
        }
    }

    #[test]
    fn compress16_matches_portable() {
        let Some(t) = token() else { return };
        lanes_match::<16>(&mut Rng(16), |s, b| compress16(t, s, b));
    }

    #[test]
    fn compress8_matches_portable() {
        let Some(t) = token() else { return };
        lanes_match::<8>(&mut Rng(8), |s, b| compress8(t, s, b));
    }

    /// The same blocks in every lane give the same state; one lane's bytes never reach
    /// another (a transpose mistake would mix them).
    #[test]
    fn lanes_are_independent() {
        let Some(t) = token() else { return };
        let mut rng = Rng(3);
        let base = blocks(&mut rng, 3);
        let mut states = [H0; 16];
        compress16(t, &mut states, [&base[..]; 16]);
        assert!(states.iter().all(|s| *s == reference(&H0, &base)));
        for flip in 0..16 {
            let mut other = base.clone();
            other[1][(flip * 5) % 64] ^= 1;
            let mut msgs = [&base[..]; 16];
            msgs[flip] = &other;
            let mut states = [H0; 16];
            compress16(t, &mut states, msgs);
            for (l, s) in states.iter().enumerate() {
                let want = if l == flip {
                    reference(&H0, &other)
                } else {
                    reference(&H0, &base)
                };
                assert_eq!(*s, want, "flipped lane {flip}, lane {l}");
            }
        }
    }

    /// Blocks at every byte offset (the kernels load unaligned).
    #[test]
    fn unaligned_blocks() {
        let Some(t) = token() else { return };
        let mut rng = Rng(4);
        let bytes = rng.bytes(64 * 5 + 64);
        for off in 0..64 {
            let blocks: Vec<[u8; 64]> = bytes[off..]
                .chunks_exact(64)
                .take(5)
                .map(|c| c.try_into().unwrap())
                .collect();
            let want = reference(&H0, &blocks);
            let mut s16 = [H0; 16];
            compress16(t, &mut s16, [&blocks[..]; 16]);
            assert!(s16.iter().all(|s| *s == want), "offset {off}");
            let mut s8 = [H0; 8];
            compress8(t, &mut s8, [&blocks[..]; 8]);
            assert!(s8.iter().all(|s| *s == want), "offset {off}");
        }
    }
}
