//! The CBC kernels ([`super::kernel`]) on 256-bit AVX2 registers with VAES: 16 blocks in
//! flight when decrypting, 16 streams interleaved by `encrypt_lanes` (stream 2k in the low
//! lane of register k, 2k + 1 in the high). Single-stream encryption is a chain of one
//! block and runs the AES-NI kernel.

use super::{Lane, kernel};
use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx2Token;
use crate::simd::aes::{Ymm, entries};

entries! { "avx2,vaes,aes";
    /// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
    fn decrypt(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Ymm, false>;
    /// [`decrypt`] for fewer than 16 blocks.
    fn decrypt_short(t: VaesAvx2Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Ymm, true>;
    /// Encrypts `steps` blocks of every lane, up to 16 lanes interleaved at a time.
    fn encrypt_lanes(t: VaesAvx2Token, ks: &KeySchedule, l: &mut [Lane<'_>], steps: usize)
        => kernel::encrypt_lanes<Ymm>;
}
