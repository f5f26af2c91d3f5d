//! AES-XTS data units on VAES + VPCLMULQDQ (256-bit), in hand-written assembly
//! (`asm/xts_vaes_avx2.S`, whose header gives the algorithm), the twin of the intrinsics
//! kernel. Nothing branches on or indexes by key or data; the assembly wipes its stack
//! frame (tweak material) and all vector registers before returning.

use crate::aes::{Block, KeySchedule, Width};
use crate::arch::x86_64::aes_ni;
use crate::cpu::VaesAvx2Token;
use crate::vector::AesOne;

/// The assembly twin as `crate::xts` holds it (`crate::arch::XtsAsm`): single units only,
/// each call of the assembly one unit. It wipes its own frame; [`Twin::wipe`] covers the
/// calls around it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Twin(pub(crate) VaesAvx2Token);

impl Twin {
    /// The width handle of its AES work besides the units (the key expansion, a
    /// multi-unit call's tweaks): VAES on ymm.
    #[inline(always)]
    pub(crate) fn aes(self) -> Width {
        Width::Ymm(self.0)
    }

    /// One unit under the raw tweak `t`, encrypted first on one AES-NI block (the
    /// lightest block kernel; the assembly takes an encrypted tweak).
    ///
    /// # Safety
    /// `src` (if any) has `dst`'s length, from 16 bytes to 2^24.
    pub(crate) unsafe fn unit<const DEC: bool>(
        self,
        k1: &KeySchedule,
        k2: &KeySchedule,
        t: &Block,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) {
        let mut t0 = [0u8; 16];
        aes_ni::store(&mut t0, self.0.aesni().encrypt_tweak(k2, t));
        let (len, d) = (dst.len(), dst.as_mut_ptr());
        let s = src.map_or(d.cast_const(), <[u8]>::as_ptr);
        // SAFETY: the caller's contract: `len` bytes each way, equal or disjoint.
        unsafe {
            if DEC {
                decrypt_unit(self.0, k1, &t0, s, d, len);
            } else {
                encrypt_unit(self.0, k1, &t0, s, d, len);
            }
        }
        crate::wipe::blocks(core::slice::from_mut(&mut t0));
    }

    /// Units of `unit` bytes, the `i`-th under the encrypted tweak `tweaks[i]`.
    ///
    /// # Safety
    /// `src` (if any) has `dst`'s length, `tweaks.len()` units of `unit` bytes, from 16
    /// to 2^24.
    pub(crate) unsafe fn units<const DEC: bool>(
        self,
        k1: &KeySchedule,
        tweaks: &[Block],
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: usize,
    ) {
        debug_assert_eq!(dst.len(), tweaks.len() * unit);
        let d = dst.as_mut_ptr();
        let s = src.map_or(d.cast_const(), <[u8]>::as_ptr);
        for (i, t0) in tweaks.iter().enumerate() {
            // SAFETY: unit `i` is the `i`-th `unit` bytes of the ranges (the caller's
            // contract), equal or disjoint.
            unsafe {
                let (s, d) = (s.add(i * unit), d.add(i * unit));
                if DEC {
                    decrypt_unit(self.0, k1, t0, s, d, unit);
                } else {
                    encrypt_unit(self.0, k1, t0, s, d, unit);
                }
            }
        }
    }

    /// Zeroes the stack its calls used (the tweak encryption, the bindings; the assembly
    /// wipes its own frame) and the vector registers.
    #[inline(always)]
    pub(crate) fn wipe(self) {
        use crate::arch::x86_64::wipe::stack_avx;
        use crate::wipe::depth;
        stack_avx::<{ depth([672, 672, 688, 672, 736, 4160]) }>(self.0);
    }
}

/// One direction's data-unit function over its assembly kernel, which takes the keys of
/// that direction (`enc` or `dec` of Key1's schedule). The kernel's symbol is `$symbol`
/// after the crate version's prefix (build.rs, asm/simdcrypt_asm.h).
macro_rules! unit_fn {
    ($(#[$doc:meta])* $name:ident => $kernel:ident = $symbol:literal, $keys:ident) => {
        unsafe extern "sysv64" {
            #[link_name = concat!(env!("SIMDCRYPT_ASM_PREFIX"), $symbol)]
            fn $kernel(
                keys: *const u8,
                rounds: usize,
                t0: *const u8,
                src: *const u8,
                dst: *mut u8,
                len: usize,
            );
        }

        $(#[$doc])*
        #[inline]
        pub(crate) unsafe fn $name(
            _t: VaesAvx2Token,
            k1: &KeySchedule,
            t0: &[u8; 16],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            debug_assert!((16..=1 << 24).contains(&len));
            debug_assert!(matches!(k1.rounds, 10 | 12 | 14));
            // SAFETY: the token proves AES, PCLMULQDQ, AVX, AVX2, VAES and VPCLMULQDQ, all
            // the assembly uses; the keys hold `k1.rounds + 1 <= 15` contiguous 16-byte keys
            // and `t0` 16 bytes; the caller guarantees `src`, `dst` and `len` (see # Safety),
            // which is all the assembly reads and writes besides its own stack frame.
            unsafe {
                $kernel(
                    k1.$keys.as_ptr().cast(),
                    k1.rounds,
                    t0.as_ptr(),
                    src,
                    dst,
                    len,
                );
            }
        }
    };
}

unit_fn! {
    /// Encrypts one XTS data unit of `len` bytes from `src` to `dst`. `t0` is the initial
    /// tweak already encrypted with Key2 (`E_K2(i)`); `k1` is Key1's schedule.
    ///
    /// # Safety
    /// `src` is readable and `dst` writable for `len` bytes; `src == dst` or the two ranges
    /// do not overlap; `16 <= len <= 1 << 24`. A length that is not a multiple of 16 uses
    /// ciphertext stealing (IEEE 1619).
    encrypt_unit => simdcrypt_xts_vaes_avx2_encrypt = "xts_vaes_avx2_encrypt", enc
}

unit_fn! {
    /// Decrypts one XTS data unit of `len` bytes from `src` to `dst` (with `k1.dec`, the
    /// equivalent-inverse-cipher keys). `t0` is the initial tweak already encrypted with
    /// Key2 (`E_K2(i)`); `k1` is Key1's schedule.
    ///
    /// # Safety
    /// As for [`encrypt_unit`].
    decrypt_unit => simdcrypt_xts_vaes_avx2_decrypt = "xts_vaes_avx2_decrypt", dec
}

#[cfg(test)]
mod tests;
