//! VAES block kernels on 256-bit registers (two blocks per register).
//!
//! ```text
//! for each group of 16 blocks (8 ymm; then 8, 4, 2 blocks, then 1 with AES-NI):
//!     s[i] = ymm(block[2i], block[2i+1]) ^ broadcast(rk[0])
//!     for r in 1..rounds: s[i] = vaesenc(s[i], broadcast(rk[r]))   // 8 chains
//!     store vaesenclast(s[i], broadcast(rk[rounds]))
//! ```
//! `vaesenc ymm` retires 2 per cycle with a 4-cycle latency, so 8 registers (16 blocks)
//! are in flight.

use core::arch::x86_64::*;

use super::{Block, KeySchedule, aesni};
use crate::cpu::VaesAvx2Token;

/// The round keys broadcast to both lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load_keys(keys: &[Block; 15]) -> [__m256i; 15] {
    let mut k = [_mm256_setzero_si256(); 15];
    for (r, key) in k.iter_mut().zip(keys) {
        *r = _mm256_broadcastsi128_si256(aesni::load(key));
    }
    k
}

/// One full cipher over `2 * N` blocks in `N` registers.
#[inline]
#[target_feature(enable = "avx2,vaes")]
fn crypt_n<const N: usize, const DEC: bool>(
    rk: &[__m256i; 15],
    rounds: usize,
    blocks: &mut [Block],
) {
    assert_eq!(blocks.len(), 2 * N);
    let p = blocks.as_mut_ptr().cast::<__m256i>();
    let mut s = [_mm256_setzero_si256(); N];
    for (i, x) in s.iter_mut().enumerate() {
        // SAFETY: `blocks` holds 2N blocks (asserted), so 32 bytes at block 2i are in bounds.
        *x = _mm256_xor_si256(unsafe { _mm256_loadu_si256(p.add(i)) }, rk[0]);
    }
    for k in &rk[1..rounds] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm256_aesdec_epi128(*x, *k)
            } else {
                _mm256_aesenc_epi128(*x, *k)
            };
        }
    }
    let last = rk[rounds];
    for (i, x) in s.iter().enumerate() {
        let v = if DEC {
            _mm256_aesdeclast_epi128(*x, last)
        } else {
            _mm256_aesenclast_epi128(*x, last)
        };
        // SAFETY: as for the load; `blocks` is exclusively borrowed.
        unsafe { _mm256_storeu_si256(p.add(i), v) };
    }
}

#[target_feature(enable = "avx2,vaes,aes")]
fn crypt<const DEC: bool>(keys: &[Block; 15], rounds: usize, blocks: &mut [Block]) {
    let rk = load_keys(keys);
    let mut chunks = blocks.chunks_exact_mut(16);
    for c in &mut chunks {
        crypt_n::<8, DEC>(&rk, rounds, c);
    }
    let mut rest = chunks.into_remainder();
    if rest.len() >= 8 {
        let (a, b) = rest.split_at_mut(8);
        crypt_n::<4, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() >= 4 {
        let (a, b) = rest.split_at_mut(4);
        crypt_n::<2, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() >= 2 {
        let (a, b) = rest.split_at_mut(2);
        crypt_n::<1, DEC>(&rk, rounds, a);
        rest = b;
    }
    if let [last] = rest {
        let rk = load_128(&rk);
        let mut s = _mm_xor_si128(aesni::load(last), rk[0]);
        for k in &rk[1..rounds] {
            s = if DEC {
                _mm_aesdec_si128(s, *k)
            } else {
                _mm_aesenc_si128(s, *k)
            };
        }
        s = if DEC {
            _mm_aesdeclast_si128(s, rk[rounds])
        } else {
            _mm_aesenclast_si128(s, rk[rounds])
        };
        aesni::store(last, s);
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn load_128(rk: &[__m256i; 15]) -> [__m128i; 15] {
    let mut k = [_mm_setzero_si128(); 15];
    for (x, y) in k.iter_mut().zip(rk) {
        *x = _mm256_castsi256_si128(*y);
    }
    k
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(_: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { crypt::<false>(&ks.enc, ks.rounds, blocks) }
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(_: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { crypt::<true>(&ks.dec, ks.rounds, blocks) }
}
