//! The AES block kernel ([`super::kernel`]) on 512-bit registers with VAES: 8 zmm of four
//! blocks, 32 blocks in flight.

use super::{Block, KeySchedule, kernel};
use crate::cpu::VaesAvx512Token;
use crate::simd::aes::{Zmm, entries};

entries! { "avx512f,avx512bw,avx512vl,avx2,vaes,aes";
    /// Encrypts each block in place.
    fn encrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Zmm, false, false>;
    /// Decrypts each block in place.
    fn decrypt_blocks(t: VaesAvx512Token, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Zmm, true, false>;
}
