//! AES-NI block kernels (128-bit registers).
//!
//! ```text
//! for each group of 8 blocks (then 4, 2, 1 for the tail):
//!     s[i] = block[i] ^ rk[0]
//!     for r in 1..rounds: s[i] = aesenc(s[i], rk[r])     // 8 independent chains
//!     block[i] = aesenclast(s[i], rk[rounds])
//! ```
//! `aesenc` has a latency of 4 cycles and a throughput of 2 per cycle, so 8 independent
//! blocks keep the unit busy. Decryption is the same with `aesdec` and the
//! equivalent-inverse-cipher keys.

use core::arch::x86_64::*;

use super::{Block, KeySchedule};
use crate::cpu::AesNiToken;

/// Loads a block (unaligned).
#[inline(always)]
pub(crate) fn load(b: &Block) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is
    // part of x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Stores a block (unaligned).
#[inline(always)]
pub(crate) fn store(b: &mut Block, v: __m128i) {
    // SAFETY: `b` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) }
}

/// The 15 round-key slots as registers (unused slots are zero).
#[inline(always)]
pub(crate) fn load_keys(keys: &[Block; 15]) -> [__m128i; 15] {
    core::array::from_fn(|i| load(&keys[i]))
}

/// One full cipher over `N` independent blocks.
#[inline]
#[target_feature(enable = "aes")]
fn crypt_n<const N: usize, const DEC: bool>(
    rk: &[__m128i; 15],
    rounds: usize,
    blocks: &mut [Block],
) {
    debug_assert_eq!(blocks.len(), N);
    let mut s = [_mm_setzero_si128(); N];
    for i in 0..N {
        s[i] = _mm_xor_si128(load(&blocks[i]), rk[0]);
    }
    for k in &rk[1..rounds] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm_aesdec_si128(*x, *k)
            } else {
                _mm_aesenc_si128(*x, *k)
            };
        }
    }
    let last = rk[rounds];
    for i in 0..N {
        let v = if DEC {
            _mm_aesdeclast_si128(s[i], last)
        } else {
            _mm_aesenclast_si128(s[i], last)
        };
        store(&mut blocks[i], v);
    }
}

#[target_feature(enable = "aes")]
fn crypt<const DEC: bool>(keys: &[Block; 15], rounds: usize, blocks: &mut [Block]) {
    let rk = load_keys(keys);
    let mut chunks = blocks.chunks_exact_mut(8);
    for c in &mut chunks {
        crypt_n::<8, DEC>(&rk, rounds, c);
    }
    let mut rest = chunks.into_remainder();
    if rest.len() >= 4 {
        let (a, b) = rest.split_at_mut(4);
        crypt_n::<4, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() >= 2 {
        let (a, b) = rest.split_at_mut(2);
        crypt_n::<2, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() == 1 {
        crypt_n::<1, DEC>(&rk, rounds, rest);
    }
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(_: AesNiToken, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { crypt::<false>(&ks.enc, ks.rounds, blocks) }
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(_: AesNiToken, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { crypt::<true>(&ks.dec, ks.rounds, blocks) }
}
