//! XTS unit kernels with VAES and VPCLMULQDQ on 256-bit registers: 8 ymm of 2 blocks,
//! 16 blocks in flight.
//!
//! ```text
//! v[0] = (T_0, T_0·x);  v[j] = v[0] · x^(2j)  for j = 1..8   // tweaks T_0..T_15
//! for each group of 16 full blocks (all but the last when a partial block follows):
//!     s[j] = P[2j..2j+2] ⊕ (v[j] ⊕ rk[0]);  w[j] = v[j] ⊕ rk[R]
//!     round 1 (8 independent vaesenc);  v[0..4] *= x^16
//!     round 2;                           v[4..8] *= x^16    // hidden between rounds
//!     rounds 3..R-1
//!     C[2j..2j+2] = vaesenclast(s[j], w[j])   // = AES(P ⊕ T) ⊕ T, output XOR in the key
//! per 128-bit lane: t·x^16 = (t shifted up 2 bytes) ⊕ clmul(top 2 bytes of t, 0x87)
//! the remaining < 16 blocks and the ciphertext stealing: `super::finish` (VAES block
//! kernels, from the low lane of v[0])
//! ```
//! Decryption is the same with `vaesdec` and the equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use super::aesni::mul_x;
use super::finish;
use crate::aes::aesni::{load, store};
use crate::aes::vaes_avx2::load_keys;
use crate::aes::{Block, Impl, KeySchedule};
use crate::cpu::VaesAvx2Token;

/// Each lane times x^16.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_x16(t: __m256i, poly: __m256i) -> __m256i {
    let top = _mm256_bsrli_epi128::<14>(t);
    let red = _mm256_clmulepi64_epi128::<0x00>(top, poly);
    _mm256_xor_si256(_mm256_bslli_epi128::<2>(t), red)
}

/// Each lane times x^k, `1 <= k <= 56` (for the first tweaks).
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_xk(t: __m256i, k: i32, poly: __m256i) -> __m256i {
    let shifted = _mm256_sll_epi64(t, _mm_cvtsi32_si128(k));
    let carry = _mm256_srl_epi64(t, _mm_cvtsi32_si128(64 - k));
    // The low half's carry moves up into the high half; the high half's is reduced.
    let up = _mm256_bslli_epi128::<8>(carry);
    let red = _mm256_clmulepi64_epi128::<0x00>(_mm256_bsrli_epi128::<8>(carry), poly);
    _mm256_xor_si256(_mm256_xor_si256(shifted, up), red)
}

#[inline]
#[target_feature(enable = "avx2,vaes")]
fn round<const DEC: bool>(s: &mut [__m256i; 8], k: __m256i) {
    for x in s.iter_mut() {
        *x = if DEC {
            _mm256_aesdec_epi128(*x, k)
        } else {
            _mm256_aesenc_epi128(*x, k)
        };
    }
}

/// # Safety
/// As [`encrypt_unit`]; `ks.rounds == R`.
#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn unit<const DEC: bool, const R: usize>(
    tok: VaesAvx2Token,
    ks: &KeySchedule,
    t0: &Block,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let rk = load_keys(if DEC { &ks.dec } else { &ks.enc });
    let poly = _mm256_set1_epi64x(0x87);
    let rem = len % 16;
    let bulk = if rem == 0 { len / 16 } else { len / 16 - 1 };
    let t = load(t0);
    let v0 = _mm256_set_m128i(mul_x(t), t);
    let mut v = [v0; 8];
    for (j, x) in v.iter_mut().enumerate().skip(1) {
        *x = mul_xk(v0, 2 * j as i32, poly);
    }
    let mut off = 0;
    for _ in 0..bulk / 16 {
        let mut s = [_mm256_setzero_si256(); 8];
        let mut w = [_mm256_setzero_si256(); 8];
        for j in 0..8 {
            // SAFETY: off + 256 <= bulk * 16 <= len, so these 32 bytes are readable.
            let d = unsafe { _mm256_loadu_si256(src.add(off + 32 * j).cast()) };
            s[j] = _mm256_xor_si256(d, _mm256_xor_si256(v[j], rk[0]));
            w[j] = _mm256_xor_si256(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        for x in &mut v[..4] {
            *x = mul_x16(*x, poly);
        }
        round::<DEC>(&mut s, rk[2]);
        for x in &mut v[4..] {
            *x = mul_x16(*x, poly);
        }
        for k in &rk[3..R] {
            round::<DEC>(&mut s, *k);
        }
        for j in 0..8 {
            let c = if DEC {
                _mm256_aesdeclast_epi128(s[j], w[j])
            } else {
                _mm256_aesenclast_epi128(s[j], w[j])
            };
            // SAFETY: the same 32 bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm256_storeu_si256(dst.add(off + 32 * j).cast(), c) };
        }
        off += 256;
    }
    let mut t = [0u8; 16];
    store(&mut t, _mm256_castsi256_si128(v[0]));
    // SAFETY: `off <= len`; the rest (fewer than 16 blocks, then at most one full block
    // and 15 bytes) is within the caller's ranges, and is 0 or at least 16 bytes.
    unsafe {
        finish(
            Impl::VaesAvx2(tok),
            ks,
            DEC,
            &t,
            src.add(off),
            dst.add(off),
            len - off,
        );
    }
}

/// Encrypts one data unit. `t0` is the initial tweak already encrypted with Key2
/// (`E_K2(i)`); `k1` is Key1's schedule.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes; `src == dst` or the ranges do not
/// overlap; `16 <= len <= 1 << 24`.
pub(crate) unsafe fn encrypt_unit(
    t: VaesAvx2Token,
    k1: &KeySchedule,
    t0: &[u8; 16],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: the token proves AVX2, VAES, VPCLMULQDQ and AES-NI (with SSSE3, SSE4.1) and
    // the YMM state; the caller upholds the pointer and length contract; each instance
    // matches the key's round count.
    unsafe {
        match k1.rounds {
            10 => unit::<false, 10>(t, k1, t0, src, dst, len),
            12 => unit::<false, 12>(t, k1, t0, src, dst, len),
            _ => unit::<false, 14>(t, k1, t0, src, dst, len),
        }
    }
}

/// Decrypts one data unit (see [`encrypt_unit`]; `k1.dec` is used).
///
/// # Safety
/// As [`encrypt_unit`].
pub(crate) unsafe fn decrypt_unit(
    t: VaesAvx2Token,
    k1: &KeySchedule,
    t0: &[u8; 16],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: as in `encrypt_unit`.
    unsafe {
        match k1.rounds {
            10 => unit::<true, 10>(t, k1, t0, src, dst, len),
            12 => unit::<true, 12>(t, k1, t0, src, dst, len),
            _ => unit::<true, 14>(t, k1, t0, src, dst, len),
        }
    }
}
