use crate::cpu::Avx2Token;

// The symbol carries the crate version's prefix (build.rs, asm/simdcrypt_asm.h).
unsafe extern "sysv64" {
    #[link_name = concat!(env!("SIMDCRYPT_ASM_PREFIX"), "sha1_avx2_compress")]
    fn simdcrypt_sha1_avx2_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
}

/// Compresses `blocks` into `state` (H0..H4) with the AVX2 + BMI2 assembly kernel.
#[inline]
pub(crate) fn compress(_t: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // (The kernel takes at least one block: none is no call.)
    if blocks.is_empty() {
        return;
    }
    // SAFETY: the token proves AVX, AVX2, BMI1 and BMI2, all the kernel uses. `state` is
    // 5 writable u32 and `blocks` is `blocks.len() * 64` readable bytes; the kernel reads
    // no byte outside them (a missing second block of a pair is replaced by a block that
    // exists), writes only its own aligned stack frame, restores the callee-saved
    // registers and runs `vzeroupper` before returning.
    unsafe {
        simdcrypt_sha1_avx2_compress(state.as_mut_ptr(), blocks.as_ptr().cast(), blocks.len())
    }
}

#[cfg(test)]
mod tests;
