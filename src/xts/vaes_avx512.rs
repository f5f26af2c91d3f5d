//! XTS unit kernels with VAES and VPCLMULQDQ on 512-bit registers: 8 zmm of 4 blocks,
//! 32 blocks in flight.
//!
//! ```text
//! v[0] = (T_0, T_0·x, T_0·x^2, T_0·x^3);  v[j] = v[0] · x^(4j)  for j = 1..8
//! for each group of 32 full blocks (all but the last when a partial block follows):
//!     s[j] = P[4j..4j+4] ⊕ v[j] ⊕ rk[0]  (one three-way XOR);  w[j] = v[j] ⊕ rk[R]
//!     round 1 (8 independent vaesenc);  v[0..4] *= x^32
//!     round 2;                           v[4..8] *= x^32    // hidden between rounds
//!     rounds 3..R-1
//!     C[4j..4j+4] = vaesenclast(s[j], w[j])   // = AES(P ⊕ T) ⊕ T, output XOR in the key
//! per 128-bit lane: t·x^32 = (t shifted up 4 bytes) ⊕ clmul(top 4 bytes of t, 0x87)
//! the remaining < 32 blocks and the ciphertext stealing: `super::finish` (VAES block
//! kernels, from the lowest lane of v[0])
//! ```
//! Decryption is the same with `vaesdec` and the equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use super::aesni::mul_x;
use super::finish;
use crate::aes::aesni::{load, store};
use crate::aes::{Block, Impl, KeySchedule};
use crate::cpu::VaesAvx512Token;

#[inline]
#[target_feature(enable = "avx512f")]
fn load_keys(keys: &[Block; 15]) -> [__m512i; 15] {
    core::array::from_fn(|r| _mm512_broadcast_i32x4(load(&keys[r])))
}

/// Each lane times x^32.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
fn mul_x32(t: __m512i, poly: __m512i) -> __m512i {
    let top = _mm512_bsrli_epi128::<12>(t);
    let red = _mm512_clmulepi64_epi128::<0x00>(top, poly);
    _mm512_xor_si512(_mm512_bslli_epi128::<4>(t), red)
}

/// Each lane times x^k, `1 <= k <= 56` (for the first tweaks).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
fn mul_xk(t: __m512i, k: i32, poly: __m512i) -> __m512i {
    let shifted = _mm512_sll_epi64(t, _mm_cvtsi32_si128(k));
    let carry = _mm512_srl_epi64(t, _mm_cvtsi32_si128(64 - k));
    let up = _mm512_bslli_epi128::<8>(carry);
    let red = _mm512_clmulepi64_epi128::<0x00>(_mm512_bsrli_epi128::<8>(carry), poly);
    _mm512_ternarylogic_epi64::<0x96>(shifted, up, red)
}

#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn round<const DEC: bool>(s: &mut [__m512i; 8], k: __m512i) {
    for x in s.iter_mut() {
        *x = if DEC {
            _mm512_aesdec_epi128(*x, k)
        } else {
            _mm512_aesenc_epi128(*x, k)
        };
    }
}

/// # Safety
/// As [`encrypt_unit`]; `ks.rounds == R`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
unsafe fn unit<const DEC: bool, const R: usize>(
    tok: VaesAvx512Token,
    ks: &KeySchedule,
    t0: &Block,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let rk = load_keys(if DEC { &ks.dec } else { &ks.enc });
    let poly = _mm512_set1_epi64(0x87);
    let rem = len % 16;
    let bulk = if rem == 0 { len / 16 } else { len / 16 - 1 };
    let t = load(t0);
    let t1 = mul_x(t);
    let t2 = mul_x(t1);
    let t3 = mul_x(t2);
    let mut v0 = _mm512_castsi128_si512(t);
    v0 = _mm512_inserti32x4::<1>(v0, t1);
    v0 = _mm512_inserti32x4::<2>(v0, t2);
    v0 = _mm512_inserti32x4::<3>(v0, t3);
    let mut v = [v0; 8];
    for (j, x) in v.iter_mut().enumerate().skip(1) {
        *x = mul_xk(v0, 4 * j as i32, poly);
    }
    let mut off = 0;
    for _ in 0..bulk / 32 {
        let mut s = [_mm512_setzero_si512(); 8];
        let mut w = [_mm512_setzero_si512(); 8];
        for j in 0..8 {
            // SAFETY: off + 512 <= bulk * 16 <= len, so these 64 bytes are readable.
            let d = unsafe { _mm512_loadu_si512(src.add(off + 64 * j).cast()) };
            s[j] = _mm512_ternarylogic_epi64::<0x96>(d, v[j], rk[0]);
            w[j] = _mm512_xor_si512(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        for x in &mut v[..4] {
            *x = mul_x32(*x, poly);
        }
        round::<DEC>(&mut s, rk[2]);
        for x in &mut v[4..] {
            *x = mul_x32(*x, poly);
        }
        for k in &rk[3..R] {
            round::<DEC>(&mut s, *k);
        }
        for j in 0..8 {
            let c = if DEC {
                _mm512_aesdeclast_epi128(s[j], w[j])
            } else {
                _mm512_aesenclast_epi128(s[j], w[j])
            };
            // SAFETY: the same 64 bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm512_storeu_si512(dst.add(off + 64 * j).cast(), c) };
        }
        off += 512;
    }
    let mut t = [0u8; 16];
    store(&mut t, _mm512_castsi512_si128(v[0]));
    // SAFETY: `off <= len`; the rest (fewer than 32 blocks, then at most one full block
    // and 15 bytes) is within the caller's ranges, and is 0 or at least 16 bytes.
    unsafe {
        finish(
            Impl::VaesAvx512(tok),
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
    t: VaesAvx512Token,
    k1: &KeySchedule,
    t0: &[u8; 16],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: the token proves AVX-512 F/BW/VL, VAES, VPCLMULQDQ, AVX2 and AES-NI and the
    // ZMM state; the caller upholds the pointer and length contract; each instance matches
    // the key's round count.
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
    t: VaesAvx512Token,
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
