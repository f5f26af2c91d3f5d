use crate::cpu::Avx2Token;

// The symbol carries the crate version's prefix (build.rs, asm/simdcrypt_asm.h).
unsafe extern "sysv64" {
    #[link_name = concat!(env!("SIMDCRYPT_ASM_PREFIX"), "sha1_avx2_compress")]
    fn simdcrypt_sha1_avx2_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
}

/// Compresses `blocks` into `state` (H0..H4) with the AVX2 + BMI2 assembly kernel.
#[inline]
pub(crate) fn compress(_t: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves AVX, AVX2, BMI1 and BMI2, all the kernel uses; it reads no
    // byte outside the blocks (a missing second block of a pair is replaced by a block
    // that exists), and runs `vzeroupper` before returning.
    unsafe { super::sha1_shani_asm::one_stream(simdcrypt_sha1_avx2_compress, state, blocks) }
}

#[cfg(test)]
mod tests;
