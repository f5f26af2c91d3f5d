//! XTS unit kernels with VAES and VPCLMULQDQ on 256-bit registers: 8 ymm of 2 blocks,
//! 16 blocks in flight.
//!
//! ```text
//! v[j] = (T_0·x^(2j), T_0·x^(2j+1))  for j = 0..8         // tweaks T_0..T_15
//! for each group of 16 full blocks (all but the last when a partial block follows):
//!     s[j] = P[2j..2j+2] ⊕ (v[j] ⊕ rk[0]);  w[j] = v[j] ⊕ rk[R]
//!     round 1 (8 independent vaesenc);  v[0..4] *= x^16
//!     round 2;                           v[4..8] *= x^16    // hidden between rounds
//!     rounds 3..R-1
//!     C[2j..2j+2] = vaesenclast(s[j], w[j])   // = AES(P ⊕ T) ⊕ T, output XOR in the key
//! per 128-bit lane: t·x^16 = (t shifted up 2 bytes) ⊕ clmul(top 2 bytes of t, 0x87)
//! the remaining n < 16 full blocks: one group of ceil(n/2) vectors (1, 2, 4 or 8) with
//! masked loads and stores (vpmaskmovq), tweaks from the first lanes of v
//! the ciphertext stealing: `aesni::steal` (two AES-NI blocks, tweak = lane n of v)
//! ```
//! multi-unit calls whose unit is a whole number of groups run as one stream of groups:
//! the next unit's first tweaks are made from its T_0 between the rounds of the
//! current unit's last group (instead of the x^16 step).
//! Decryption is the same with `vaesdec` and the equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use crate::aes::aesni::{load, store};
use crate::aes::vaes_avx2::load_keys;
use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx2Token;

/// Each lane times x^16.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_x16(t: __m256i, poly: __m256i) -> __m256i {
    let top = _mm256_bsrli_epi128::<14>(t);
    let red = _mm256_clmulepi64_epi128::<0x00>(top, poly);
    _mm256_xor_si256(_mm256_bslli_epi128::<2>(t), red)
}

/// Lane `l` (of 2) times x^(k + l), `0 <= k <= 56`.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_x_lanes(t: __m256i, k: i64, poly: __m256i) -> __m256i {
    let up = _mm256_add_epi64(_mm256_set1_epi64x(k), _mm256_set_epi64x(1, 1, 0, 0));
    let down = _mm256_sub_epi64(_mm256_set1_epi64x(64), up);
    // A shift by 64 gives zero, as needed for lane 0 when k = 0.
    let shifted = _mm256_sllv_epi64(t, up);
    let carry = _mm256_srlv_epi64(t, down);
    // The low half's carry moves up into the high half; the high half's is reduced.
    let hi = _mm256_bslli_epi128::<8>(carry);
    let red = _mm256_clmulepi64_epi128::<0x00>(_mm256_bsrli_epi128::<8>(carry), poly);
    _mm256_xor_si256(_mm256_xor_si256(shifted, hi), red)
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
    barrier(s);
}

/// Keeps the compiler from reordering the rounds block by block: after each round all
/// eight states must exist, so round `r + 1` of any block comes after round `r` of every
/// block in program order, and the out-of-order core sees 8 independent chains in a short
/// window. No instruction is emitted.
#[inline]
#[target_feature(enable = "avx")]
fn barrier(s: &mut [__m256i; 8]) {
    // SAFETY: an empty template: it reads and writes only the eight registers named, and
    // touches no memory, stack or flags.
    unsafe {
        core::arch::asm!(
            "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
            inout(ymm_reg) s[0],
            inout(ymm_reg) s[1],
            inout(ymm_reg) s[2],
            inout(ymm_reg) s[3],
            inout(ymm_reg) s[4],
            inout(ymm_reg) s[5],
            inout(ymm_reg) s[6],
            inout(ymm_reg) s[7],
            options(pure, nomem, nostack, preserves_flags),
        );
    }
}

/// # Safety
/// As [`encrypt_units`] for one unit of `len` bytes; `ks.rounds == R`; `rk` is `ks`'s keys
/// for the direction.
#[inline]
#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn unit<const DEC: bool, const R: usize>(
    tok: VaesAvx2Token,
    ks: &KeySchedule,
    rk: &[__m256i; 15],
    t0: &Block,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm256_set1_epi64x(0x87);
    let rem = len % 16;
    let bulk = if rem == 0 { len / 16 } else { len / 16 - 1 };
    // v[j] lane l = T_0 · x^(2j + l), each straight from T_0 (no serial chain).
    let t = _mm256_broadcastsi128_si256(load(t0));
    let mut v = [t; 8];
    // A unit shorter than a group needs only the vectors its blocks (and the stealing
    // block's tweak) fall in.
    let need = if bulk >= 16 { 8 } else { bulk / 2 + 1 };
    for (j, x) in v.iter_mut().enumerate().take(need) {
        *x = mul_x_lanes(t, 2 * j as i64, poly);
    }
    let mut off = 0;
    for _ in 0..bulk / 16 {
        // The next tweaks are needed only if anything follows this group.
        let more = off + 256 < len;
        let mut s = [_mm256_setzero_si256(); 8];
        let mut w = [_mm256_setzero_si256(); 8];
        for j in 0..8 {
            // SAFETY: off + 256 <= bulk * 16 <= len, so these 32 bytes are readable.
            let d = unsafe { _mm256_loadu_si256(src.add(off + 32 * j).cast()) };
            s[j] = _mm256_xor_si256(d, _mm256_xor_si256(v[j], rk[0]));
            w[j] = _mm256_xor_si256(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        if more {
            for x in &mut v[..4] {
                *x = mul_x16(*x, poly);
            }
        }
        round::<DEC>(&mut s, rk[2]);
        if more {
            for x in &mut v[4..] {
                *x = mul_x16(*x, poly);
            }
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
    // The full blocks after the last group (fewer than 16): one masked group, as few
    // vectors as they need. Their tweaks are the first lanes of `v`.
    let left = bulk % 16;
    if left > 0 {
        // SAFETY: blocks `off / 16 .. off / 16 + left` are within `bulk`, so within the
        // caller's ranges.
        unsafe {
            let (s, d) = (src.add(off), dst.add(off));
            match left.div_ceil(2) {
                1 => tail_group::<DEC, R, 1>(rk, &v, s, d, left),
                2 => tail_group::<DEC, R, 2>(rk, &v, s, d, left),
                3 | 4 => tail_group::<DEC, R, 4>(rk, &v, s, d, left),
                _ => tail_group::<DEC, R, 8>(rk, &v, s, d, left),
            }
        }
        off += 16 * left;
    }
    if off == len {
        return;
    }
    // Ciphertext stealing: the tweak of block `left` of the set, lane `left % 2` of
    // `v[left / 2]` (a public position).
    let mut lanes = [[0u8; 16]; 2];
    store(&mut lanes[0], _mm256_castsi256_si128(v[left / 2]));
    store(&mut lanes[1], _mm256_extracti128_si256::<1>(v[left / 2]));
    let t = lanes[left % 2];
    super::wipe(&mut lanes);
    // SAFETY: `off <= len`; the rest (one full block and 1 to 15 bytes) is within the
    // caller's ranges, equal or disjoint; the token proves AES-NI (and SSSE3, SSE4.1).
    unsafe { super::aesni::steal::<DEC>(tok.aesni(), ks, &t, src.add(off), dst.add(off), rem) }
}

/// `n` blocks (`n <= 2 * NV`, fewer than 16) at `src` → `dst` with the tweaks in the
/// first lanes of `v`: `NV` vectors run the rounds, but only the `ceil(n / 2)` that hold
/// blocks are loaded and stored (the last one masked when `n` is odd); the others stay
/// zero. No pointer past the range is formed, and no load is fully masked.
///
/// # Safety
/// `src` readable and `dst` writable for `16 * n` bytes, equal or disjoint.
#[inline]
#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn tail_group<const DEC: bool, const R: usize, const NV: usize>(
    rk: &[__m256i; 15],
    v: &[__m256i; 8],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // Two 64-bit elements per block; vector j holds blocks 2j and 2j + 1. An element is
    // enabled when its index within the vector is below twice the blocks left for it.
    let mask = |j: usize| -> __m256i {
        let elems = 2 * n.saturating_sub(2 * j).min(2);
        _mm256_cmpgt_epi64(
            _mm256_set1_epi64x(elems as i64),
            _mm256_set_epi64x(3, 2, 1, 0),
        )
    };
    // The vectors that hold blocks; `used <= NV`. Vector `j < used` starts at byte
    // `32 * j <= 16 * (n - 1)`, inside the range.
    let used = n.div_ceil(2);
    debug_assert!(used <= NV && n <= 2 * NV);
    let mut s = [_mm256_setzero_si256(); NV];
    let mut w = [_mm256_setzero_si256(); NV];
    for j in 0..NV {
        let d = if j < used {
            // SAFETY: `32 * j < 16 * n`, so the pointer is inside the range; the mask
            // enables only the elements of blocks below `n` (at least one), and those are
            // readable.
            unsafe { _mm256_maskload_epi64(src.add(32 * j).cast(), mask(j)) }
        } else {
            _mm256_setzero_si256()
        };
        s[j] = _mm256_xor_si256(d, _mm256_xor_si256(v[j], rk[0]));
        w[j] = _mm256_xor_si256(v[j], rk[R]);
    }
    for k in &rk[1..R] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm256_aesdec_epi128(*x, *k)
            } else {
                _mm256_aesenc_epi128(*x, *k)
            };
        }
    }
    for j in 0..used {
        let c = if DEC {
            _mm256_aesdeclast_epi128(s[j], w[j])
        } else {
            _mm256_aesenclast_epi128(s[j], w[j])
        };
        // SAFETY: as for the loads: `32 * j < 16 * n`, and only the elements of blocks
        // below `n` are written.
        unsafe { _mm256_maskstore_epi64(dst.add(32 * j).cast(), mask(j), c) };
    }
}

/// Units whose length is a whole number of 16-block groups, as one stream of groups:
/// the tweaks of the group after the current one (the next group of this unit, or the first
/// group of the next unit) are computed between its first rounds, so a unit boundary does
/// not stall the pipeline on the next unit's tweak set-up.
///
/// # Safety
/// As [`units`]; `len % 256 == 0`.
#[inline]
#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn units_fused<const DEC: bool, const R: usize>(
    rk: &[__m256i; 15],
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm256_set1_epi64x(0x87);
    let per_unit = len / 256;
    let total = tweaks.len() * per_unit;
    let Some(t0) = tweaks.first() else {
        return;
    };
    let first = _mm256_broadcastsi128_si256(load(t0));
    let mut v = [first; 8];
    for (j, x) in v.iter_mut().enumerate() {
        *x = mul_x_lanes(first, (2 * j) as i64, poly);
    }
    // A countdown to the unit's last group, rather than a division per group.
    let mut left_in_unit = per_unit;
    let mut next_unit = 0;
    for g in 0..total {
        let off = g * 256;
        let more = g + 1 < total;
        left_in_unit -= 1;
        // The next group starts a new unit: its tweaks come from that unit's T_0.
        let fresh = if left_in_unit == 0 && more {
            left_in_unit = per_unit;
            next_unit += 1;
            Some(_mm256_broadcastsi128_si256(load(&tweaks[next_unit])))
        } else {
            None
        };
        let mut s = [_mm256_setzero_si256(); 8];
        let mut w = [_mm256_setzero_si256(); 8];
        for j in 0..8 {
            // SAFETY: off + 256 <= total * 256 = tweaks.len() * len, within the caller's range.
            let d = unsafe { _mm256_loadu_si256(src.add(off + 32 * j).cast()) };
            s[j] = _mm256_xor_si256(d, _mm256_xor_si256(v[j], rk[0]));
            w[j] = _mm256_xor_si256(v[j], rk[R]);
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
                _mm256_aesdeclast_epi128(s[j], w[j])
            } else {
                _mm256_aesenclast_epi128(s[j], w[j])
            };
            // SAFETY: the same bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm256_storeu_si256(dst.add(off + 32 * j).cast(), c) };
        }
    }
}

/// `v[from..from + 4]` for the next group: advanced by x^16, or from a fresh `T_0`.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn next_tweaks(v: &mut [__m256i; 8], from: usize, fresh: Option<__m256i>, poly: __m256i) {
    for (j, x) in v.iter_mut().enumerate().skip(from).take(4) {
        *x = match fresh {
            Some(t) => mul_x_lanes(t, (2 * j) as i64, poly),
            None => mul_x16(*x, poly),
        };
    }
}

/// Consecutive data units of `len` bytes, the `i`-th under `tweaks[i]`, with the round
/// keys loaded once.
///
/// # Safety
/// As [`encrypt_units`]; `ks.rounds == R`.
#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1")]
unsafe fn units<const DEC: bool, const R: usize>(
    tok: VaesAvx2Token,
    ks: &KeySchedule,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let rk = load_keys(if DEC { &ks.dec } else { &ks.enc });
    if len.is_multiple_of(256) {
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

super::unit_entries!(VaesAvx2Token);
