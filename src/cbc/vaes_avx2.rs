//! The CBC kernels ([`super::kernel`]) on 256-bit AVX2 registers with VAES: 16 blocks in
//! flight when decrypting, 16 streams interleaved by `encrypt_lanes` (stream 2k in the low
//! lane of register k, 2k + 1 in the high). Single-stream encryption is a chain of one
//! block and runs the AES-NI kernel.

use super::Lane;
use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx2Token;
use crate::simd::aes::Ymm;

#[target_feature(enable = "avx2,vaes,aes")]
fn dec(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    super::kernel::decrypt::<Ymm>(t, ks, iv, blocks);
}

#[target_feature(enable = "avx2,vaes,aes")]
fn lanes(t: VaesAvx2Token, ks: &KeySchedule, lanes: &mut [Lane<'_>], steps: usize) {
    super::kernel::encrypt_lanes::<Ymm>(t, ks, lanes, steps);
}

/// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
pub(crate) fn decrypt(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { dec(t, ks, iv, blocks) }
}

/// Encrypts `steps` blocks of every lane, up to 16 lanes interleaved at a time.
pub(crate) fn encrypt_lanes(t: VaesAvx2Token, ks: &KeySchedule, l: &mut [Lane<'_>], steps: usize) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { lanes(t, ks, l, steps) }
}
