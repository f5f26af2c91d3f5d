use crate::cpu::Avx2Token;

unsafe extern "sysv64" {
    fn simdcrypt_sha1_avx2_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
}

/// Compresses `blocks` into `state` (H0..H4) with the AVX2 + BMI2 assembly kernel.
#[inline]
pub(crate) fn compress(_t: Avx2Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
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
mod tests {
    use super::*;
    use std::vec::Vec;

    use crate::sha1::IV as H0;
    use crate::sha1::testing::{blocks, digest, pad, reference, state};
    use crate::test_util::{Rng, token_or_skip};

    fn token() -> Option<Avx2Token> {
        token_or_skip(Avx2Token::get(), &["avx2", "avx2-asm"], "AVX2+BMI1+BMI2")
    }

    #[test]
    fn compress_matches_rustcrypto() {
        let Some(t) = token() else { return };
        let mut rng = Rng(1);
        for n in 0..=40 {
            for _ in 0..3 {
                let start = state(&mut rng);
                let blocks = blocks(&mut rng, n);
                let mut s = start;
                compress(t, &mut s, &blocks);
                assert_eq!(s, reference(&start, &blocks), "{n} blocks");
            }
        }
    }

    /// Blocks at every byte offset (the kernels load unaligned), odd and even counts.
    #[test]
    fn unaligned_blocks() {
        let Some(t) = token() else { return };
        let mut rng = Rng(4);
        let bytes: Vec<u8> = (0..64 * 9 + 64).map(|_| rng.next() as u8).collect();
        for off in 0..64 {
            for n in [1, 2, 3, 8, 9] {
                let (blocks, _) = bytes[off..off + 64 * n].as_chunks::<64>();
                let start = state(&mut rng);
                let mut s = start;
                compress(t, &mut s, blocks);
                assert_eq!(s, reference(&start, blocks), "offset {off}, {n} blocks");
            }
        }
    }

    #[test]
    fn fips180_digests() {
        let Some(t) = token() else { return };
        let abc = pad(b"abc");
        let mut s = H0;
        compress(t, &mut s, &abc);
        assert_eq!(
            digest(&s),
            hex_literal::hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
        );

        let million = pad(&std::vec![b'a'; 1_000_000]);
        let mut s = H0;
        compress(t, &mut s, &million);
        let want = hex_literal::hex!("34aa973cd4c4daa4f61eeb2bdbad27316534016f");
        assert_eq!(digest(&s), want);
    }
}
