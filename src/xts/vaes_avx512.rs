//! XTS unit kernels with VAES and VPCLMULQDQ on 512-bit registers: 8 zmm of 4 blocks,
//! 32 blocks in flight.
//!
//! ```text
//! v[j] = (T_0·x^(4j), T_0·x^(4j+1), T_0·x^(4j+2), T_0·x^(4j+3))  for j = 0..8
//! for each group of 32 full blocks (all but the last when a partial block follows):
//!     s[j] = P[4j..4j+4] ⊕ v[j] ⊕ rk[0]  (one three-way XOR);  w[j] = v[j] ⊕ rk[R]
//!     round 1 (8 independent vaesenc);  v[0..4] *= x^32
//!     round 2;                           v[4..8] *= x^32    // hidden between rounds
//!     rounds 3..R-1
//!     C[4j..4j+4] = vaesenclast(s[j], w[j])   // = AES(P ⊕ T) ⊕ T, output XOR in the key
//! per 128-bit lane: t·x^32 = (t shifted up 4 bytes) ⊕ clmul(top 4 bytes of t, 0x87)
//! the remaining n < 32 full blocks: one masked group of ceil(n/4) vectors (1, 2, 4 or 8),
//! tweaks from the first lanes of v (a unit shorter than a group computes only those)
//! the ciphertext stealing: `aesni::steal` (two AES-NI blocks, tweak = lane n of v)
//! ```
//! multi-unit calls whose unit is a whole number of groups run as one stream of groups:
//! the next unit's first tweaks are made from its T_0 between the rounds of the
//! current unit's last group (instead of the x^32 step).
//! Decryption is the same with `vaesdec` and the equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use crate::aes::aesni::{load, store};
use crate::aes::{Block, KeySchedule};
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

/// Lane `l` (of 4) times x^(k + l), `0 <= k <= 56`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
fn mul_x_lanes(t: __m512i, k: i64, poly: __m512i) -> __m512i {
    let up = _mm512_add_epi64(
        _mm512_set1_epi64(k),
        _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0),
    );
    let down = _mm512_sub_epi64(_mm512_set1_epi64(64), up);
    // A shift by 64 gives zero, as needed for lane 0 when k = 0.
    let shifted = _mm512_sllv_epi64(t, up);
    let carry = _mm512_srlv_epi64(t, down);
    // The low half's carry moves up into the high half; the high half's is reduced.
    let hi = _mm512_bslli_epi128::<8>(carry);
    let red = _mm512_clmulepi64_epi128::<0x00>(_mm512_bsrli_epi128::<8>(carry), poly);
    _mm512_ternarylogic_epi64::<0x96>(shifted, hi, red)
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
    barrier(s);
}

/// Keeps the compiler from reordering the rounds block by block: after each round all
/// eight states must exist, so round `r + 1` of any block comes after round `r` of every
/// block in program order, and the out-of-order core sees 8 independent chains in a short
/// window. No instruction is emitted.
#[inline]
#[target_feature(enable = "avx512f")]
fn barrier(s: &mut [__m512i; 8]) {
    // SAFETY: an empty template: it reads and writes only the eight registers named, and
    // touches no memory, stack or flags.
    unsafe {
        core::arch::asm!(
            "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
            inout(zmm_reg) s[0],
            inout(zmm_reg) s[1],
            inout(zmm_reg) s[2],
            inout(zmm_reg) s[3],
            inout(zmm_reg) s[4],
            inout(zmm_reg) s[5],
            inout(zmm_reg) s[6],
            inout(zmm_reg) s[7],
            options(pure, nomem, nostack, preserves_flags),
        );
    }
}

/// # Safety
/// As [`encrypt_units`] for one unit of `len` bytes; `ks.rounds == R`; `rk` is `ks`'s keys
/// for the direction.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
unsafe fn unit<const DEC: bool, const R: usize>(
    tok: VaesAvx512Token,
    ks: &KeySchedule,
    rk: &[__m512i; 15],
    t0: &Block,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm512_set1_epi64(0x87);
    let rem = len % 16;
    let bulk = if rem == 0 { len / 16 } else { len / 16 - 1 };
    // v[j] lane l = T_0 · x^(4j + l), each straight from T_0 (no serial chain).
    let t = _mm512_broadcast_i32x4(load(t0));
    let mut v = [t; 8];
    // A unit shorter than a group needs only the vectors its blocks (and the stealing
    // block's tweak) fall in.
    let need = if bulk >= 32 { 8 } else { bulk / 4 + 1 };
    for (j, x) in v.iter_mut().enumerate().take(need) {
        *x = mul_x_lanes(t, 4 * j as i64, poly);
    }
    let mut off = 0;
    for _ in 0..bulk / 32 {
        // The next tweaks are needed only if anything follows this group.
        let more = off + 512 < len;
        let mut s = [_mm512_setzero_si512(); 8];
        let mut w = [_mm512_setzero_si512(); 8];
        for j in 0..8 {
            // SAFETY: off + 512 <= bulk * 16 <= len, so these 64 bytes are readable.
            let d = unsafe { _mm512_loadu_si512(src.add(off + 64 * j).cast()) };
            s[j] = _mm512_ternarylogic_epi64::<0x96>(d, v[j], rk[0]);
            w[j] = _mm512_xor_si512(v[j], rk[R]);
        }
        round::<DEC>(&mut s, rk[1]);
        if more {
            for x in &mut v[..4] {
                *x = mul_x32(*x, poly);
            }
        }
        round::<DEC>(&mut s, rk[2]);
        if more {
            for x in &mut v[4..] {
                *x = mul_x32(*x, poly);
            }
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
    // The full blocks after the last group (fewer than 32): one masked group, as few
    // vectors as they need. Their tweaks are the first lanes of `v`.
    let left = bulk % 32;
    if left > 0 {
        // SAFETY: blocks `off / 16 .. off / 16 + left` are within `bulk`, so within the
        // caller's ranges.
        unsafe {
            let (s, d) = (src.add(off), dst.add(off));
            match left.div_ceil(4) {
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
    // Ciphertext stealing: the tweak of block `left` of the set, lane `left % 4` of
    // `v[left / 4]` (a public position).
    let mut lanes = [[0u8; 16]; 4];
    let tv = v[left / 4];
    store(&mut lanes[0], _mm512_castsi512_si128(tv));
    store(&mut lanes[1], _mm512_extracti32x4_epi32::<1>(tv));
    store(&mut lanes[2], _mm512_extracti32x4_epi32::<2>(tv));
    store(&mut lanes[3], _mm512_extracti32x4_epi32::<3>(tv));
    let t = lanes[left % 4];
    super::wipe(&mut lanes);
    // SAFETY: `off <= len`; the rest (one full block and 1 to 15 bytes) is within the
    // caller's ranges, equal or disjoint; the token proves AES-NI (and SSSE3, SSE4.1).
    unsafe {
        super::aesni::steal::<DEC>(
            tok.vaes_avx2().aesni(),
            ks,
            &t,
            src.add(off),
            dst.add(off),
            rem,
        )
    }
}

/// `n` blocks (`n <= 4 * NV`, fewer than 32) at `src` → `dst` with the tweaks in the
/// first lanes of `v`: `NV` vectors run the rounds, but only the `ceil(n / 4)` that hold
/// blocks are loaded and stored (the last one masked past block `n`); the others stay
/// zero. No pointer past the range is formed, and no load is fully masked.
///
/// # Safety
/// `src` readable and `dst` writable for `16 * n` bytes, equal or disjoint.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
unsafe fn tail_group<const DEC: bool, const R: usize, const NV: usize>(
    rk: &[__m512i; 15],
    v: &[__m512i; 8],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // Two 64-bit elements per block; vector j holds blocks 4j..4j+4.
    let mask = |j: usize| -> __mmask8 {
        let blocks = n.saturating_sub(4 * j).min(4);
        ((1u32 << (2 * blocks)) - 1) as __mmask8
    };
    // The vectors that hold blocks; `used <= NV`. Vector `j < used` starts at byte
    // `64 * j <= 16 * (n - 1)`, inside the range.
    let used = n.div_ceil(4);
    debug_assert!(used <= NV && n <= 4 * NV);
    let mut s = [_mm512_setzero_si512(); NV];
    let mut w = [_mm512_setzero_si512(); NV];
    for j in 0..NV {
        let d = if j < used {
            // SAFETY: `64 * j < 16 * n`, so the pointer is inside the range; the mask
            // enables only the elements of blocks below `n` (at least one), and those are
            // readable.
            unsafe { _mm512_maskz_loadu_epi64(mask(j), src.add(64 * j).cast()) }
        } else {
            _mm512_setzero_si512()
        };
        s[j] = _mm512_ternarylogic_epi64::<0x96>(d, v[j], rk[0]);
        w[j] = _mm512_xor_si512(v[j], rk[R]);
    }
    for k in &rk[1..R] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm512_aesdec_epi128(*x, *k)
            } else {
                _mm512_aesenc_epi128(*x, *k)
            };
        }
    }
    for j in 0..used {
        let c = if DEC {
            _mm512_aesdeclast_epi128(s[j], w[j])
        } else {
            _mm512_aesenclast_epi128(s[j], w[j])
        };
        // SAFETY: as for the loads: `64 * j < 16 * n`, and only the elements of blocks
        // below `n` are written.
        unsafe { _mm512_mask_storeu_epi64(dst.add(64 * j).cast(), mask(j), c) };
    }
}

/// Units whose length is a whole number of 32-block groups, as one stream of groups:
/// the tweaks of the group after the current one (the next group of this unit, or the first
/// group of the next unit) are computed between its first rounds, so a unit boundary does
/// not stall the pipeline on the next unit's tweak set-up.
///
/// # Safety
/// As [`units`]; `len % 512 == 0`.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
unsafe fn units_fused<const DEC: bool, const R: usize>(
    rk: &[__m512i; 15],
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let poly = _mm512_set1_epi64(0x87);
    let per_unit = len / 512;
    let total = tweaks.len() * per_unit;
    let Some(t0) = tweaks.first() else {
        return;
    };
    let first = _mm512_broadcast_i32x4(load(t0));
    let mut v = [first; 8];
    for (j, x) in v.iter_mut().enumerate() {
        *x = mul_x_lanes(first, (4 * j) as i64, poly);
    }
    // A countdown to the unit's last group, rather than a division per group.
    let mut left_in_unit = per_unit;
    let mut next_unit = 0;
    for g in 0..total {
        let off = g * 512;
        let more = g + 1 < total;
        left_in_unit -= 1;
        // The next group starts a new unit: its tweaks come from that unit's T_0.
        let fresh = if left_in_unit == 0 && more {
            left_in_unit = per_unit;
            next_unit += 1;
            Some(_mm512_broadcast_i32x4(load(&tweaks[next_unit])))
        } else {
            None
        };
        let mut s = [_mm512_setzero_si512(); 8];
        let mut w = [_mm512_setzero_si512(); 8];
        for j in 0..8 {
            // SAFETY: off + 512 <= total * 512 = tweaks.len() * len, within the caller's range.
            let d = unsafe { _mm512_loadu_si512(src.add(off + 64 * j).cast()) };
            s[j] = _mm512_ternarylogic_epi64::<0x96>(d, v[j], rk[0]);
            w[j] = _mm512_xor_si512(v[j], rk[R]);
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
                _mm512_aesdeclast_epi128(s[j], w[j])
            } else {
                _mm512_aesenclast_epi128(s[j], w[j])
            };
            // SAFETY: the same bytes are writable at `dst` (src == dst or disjoint, and
            // every load of this group is done).
            unsafe { _mm512_storeu_si512(dst.add(off + 64 * j).cast(), c) };
        }
    }
}

/// `v[from..from + 4]` for the next group: advanced by x^32, or from a fresh `T_0`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
fn next_tweaks(v: &mut [__m512i; 8], from: usize, fresh: Option<__m512i>, poly: __m512i) {
    for (j, x) in v.iter_mut().enumerate().skip(from).take(4) {
        *x = match fresh {
            Some(t) => mul_x_lanes(t, (4 * j) as i64, poly),
            None => mul_x32(*x, poly),
        };
    }
}

/// Consecutive data units of `len` bytes, the `i`-th under `tweaks[i]`, with the round
/// keys loaded once.
///
/// # Safety
/// As [`encrypt_units`]; `ks.rounds == R`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
unsafe fn units<const DEC: bool, const R: usize>(
    tok: VaesAvx512Token,
    ks: &KeySchedule,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let rk = load_keys(if DEC { &ks.dec } else { &ks.enc });
    if len.is_multiple_of(512) {
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

super::unit_entries!(VaesAvx512Token);
