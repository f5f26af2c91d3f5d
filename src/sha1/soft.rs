//! Portable scalar SHA-1 compression (FIPS 180-4 §6.1.2). Constant time: only 32-bit
//! adds, rotates and bitwise operations, no tables, no data-dependent branches: the
//! standard's schedule and 80 rounds, `W[t] + K[t / 20]` computed before the rounds.
//!
//! The rounds ([`rounds`]) read a precomputed `W + K` array, so the SIMD-schedule backends
//! (`ssse3`, `avx2`) share them: inlined into an AVX2+BMI2 function they compile to `rorx`
//! and `andn`.
#![forbid(unsafe_code)]

/// The initial hash value (FIPS 180-4 §5.3.1).
pub(crate) const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// The round constants, one per 20 rounds.
pub(crate) const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

/// `Ch(b, c, d) = (b & c) | (!b & d)`, written as a sum of disjoint terms (`andn`).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn ch(b: u32, c: u32, d: u32) -> u32 {
    (b & c).wrapping_add(!b & d)
}

/// `Parity(b, c, d) = b ^ c ^ d`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

/// `Maj(b, c, d) = (b & c) | (b & d) | (c & d)`, written as a sum of disjoint terms with
/// `b` (the newest variable, on the critical path) in one of them only: `c & d` is ready a
/// round earlier.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn maj(b: u32, c: u32, d: u32) -> u32 {
    (c & d).wrapping_add(b & (c ^ d))
}

/// One round, with the variables renamed by the caller instead of moved.
macro_rules! round {
    ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $wk:expr) => {
        $e = $e
            .wrapping_add($wk)
            .wrapping_add($f($b, $c, $d))
            .wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
}

/// Five rounds: after them the variables are back in their original roles.
macro_rules! round5 {
    ($f:ident, $wk:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round!($f, $a, $b, $c, $d, $e, $wk[$t]);
        round!($f, $e, $a, $b, $c, $d, $wk[$t + 1]);
        round!($f, $d, $e, $a, $b, $c, $wk[$t + 2]);
        round!($f, $c, $d, $e, $a, $b, $wk[$t + 3]);
        round!($f, $b, $c, $d, $e, $a, $wk[$t + 4]);
    };
}

/// The 80 rounds of one block over a precomputed `W[t] + K[t / 20]`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn rounds(state: &mut [u32; 5], wk: &[u32; 80]) {
    rounds_with(state, wk, |_| {});
}

/// The 80 rounds, calling `between(g)` after each group `g` (0..16) of five rounds: the
/// SIMD backends compute the next blocks' schedule there, in the gaps of the round chain.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn rounds_with(state: &mut [u32; 5], wk: &[u32; 80], mut between: impl FnMut(usize)) {
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    let mut t = 0;
    // Rounds `t..end` in groups of five, on one boolean function.
    macro_rules! rounds_to {
        ($f:ident, $end:literal) => {
            while t < $end {
                round5!($f, wk, t, a, b, c, d, e);
                between(t / 5);
                t += 5;
            }
        };
    }
    rounds_to!(ch, 20);
    rounds_to!(parity, 40);
    rounds_to!(maj, 60);
    rounds_to!(parity, 80);
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
    state[4] = state[4].wrapping_add(e);
}

/// The scalar message schedule of one block, with the round constants added.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn schedule(block: &[u8; 64], wk: &mut [u32; 80]) {
    let mut w = [0u32; 80];
    for (i, c) in block.as_chunks::<4>().0.iter().enumerate() {
        w[i] = u32::from_be_bytes(*c);
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    for t in 0..80 {
        wk[t] = w[t].wrapping_add(K[t / 20]);
    }
}

/// Compresses whole blocks into the state.
#[inline(never)]
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut wk = [0u32; 80];
    for block in blocks {
        schedule(block, &mut wk);
        rounds(state, &wk);
    }
}
