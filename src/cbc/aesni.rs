//! The CBC kernels ([`super::kernel`]) on 128-bit registers with AES-NI: one stream's
//! chain, 8 blocks in flight when decrypting, 8 streams interleaved by `encrypt_lanes`.
//!
//! Measured on Emerald Rapids: the encryption loop's chain is exactly R AES instructions,
//! 3.0 cycles each (the `aesenc` latency, with one key or ten, VEX or legacy encoding,
//! register or memory keys); the loads, stores and XORs beside it cost nothing.

use super::Lane;
use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;
use crate::simd::aes::Xmm;

#[target_feature(enable = "aes")]
fn enc(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    super::kernel::encrypt::<Xmm>(t, ks, iv, blocks);
}

#[target_feature(enable = "aes")]
fn dec(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    super::kernel::decrypt::<Xmm>(t, ks, iv, blocks);
}

#[target_feature(enable = "aes")]
fn lanes(t: AesNiToken, ks: &KeySchedule, lanes: &mut [Lane<'_>], steps: usize) {
    super::kernel::encrypt_lanes::<Xmm>(t, ks, lanes, steps);
}

/// CBC-encrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
pub(crate) fn encrypt(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { enc(t, ks, iv, blocks) }
}

/// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
pub(crate) fn decrypt(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { dec(t, ks, iv, blocks) }
}

/// Encrypts `steps` blocks of every lane, up to 8 lanes interleaved at a time.
pub(crate) fn encrypt_lanes(t: AesNiToken, ks: &KeySchedule, l: &mut [Lane<'_>], steps: usize) {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe { lanes(t, ks, l, steps) }
}
