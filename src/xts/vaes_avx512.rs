//! The XTS unit kernel ([`super::kernel`]) on 512-bit registers with VAES and VPCLMULQDQ:
//! 8 zmm of 4 blocks, 32 blocks in flight, tweak step x^32, three-way XORs in one
//! `vpternlogq`.

use crate::aes::{Block, KeySchedule};
use crate::cpu::VaesAvx512Token;
use crate::simd::aes::Zmm;
use crate::tuning::FreshTweaks;

/// [`super::kernel::units`] on `Zmm`, one function (and frame) per `PATH`.
///
/// # Safety
/// As [`super::kernel::units`].
#[inline(never)]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn units<const DEC: bool, const PATH: u8, const R: usize>(
    tok: VaesAvx512Token,
    k1: &KeySchedule,
    k2: Option<&KeySchedule>,
    tweaks: &[Block],
    src: *const u8,
    dst: *mut u8,
    len: usize,
    fresh: FreshTweaks,
) {
    // SAFETY: the caller's contract; the token proves this function's features.
    unsafe { super::kernel::units::<Zmm, DEC, PATH, R>(tok, k1, k2, tweaks, src, dst, len, fresh) }
}

/// [`super::kernel::tweaks`] on `Zmm`: a multi-unit call's raw tweaks encrypted in place.
#[inline(never)]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1"
)]
pub(crate) fn tweaks<const R: usize>(tok: VaesAvx512Token, k2: &KeySchedule, tw: &mut [Block]) {
    super::kernel::tweaks::<Zmm, R>(tok, k2, tw);
}
