//! AES-NI on single blocks: the key expansion, and the load and store helpers of the
//! xmm kernels.

use core::arch::x86_64::*;

use crate::block::{Block, KeySchedule};
use crate::cpu::AesNiToken;

/// Loads a block (unaligned).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn load(b: &Block) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is
    // part of x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Stores a block (unaligned).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn store(b: &mut Block, v: __m128i) {
    // SAFETY: `b` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) }
}

/// The 15 round-key slots as registers (unused slots are zero).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn load_keys(keys: &[Block; 15]) -> [__m128i; 15] {
    let mut k = [load(&keys[0]); 15];
    for (x, b) in k.iter_mut().zip(keys) {
        *x = load(b);
    }
    k
}

/// Word `W` of `x`, rotated (`ROT`: RotWord) and put through SubWord, XORed with `RCON`,
/// in every lane: `pshufb` broadcasts the (rotated) word and `aesenclast` substitutes it
/// (its ShiftRows moves nothing when the four columns are equal) and adds the constant.
/// What `aeskeygenassist` and a shuffle make, on a chain of two short-latency instructions
/// (`aeskeygenassist` has the longer latency on Intel cores).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn sub_word<const W: i32, const ROT: bool, const RCON: i32>(x: __m128i) -> __m128i {
    let b = 4 * W;
    let lane = if ROT {
        (b + 1) | (b + 2) << 8 | (b + 3) << 16 | b << 24
    } else {
        b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24
    };
    // SAFETY: the callers run inside `expand_aes`, compiled with `aes` and `ssse3` (which
    // the token proves); SSE2 is part of x86-64.
    unsafe {
        _mm_aesenclast_si128(
            _mm_shuffle_epi8(x, _mm_set1_epi32(lane)),
            _mm_set1_epi32(RCON),
        )
    }
}

/// The four words after `prev` in a 128-bit step: `w[i] = w[i - Nk] ^ w[i - 1]` folded over
/// the lanes (a prefix XOR of `prev`), each then XORed with `t` (the transformed word).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn fold(prev: __m128i, t: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let mut x = _mm_xor_si128(prev, _mm_slli_si128::<4>(prev));
        x = _mm_xor_si128(x, _mm_slli_si128::<8>(x));
        _mm_xor_si128(x, t)
    }
}

/// One 128-bit step of the AES-128 schedule.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn step128<const RCON: i32>(k: __m128i) -> __m128i {
    fold(k, sub_word::<3, true, RCON>(k))
}

/// One 6-word step of the AES-192 schedule: `a` holds words `i-6..i-2`, the low half of
/// `b` words `i-2..i`; returns the next 6 words the same way (`b`'s high half unused).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn step192<const RCON: i32>(a: __m128i, b: __m128i) -> (__m128i, __m128i) {
    // RotWord(SubWord(b1)) ^ rcon.
    let na = fold(a, sub_word::<1, true, RCON>(b));
    // SAFETY: SSE2 is part of x86-64.
    let nb = unsafe {
        let t = _mm_shuffle_epi32::<0xff>(na);
        _mm_xor_si128(_mm_xor_si128(b, _mm_slli_si128::<4>(b)), t)
    };
    (na, nb)
}

/// Expands `key` (16, 24 or 32 bytes, of `rounds` 10, 12 or 14) into `*ks`, writing all
/// of it: `rounds`, the encryption keys (the schedule of FIPS-197 §5.2, SubWord by
/// `AESENCLAST`, [`sub_word`]: no tables, constant time), the decryption keys from them by
/// `AESIMC`, and zeros in the slots past `rounds` (so the caller need not zero it first).
///
/// # Safety
/// `ks` is valid for writes of a `KeySchedule` (it need not be initialised).
pub(crate) unsafe fn expand(t: AesNiToken, key: &[u8], rounds: usize, ks: *mut KeySchedule) {
    // SAFETY: the token proves the CPU has AES-NI, SSSE3 and SSE4.1; `ks` is the caller's.
    unsafe { expand_aes(t, key, rounds, ks) }
}

/// Stores round key `i` (< 15) of the array at `p`.
///
/// # Safety
/// `p` is valid for writes of 15 blocks.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
unsafe fn put(p: *mut Block, i: usize, x: __m128i) {
    debug_assert!(i < 15);
    // SAFETY: block `i < 15` of the caller's 15 (`storeu`: no alignment needed).
    unsafe { _mm_storeu_si128(p.add(i).cast(), x) }
}

/// The kernel entry of [`expand`]: a frame of its own, which the caller's stack wipe covers.
///
/// # Safety
/// As [`expand`].
#[inline(never)]
#[target_feature(enable = "aes,ssse3,sse4.1")]
unsafe fn expand_aes(_t: AesNiToken, key: &[u8], rounds: usize, ks: *mut KeySchedule) {
    // SAFETY (every `put` and read below): `ks` is valid for writes (the contract), so
    // `enc` and `dec` are its two arrays of 15 blocks, each index is below 15, and only
    // blocks written before are read.
    let enc: *mut Block = unsafe { core::ptr::addr_of_mut!((*ks).enc) }.cast();
    let dec: *mut Block = unsafe { core::ptr::addr_of_mut!((*ks).dec) }.cast();
    let lo = load(key[..16].try_into().expect("at least 16 bytes"));
    match key.len() {
        16 => unsafe {
            let mut x = lo;
            put(enc, 0, x);
            macro_rules! r128 { ($($i:literal $rc:literal),*) => {$(
                x = step128::<$rc>(x);
                put(enc, $i, x);
            )*}}
            r128!(1 0x01, 2 0x02, 3 0x04, 4 0x08, 5 0x10, 6 0x20, 7 0x40, 8 0x80, 9 0x1b, 10 0x36);
        },
        24 => unsafe {
            // Round keys straddle the 6-word steps: three keys per two steps.
            let hi: &[u8; 8] = key[16..].try_into().expect("24 bytes");
            // `hi` is 8 readable bytes, which `loadl` reads (unaligned).
            let (mut a, mut b) = (lo, _mm_loadl_epi64(hi.as_ptr().cast()));
            put(enc, 0, a);
            macro_rules! r192 { ($($i:literal $rc1:literal $rc2:literal),*) => {$(
                let (a1, b1) = step192::<$rc1>(a, b);
                put(enc, $i, _mm_unpacklo_epi64(b, a1));
                put(enc, $i + 1, _mm_alignr_epi8::<8>(b1, a1));
                (a, b) = step192::<$rc2>(a1, b1);
                put(enc, $i + 2, a);
            )*}}
            r192!(1 0x01 0x02, 4 0x04 0x08, 7 0x10 0x20);
            let (a1, b1) = step192::<0x40>(a, b);
            put(enc, 10, _mm_unpacklo_epi64(b, a1));
            put(enc, 11, _mm_alignr_epi8::<8>(b1, a1));
            put(enc, 12, step192::<0x80>(a1, b1).0);
        },
        _ => unsafe {
            let (mut a, mut b) = (lo, load(key[16..].try_into().expect("32 bytes")));
            put(enc, 0, a);
            put(enc, 1, b);
            macro_rules! r256 { ($($i:literal $rc:literal),*) => {$(
                a = fold(a, sub_word::<3, true, $rc>(b));
                put(enc, $i, a);
                b = fold(b, sub_word::<3, false, 0>(a));
                put(enc, $i + 1, b);
            )*}}
            r256!(2 0x01, 4 0x02, 6 0x04, 8 0x08, 10 0x10, 12 0x20);
            a = fold(a, sub_word::<3, true, 0x40>(b));
            put(enc, 14, a);
        },
    }
    let r = rounds;
    unsafe {
        core::ptr::addr_of_mut!((*ks).rounds).write(r);
        let at = |i: usize| _mm_loadu_si128(enc.add(i).cast());
        put(dec, 0, at(r));
        put(dec, r, at(0));
        for i in 1..r {
            put(dec, i, _mm_aesimc_si128(at(r - i)));
        }
        for i in r + 1..15 {
            put(enc, i, _mm_setzero_si128());
            put(dec, i, _mm_setzero_si128());
        }
    }
}
