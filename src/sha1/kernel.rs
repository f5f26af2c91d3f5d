//! SHA-1's compression kernels as one value: each backend's kernel with the token that
//! proves the CPU runs it (the SHA-NI kernels with their schedule form, found when the
//! dispatch table grants them), matched once per call: [`Kernel::compress`],
//! [`Kernel::compress_pair`], [`Kernel::one_call`], [`Kernel::wipe`].
//!
//! `sha-ni-asm` hands runs of under [`ASM_MIN_BLOCKS`] blocks to the `sha-ni` intrinsics
//! (docs/design.md, "Dispatch and per-CPU tuning"): each method makes that choice itself, from the run's
//! length ([`Kernel::on_run`]), and the wipe after it reaches the frames of the kernel that
//! ran.

#[cfg(simdcrypt_aarch64)]
use crate::arch::aarch64::sha1 as armv8;
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::sha_ni::{self, Form};
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::wipe::{stack_avx, stack_avx512};
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::{sha1_avx2, sha1_ssse3};
#[cfg(simdcrypt_asm)]
use crate::arch::x86_64::{sha1_avx2_asm, sha1_shani_asm};
#[cfg(simdcrypt_aarch64)]
use crate::cpu::Armv8Sha1Token;
#[cfg(simdcrypt_x86_64)]
use crate::cpu::{Avx2Token, Avx512Token, Ssse3Token};
use crate::wipe::{depth, stack};

/// A SHA-1 compression kernel with the token that proves the CPU runs it: a row of the
/// dispatch table (`crate::dispatch::SHA1`, `SHA1_MANY`) makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel {
    /// Portable Rust.
    Portable,
    /// SSSE3 message schedule, scalar rounds.
    #[cfg(simdcrypt_x86_64)]
    Ssse3(Ssse3Token),
    /// AVX2 message schedule (two blocks at once), BMI2 rounds.
    #[cfg(simdcrypt_x86_64)]
    Avx2(Avx2Token),
    /// The AVX2 kernel with AVX-512 VL's rotates and three-way logic.
    #[cfg(simdcrypt_x86_64)]
    Avx512(Avx512Token),
    /// The SHA extensions, in the schedule form of this CPU's tuning row.
    #[cfg(simdcrypt_x86_64)]
    ShaNi(Form),
    /// The AVX2 kernel in assembly.
    #[cfg(simdcrypt_asm)]
    Avx2Asm(Avx2Token),
    /// The SHA extensions in assembly; runs of under [`ASM_MIN_BLOCKS`] blocks on
    /// [`Kernel::ShaNi`] in the same form.
    #[cfg(simdcrypt_asm)]
    ShaNiAsm(Form),
    /// The ARMv8 SHA-1 instructions.
    #[cfg(simdcrypt_aarch64)]
    Armv8(Armv8Sha1Token),
}

/// A run of blocks and the chaining value it is compressed into: one of the two
/// independent streams of the two-stream kernels (the two equally many blocks).
pub(crate) type Run<'a> = (&'a mut [u32; 5], &'a [[u8; 64]]);

/// Where a wipe follows a kernel call: which frames lie below it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Site {
    /// After a compression from a key-derived state (HMAC keying, and every HMAC
    /// compression after it), from the function that called the kernel.
    Keyed,
    /// Below the one-shot HMAC's work function (`crate::sha1::hmac`): its frame (the key
    /// blocks and a long key's hashing state), then the frames of the kernels it called.
    OneShotHmac,
    /// After a compression or final block of the `digest` traits' block core
    /// (`Sha1Core`), which reaches a kernel straight from one frame: a site of its own on
    /// the SHA-NI kernels (their frames are a few dozen bytes, where the keyed site's depth
    /// is HMAC keying's), the keyed site's depth elsewhere.
    #[cfg(feature = "digest")]
    Core,
}

/// The fewest whole blocks that `sha-ni-asm` runs in assembly.
#[cfg(simdcrypt_asm)]
pub(crate) const ASM_MIN_BLOCKS: usize = 16;

impl Kernel {
    /// The kernel that runs a run of `blocks` blocks: [`Kernel::ShaNi`] for a short run on
    /// `sha-ni-asm`, this one otherwise.
    #[inline(always)]
    pub(crate) fn on_run(self, blocks: usize) -> Kernel {
        match self {
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(f) if blocks < ASM_MIN_BLOCKS => Kernel::ShaNi(f),
            k => {
                let _ = blocks;
                k
            }
        }
    }

    /// Compresses whole blocks into the state.
    #[inline(always)]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self.on_run(blocks.len()) {
            Kernel::Portable => super::soft::compress(state, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Ssse3(t) => sha1_ssse3::compress(t, state, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx2(t) => sha1_avx2::compress(t, state, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx512(t) => sha1_avx2::compress_avx512(t, state, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::ShaNi(f) => sha_ni::compress(f, state, blocks),
            #[cfg(simdcrypt_asm)]
            Kernel::Avx2Asm(t) => sha1_avx2_asm::compress(t, state, blocks),
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(f) => sha1_shani_asm::compress(f.token(), state, blocks),
            #[cfg(simdcrypt_aarch64)]
            Kernel::Armv8(t) => armv8::compress(t, state, blocks),
        }
    }

    /// Compresses two independent streams of equally many blocks: at once (two interleaved
    /// dependency chains, about the time of one) on SHA-NI and the ARMv8 SHA-1
    /// instructions, one after the other elsewhere.
    #[inline]
    pub(crate) fn compress_pair(self, a: Run, b: Run) {
        debug_assert_eq!(a.1.len(), b.1.len());
        match self.on_run(a.1.len()) {
            #[cfg(simdcrypt_x86_64)]
            Kernel::ShaNi(f) => sha_ni::compress2(f, a, b),
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(f) => sha1_shani_asm::compress2(f.token(), a, b),
            #[cfg(simdcrypt_aarch64)]
            Kernel::Armv8(t) => armv8::compress2(t, a, b),
            k => {
                k.compress(a.0, a.1);
                k.compress(b.0, b.1);
            }
        }
    }

    /// On the kernels with a one-call form (SHA-NI, the ARMv8 SHA-1 instructions): the
    /// digest of `data` after `prefix_len` bytes already in `inner`, or (`HMAC`) HMAC's
    /// tag, the inner digest kept in registers and hashed from `outer`, the padded tail
    /// built in registers (`crate::sha1::digest_from`, `crate::sha1::hmac_from`); `None`
    /// on the others. `sha-ni-asm` compresses a long run of whole blocks in assembly
    /// first, and the intrinsics finish.
    #[inline(always)]
    pub(crate) fn one_call<const HMAC: bool>(
        self,
        inner: &mut [u32; 5],
        outer: &[u32; 5],
        prefix_len: u64,
        data: &[u8],
    ) -> Option<[u8; 20]> {
        match self.on_run(data.len() / 64) {
            #[cfg(simdcrypt_x86_64)]
            Kernel::ShaNi(f) => Some(sha_ni::one_call::<HMAC>(
                f, inner, outer, prefix_len, data, 0,
            )),
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(f) => {
                let (blocks, _) = data.as_chunks::<64>();
                sha1_shani_asm::compress(f.token(), inner, blocks);
                Some(sha_ni::one_call::<HMAC>(
                    f,
                    inner,
                    outer,
                    prefix_len,
                    data,
                    blocks.len(),
                ))
            }
            #[cfg(simdcrypt_aarch64)]
            Kernel::Armv8(t) => Some(armv8::one_call::<HMAC>(t, inner, outer, prefix_len, data)),
            _ => {
                let _ = (inner, outer, prefix_len, data);
                None
            }
        }
    }

    /// Zeroes the stack the kernel calls before it at `site` used, where the message
    /// schedule and chaining values are left, and the registers: in bytes, the deepest
    /// each site's kernels wrote below it over the builds optimised for speed
    /// (docs/design.md, "Stack and register wipes"). `blocks`: the run the calls made
    /// (for `sha-ni-asm`'s hand-off, [`Kernel::on_run`]). Plain hashing of public data
    /// pays nothing.
    #[inline(always)]
    pub(crate) fn wipe(self, site: Site, blocks: usize) {
        let one_shot = matches!(site, Site::OneShotHmac);
        match self.on_run(blocks) {
            Kernel::Portable if one_shot => {
                stack::<{ depth([1504, 1472, 1824, 1856, 1808, 6144]) }>()
            }
            Kernel::Portable => stack::<{ depth([1056, 1008, 1376, 1376, 1376, 4688]) }>(),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Ssse3(_) if one_shot => {
                stack::<{ depth([2144, 2208, 2288, 2304, 2304, 9952]) }>()
            }
            #[cfg(simdcrypt_x86_64)]
            Kernel::Ssse3(_) => stack::<{ depth([1712, 1728, 1824, 1824, 1872, 8192]) }>(),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx2(t) if one_shot => {
                stack_avx::<{ depth([3232, 3376, 3408, 3440, 3536, 13360]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx2(t) => stack_avx::<{ depth([2784, 2928, 2944, 2960, 3120, 11472]) }>(t),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx512(t) if one_shot => {
                stack_avx512::<{ depth([3232, 3408, 3456, 3472, 3520, 13392]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            Kernel::Avx512(t) => {
                stack_avx512::<{ depth([2800, 2960, 2992, 2992, 3088, 11504]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            Kernel::ShaNi(_) if one_shot => stack::<{ depth([800, 896, 896, 944, 1472, 41744]) }>(),
            #[cfg(all(simdcrypt_x86_64, feature = "digest"))]
            Kernel::ShaNi(_) if matches!(site, Site::Core) => {
                stack::<{ depth([256, 256, 256, 304, 832, 32912]) }>()
            }
            #[cfg(simdcrypt_x86_64)]
            Kernel::ShaNi(_) => stack::<{ depth([768, 736, 688, 688, 1088, 39888]) }>(),
            #[cfg(simdcrypt_asm)]
            Kernel::Avx2Asm(t) if one_shot => {
                stack_avx::<{ depth([2464, 2464, 2464, 2496, 2464, 5312]) }>(t)
            }
            #[cfg(simdcrypt_asm)]
            Kernel::Avx2Asm(t) => stack_avx::<{ depth([2016, 1984, 2016, 2016, 2032, 3744]) }>(t),
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(_) if one_shot => {
                stack::<{ depth([1248, 1264, 1280, 1312, 1472, 41744]) }>()
            }
            #[cfg(all(simdcrypt_asm, feature = "digest"))]
            Kernel::ShaNiAsm(_) if matches!(site, Site::Core) => {
                stack::<{ depth([656, 656, 656, 656, 656, 944]) }>()
            }
            #[cfg(simdcrypt_asm)]
            Kernel::ShaNiAsm(_) => stack::<{ depth([816, 816, 816, 832, 1024, 39760]) }>(),
            #[cfg(simdcrypt_aarch64)]
            Kernel::Armv8(_) if one_shot => stack::<{ depth([736, 752, 768, 816, 1440, 37152]) }>(),
            #[cfg(simdcrypt_aarch64)]
            Kernel::Armv8(_) => stack::<{ depth([704, 704, 736, 736, 1168, 34960]) }>(),
        }
    }
}
