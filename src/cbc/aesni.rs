//! AES-NI CBC kernels (128-bit registers), the round count a constant so every loop over
//! rounds unrolls and the round keys stay in registers.
//!
//! ```text
//! encrypt (one chain, latency-bound; K = round keys, R = rounds):
//!     s = P[0] ^ C[-1] ^ K[0]
//!     for i in 0..n:
//!         for r in 1..R: s = aesenc(s, K[r])
//!         if i + 1 < n:
//!             u = P[i+1] ^ K[0]                     // off the chain
//!             s = aesenclast(s, K[R] ^ u)           // = C[i] ^ P[i+1] ^ K[0], next input
//!             C[i] = s ^ u                          // off the chain
//!         else:
//!             C[i] = aesenclast(s, K[R])
//!     (the chain is exactly R AES instructions per block: no XOR on it)
//!
//! decrypt: the generic kernel ([`super::kernel`]) on `Xmm`, 8 blocks in flight.
//!
//! encrypt_lanes (N <= 8 independent streams, one block of each per step):
//!     s[k] = iv[k]
//!     for each step j: s[k] = E(P[k][j] ^ s[k]); C[k][j] = s[k]   // N chains interleaved
//! ```
//!
//! Measured on Emerald Rapids: the encryption loop's chain is exactly R AES instructions,
//! 3.0 cycles each (the `aesenc` latency, with one key or ten, VEX or legacy encoding,
//! register or memory keys); the loads, stores and XORs beside it cost nothing.

use core::arch::x86_64::*;

use super::{Lane, with_rounds};
use crate::aes::aesni::{load, load_keys, store};
use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;
use crate::simd::aes::Xmm;

#[target_feature(enable = "aes")]
fn encrypt_r<const R: usize>(keys: &[Block; 15], iv: &mut Block, blocks: &mut [Block]) {
    let Some(last_i) = blocks.len().checked_sub(1) else {
        return;
    };
    let rk = load_keys(keys);
    let k0 = rk[0];
    let kl = rk[R];
    let mut s = _mm_xor_si128(_mm_xor_si128(load(iv), load(&blocks[0])), k0);
    for i in 0..last_i {
        for k in &rk[1..R] {
            s = _mm_aesenc_si128(s, *k);
        }
        let u = _mm_xor_si128(load(&blocks[i + 1]), k0);
        s = _mm_aesenclast_si128(s, _mm_xor_si128(kl, u));
        store(&mut blocks[i], _mm_xor_si128(s, u));
    }
    for k in &rk[1..R] {
        s = _mm_aesenc_si128(s, *k);
    }
    let c = _mm_aesenclast_si128(s, kl);
    store(&mut blocks[last_i], c);
    store(iv, c);
}

/// `steps` blocks of each of exactly `N` lanes.
#[inline]
#[target_feature(enable = "aes")]
fn lanes_n<const N: usize, const R: usize>(
    rk: &[__m128i; 15],
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    // The driver guarantees both; checked so that a bug cannot index out of bounds.
    let ok = lanes.iter().all(|l| l.data.len() >= steps);
    debug_assert!(ok && lanes.len() == N);
    let Ok(lanes) = <&mut [Lane<'_>; N]>::try_from(lanes) else {
        return;
    };
    if !ok {
        return;
    }
    let mut s = [_mm_setzero_si128(); N];
    for (x, l) in s.iter_mut().zip(lanes.iter()) {
        *x = load(&l.iv);
    }
    {
        // Exactly `steps` blocks each, so indexing by `j < steps` needs no bounds checks
        // (they would take issue slots from the AES ports).
        let mut data = lanes.each_mut().map(|l| &mut l.data[..steps]);
        for j in 0..steps {
            for (x, d) in s.iter_mut().zip(data.iter()) {
                *x = _mm_xor_si128(*x, _mm_xor_si128(load(&d[j]), rk[0]));
            }
            for k in &rk[1..R] {
                for x in s.iter_mut() {
                    *x = _mm_aesenc_si128(*x, *k);
                }
            }
            for (x, d) in s.iter_mut().zip(data.iter_mut()) {
                *x = _mm_aesenclast_si128(*x, rk[R]);
                store(&mut d[j], *x);
            }
        }
    }
    for (x, l) in s.iter().zip(lanes.iter_mut()) {
        store(&mut l.iv, *x);
    }
}

#[target_feature(enable = "aes")]
fn lanes_r<const R: usize>(keys: &[Block; 15], lanes: &mut [Lane<'_>], steps: usize) {
    let rk = load_keys(keys);
    for group in lanes.chunks_mut(8) {
        match group.len() {
            1 => lanes_n::<1, R>(&rk, group, steps),
            2 => lanes_n::<2, R>(&rk, group, steps),
            3 => lanes_n::<3, R>(&rk, group, steps),
            4 => lanes_n::<4, R>(&rk, group, steps),
            5 => lanes_n::<5, R>(&rk, group, steps),
            6 => lanes_n::<6, R>(&rk, group, steps),
            7 => lanes_n::<7, R>(&rk, group, steps),
            _ => lanes_n::<8, R>(&rk, group, steps),
        }
    }
}

/// CBC-encrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
pub(crate) fn encrypt(_: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { with_rounds!(ks.rounds, encrypt_r(&ks.enc, iv, blocks)) }
}

#[target_feature(enable = "aes")]
fn dec(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    super::kernel::decrypt::<Xmm>(t, ks, iv, blocks);
}

/// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext):
/// [`super::kernel`] on `Xmm`, 8 blocks in flight.
pub(crate) fn decrypt(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { dec(t, ks, iv, blocks) }
}

/// Encrypts `steps` blocks of every lane, up to 8 lanes interleaved at a time.
pub(crate) fn encrypt_lanes(_: AesNiToken, ks: &KeySchedule, lanes: &mut [Lane<'_>], steps: usize) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { with_rounds!(ks.rounds, lanes_r(&ks.enc, lanes, steps)) }
}
