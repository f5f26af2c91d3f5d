//! VAES block kernels on 512-bit registers (four blocks per register).
//!
//! ```text
//! for each group of 32 blocks (8 zmm; then 16, 8, 4 blocks in zmm, 2 in a ymm, 1 in xmm):
//!     s[i] = zmm(block[4i..4i+4]) ^ broadcast(rk[0])
//!     for r in 1..rounds: s[i] = vaesenc(s[i], broadcast(rk[r]))
//!     store vaesenclast(s[i], broadcast(rk[rounds]))
//! ```

use core::arch::x86_64::*;

use super::{Block, KeySchedule, aesni, vaes_avx2};
use crate::cpu::{VaesAvx2Token, VaesAvx512Token};

#[inline]
#[target_feature(enable = "avx512f")]
fn load_keys(keys: &[Block; 15]) -> [__m512i; 15] {
    let mut k = [_mm512_setzero_si512(); 15];
    for (r, key) in k.iter_mut().zip(keys) {
        *r = _mm512_broadcast_i32x4(aesni::load(key));
    }
    k
}

/// One full cipher over `4 * N` blocks in `N` registers.
#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn crypt_n<const N: usize, const DEC: bool>(
    rk: &[__m512i; 15],
    rounds: usize,
    blocks: &mut [Block],
) {
    assert_eq!(blocks.len(), 4 * N);
    let p = blocks.as_mut_ptr().cast::<__m512i>();
    let mut s = [_mm512_setzero_si512(); N];
    for (i, x) in s.iter_mut().enumerate() {
        // SAFETY: `blocks` holds 4N blocks (asserted), so 64 bytes at block 4i are in bounds.
        *x = _mm512_xor_si512(unsafe { _mm512_loadu_si512(p.add(i)) }, rk[0]);
    }
    for k in &rk[1..rounds] {
        for x in s.iter_mut() {
            *x = if DEC {
                _mm512_aesdec_epi128(*x, *k)
            } else {
                _mm512_aesenc_epi128(*x, *k)
            };
        }
    }
    let last = rk[rounds];
    for (i, x) in s.iter().enumerate() {
        let v = if DEC {
            _mm512_aesdeclast_epi128(*x, last)
        } else {
            _mm512_aesenclast_epi128(*x, last)
        };
        // SAFETY: as for the load; `blocks` is exclusively borrowed.
        unsafe { _mm512_storeu_si512(p.add(i), v) };
    }
}

#[target_feature(enable = "avx512f,vaes")]
fn crypt<const DEC: bool>(t: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    let (keys, rounds) = if DEC {
        (&ks.dec, ks.rounds)
    } else {
        (&ks.enc, ks.rounds)
    };
    let rk = load_keys(keys);
    let mut chunks = blocks.chunks_exact_mut(32);
    for c in &mut chunks {
        crypt_n::<8, DEC>(&rk, rounds, c);
    }
    let mut rest = chunks.into_remainder();
    if rest.len() >= 16 {
        let (a, b) = rest.split_at_mut(16);
        crypt_n::<4, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() >= 8 {
        let (a, b) = rest.split_at_mut(8);
        crypt_n::<2, DEC>(&rk, rounds, a);
        rest = b;
    }
    if rest.len() >= 4 {
        let (a, b) = rest.split_at_mut(4);
        crypt_n::<1, DEC>(&rk, rounds, a);
        rest = b;
    }
    // At most 3 blocks remain: the 256-bit kernel finishes them.
    if DEC {
        vaes_avx2::decrypt_blocks(t, ks, rest);
    } else {
        vaes_avx2::encrypt_blocks(t, ks, rest);
    }
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves AVX-512F, VAES and the ZMM register state.
    unsafe { crypt::<false>(t.vaes_avx2(), ks, blocks) }
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves AVX-512F, VAES and the ZMM register state.
    unsafe { crypt::<true>(t.vaes_avx2(), ks, blocks) }
}
