//! The CBC kernels ([`super::kernel`]) on 128-bit registers with AES-NI: one stream's
//! chain, 8 blocks in flight when decrypting, 8 streams interleaved by `encrypt_lanes`.
//!
//! Measured on Emerald Rapids: the encryption loop's chain is exactly R AES instructions,
//! 3.0 cycles each (the `aesenc` latency, with one key or ten, VEX or legacy encoding,
//! register or memory keys); the loads, stores and XORs beside it cost nothing.

use super::{Lane, kernel};
use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;
use crate::simd::aes::{Xmm, entries};

entries! { "aes";
    /// CBC-encrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
    fn encrypt(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::encrypt<Xmm>;
    /// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
    fn decrypt(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Xmm, false>;
    /// [`decrypt`] for fewer than 8 blocks.
    fn decrypt_short(t: AesNiToken, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Xmm, true>;
    /// Encrypts `steps` blocks of every lane, up to 8 lanes interleaved at a time.
    fn encrypt_lanes(t: AesNiToken, ks: &KeySchedule, l: &mut [Lane<'_>], steps: usize)
        => kernel::encrypt_lanes<Xmm>;
}
