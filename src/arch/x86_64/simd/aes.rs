//! A vector of AES blocks: [`AesVec`], with one impl per register width.
//!
//! | type  | blocks | instructions            | token             |
//! |-------|-------:|-------------------------|-------------------|
//! | `Xmm` | 1      | AES-NI, PCLMULQDQ       | `AesNiToken`      |
//! | `Ymm` | 2      | VAES, VPCLMULQDQ, AVX2  | `VaesAvx2Token`   |
//! | `Zmm` | 4      | VAES, VPCLMULQDQ, AVX-512 | `VaesAvx512Token` |
//!
//! As in `simd/mod.rs`, operations inline into a `#[target_feature]` entry, and holding a
//! value proves the features: the safety argument of every `unsafe` intrinsic call below.

use core::arch::x86_64::*;

use crate::arch::x86_64::wipe::{stack_avx, stack_avx512};
use crate::cpu::{AesNiToken, VaesAvx2Token, VaesAvx512Token};
use crate::vector::{AesVec, Job, Keys, Site};
use crate::wipe::{depth, stack};

/// The block at `p`, as two 8-byte loads, which forward from two 8-byte stores (an XTS
/// sector's tweak, made with `u128` arithmetic) where a wider load waits for them to reach
/// the cache (docs/design.md, "XTS kernel shape"). Volatile, so that the compiler does not
/// merge them back into one 16-byte load; each of a packed `u64` (a volatile `[u8; 8]` is
/// read byte by byte).
///
/// # Safety
/// `p` readable for 16 bytes (at any alignment).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) unsafe fn load_halves(p: *const u8) -> __m128i {
    /// Eight bytes at any alignment, read by one volatile load.
    #[derive(Clone, Copy)]
    #[repr(C, packed)]
    struct Half(u64);
    let p = p.cast::<Half>();
    // SAFETY: `p` is 16 readable bytes (the caller's contract): two `Half`s, whose
    // alignment is 1. SSE2 is part of x86-64.
    unsafe {
        let lo = core::ptr::read_volatile(p).0;
        let hi = core::ptr::read_volatile(p.add(1)).0;
        _mm_set_epi64x(u64::from_le(hi) as i64, u64::from_le(lo) as i64)
    }
}

/// A width's [`AesVec::enter`] (compiled with its token's features, so the job's body
/// and its intrinsics inline there), its [`AesVec::rounds`] (the round instruction in the
/// loop itself, no call between), and the [`AesVec::wipe`] after it: `(site, short) =>`
/// the wipe with each site's depth (docs/design.md "Stack and register wipes";
/// `.ci/wipe-depths update` writes them from measurements), `$t` naming the token there.
macro_rules! width {
    ($w:ident: $tok:ident, $enc:ident, $dec:ident; wipe($t:ident) { $($site:pat => $wipe:expr,)* }) => {
        crate::cpu::target_features! { $tok,
            #[inline(never)]
            unsafe fn enter<J: Job, const SHORT: bool>(t: $tok, job: &mut J) {
                job.simd::<$w, SHORT>(t)
            }
        }

        #[inline(always)]
        fn wipe($t: $tok, site: Site, short: bool) {
            let _ = $t;
            match (site, short) {
                (Site::Later, _) => {}
                $($site => $wipe,)*
            }
        }

        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn rounds<const DEC: bool, const N: usize, const FROM: usize>(
            s: &mut [Self; N],
            rk: &impl Keys<Self>,
            rounds: usize,
        ) {
            // (Three loops of constant bounds, unrolled: a run-time index into held keys
            // would put them in memory.)
            round_range!(s, rk, FROM..10, $enc, $dec);
            if rounds > 10 {
                round_range!(s, rk, 10..12, $enc, $dec);
                if rounds > 12 {
                    round_range!(s, rk, 12..14, $enc, $dec);
                }
            }
        }
    };
}

/// The middle rounds `$range` (constant bounds) of [`AesVec::rounds`] over `$s`, the round
/// intrinsic in the loop, and the [`AesVec::barrier`] after each round of 8 registers.
macro_rules! round_range {
    ($s:ident, $rk:ident, $range:expr, $enc:ident, $dec:ident) => {
        for i in $range {
            let k = $rk.at(i).0;
            for x in $s.iter_mut() {
                // SAFETY: see the top of the impl.
                x.0 = unsafe { if DEC { $dec(x.0, k) } else { $enc(x.0, k) } };
            }
            if let Ok(s8) = <&mut [Self; 8]>::try_from(&mut $s[..]) {
                Self::barrier(s8);
            }
        }
    };
}

/// Methods `fn f(self, o: Self) -> Self` that are one intrinsic on the registers.
macro_rules! ops {
    ($w:ident: $($f:ident $i:ident),*) => {$(
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn $f(self, o: Self) -> Self {
            // SAFETY: see the top of the impl.
            $w(unsafe { $i(self.0, o.0) })
        }
    )*};
}

/// `zero`, `load` and `store`, each one intrinsic. (`load` and `store`: the caller's
/// contract makes the bytes readable or writable; the rest as the top of the impl says.)
macro_rules! mem {
    ($w:ident: $tok:ty, $zero:ident, $load:ident, $store:ident) => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn zero(_: $tok) -> Self {
            // SAFETY: see the top of the impl.
            $w(unsafe { $zero() })
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn load(_: $tok, p: *const u8) -> Self {
            // SAFETY: the caller's contract (`16 LANES` readable bytes); see the top of the impl.
            $w(unsafe { $load(p.cast()) })
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn store(self, p: *mut u8) {
            // SAFETY: the caller's contract (`16 LANES` writable bytes); see the top of the impl.
            unsafe { $store(p.cast(), self.0) }
        }
    };
}

/// [`AesVec::barrier`]: an empty `asm!` over the eight registers of `$s`, of class `$c`.
macro_rules! barrier {
    ($s:ident, $c:ident) => {
        // SAFETY: an empty template: it reads and writes only the eight registers named,
        // and touches no memory, stack or flags.
        unsafe {
            core::arch::asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
                inout($c) $s[0].0, inout($c) $s[1].0, inout($c) $s[2].0, inout($c) $s[3].0,
                inout($c) $s[4].0, inout($c) $s[5].0, inout($c) $s[6].0, inout($c) $s[7].0,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    };
}

/// A 128-bit register: one block (AES-NI).
#[derive(Clone, Copy)]
pub(crate) struct Xmm(__m128i);
impl Xmm {
    /// The register's block.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    pub(crate) fn reg(self) -> __m128i {
        self.0
    }
}

/// A 256-bit register: two blocks (VAES on AVX2).
#[derive(Clone, Copy)]
pub(crate) struct Ymm(__m256i);
/// A 512-bit register: four blocks (VAES on AVX-512).
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

impl AesVec for Xmm {
    const LANES: usize = 1;
    const REGISTERS: usize = 16;
    type Token = AesNiToken;

    width!(Xmm: AesNiToken, _mm_aesenc_si128, _mm_aesdec_si128; wipe(t) {
        (Site::Ecb, true) => stack::<{ depth([272, 256, 256, 272, 272, 2832]) }>(),
        (Site::Ecb, false) => stack::<{ depth([272, 256, 256, 272, 320, 3600]) }>(),
        (Site::CbcEncrypt, _) => stack::<{ depth([432, 432, 432, 416, 592, 9152]) }>(),
        (Site::CbcDecrypt, true) => stack::<{ depth([400, 400, 400, 416, 496, 3264]) }>(),
        (Site::CbcDecrypt, false) => stack::<{ depth([272, 256, 256, 544, 752, 4032]) }>(),
        (Site::CbcMany, _) => stack::<{ depth([400, 1728, 2384, 2176, 2864, 9056]) }>(),
        (Site::XtsOne, true) => stack::<{ depth([272, 624, 624, 848, 1040, 10448]) }>(),
        (Site::XtsOne, false) => stack::<{ depth([512, 912, 1360, 1456, 1696, 10496]) }>(),
        (Site::XtsMany, _) => stack::<{ depth([848, 1104, 1456, 1584, 1600, 9360]) }>(),
        (Site::XtsBlock, _) => stack::<{ depth([272, 256, 256, 272, 320, 2512]) }>(),
    });

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): an
    // `AesNiToken` or an `Xmm` exists, so the CPU has AES-NI and PCLMULQDQ (SSE2 is
    // x86-64's, but the intrinsics still ask for an `unsafe` outside `#[target_feature]`).

    type One = AesNiToken;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn one(t: AesNiToken) -> AesNiToken {
        t
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat_reg(_: AesNiToken, x: __m128i) -> Self {
        Xmm(x)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn from_blocks(_: AesNiToken, b: [__m128i; 4]) -> Self {
        Xmm(b[0])
    }
    mem!(Xmm: AesNiToken, _mm_setzero_si128, _mm_loadu_si128, _mm_storeu_si128);
    crate::vector::one_lane_memory!(AesNiToken);
    ops!(Xmm:
        xor _mm_xor_si128,
        aesenc _mm_aesenc_si128,
        aesenclast _mm_aesenclast_si128,
        aesdec _mm_aesdec_si128,
        aesdeclast _mm_aesdeclast_si128
    );
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            // A shift by 64 gives zero, as needed when k = 0.
            let shifted = _mm_sll_epi64(t, _mm_cvtsi64_si128(k as i64));
            let carry = _mm_srl_epi64(t, _mm_cvtsi64_si128(64 - k as i64));
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm_slli_si128::<8>(carry);
            let poly = _mm_set_epi64x(0, 0x87);
            let red = _mm_clmulepi64_si128::<0x00>(_mm_srli_si128::<8>(carry), poly);
            Xmm(_mm_xor_si128(_mm_xor_si128(shifted, hi), red))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm_srli_si128::<15>(self.0);
            let red = _mm_clmulepi64_si128::<0x00>(top, _mm_set_epi64x(0, 0x87));
            Xmm(_mm_xor_si128(_mm_slli_si128::<1>(self.0), red)).xor(k)
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (_mm_srli_si128::<15>(self.0), _mm_slli_si128::<1>(self.0)),
                2 => (_mm_srli_si128::<14>(self.0), _mm_slli_si128::<2>(self.0)),
                _ => (_mm_srli_si128::<13>(self.0), _mm_slli_si128::<3>(self.0)),
            };
            let red = _mm_clmulepi64_si128::<0x00>(top, _mm_set_epi64x(0, 0x87));
            Xmm(_mm_xor_si128(up, red)).xor(k)
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shift_in(a: Self, _: Self) -> Self {
        a
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn barrier(s: &mut [Self; 8]) {
        barrier!(s, xmm_reg);
    }
}

/// The `ymm_reg` operands need AVX enabled where the `asm!` stands; inlined into the
/// caller, which has it.
#[inline]
#[target_feature(enable = "avx")]
fn barrier_ymm(s: &mut [Ymm; 8]) {
    barrier!(s, ymm_reg);
}

impl AesVec for Ymm {
    const LANES: usize = 2;
    const REGISTERS: usize = 16;
    type Token = VaesAvx2Token;

    width!(Ymm: VaesAvx2Token, _mm256_aesenc_epi128, _mm256_aesdec_epi128; wipe(t) {
        (Site::Ecb, true) => stack_avx::<{ depth([272, 256, 256, 304, 496, 4048]) }>(t),
        (Site::Ecb, false) => stack_avx::<{ depth([272, 272, 272, 496, 656, 5408]) }>(t),
        (Site::CbcDecrypt, true) => stack_avx::<{ depth([400, 400, 400, 656, 816, 4768]) }>(t),
        (Site::CbcDecrypt, false) => stack_avx::<{ depth([272, 368, 432, 1040, 1264, 6208]) }>(t),
        (Site::XtsOne, true) => stack_avx::<{ depth([400, 752, 1136, 1360, 1600, 15984]) }>(t),
        (Site::XtsOne, false) => stack_avx::<{ depth([992, 1536, 2672, 2672, 2784, 17776]) }>(t),
        (Site::XtsMany, _) => stack_avx::<{ depth([1408, 1824, 3056, 2800, 3040, 16096]) }>(t),
        // (CBC's many streams; its one-stream encryption never runs on ymm.)
        _ => stack_avx::<{ depth([800, 3200, 3872, 3792, 4272, 13296]) }>(t),
    });

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): a
    // `VaesAvx2Token` or a `Ymm` exists, so the CPU has AVX2, VAES and VPCLMULQDQ.
    type One = AesNiToken;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn one(t: VaesAvx2Token) -> AesNiToken {
        t.aesni()
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat_reg(_: VaesAvx2Token, x: __m128i) -> Self {
        // SAFETY: see the top of the impl.
        Ymm(unsafe { _mm256_broadcastsi128_si256(x) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn from_blocks(_: VaesAvx2Token, b: [__m128i; 4]) -> Self {
        // SAFETY: see the top of the impl.
        Ymm(unsafe { _mm256_set_m128i(b[1], b[0]) })
    }
    mem!(Ymm: VaesAvx2Token, _mm256_setzero_si256, _mm256_loadu_si256, _mm256_storeu_si256);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load_part(t: VaesAvx2Token, p: *const u8, n: usize) -> Self {
        // Two lanes: a part is one block, moved as xmm (`vpmaskmovq` is slow on AMD cores:
        // an odd block count's one-block tail).
        if n >= 2 {
            // SAFETY: the caller's contract (two blocks readable).
            return unsafe { Self::load(t, p) };
        }
        // SAFETY: the caller's contract (one block readable); AVX as above.
        Ymm(unsafe { _mm256_zextsi128_si256(_mm_loadu_si128(p.cast())) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn store_part(self, p: *mut u8, n: usize) {
        if n >= 2 {
            // SAFETY: the caller's contract (two blocks writable).
            return unsafe { self.store(p) };
        }
        // SAFETY: the caller's contract (one block writable); AVX as above.
        unsafe { _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(self.0)) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn gather(_: VaesAvx2Token, p: &[*mut u8; 4], off: usize) -> Self {
        // SAFETY: the caller's contract for lanes 0 and 1; AVX as above.
        Ymm(unsafe { _mm256_loadu2_m128i(p[1].add(off).cast(), p[0].add(off).cast()) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        // SAFETY: the caller's contract for lanes 0 and 1; AVX as above.
        unsafe { _mm256_storeu2_m128i(p[1].add(off).cast(), p[0].add(off).cast(), self.0) }
    }
    ops!(Ymm:
        xor _mm256_xor_si256,
        aesenc _mm256_aesenc_epi128,
        aesenclast _mm256_aesenclast_epi128,
        aesdec _mm256_aesdec_epi128,
        aesdeclast _mm256_aesdeclast_epi128
    );
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            let up = _mm256_add_epi64(_mm256_set1_epi64x(k as i64), _mm256_set_epi64x(1, 1, 0, 0));
            let down = _mm256_sub_epi64(_mm256_set1_epi64x(64), up);
            // A shift by 64 gives zero, as needed for lane 0 when k = 0.
            let shifted = _mm256_sllv_epi64(t, up);
            let carry = _mm256_srlv_epi64(t, down);
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm256_bslli_epi128::<8>(carry);
            let poly = _mm256_set1_epi64x(0x87);
            let red = _mm256_clmulepi64_epi128::<0x00>(_mm256_bsrli_epi128::<8>(carry), poly);
            Ymm(_mm256_xor_si256(_mm256_xor_si256(shifted, hi), red))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm256_bsrli_epi128::<14>(self.0);
            let red = _mm256_clmulepi64_epi128::<0x00>(top, _mm256_set1_epi64x(0x87));
            Ymm(_mm256_xor_si256(_mm256_bslli_epi128::<2>(self.0), red)).xor(k)
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (
                    _mm256_bsrli_epi128::<15>(self.0),
                    _mm256_bslli_epi128::<1>(self.0),
                ),
                2 => (
                    _mm256_bsrli_epi128::<14>(self.0),
                    _mm256_bslli_epi128::<2>(self.0),
                ),
                _ => (
                    _mm256_bsrli_epi128::<13>(self.0),
                    _mm256_bslli_epi128::<3>(self.0),
                ),
            };
            let red = _mm256_clmulepi64_epi128::<0x00>(top, _mm256_set1_epi64x(0x87));
            Ymm(_mm256_xor_si256(up, red)).xor(k)
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shift_in(a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl. (Low lane: `a`'s high; high lane: `b`'s low.)
        Ymm(unsafe { _mm256_permute2x128_si256::<0x21>(a.0, b.0) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn barrier(s: &mut [Self; 8]) {
        // SAFETY: see the top of the impl (AVX).
        unsafe { barrier_ymm(s) }
    }
}

/// As [`barrier_ymm`], for `zmm_reg` (AVX-512F).
#[inline]
#[target_feature(enable = "avx512f")]
fn barrier_zmm(s: &mut [Zmm; 8]) {
    barrier!(s, zmm_reg);
}

/// The 64-bit elements of the first `n` blocks (`n <= 4`) enabled.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn mask_zmm(n: usize) -> __mmask8 {
    ((1u32 << (2 * n)) - 1) as __mmask8
}

impl AesVec for Zmm {
    const LANES: usize = 4;
    const REGISTERS: usize = 32;
    type Token = VaesAvx512Token;

    width!(Zmm: VaesAvx512Token, _mm512_aesenc_epi128, _mm512_aesdec_epi128; wipe(t) {
        (Site::Ecb, _) => stack_avx512::<{ depth([272, 304, 1264, 1776, 3152, 11664]) }>(t),
        (Site::CbcDecrypt, true) => stack_avx512::<{ depth([256, 320, 1504, 1184, 1504, 7792]) }>(t),
        (Site::CbcDecrypt, false) => {
            stack_avx512::<{ depth([272, 432, 1456, 2928, 4320, 12608]) }>(t)
        },
        (Site::XtsOne, true) => stack_avx512::<{ depth([320, 832, 2256, 2304, 2656, 28848]) }>(t),
        (Site::XtsOne, false) => stack_avx512::<{ depth([352, 2496, 3504, 3536, 2752, 32496]) }>(t),
        // (XTS's many units; CBC's encryption never runs on zmm.)
        _ => stack_avx512::<{ depth([1024, 3184, 3888, 3872, 3648, 28992]) }>(t),
    });

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): a
    // `VaesAvx512Token` or a `Zmm` exists, so the CPU has AVX-512 F/BW/VL, VAES and
    // VPCLMULQDQ.
    type One = AesNiToken;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn one(t: VaesAvx512Token) -> AesNiToken {
        t.vaes_avx2().aesni()
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat_reg(_: VaesAvx512Token, x: __m128i) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe { _mm512_broadcast_i32x4(x) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn from_blocks(_: VaesAvx512Token, b: [__m128i; 4]) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe {
            let lo = _mm256_set_m128i(b[1], b[0]);
            let hi = _mm256_set_m128i(b[3], b[2]);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        })
    }
    mem!(Zmm: VaesAvx512Token, _mm512_setzero_si512, _mm512_loadu_si512, _mm512_storeu_si512);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load_part(_: VaesAvx512Token, p: *const u8, n: usize) -> Self {
        // SAFETY: the mask enables only the `n` blocks the caller makes readable; masked
        // elements do not fault.
        Zmm(unsafe { _mm512_maskz_loadu_epi64(mask_zmm(n), p.cast()) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn store_part(self, p: *mut u8, n: usize) {
        // SAFETY: the mask enables only the `n` blocks the caller makes writable.
        unsafe { _mm512_mask_storeu_epi64(p.cast(), mask_zmm(n), self.0) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn gather(t: VaesAvx512Token, p: &[*mut u8; 4], off: usize) -> Self {
        let hi = [p[2], p[3], p[2], p[3]];
        // SAFETY: the caller's contract for lanes 0 to 3, two at a time; AVX-512F as above.
        unsafe {
            let (a, b) = (
                Ymm::gather(t.vaes_avx2(), p, off),
                Ymm::gather(t.vaes_avx2(), &hi, off),
            );
            Zmm(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(a.0), b.0))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        let hi = [p[2], p[3], p[2], p[3]];
        // SAFETY: the caller's contract for lanes 0 to 3, two at a time; AVX-512F as above.
        unsafe {
            Ymm(_mm512_castsi512_si256(self.0)).scatter(p, off);
            Ymm(_mm512_extracti64x4_epi64::<1>(self.0)).scatter(&hi, off);
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor3(self, a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe { _mm512_ternarylogic_epi64::<0x96>(self.0, a.0, b.0) })
    }
    ops!(Zmm:
        xor _mm512_xor_si512,
        aesenc _mm512_aesenc_epi128,
        aesenclast _mm512_aesenclast_epi128,
        aesdec _mm512_aesdec_epi128,
        aesdeclast _mm512_aesdeclast_epi128
    );
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            let up = _mm512_add_epi64(
                _mm512_set1_epi64(k as i64),
                _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0),
            );
            let down = _mm512_sub_epi64(_mm512_set1_epi64(64), up);
            // A shift by 64 gives zero, as needed for lane 0 when k = 0.
            let shifted = _mm512_sllv_epi64(t, up);
            let carry = _mm512_srlv_epi64(t, down);
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm512_bslli_epi128::<8>(carry);
            let poly = _mm512_set1_epi64(0x87);
            let red = _mm512_clmulepi64_epi128::<0x00>(_mm512_bsrli_epi128::<8>(carry), poly);
            Zmm(_mm512_ternarylogic_epi64::<0x96>(shifted, hi, red))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes_clmul(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            // Lane l: T·x^s (s = k + l) = lo·x^s ⊕ (hi·x^s)·x^64, where hi·x^s's bits
            // above 64 (`b`'s high half) wrap round as times 0x87.
            let m = _mm512_set_epi64(0, 8 << k, 0, 4 << k, 0, 2 << k, 0, 1 << k);
            let a = _mm512_clmulepi64_epi128::<0x00>(t, m);
            let b = _mm512_clmulepi64_epi128::<0x01>(t, m);
            let red = _mm512_clmulepi64_epi128::<0x01>(b, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(
                a,
                _mm512_bslli_epi128::<8>(b),
                red,
            ))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm512_bsrli_epi128::<12>(self.0);
            let red = _mm512_clmulepi64_epi128::<0x00>(top, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(
                _mm512_bslli_epi128::<4>(self.0),
                red,
                k.0,
            ))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (
                    _mm512_bsrli_epi128::<15>(self.0),
                    _mm512_bslli_epi128::<1>(self.0),
                ),
                2 => (
                    _mm512_bsrli_epi128::<14>(self.0),
                    _mm512_bslli_epi128::<2>(self.0),
                ),
                _ => (
                    _mm512_bsrli_epi128::<13>(self.0),
                    _mm512_bslli_epi128::<3>(self.0),
                ),
            };
            let red = _mm512_clmulepi64_epi128::<0x00>(top, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(up, red, k.0))
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shift_in(a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl. (`b:a` shifted down six 64-bit elements:
        // `a`'s lane 3, then `b`'s lanes 0..3.)
        Zmm(unsafe { _mm512_alignr_epi64::<6>(b.0, a.0) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn with_lane_of(self, _: VaesAvx512Token, lane: usize, from: Self, from_lane: usize) -> Self {
        // The two 64-bit elements of lane `lane` take `from`'s elements `2 from_lane` and
        // `2 from_lane + 1`; the others keep `self`'s.
        let k = (0b11u32 << (2 * lane)) as __mmask8;
        let i = 2 * from_lane as i64;
        // SAFETY: see the top of the impl (AVX-512F).
        Zmm(unsafe {
            _mm512_mask_permutexvar_epi64(
                self.0,
                k,
                _mm512_set_epi64(i + 1, i, i + 1, i, i + 1, i, i + 1, i),
                from.0,
            )
        })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn barrier(s: &mut [Self; 8]) {
        // SAFETY: see the top of the impl (AVX-512F).
        unsafe { barrier_zmm(s) }
    }
}

#[cfg(test)]
mod tests;
