//! SHA-1 on AVX2: the message schedule of two blocks at once (one per 128-bit lane) with
//! scalar BMI2 rounds, and eight independent messages at once (one per 32-bit lane). The
//! multi-lane body ([`lanes`]) is generic over the vector width: eight lanes of a ymm
//! register here, sixteen of a zmm register (and eight with AVX-512 VL) in `avx512`.
//!
//! One stream ([`compress`]): `ssse3::pipelined` over ymm registers, two blocks per vector,
//! with the scalar rounds compiled for BMI2 (`rorx` for the rotates, `andn` in Ch).
//!
//! Many messages ([`compress8`]):
//! ```text
//! a..e = the lanes' states, transposed: lane i of a is message i's a
//! for each block index:
//!     W[t] = word t of each lane's block, byte-swapped (a transpose of the loaded rows)  t < 16
//!     save = a..e
//!     for t in 0..80:
//!         W[t % 16] = rol1(W[(t-3) % 16] ^ W[(t-8) % 16] ^ W[(t-14) % 16] ^ W[t % 16])  t >= 16
//!         e += rol5(a) + f(b, c, d) + W[t % 16] + K[t / 20];  b = rol30(b)
//!         rename (a, b, c, d, e) = (e, a, b, c, d)
//!     a..e += save
//! ```
//! Every lane runs the same instructions on its own words: no branch and no memory index
//! depends on the data. The number of blocks (the fewest of any lane, a public length) is
//! the only thing that steers the loop.
// The lanes read as their index recurrences.
#![allow(clippy::needless_range_loop)]

use crate::arch::x86_64::sha1_ssse3 as ssse3;
use crate::arch::x86_64::simd::u32x::{Lanes, U32x, U32x8};
use crate::cpu::{Avx2Token, Avx512Token};
use crate::sha1::soft::K;

#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_avx2(t: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    ssse3::pipelined::<U32x8>(t, state, blocks);
}

/// The same kernel with AVX-512 VL enabled as well: LLVM then forms `vprold` for the
/// schedule's rotates and `vpternlogd` for its three-input XORs.
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,avx512f,avx512vl")]
fn compress_avx512vl(t: Avx512Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    ssse3::pipelined::<U32x8>(t.avx2(), state, blocks);
}

/// Compresses whole blocks into the state.
pub(crate) fn compress(t: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has AVX2, BMI1 and BMI2, with YMM state enabled.
    unsafe { compress_avx2(t, state, blocks) }
}

/// [`compress`] compiled for AVX-512 VL.
pub(crate) fn compress_avx512(t: Avx512Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has AVX2, BMI1, BMI2, AVX-512 F and VL, with the
    // YMM and ZMM state enabled.
    unsafe { compress_avx512vl(t, state, blocks) }
}

/// One round over all lanes, the variables renamed by returning them in their new roles:
/// `t` is a constant at every call once inlined, so every index into the W ring is one.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn round<V: U32x>(
    f: impl Fn(V, V, V) -> V,
    k: V,
    w: &mut [V; 16],
    t: usize,
    [a, b, c, d, e]: [V; 5],
) -> [V; 5] {
    if t >= 16 {
        let x = V::xor3(w[(t + 13) % 16], w[(t + 8) % 16], w[(t + 2) % 16]).xor(w[t % 16]);
        w[t % 16] = x.rol::<1, 31>();
    }
    let e = e
        .add(k)
        .add(w[t % 16])
        .add(f(b, c, d))
        .add(a.rol::<5, 27>());
    [e, a, b.rol::<30, 2>(), c, d]
}

/// Rounds `t..t + 20`, on one boolean function and one constant: written out (no loop,
/// which LLVM would not unroll), so that each round's `t` is a constant.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn rounds20<V: U32x>(
    f: impl Fn(V, V, V) -> V + Copy,
    k: V,
    w: &mut [V; 16],
    t: usize,
    mut x: [V; 5],
) -> [V; 5] {
    macro_rules! rounds_at {
        ($($i:literal)*) => { $(x = round(f, k, w, t + $i, x);)* };
    }
    rounds_at!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    x
}

/// The 80 rounds of one block over all lanes: `s` (the five state vectors) updated in
/// place, `w` (the sixteen schedule vectors) consumed.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(super) fn block<V: U32x>(t: V::Token, s: &mut [V; 5], mut w: [V; 16]) {
    let x = rounds20(V::ch, V::splat(t, K[0]), &mut w, 0, *s);
    let x = rounds20(V::parity, V::splat(t, K[1]), &mut w, 20, x);
    let x = rounds20(V::maj, V::splat(t, K[2]), &mut w, 40, x);
    let x = rounds20(V::parity, V::splat(t, K[3]), &mut w, 60, x);
    for (s, x) in s.iter_mut().zip(x) {
        *s = s.add(x);
    }
}

/// The multi-lane kernel body: compresses `n = min(len)` blocks of `L` independent streams
/// at once, `blocks[i]` into `states[i]`, one stream per lane of `V`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(super) fn lanes<V: Lanes<L>, const L: usize>(
    t: V::Token,
    states: &mut [[u32; 5]; L],
    blocks: [&[[u8; 64]]; L],
) {
    let n = blocks.iter().map(|b| b.len()).min().unwrap_or(0);
    let mut s = load_states::<V, L>(t, states);
    for i in 0..n {
        block(t, &mut s, V::words(t, &blocks, i));
    }
    store_states::<V, L>(&s, states);
}

/// The lanes' chaining values, word `k` of every lane in `s[k]`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(super) fn load_states<V: Lanes<L>, const L: usize>(
    t: V::Token,
    states: &[[u32; 5]; L],
) -> [V; 5] {
    // (Loops, not closures: a closure is compiled with the entry's target features only
    // where it is inlined.)
    let mut s = [V::splat(t, 0); 5];
    for (k, s) in s.iter_mut().enumerate() {
        let mut col = [0u32; L];
        for (c, st) in col.iter_mut().zip(states.iter()) {
            *c = st[k];
        }
        *s = V::load(t, &col);
    }
    s
}

/// [`load_states`] undone.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(super) fn store_states<V: Lanes<L>, const L: usize>(s: &[V; 5], states: &mut [[u32; 5]; L]) {
    for (k, v) in s.iter().enumerate() {
        let mut col = [0u32; L];
        v.store(&mut col);
        for (st, x) in states.iter_mut().zip(col) {
            st[k] = x;
        }
    }
}

#[inline(never)]
#[target_feature(enable = "avx2")]
fn compress8_avx2(t: Avx2Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    lanes::<U32x8, 8>(t, states, blocks);
}

/// Compresses `n = min(len)` blocks of eight independent streams at once: `blocks[i]` into
/// `states[i]`.
pub(crate) fn compress8(t: Avx2Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    // SAFETY: the token proves the CPU has AVX2, with YMM state enabled.
    unsafe { compress8_avx2(t, states, blocks) }
}
