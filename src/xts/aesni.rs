//! XTS unit kernels with AES-NI on 128-bit registers, 8 blocks in flight.
//!
//! ```text
//! v[j] = T_0·x^j  for j = 0..8 (each straight from T_0)  // the first 8 tweaks
//! for each group of 8 full blocks (all but the last when a partial block follows):
//!     s[j] = P[j] ⊕ (v[j] ⊕ rk[0]);  w[j] = v[j] ⊕ rk[R]
//!     round 1 (8 independent aesenc);  v[0..4] *= x^8
//!     round 2;                          v[4..8] *= x^8      // hidden between rounds
//!     rounds 3..R-1
//!     C[j] = aesenclast(s[j], w[j])     // = AES(P ⊕ T) ⊕ T: the output XOR is in the key
//! t·x^8 = (t << 8 bits, a byte shift) ⊕ clmul(top byte of t, 0x87)
//! the remaining n < 8 full blocks: n blocks in flight with the tweaks v[0..n]
//! the ciphertext stealing: [`steal`] (two dependent blocks, splice by shuffle and blend),
//! tweak v[n]
//! ```
//! multi-unit calls whose unit is a whole number of groups run as one stream of groups:
//! the next unit's first tweaks are made from its T_0 between the rounds of the
//! current unit's last group (instead of the x^8 step).
//! Decryption is the same with `aesdec` and the equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use crate::aes::aesni::{load, load_keys, store};
use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;

/// `t · x^8`: a byte shift, and the byte shifted out folded back by 0x87.
#[inline]
#[target_feature(enable = "pclmulqdq")]
fn mul_x8(t: __m128i, poly: __m128i) -> __m128i {
    let top = _mm_srli_si128::<15>(t);
    let red = _mm_clmulepi64_si128::<0x00>(top, poly);
    _mm_xor_si128(_mm_slli_si128::<1>(t), red)
}

#[inline]
#[target_feature(enable = "aes")]
fn round<const DEC: bool>(s: &mut [__m128i; 8], k: __m128i) {
    for x in s.iter_mut() {
        *x = if DEC {
            _mm_aesdec_si128(*x, k)
        } else {
            _mm_aesenc_si128(*x, k)
        };
    }
    barrier(s);
}

/// Keeps the compiler from reordering the rounds block by block: after each round all
/// eight states must exist, so round `r + 1` of any block comes after round `r` of every
/// block in program order, and the out-of-order core sees 8 independent chains in a short
/// window. No instruction is emitted.
#[inline]
#[target_feature(enable = "sse2")]
fn barrier(s: &mut [__m128i; 8]) {
    // SAFETY: an empty template: it reads and writes only the eight registers named, and
    // touches no memory, stack or flags.
    unsafe {
        core::arch::asm!(
            "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
            inout(xmm_reg) s[0],
            inout(xmm_reg) s[1],
            inout(xmm_reg) s[2],
            inout(xmm_reg) s[3],
            inout(xmm_reg) s[4],
            inout(xmm_reg) s[5],
            inout(xmm_reg) s[6],
            inout(xmm_reg) s[7],
            options(pure, nomem, nostack, preserves_flags),
        );
    }
}

/// # Safety
/// As [`encrypt_units`] for one unit of `len` bytes; `ks.rounds == R`; `rk` is `ks`'s keys
/// for the direction.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn unit<const DEC: bool, const R: usize>(
    tok: AesNiToken,
    ks: &KeySchedule,
    rk: &[__m128i; 15],
    t0: &Block,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm_set_epi64x(0, 0x87);
    let rem = len % 16;
    let bulk = if rem == 0 { len / 16 } else { len / 16 - 1 };
    let t = load(t0);
    let mut v = [t; 8];
    // A unit shorter than a group needs only the tweaks of its blocks (and of the stealing
    // block).
    let need = if bulk >= 8 { 8 } else { bulk + 1 };
    for (j, x) in v.iter_mut().enumerate().take(need) {
        *x = mul_xk(t, j as i64, poly);
    }
    let mut off = 0;
    for _ in 0..bulk / 8 {
        // The next tweaks are needed only if anything follows this group.
        let more = off + 128 < len;
        let mut s = [_mm_setzero_si128(); 8];
        let mut w = [_mm_setzero_si128(); 8];
        for j in 0..8 {
            // SAFETY: off + 128 <= bulk * 16 <= len, so these 16 bytes are readable.
            let d = unsafe { _mm_loadu_si128(src.add(off + 16 * j).cast()) };
            s[j] = _mm_xor_si128(d, _mm_xor_si128(v[j], rk[0]));
            w[j] = _mm_xor_si128(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        if more {
            for x in &mut v[..4] {
                *x = mul_x8(*x, poly);
            }
        }
        round::<DEC>(&mut s, rk[2]);
        if more {
            for x in &mut v[4..] {
                *x = mul_x8(*x, poly);
            }
        }
        for k in &rk[3..R] {
            round::<DEC>(&mut s, *k);
        }
        for j in 0..8 {
            let c = if DEC {
                _mm_aesdeclast_si128(s[j], w[j])
            } else {
                _mm_aesenclast_si128(s[j], w[j])
            };
            // SAFETY: the same 16 bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm_storeu_si128(dst.add(off + 16 * j).cast(), c) };
        }
        off += 128;
    }
    // The full blocks after the last group (fewer than 8), with the first tweaks of `v`.
    let left = bulk % 8;
    if left > 0 {
        // SAFETY: blocks `off / 16 .. off / 16 + left` are within `bulk`, so within the
        // caller's ranges.
        unsafe {
            let (s, d) = (src.add(off), dst.add(off));
            match left {
                1 => tail_group::<DEC, R, 1>(rk, &v, s, d),
                2 => tail_group::<DEC, R, 2>(rk, &v, s, d),
                3 => tail_group::<DEC, R, 3>(rk, &v, s, d),
                4 => tail_group::<DEC, R, 4>(rk, &v, s, d),
                5 => tail_group::<DEC, R, 5>(rk, &v, s, d),
                6 => tail_group::<DEC, R, 6>(rk, &v, s, d),
                _ => tail_group::<DEC, R, 7>(rk, &v, s, d),
            }
        }
        off += 16 * left;
    }
    if off == len {
        return;
    }
    let mut t = [0u8; 16];
    store(&mut t, v[left]);
    // SAFETY: `off <= len`; the rest (one full block and 1 to 15 bytes) is within the
    // caller's ranges, equal or disjoint; the token proves AES-NI (and SSSE3, SSE4.1).
    unsafe { steal::<DEC>(tok, ks, &t, src.add(off), dst.add(off), rem) }
}

/// `N` blocks (fewer than 8) at `src` → `dst` under the tweaks `v[..N]`.
///
/// # Safety
/// `src` readable and `dst` writable for `16 * N` bytes, equal or disjoint.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn tail_group<const DEC: bool, const R: usize, const N: usize>(
    rk: &[__m128i; 15],
    v: &[__m128i; 8],
    src: *const u8,
    dst: *mut u8,
) {
    let mut s = [_mm_setzero_si128(); N];
    for j in 0..N {
        // SAFETY: block `j < N` is within the caller's range.
        let d = unsafe { _mm_loadu_si128(src.add(16 * j).cast()) };
        s[j] = _mm_xor_si128(d, _mm_xor_si128(v[j], rk[0]));
    }
    for k in &rk[1..R] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm_aesdec_si128(*x, *k)
            } else {
                _mm_aesenc_si128(*x, *k)
            };
        }
    }
    for j in 0..N {
        let w = _mm_xor_si128(v[j], rk[R]);
        let c = if DEC {
            _mm_aesdeclast_si128(s[j], w)
        } else {
            _mm_aesenclast_si128(s[j], w)
        };
        // SAFETY: block `j < N` is writable; every load is done.
        unsafe { _mm_storeu_si128(dst.add(16 * j).cast(), c) };
    }
}

/// Units whose length is a whole number of 8-block groups, as one stream of groups: the
/// tweaks of the group after the current one (the next group of this unit, or the first
/// group of the next unit) are computed between its first rounds, so a unit boundary does
/// not stall the pipeline on the next unit's tweak set-up.
///
/// # Safety
/// As [`units`]; `len % 128 == 0`.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn units_fused<const DEC: bool, const R: usize>(
    rk: &[__m128i; 15],
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm_set_epi64x(0, 0x87);
    let per_unit = len / 128;
    let total = tweaks.len() * per_unit;
    let Some(t0) = tweaks.first() else {
        return;
    };
    let first = load(t0);
    let mut v = [first; 8];
    for (j, x) in v.iter_mut().enumerate() {
        *x = mul_xk(first, j as i64, poly);
    }
    // A countdown to the unit's last group, rather than a division per group.
    let mut left_in_unit = per_unit;
    let mut next_unit = 0;
    for g in 0..total {
        let off = g * 128;
        let more = g + 1 < total;
        left_in_unit -= 1;
        // The next group starts a new unit: its tweaks come from that unit's T_0.
        let fresh = if left_in_unit == 0 && more {
            left_in_unit = per_unit;
            next_unit += 1;
            Some(load(&tweaks[next_unit]))
        } else {
            None
        };
        let mut s = [_mm_setzero_si128(); 8];
        let mut w = [_mm_setzero_si128(); 8];
        for j in 0..8 {
            // SAFETY: off + 128 <= total * 128 = tweaks.len() * len, within the caller's range.
            let d = unsafe { _mm_loadu_si128(src.add(off + 16 * j).cast()) };
            s[j] = _mm_xor_si128(d, _mm_xor_si128(v[j], rk[0]));
            w[j] = _mm_xor_si128(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        if more {
            next_tweaks(&mut v, 0, fresh, poly);
        }
        round::<DEC>(&mut s, rk[2]);
        if more {
            next_tweaks(&mut v, 4, fresh, poly);
        }
        for k in &rk[3..R] {
            round::<DEC>(&mut s, *k);
        }
        for j in 0..8 {
            let c = if DEC {
                _mm_aesdeclast_si128(s[j], w[j])
            } else {
                _mm_aesenclast_si128(s[j], w[j])
            };
            // SAFETY: the same bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm_storeu_si128(dst.add(off + 16 * j).cast(), c) };
        }
    }
}

/// `v[from..from + 4]` for the next group: advanced by x^8, or from a fresh `T_0`.
#[inline]
#[target_feature(enable = "pclmulqdq")]
fn next_tweaks(v: &mut [__m128i; 8], from: usize, fresh: Option<__m128i>, poly: __m128i) {
    for (j, x) in v.iter_mut().enumerate().skip(from).take(4) {
        *x = match fresh {
            Some(t) => mul_xk(t, j as i64, poly),
            None => mul_x8(*x, poly),
        };
    }
}

/// `t · x^k`, `0 <= k <= 56` (independent of the other tweaks: no serial chain).
#[inline]
#[target_feature(enable = "pclmulqdq")]
fn mul_xk(t: __m128i, k: i64, poly: __m128i) -> __m128i {
    // A shift by 64 gives zero, as needed when k = 0.
    let shifted = _mm_sll_epi64(t, _mm_cvtsi64_si128(k));
    let carry = _mm_srl_epi64(t, _mm_cvtsi64_si128(64 - k));
    // The low half's carry moves up into the high half; the high half's is reduced.
    let hi = _mm_slli_si128::<8>(carry);
    let red = _mm_clmulepi64_si128::<0x00>(_mm_srli_si128::<8>(carry), poly);
    _mm_xor_si128(_mm_xor_si128(shifted, hi), red)
}

/// Consecutive data units of `len` bytes, the `i`-th under `tweaks[i]`, with the round
/// keys loaded once.
///
/// # Safety
/// As [`encrypt_units`]; `ks.rounds == R`.
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn units<const DEC: bool, const R: usize>(
    tok: AesNiToken,
    ks: &KeySchedule,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let rk = load_keys(if DEC { &ks.dec } else { &ks.enc });
    if len.is_multiple_of(128) {
        // SAFETY: the caller's contract, and whole groups.
        unsafe { units_fused::<DEC, R>(&rk, tweaks, src, dst, len) };
        return;
    }
    for (i, t0) in tweaks.iter().enumerate() {
        // SAFETY: unit `i` lies within the caller's ranges (`i < tweaks.len()`), with the
        // same aliasing (equal or disjoint) and a valid length.
        unsafe { unit::<DEC, R>(tok, ks, &rk, t0, src.add(i * len), dst.add(i * len), len) };
    }
}

super::unit_entries!(AesNiToken);

/// Ciphertext stealing at the end of a unit: the last full block and the `rem` bytes
/// after it (`1 <= rem <= 15`), `t` the full block's tweak. Two dependent single blocks on
/// xmm registers (the shortest latency here); the partial block is moved with 16-byte
/// loads and stores that end at the unit's end, byte shuffles and a blend (indexes from
/// `rem`, which is public), so nothing goes through memory byte by byte.
///
/// ```text
/// encrypt: CC = E(P_{m-1} ⊕ t) ⊕ t;  C_m = CC[..rem];  C_{m-1} = E((P_m ‖ CC[rem..]) ⊕ t·x) ⊕ t·x
/// decrypt: PP = D(C_{m-1} ⊕ t·x) ⊕ t·x;  P_m = PP[..rem];  P_{m-1} = D((C_m ‖ PP[rem..]) ⊕ t) ⊕ t
/// ```
///
/// # Safety
/// `src` readable and `dst` writable for `16 + rem` bytes, equal or disjoint.
#[target_feature(enable = "aes,ssse3,sse4.1")]
pub(crate) unsafe fn steal<const DEC: bool>(
    _: AesNiToken,
    ks: &KeySchedule,
    t: &Block,
    src: *const u8,
    dst: *mut u8,
    rem: usize,
) {
    /// `UP[16 - rem..][..16]` moves bytes `16 - rem..16` down to `0..rem` (zero above).
    const UP: [u8; 32] = {
        let mut u = [0x80u8; 32];
        let mut i = 0;
        while i < 16 {
            u[i] = i as u8;
            i += 1;
        }
        u
    };
    /// `DOWN[rem..][..16]` moves bytes `0..rem` up to `16 - rem..16`.
    const DOWN: [u8; 32] = {
        let mut d = [0x80u8; 32];
        let mut i = 16;
        while i < 32 {
            d[i] = (i - 16) as u8;
            i += 1;
        }
        d
    };
    debug_assert!((1..16).contains(&rem));
    let keys = if DEC { &ks.dec } else { &ks.enc };
    let rounds = ks.rounds;
    let one = |x: __m128i| -> __m128i {
        let mut s = _mm_xor_si128(x, load(&keys[0]));
        for k in &keys[1..rounds] {
            s = if DEC {
                _mm_aesdec_si128(s, load(k))
            } else {
                _mm_aesenc_si128(s, load(k))
            };
        }
        if DEC {
            _mm_aesdeclast_si128(s, load(&keys[rounds]))
        } else {
            _mm_aesenclast_si128(s, load(&keys[rounds]))
        }
    };
    let ta = u128::from_le_bytes(*t);
    let (ta, tb) = (
        load(&ta.to_le_bytes()),
        load(&super::mul_x(ta).to_le_bytes()),
    );
    let (first, second) = if DEC { (tb, ta) } else { (ta, tb) };
    // SAFETY: the constants' windows are within their 32 bytes (`rem < 16`).
    let (up, down) = unsafe {
        (
            _mm_loadu_si128(UP.as_ptr().add(16 - rem).cast()),
            _mm_loadu_si128(DOWN.as_ptr().add(rem).cast()),
        )
    };
    // Read everything first (`src` may be `dst`): the full block, and the 16 bytes that
    // end at the unit's end, whose top `rem` bytes are the partial block.
    // SAFETY: both 16-byte windows lie within the `16 + rem` readable bytes.
    let (full, end) = unsafe {
        (
            _mm_loadu_si128(src.cast()),
            _mm_loadu_si128(src.add(rem).cast()),
        )
    };
    let cc = _mm_xor_si128(one(_mm_xor_si128(full, first)), first);
    // The partial block's bytes, then CC's (or PP's) after them: `up` is 0x80 exactly
    // where CC's bytes are kept.
    let part = _mm_blendv_epi8(_mm_shuffle_epi8(end, up), cc, up);
    let last = _mm_xor_si128(one(_mm_xor_si128(part, second)), second);
    // SAFETY: both 16-byte windows lie within the `16 + rem` writable bytes; every read is
    // done. The first store puts CC's first `rem` bytes at the end; the second, of the
    // full block, overwrites the rest of the first.
    unsafe {
        _mm_storeu_si128(dst.add(rem).cast(), _mm_shuffle_epi8(cc, down));
        _mm_storeu_si128(dst.cast(), last);
    }
}
