//! VAES CBC kernels on 256-bit AVX2 registers (two blocks per register). Single-stream
//! encryption is a chain of one block and runs the AES-NI kernel.
//!
//! ```text
//! decrypt: the generic kernel ([`super::kernel`]) on `Ymm`, 16 blocks in flight.
//!
//! encrypt_lanes (up to 16 streams, two per ymm: stream 2k in the low lane, 2k+1 high):
//!     s[k] = ymm(iv[2k], iv[2k+1]) ^ ymm(P[2k][0], P[2k+1][0]) ^ K[0]
//!     for each step j: R-1 rounds of vaesenc over all registers, then
//!         u = ymm(P[2k][j+1], P[2k+1][j+1]) ^ K[0]
//!         s[k] = vaesenclast(s[k], K[R] ^ u); C = s[k] ^ u     (last step: plain K[R])
//!         store both halves of C
//!     an odd count duplicates the last stream into the spare lane: both halves compute
//!     the same values, so storing both is harmless
//! ```

use core::arch::x86_64::*;

use super::{Lane, with_rounds};
use crate::aes::aesni::{load, store};
use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx2Token;
use crate::simd::aes::{AesVec, Ymm};

/// `ymm(lo, hi)`.
#[inline]
#[target_feature(enable = "avx")]
fn pair(lo: __m128i, hi: __m128i) -> __m256i {
    _mm256_set_m128i(hi, lo)
}

/// `steps` blocks of each of `2M - 1` or `2M` lanes.
#[inline]
#[target_feature(enable = "avx2,vaes,aes")]
fn lanes_m<const M: usize, const R: usize>(
    rk: &[__m256i; 15],
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    let n = lanes.len();
    // The driver guarantees this; checked so that a bug cannot index out of bounds.
    let ok = n + 1 >= 2 * M && n <= 2 * M && lanes.iter().all(|l| l.data.len() >= steps);
    debug_assert!(ok);
    if !ok {
        return;
    }
    // Lane of the high half of register k: 2k + 1, or the last lane again.
    let hi = |k: usize| (2 * k + 1).min(n - 1);
    if steps == 0 {
        return;
    }
    let (k0, kl) = (rk[0], rk[R]);
    // Plaintext block `j` of register `k`, XORed with the first round key.
    let input = |lanes: &[Lane<'_>], j: usize, k: usize| {
        let p = pair(load(&lanes[2 * k].data[j]), load(&lanes[hi(k)].data[j]));
        _mm256_xor_si256(p, k0)
    };
    let mut s = [_mm256_setzero_si256(); M];
    for (k, x) in s.iter_mut().enumerate() {
        let iv = pair(load(&lanes[2 * k].iv), load(&lanes[hi(k)].iv));
        *x = _mm256_xor_si256(iv, input(lanes, 0, k));
    }
    for j in 0..steps {
        for key in &rk[1..R] {
            for x in s.iter_mut() {
                *x = _mm256_aesenc_epi128(*x, *key);
            }
        }
        let mut c = [_mm256_setzero_si256(); M];
        if j + 1 < steps {
            // The next block's input XOR rides in the last round key: the chain has no
            // XOR of its own.
            for (k, (x, y)) in s.iter_mut().zip(c.iter_mut()).enumerate() {
                let u = input(lanes, j + 1, k);
                *x = _mm256_aesenclast_epi128(*x, _mm256_xor_si256(kl, u));
                *y = _mm256_xor_si256(*x, u);
            }
        } else {
            for (x, y) in s.iter().zip(c.iter_mut()) {
                *y = _mm256_aesenclast_epi128(*x, kl);
            }
        }
        for (k, y) in c.iter().enumerate() {
            store(&mut lanes[2 * k].data[j], _mm256_castsi256_si128(*y));
            store(&mut lanes[hi(k)].data[j], _mm256_extracti128_si256::<1>(*y));
            if j + 1 == steps {
                store(&mut lanes[2 * k].iv, _mm256_castsi256_si128(*y));
                store(&mut lanes[hi(k)].iv, _mm256_extracti128_si256::<1>(*y));
            }
        }
    }
}

#[target_feature(enable = "avx2,vaes,aes")]
fn lanes_r<const R: usize>(
    t: VaesAvx2Token,
    keys: &[Block; 15],
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    let rk = Ymm::keys(t, keys).map(Ymm::raw);
    for group in lanes.chunks_mut(16) {
        match group.len() {
            1 | 2 => lanes_m::<1, R>(&rk, group, steps),
            3 | 4 => lanes_m::<2, R>(&rk, group, steps),
            5 | 6 => lanes_m::<3, R>(&rk, group, steps),
            7 | 8 => lanes_m::<4, R>(&rk, group, steps),
            9 | 10 => lanes_m::<5, R>(&rk, group, steps),
            11 | 12 => lanes_m::<6, R>(&rk, group, steps),
            13 | 14 => lanes_m::<7, R>(&rk, group, steps),
            _ => lanes_m::<8, R>(&rk, group, steps),
        }
    }
}

#[target_feature(enable = "avx2,vaes,aes")]
fn dec(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    super::kernel::decrypt::<Ymm>(t, ks, iv, blocks);
}

/// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext):
/// [`super::kernel`] on `Ymm`, 16 blocks in flight.
pub(crate) fn decrypt(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { dec(t, ks, iv, blocks) }
}

/// Encrypts `steps` blocks of every lane, up to 16 lanes interleaved at a time.
pub(crate) fn encrypt_lanes(
    t: VaesAvx2Token,
    ks: &KeySchedule,
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { with_rounds!(ks.rounds, lanes_r(t, &ks.enc, lanes, steps)) }
}
