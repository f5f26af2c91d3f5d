//! The AES block kernel ([`super::kernel`]) on 256-bit registers with VAES: 8 ymm of two
//! blocks, 16 blocks in flight (`vaesenc ymm` retires 2 per cycle with a 4-cycle latency).

use super::{Block, KeySchedule, kernel};
use crate::cpu::VaesAvx2Token;
use crate::simd::aes::{Ymm, entries};

entries! { "avx2,vaes,aes";
    /// Encrypts each block in place.
    fn encrypt_blocks(t: VaesAvx2Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Ymm, false, false>;
    /// Decrypts each block in place.
    fn decrypt_blocks(t: VaesAvx2Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Ymm, true, false>;
    /// [`encrypt_blocks`] for fewer than 8 registers of blocks.
    fn encrypt_short(t: VaesAvx2Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Ymm, false, true>;
    /// [`decrypt_blocks`] for fewer than 8 registers of blocks.
    fn decrypt_short(t: VaesAvx2Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Ymm, true, true>;
}
