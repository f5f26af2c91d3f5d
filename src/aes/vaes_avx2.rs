//! The AES block kernel ([`super::kernel`]) on 256-bit registers with VAES: 8 ymm of two
//! blocks, 16 blocks in flight (`vaesenc ymm` retires 2 per cycle with a 4-cycle latency).

use super::{Block, KeySchedule};
use crate::cpu::VaesAvx2Token;
use crate::simd::aes::Ymm;

#[target_feature(enable = "avx2,vaes,aes")]
fn crypt<const DEC: bool>(t: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    super::kernel::blocks::<Ymm, DEC>(t, ks, blocks);
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(t: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { crypt::<false>(t, ks, blocks) }
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(t: VaesAvx2Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves the CPU has AVX2, VAES and AES-NI, with YMM state enabled.
    unsafe { crypt::<true>(t, ks, blocks) }
}
