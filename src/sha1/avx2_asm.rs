use crate::cpu::Avx2Token;

unsafe extern "C" {
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

    const H0: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];

    /// The token, or `None` after saying so; panics if `SIMDCRYPT_REQUIRE` names SHA-NI.
    fn token() -> Option<Avx2Token> {
        let t = Avx2Token::get();
        if t.is_none() {
            let req = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
            assert!(
                !req.split(',')
                    .any(|r| matches!(r.trim(), "avx2" | "avx2-asm")),
                "SIMDCRYPT_REQUIRE names AVX2 but this CPU lacks AVX2/BMI1/BMI2"
            );
            std::eprintln!("sha1 avx2_asm: SKIPPED, no AVX2+BMI1+BMI2 on this CPU");
        }
        t
    }

    /// splitmix64: deterministic test data without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn state(&mut self) -> [u32; 5] {
            core::array::from_fn(|_| self.next() as u32)
        }
        fn blocks(&mut self, n: usize) -> Vec<[u8; 64]> {
            (0..n)
                .map(|_| core::array::from_fn(|_| self.next() as u8))
                .collect()
        }
    }

    fn reference(state: &[u32; 5], blocks: &[[u8; 64]]) -> [u32; 5] {
        let mut s = *state;
        sha1::block_api::compress(&mut s, blocks);
        s
    }

    /// Pads `msg` (FIPS 180-4 §5.1.1) into whole blocks.
    fn pad(msg: &[u8]) -> Vec<[u8; 64]> {
        let mut m = msg.to_vec();
        m.push(0x80);
        while m.len() % 64 != 56 {
            m.push(0);
        }
        m.extend_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
        m.chunks_exact(64).map(|c| c.try_into().unwrap()).collect()
    }

    fn digest(state: &[u32; 5]) -> [u8; 20] {
        let mut out = [0u8; 20];
        for (o, w) in out.chunks_exact_mut(4).zip(state) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        out
    }

    #[test]
    fn compress_matches_rustcrypto() {
        let Some(t) = token() else { return };
        let mut rng = Rng(1);
        for n in 0..=40 {
            for _ in 0..3 {
                let start = rng.state();
                let blocks = rng.blocks(n);
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
                let start = rng.state();
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
