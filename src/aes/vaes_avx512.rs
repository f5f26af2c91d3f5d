//! The AES block kernel ([`super::kernel`]) on 512-bit registers with VAES: 8 zmm of four
//! blocks, 32 blocks in flight.

use super::{Block, KeySchedule};
use crate::cpu::VaesAvx512Token;
use crate::simd::aes::Zmm;

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,vaes,aes")]
fn crypt<const DEC: bool>(t: VaesAvx512Token, ks: &KeySchedule, blocks: &mut [Block]) {
    super::kernel::blocks::<Zmm, DEC>(t, ks, blocks);
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves AVX-512 F/BW/VL, VAES and the ZMM register state.
    unsafe { crypt::<false>(t, ks, blocks) }
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, blocks: &mut [Block]) {
    // SAFETY: the token proves AVX-512 F/BW/VL, VAES and the ZMM register state.
    unsafe { crypt::<true>(t, ks, blocks) }
}
