//! The XTS unit kernel ([`super::kernel`]) on 128-bit registers with AES-NI: 8 blocks in
//! flight, tweak step x^8.

use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;
use crate::simd::aes::Xmm;

/// [`super::kernel::units`] on `Xmm`, one function (and frame) per `PATH`.
///
/// # Safety
/// As [`super::kernel::units`].
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
pub(crate) unsafe fn units<const DEC: bool, const PATH: u8, const R: usize>(
    tok: AesNiToken,
    k1: &KeySchedule,
    k2: Option<&KeySchedule>,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: the caller's contract; the token proves this function's features.
    unsafe { super::kernel::units::<Xmm, DEC, PATH, R>(tok, k1, k2, tweaks, src, dst, len) }
}
