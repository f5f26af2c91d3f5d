//! SHA-1's x86-64 kernels as `crate::sha1::Kernel::Simd` holds them: each with the token
//! that proves the CPU runs it, how it compresses, hashes a whole message (SHA-NI: one
//! call, the padded tail built in registers) and wipes after itself.

use crate::arch::x86_64::sha_ni::{self, Form};
use crate::arch::x86_64::wipe::{stack_avx, stack_avx512};
use crate::arch::x86_64::{sha1_avx2, sha1_ssse3};
#[cfg(simdcrypt_asm)]
use crate::arch::x86_64::{sha1_avx2_asm, sha1_shani_asm};
use crate::cpu::{Avx2Token, Avx512Token, Ssse3Token};
use crate::wipe::{depth, stack};

/// A SIMD SHA-1 kernel with its token.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sha1 {
    /// SSSE3 message schedule, scalar rounds.
    Ssse3(Ssse3Token),
    /// AVX2 message schedule (two blocks at once), BMI2 rounds.
    Avx2(Avx2Token),
    /// The SHA extensions.
    ShaNi(Form),
    /// The AVX2 kernel with AVX-512 VL's rotates and three-way logic.
    Avx512(Avx512Token),
    /// The AVX2 kernel in assembly.
    #[cfg(simdcrypt_asm)]
    Avx2Asm(Avx2Token),
    /// The SHA extensions in assembly.
    #[cfg(simdcrypt_asm)]
    ShaNiAsm(Form),
}

/// The fewest whole blocks a one-shot digest on `sha-ni-asm` hands to the assembly.
#[cfg(simdcrypt_asm)]
const ASM_MIN_BLOCKS: usize = 16;

impl Sha1 {
    /// `crate::sha1::Kernel::burn` for these kernels: after a keyed compression, or
    /// (`one_shot`) below the one-shot HMAC's work function.
    #[inline(always)]
    pub(crate) fn burn(self, one_shot: bool) {
        match (self, one_shot) {
            (Sha1::Ssse3(_), false) => stack::<{ depth([1712, 1728, 1824, 1824, 1872, 8192]) }>(),
            (Sha1::Ssse3(_), true) => stack::<{ depth([2144, 2208, 2288, 2304, 2304, 9920]) }>(),
            (Sha1::Avx2(t), false) => {
                stack_avx::<{ depth([2784, 2928, 2944, 2960, 3120, 11472]) }>(t)
            }
            (Sha1::Avx2(t), true) => {
                stack_avx::<{ depth([3232, 3376, 3408, 3440, 3536, 13328]) }>(t)
            }
            (Sha1::Avx512(t), false) => {
                stack_avx512::<{ depth([2800, 2960, 2992, 2992, 3088, 11504]) }>(t)
            }
            (Sha1::Avx512(t), true) => {
                stack_avx512::<{ depth([3232, 3408, 3456, 3472, 3520, 13360]) }>(t)
            }
            (Sha1::ShaNi(_), false) => stack::<{ depth([768, 736, 672, 688, 1088, 39472]) }>(),
            (Sha1::ShaNi(_), true) => stack::<{ depth([800, 896, 896, 944, 1440, 41200]) }>(),
            #[cfg(simdcrypt_asm)]
            (Sha1::Avx2Asm(t), false) => {
                stack_avx::<{ depth([2016, 1984, 2016, 2016, 2032, 3696]) }>(t)
            }
            #[cfg(simdcrypt_asm)]
            (Sha1::Avx2Asm(t), true) => {
                stack_avx::<{ depth([2464, 2464, 2464, 2496, 2464, 5248]) }>(t)
            }
            #[cfg(simdcrypt_asm)]
            (Sha1::ShaNiAsm(_), false) => stack::<{ depth([816, 816, 816, 832, 1024, 39344]) }>(),
            #[cfg(simdcrypt_asm)]
            (Sha1::ShaNiAsm(_), true) => {
                stack::<{ depth([1216, 1264, 1280, 1312, 1440, 41200]) }>()
            }
        }
    }

    /// `crate::sha1::Kernel::burn_core`: after a compression or a final block of the
    /// `digest` traits' core, which calls the kernel from its own frame.
    #[cfg(feature = "digest")]
    #[inline(always)]
    pub(crate) fn burn_core(self) {
        match self {
            Sha1::ShaNi(_) => stack::<{ depth([256, 256, 256, 288, 816, 32352]) }>(),
            #[cfg(simdcrypt_asm)]
            Sha1::ShaNiAsm(_) => stack::<{ depth([656, 656, 656, 656, 656, 944]) }>(),
            _ => self.burn(false),
        }
    }

    /// The kernel for a run of `blocks` blocks: `sha-ni-asm` hands runs shorter than
    /// [`ASM_MIN_BLOCKS`] to the intrinsics (the same instructions; the assembly's schedule
    /// set-up pays only on long runs).
    #[inline(always)]
    pub(crate) fn for_run(self, blocks: usize) -> Sha1 {
        match self {
            #[cfg(simdcrypt_asm)]
            Sha1::ShaNiAsm(t) if blocks < ASM_MIN_BLOCKS => Sha1::ShaNi(t),
            _ => {
                let _ = blocks;
                self
            }
        }
    }

    /// Two independent streams of equally many blocks as two interleaved chains, on the
    /// SHA-NI kernels; `false` (nothing done) on the others.
    #[inline]
    pub(crate) fn compress_pair(
        self,
        (a, blocks_a): (&mut [u32; 5], &[[u8; 64]]),
        (b, blocks_b): (&mut [u32; 5], &[[u8; 64]]),
    ) -> bool {
        match self {
            Sha1::ShaNi(t) => sha_ni::compress2(t, a, blocks_a, b, blocks_b),
            #[cfg(simdcrypt_asm)]
            Sha1::ShaNiAsm(t) => sha1_shani_asm::compress2(t.token(), a, blocks_a, b, blocks_b),
            _ => return false,
        }
        true
    }

    /// Compresses whole blocks into the state.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            Sha1::Ssse3(t) => sha1_ssse3::compress(t, state, blocks),
            Sha1::Avx2(t) => sha1_avx2::compress(t, state, blocks),
            Sha1::ShaNi(t) => sha_ni::compress(t, state, blocks),
            Sha1::Avx512(t) => sha1_avx2::compress_avx512(t, state, blocks),
            #[cfg(simdcrypt_asm)]
            Sha1::Avx2Asm(t) => sha1_avx2_asm::compress(t, state, blocks),
            #[cfg(simdcrypt_asm)]
            Sha1::ShaNiAsm(t) => sha1_shani_asm::compress(t.token(), state, blocks),
        }
    }

    /// On the SHA-NI kernels, the form for the one-call kernels and how many of `data`'s
    /// whole blocks are already compressed into `state`: `sha-ni-asm` runs long runs of
    /// whole blocks in assembly first (the same instructions). The assembly computes a
    /// block's whole schedule before its rounds start: it pays on long runs of blocks (its
    /// SSE schedule leaves the SHA unit to the rounds), not on a few, so short messages go
    /// through the intrinsics alone. `None` on the other kernels.
    #[inline(always)]
    fn sha_ni_start(self, state: &mut [u32; 5], data: &[u8]) -> Option<(Form, usize)> {
        match self {
            Sha1::ShaNi(t) => Some((t, 0)),
            #[cfg(simdcrypt_asm)]
            Sha1::ShaNiAsm(t) => {
                let (blocks, _) = data.as_chunks::<64>();
                if blocks.len() >= ASM_MIN_BLOCKS {
                    sha1_shani_asm::compress(t.token(), state, blocks);
                    Some((t, blocks.len()))
                } else {
                    Some((t, 0))
                }
            }
            _ => {
                let _ = (state, data);
                None
            }
        }
    }

    /// On the SHA-NI kernels, in one call (`crate::sha1::digest_from`,
    /// `crate::sha1::hmac_from`): the digest of `data` after `prefix_len` bytes already in
    /// `inner`, or (`HMAC`) HMAC's tag, the inner digest kept in registers and hashed from
    /// `outer`; `None` on the other kernels.
    #[inline(always)]
    pub(crate) fn one_call<const HMAC: bool>(
        self,
        inner: &mut [u32; 5],
        outer: &[u32; 5],
        prefix_len: u64,
        data: &[u8],
    ) -> Option<[u8; 20]> {
        let (t, done) = self.sha_ni_start(inner, data)?;
        Some(sha_ni::one_call::<HMAC>(
            t, inner, outer, prefix_len, data, done,
        ))
    }
}
