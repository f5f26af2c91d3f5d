//! The XTS unit kernel ([`super::kernel`]) on 128-bit registers with AES-NI: 8 blocks in
//! flight, tweak step x^8.

use crate::aes::{Block, KeySchedule};
use crate::cpu::AesNiToken;
use crate::simd::aes::Xmm;
use crate::tuning::FreshTweaks;

/// [`super::kernel::units`] on `Xmm`, one function (and frame) per `PATH`.
///
/// # Safety
/// As [`super::kernel::units`].
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn units<const DEC: bool, const PATH: u8, const R: usize>(
    tok: AesNiToken,
    k1: &KeySchedule,
    k2: Option<&KeySchedule>,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
    fresh: FreshTweaks,
) {
    // SAFETY: the caller's contract; the token proves this function's features.
    unsafe { super::kernel::units::<Xmm, DEC, PATH, R>(tok, k1, k2, tweaks, src, dst, len, fresh) }
}

/// [`super::kernel::tweaks`] on `Xmm`: a multi-unit call's raw tweaks encrypted in place.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,ssse3,sse4.1")]
pub(crate) fn tweaks<const R: usize>(tok: AesNiToken, k2: &KeySchedule, tw: &mut [Block]) {
    super::kernel::tweaks::<Xmm, R>(tok, k2, tw);
}
