//! The CBC decryption kernel ([`super::kernel`]) on 512-bit registers with VAES: 32 blocks
//! in flight. Single-stream encryption is a chain of one block and runs the AES-NI kernel;
//! many streams run the 256-bit lane kernel (`super::vaes_avx2`: 16 streams at a time,
//! already more than most callers pass).
//!
//! It goes first only where `vaesenc zmm` moves more bytes per cycle than ymm (AMD Zen 5,
//! [`crate::tuning`]); where it runs as two halves or on one port, the ymm kernel moves
//! the same bytes with fewer bytes in flight per call and goes first.

use super::kernel;
use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx512Token;
use crate::simd::aes::{Zmm, entries};

entries! { "avx512f,avx512bw,avx512vl,avx2,vaes,aes";
    /// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
    fn decrypt(t: VaesAvx512Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Zmm, false>;
    /// [`decrypt`] for fewer than 32 blocks.
    fn decrypt_short(t: VaesAvx512Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block])
        => kernel::decrypt<Zmm, true>;
}
