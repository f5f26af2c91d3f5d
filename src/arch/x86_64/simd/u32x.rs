//! Vectors of 32-bit lanes, one type per register width, for the SHA-1 kernels: the
//! one-stream message schedule (four words of one block per 128-bit lane) and the
//! multi-lane rounds (one message per 32-bit lane).
//!
//! ```text
//! U32x4  = xmm, SSSE3        (Ssse3Token)   schedule of one block
//! U32x8  = ymm, AVX2         (Avx2Token)    schedule of two blocks; eight lanes
//! U32x16 = zmm, AVX-512 F/BW (Avx512Token)  sixteen lanes; vprold, vpternlogd
//! ```
//!
//! Values and entries as in `simd/mod.rs`: made only from a token, operations inlined into
//! a `#[target_feature]` entry. The same ymm body inlined into an entry that also enables
//! AVX-512 VL gets `vprold` and `vpternlogd` from LLVM.
//!
//! The SHA-1 boolean functions have defaults in plain logic; the zmm type replaces them with
//! one `vpternlogd` each.
// The arrays are indexed by their recurrences (transposes, word positions).
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use crate::cpu::{Avx2Token, Avx512Token, Ssse3Token};

/// A vector of 32-bit lanes.
pub(crate) trait U32x: Copy {
    /// The proof that the CPU runs this width's instructions.
    type Token: Copy;

    /// Every lane `x`.
    fn splat(t: Self::Token, x: u32) -> Self;
    /// Lanewise wrapping add.
    fn add(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// Rotates every lane left by `L` (`R` is `32 - L`: a constant argument cannot be
    /// computed from another on stable Rust).
    fn rol<const L: i32, const R: i32>(self) -> Self;
    /// Shifts every lane left by `N`.
    fn shl<const N: i32>(self) -> Self;
    /// Every lane all ones where its top bit is set, else zero (arithmetic shift by 31).
    fn sign(self) -> Self;

    /// `a ^ b ^ c`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        a.xor(b).xor(c)
    }
    /// `Ch(b, c, d) = (b & c) | (!b & d)`, as `d ^ (b & (c ^ d))`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn ch(b: Self, c: Self, d: Self) -> Self {
        d.xor(b.and(c.xor(d)))
    }
    /// `Parity(b, c, d) = b ^ c ^ d`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn parity(b: Self, c: Self, d: Self) -> Self {
        Self::xor3(b, c, d)
    }
    /// `Maj(b, c, d)`, as `(b & c) | (d & (b | c))`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn maj(b: Self, c: Self, d: Self) -> Self {
        b.and(c).or(d.and(b.or(c)))
    }
}

/// A vector whose 128-bit lanes each hold four schedule words of one block (the
/// one-stream SIMD schedule): `BLOCKS` blocks side by side.
pub(crate) trait Blocks4: U32x {
    /// Blocks per vector (128-bit lanes).
    const BLOCKS: usize;
    /// `W + K` of `BLOCKS` blocks, one `[[u32; 4]; 20]` (80 words) per block.
    type Wk: AsRef<[[[u32; 4]; 20]]>;
    const WK_ZERO: Self::Wk;

    /// Words `4j..4j+4` of each block, byte-swapped (big-endian); lane `i` from
    /// `blocks[i]` (the second is unused where `BLOCKS` is 1).
    fn load_be(t: Self::Token, blocks: [&[u8; 64]; 2], j: usize) -> Self;
    /// Per 128-bit lane: `(x1, x2, x3, 0)`.
    fn down1(self) -> Self;
    /// Per 128-bit lane: `(0, 0, 0, x0)`.
    fn up3(self) -> Self;
    /// Per 128-bit lane: `(lo2, lo3, hi0, hi1)`.
    fn middle(hi: Self, lo: Self) -> Self;
    /// Stores 128-bit lane `i` into `wk[i][j]`.
    fn store_wk(self, wk: &mut Self::Wk, j: usize);
}

/// A vector of `L` lanes, one message per lane (the multi-lane kernels). Implemented only
/// by `#[repr(transparent)]` wrappers of one vector register of exactly `L` lanes, so that
/// loads and stores are plain unaligned reads and writes of `[u32; L]` (`vmovdqu`).
pub(crate) trait Lanes<const L: usize>: U32x {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load(_: Self::Token, x: &[u32; L]) -> Self {
        const { assert!(size_of::<Self>() == size_of::<[u32; L]>()) };
        // SAFETY: `Self` is a vector register of `L` lanes (the size is checked above), for
        // which any bits are a value; `x` is that many readable bytes; `read_unaligned` has
        // no alignment requirement. The token proves the CPU has the register width.
        unsafe { x.as_ptr().cast::<Self>().read_unaligned() }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store(self, x: &mut [u32; L]) {
        const { assert!(size_of::<Self>() == size_of::<[u32; L]>()) };
        // SAFETY: as in `load`; `x` is that many writable bytes.
        unsafe { x.as_mut_ptr().cast::<Self>().write_unaligned(self) }
    }
    /// Block `i` of each lane's message as its sixteen big-endian words: `W[t]` holds word
    /// `t` of every lane.
    fn words(t: Self::Token, blocks: &[&[[u8; 64]]; L], i: usize) -> [Self; 16];
}

/// The `pshufb` pattern that byte-swaps every 32-bit word of a 128-bit lane.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn bswap32() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3) }
}

/// Block `i` of each lane's message: the bounds checks first, so that the loops that load
/// the rows have no exit and are unrolled.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn rows_of<'a, const L: usize>(blocks: &[&'a [[u8; 64]]; L], i: usize) -> [&'a [u8; 64]; L] {
    core::array::from_fn(|l| &blocks[l][i])
}

/// Four 32-bit lanes of an xmm register (SSSE3).
#[derive(Clone, Copy)]
pub(crate) struct U32x4(__m128i);

impl U32x4 {
    /// Bytes `16i..16i + 16` of `b` (unaligned).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load16(b: &[u8; 64], i: usize) -> __m128i {
        let c: &[u8; 16] = b[16 * i..16 * i + 16].try_into().expect("16 bytes");
        // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is
        // part of x86-64.
        unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
    }
}

/// `BLOCKS`, `Wk` and `WK_ZERO` of a [`Blocks4`] type with `$n` blocks per vector.
macro_rules! blocks {
    ($n:literal) => {
        const BLOCKS: usize = $n;
        type Wk = [[[u32; 4]; 20]; $n];
        const WK_ZERO: Self::Wk = [[[0; 4]; 20]; $n];
    };
}

/// `down1`, `up3` and `middle` of the SIMD schedule types: byte shifts within each
/// 128-bit lane, each one intrinsic. (The impl's SAFETY comment says why they run.)
macro_rules! lane_shifts {
    ($srli:ident, $slli:ident, $alignr:ident) => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn down1(self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $srli::<4>(self.0) })
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn up3(self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $slli::<12>(self.0) })
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn middle(hi: Self, lo: Self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $alignr::<8>(hi.0, lo.0) })
        }
    };
}

/// `splat` and the lane-wise `add`, `xor`, `and`, `or`, each one intrinsic. (The impl's
/// SAFETY comment says why its intrinsics run: a value, or the token, proves the CPU has
/// them.)
macro_rules! lanewise {
    ($tok:ty: $set1:ident, $add:ident, $xor:ident, $and:ident, $or:ident) => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn splat(_: $tok, x: u32) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $set1(x as i32) })
        }
        lanewise!(@ops add $add, xor $xor, and $and, or $or);
    };
    (@ops $($f:ident $i:ident),*) => {$(
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn $f(self, o: Self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $i(self.0, o.0) })
        }
    )*};
}

/// `rol` as two shifts and an OR, each one intrinsic (for the widths without `vprold`).
/// (The impl's SAFETY comment says why they run.)
macro_rules! shift_rotate {
    ($or:ident, $slli:ident, $srli:ident, $srai:ident) => {
        shifts!($slli, $srai);
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn rol<const L: i32, const R: i32>(self) -> Self {
            const { assert!(L + R == 32) };
            // SAFETY: see the impl.
            Self(unsafe { $or($slli::<L>(self.0), $srli::<R>(self.0)) })
        }
    };
}

/// `shl` and `sign`, one intrinsic each. (The impl's SAFETY comment says why they run.)
macro_rules! shifts {
    ($slli:ident, $srai:ident) => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn shl<const N: i32>(self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $slli::<N>(self.0) })
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn sign(self) -> Self {
            // SAFETY: see the impl.
            Self(unsafe { $srai::<31>(self.0) })
        }
    };
}

/// `xor3`, `ch` and `maj` of a type with AVX-512's `vpternlogd` (its `tern`), one
/// instruction each.
macro_rules! ternary_logic {
    () => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn xor3(a: Self, b: Self, c: Self) -> Self {
            Self::tern::<PARITY>(a, b, c)
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn ch(b: Self, c: Self, d: Self) -> Self {
            Self::tern::<CH>(b, c, d)
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn maj(b: Self, c: Self, d: Self) -> Self {
            Self::tern::<MAJ>(b, c, d)
        }
    };
}

impl U32x for U32x4 {
    type Token = Ssse3Token;

    // SAFETY (`lanewise!`): SSE2 is part of x86-64.
    lanewise!(Ssse3Token: _mm_set1_epi32, _mm_add_epi32, _mm_xor_si128, _mm_and_si128, _mm_or_si128);
    // SAFETY (`shift_rotate!`): SSE2 is part of x86-64.
    shift_rotate!(_mm_or_si128, _mm_slli_epi32, _mm_srli_epi32, _mm_srai_epi32);
}

impl Blocks4 for U32x4 {
    blocks!(1);

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load_be(_: Ssse3Token, blocks: [&[u8; 64]; 2], j: usize) -> Self {
        let x = Self::load16(blocks[0], j);
        // SAFETY: a `U32x4` is made only with an `Ssse3Token`: the CPU has SSSE3.
        Self(unsafe { _mm_shuffle_epi8(x, bswap32()) })
    }
    // SAFETY (`lane_shifts!`): SSE2 is part of x86-64, and a `U32x4` is made only with an
    // `Ssse3Token`: the CPU has SSSE3 (`palignr`).
    lane_shifts!(_mm_srli_si128, _mm_slli_si128, _mm_alignr_epi8);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store_wk(self, wk: &mut Self::Wk, j: usize) {
        // SAFETY: `wk[0][j]` is 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(wk[0][j].as_mut_ptr().cast(), self.0) }
    }
}

/// Eight 32-bit lanes of a ymm register (AVX2).
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct U32x8(__m256i);

impl U32x8 {
    /// Transposes an 8x8 matrix of words held as eight rows.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
        // SAFETY: called only with the rows of `U32x8` values, made with an `Avx2Token`:
        // the CPU has AVX2.
        unsafe {
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
    }
}

impl U32x for U32x8 {
    type Token = Avx2Token;

    // SAFETY (every block in this impl): a `U32x8` is made only with an `Avx2Token`: the
    // CPU has AVX2.
    lanewise!(Avx2Token: _mm256_set1_epi32, _mm256_add_epi32, _mm256_xor_si256, _mm256_and_si256,
        _mm256_or_si256);
    shift_rotate!(
        _mm256_or_si256,
        _mm256_slli_epi32,
        _mm256_srli_epi32,
        _mm256_srai_epi32
    );
}

impl Blocks4 for U32x8 {
    blocks!(2);

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load_be(_: Avx2Token, blocks: [&[u8; 64]; 2], j: usize) -> Self {
        let (lo, hi) = (U32x4::load16(blocks[0], j), U32x4::load16(blocks[1], j));
        // SAFETY: the token proves AVX2.
        Self(unsafe {
            let x = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
            let bswap = _mm256_broadcastsi128_si256(bswap32());
            _mm256_shuffle_epi8(x, bswap)
        })
    }
    // SAFETY (`lane_shifts!`): see `impl U32x for U32x8`.
    lane_shifts!(_mm256_srli_si256, _mm256_slli_si256, _mm256_alignr_epi8);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store_wk(self, wk: &mut Self::Wk, j: usize) {
        // SAFETY: see `impl U32x for U32x8`; `wk[i][j]` is 16 writable bytes; `storeu` has
        // no alignment requirement.
        unsafe {
            _mm_storeu_si128(wk[0][j].as_mut_ptr().cast(), _mm256_castsi256_si128(self.0));
            _mm_storeu_si128(
                wk[1][j].as_mut_ptr().cast(),
                _mm256_extracti128_si256::<1>(self.0),
            );
        }
    }
}

impl Lanes<8> for U32x8 {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn words(_: Avx2Token, blocks: &[&[[u8; 64]]; 8], i: usize) -> [Self; 16] {
        // Rows: the two 32-byte halves of each lane's block; the transposes turn the first
        // halves into W[0..8] and the second into W[8..16]. (Loops, not closures: a closure
        // is compiled with the kernel's target features only where it is inlined.)
        // SAFETY: the token proves AVX2; each half block is 32 readable bytes; `loadu` has
        // no alignment requirement.
        unsafe {
            let mut rows = [[_mm256_setzero_si256(); 8]; 2];
            for (l, b) in rows_of(blocks, i).into_iter().enumerate() {
                rows[0][l] = _mm256_loadu_si256(b.as_ptr().cast());
                rows[1][l] = _mm256_loadu_si256(b[32..].as_ptr().cast());
            }
            let bswap = _mm256_broadcastsi128_si256(bswap32());
            let mut w = [Self(_mm256_setzero_si256()); 16];
            for (h, rows) in rows.into_iter().enumerate() {
                for (t, x) in Self::transpose(rows).into_iter().enumerate() {
                    w[8 * h + t] = Self(_mm256_shuffle_epi8(x, bswap));
                }
            }
            w
        }
    }
}

/// Eight 32-bit lanes of a ymm register with AVX-512 VL: [`U32x8`] with `vprold` for the
/// rotates and one `vpternlogd` for each boolean function, explicit (docs/design.md, "SHA-1
/// schedule forms").
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct U32x8Vl(U32x8);

impl U32x8Vl {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn tern<const F: i32>(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: a `U32x8Vl` is made only with an `Avx512Token`: the CPU has AVX-512 F
        // and VL.
        Self(U32x8(unsafe {
            _mm256_ternarylogic_epi32::<F>(a.0.0, b.0.0, c.0.0)
        }))
    }
}

impl U32x for U32x8Vl {
    type Token = Avx512Token;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat(t: Avx512Token, x: u32) -> Self {
        Self(U32x8::splat(t.avx2(), x))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn add(self, o: Self) -> Self {
        Self(self.0.add(o.0))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor(self, o: Self) -> Self {
        Self(self.0.xor(o.0))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn and(self, o: Self) -> Self {
        Self(self.0.and(o.0))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn or(self, o: Self) -> Self {
        Self(self.0.or(o.0))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rol<const L: i32, const R: i32>(self) -> Self {
        const { assert!(L + R == 32) };
        // SAFETY: a `U32x8Vl` is made only with an `Avx512Token`: the CPU has AVX-512 F
        // and VL.
        Self(U32x8(unsafe { _mm256_rol_epi32::<L>(self.0.0) }))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shl<const N: i32>(self) -> Self {
        Self(self.0.shl::<N>())
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sign(self) -> Self {
        Self(self.0.sign())
    }
    ternary_logic!();
}

impl Lanes<8> for U32x8Vl {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn words(t: Avx512Token, blocks: &[&[[u8; 64]]; 8], i: usize) -> [Self; 16] {
        let w = U32x8::words(t.avx2(), blocks, i);
        let mut out = [Self::splat(t, 0); 16];
        for (o, w) in out.iter_mut().zip(w) {
            *o = Self(w);
        }
        out
    }
}

/// Sixteen 32-bit lanes of a zmm register (AVX-512 F/BW), with `vprold` for the rotates
/// and one `vpternlogd` for each boolean function.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct U32x16(__m512i);

/// `vpternlogd` truth tables over its three inputs (0xf0, 0xcc, 0xaa).
const CH: i32 = 0xca;
const PARITY: i32 = 0x96;
const MAJ: i32 = 0xe8;

impl U32x16 {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn tern<const F: i32>(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: a `U32x16` is made only with an `Avx512Token`: the CPU has AVX-512 F.
        Self(unsafe { _mm512_ternarylogic_epi32::<F>(a.0, b.0, c.0) })
    }

    /// Transposes a 16x16 matrix of words held as sixteen rows.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn transpose(r: [__m512i; 16]) -> [__m512i; 16] {
        // SAFETY: called only with the rows of `U32x16` values, made with an
        // `Avx512Token`: the CPU has AVX-512 F.
        unsafe {
            // Within each 128-bit lane: 4x4 transposes of the rows taken four at a time.
            // After them, 128-bit lane L of v[g][c] is column 4L + c of rows 4g..4g+4.
            let mut v = [[_mm512_setzero_si512(); 4]; 4];
            for g in 0..4 {
                let t0 = _mm512_unpacklo_epi32(r[4 * g], r[4 * g + 1]);
                let t1 = _mm512_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
                let t2 = _mm512_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
                let t3 = _mm512_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
                v[g] = [
                    _mm512_unpacklo_epi64(t0, t2),
                    _mm512_unpackhi_epi64(t0, t2),
                    _mm512_unpacklo_epi64(t1, t3),
                    _mm512_unpackhi_epi64(t1, t3),
                ];
            }
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
    }
}

impl U32x for U32x16 {
    type Token = Avx512Token;

    // SAFETY (every block in this impl): a `U32x16` is made only with an `Avx512Token`:
    // the CPU has AVX-512 F.
    lanewise!(Avx512Token: _mm512_set1_epi32, _mm512_add_epi32, _mm512_xor_si512, _mm512_and_si512,
        _mm512_or_si512);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rol<const L: i32, const R: i32>(self) -> Self {
        const { assert!(L + R == 32) };
        // SAFETY: see the impl.
        Self(unsafe { _mm512_rol_epi32::<L>(self.0) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shl<const N: i32>(self) -> Self {
        // SAFETY: see the impl. (`vpslld`'s immediate form takes a `u32` constant, which
        // cannot be computed from `N` on stable Rust; the count is a constant either way.)
        Self(unsafe { _mm512_sllv_epi32(self.0, _mm512_set1_epi32(N)) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sign(self) -> Self {
        // SAFETY: see the impl.
        Self(unsafe { _mm512_srai_epi32::<31>(self.0) })
    }
    ternary_logic!();
}

impl Lanes<16> for U32x16 {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn words(_: Avx512Token, blocks: &[&[[u8; 64]]; 16], i: usize) -> [Self; 16] {
        // Each lane's 64-byte block is one row; the transpose turns the rows into W.
        // SAFETY: the token proves AVX-512 F and BW; each block is 64 readable bytes;
        // `loadu` has no alignment requirement.
        unsafe {
            let bswap = _mm512_broadcast_i32x4(bswap32());
            let mut rows = [_mm512_setzero_si512(); 16];
            for (r, b) in rows.iter_mut().zip(rows_of(blocks, i)) {
                *r = _mm512_shuffle_epi8(_mm512_loadu_si512(b.as_ptr().cast()), bswap);
            }
            let mut w = [Self(_mm512_setzero_si512()); 16];
            for (w, x) in w.iter_mut().zip(Self::transpose(rows)) {
                *w = Self(x);
            }
            w
        }
    }
}
