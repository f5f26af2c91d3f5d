//! SHA-1 on AVX-512: sixteen independent messages at once (one per 32-bit lane of a zmm
//! register, [`compress16`]), and eight at once in ymm registers with the AVX-512 VL
//! instructions ([`compress8`]). Both are `avx2::lanes`, the multi-lane body (its
//! pseudo-code is in avx2.rs), over another vector type or compiled with other features:
//!
//! ```text
//! compress16 = lanes over U32x16 (zmm): W[t] for t < 16 by a 16x16 transpose of the
//!              lanes' byte-swapped blocks; rotates are vprold, the boolean functions and
//!              the schedule's three-input XOR one vpternlogd each
//! compress8  = lanes over U32x8Vl (ymm with AVX-512 VL): W as for eight AVX2 lanes;
//!              vprold and vpternlogd as for sixteen
//! ```
//!
//! `sha1_many` (many.rs) runs sixteen lanes while more than eight messages are in flight,
//! then eight. The `avx512` backend's one-stream kernel is avx2.rs's schedule kernel
//! compiled with AVX-512 VL (`avx2::compress_avx512`).

use super::avx2;
use crate::cpu::Avx512Token;
use crate::simd::u32x::{U32x8Vl, U32x16};

#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
fn compress16_avx512(t: Avx512Token, states: &mut [[u32; 5]; 16], blocks: [&[[u8; 64]]; 16]) {
    avx2::lanes::<U32x16, 16>(t, states, blocks);
}

#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn compress8_avx512vl(t: Avx512Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    avx2::lanes::<U32x8Vl, 8>(t, states, blocks);
}

/// Compresses `n = min(len)` blocks of sixteen independent streams at once: `blocks[i]`
/// into `states[i]` (zmm registers).
pub(crate) fn compress16(t: Avx512Token, states: &mut [[u32; 5]; 16], blocks: [&[[u8; 64]]; 16]) {
    // SAFETY: the token proves the CPU has AVX-512 F and BW, with the ZMM state enabled.
    unsafe { compress16_avx512(t, states, blocks) }
}

/// Compresses `n = min(len)` blocks of eight independent streams at once: `blocks[i]` into
/// `states[i]` (ymm registers, with the AVX-512 VL rotates and ternary logic).
pub(crate) fn compress8(t: Avx512Token, states: &mut [[u32; 5]; 8], blocks: [&[[u8; 64]]; 8]) {
    // SAFETY: the token proves the CPU has AVX2, AVX-512 F and VL, with the YMM and ZMM
    // state enabled.
    unsafe { compress8_avx512vl(t, states, blocks) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    use crate::sha1::testing::{avx512_token as token, blocks, reference, state};
    use crate::sha1::{IV as H0, soft};
    use crate::test_util::Rng;

    /// Every lane of a `L`-lane kernel against the portable compression function (and
    /// RustCrypto's), for block counts 0..=12, unequal per lane (the kernel does the
    /// fewest).
    fn lanes_match<const L: usize>(
        rng: &mut Rng,
        kernel: impl Fn(&mut [[u32; 5]; L], [&[[u8; 64]]; L]),
    ) {
        for n in 0..=12 {
            let starts: [[u32; 5]; L] = core::array::from_fn(|_| state(rng));
            let msgs: Vec<Vec<[u8; 64]>> =
                (0..L).map(|l| blocks(rng, n + (l * 7 + n) % 3)).collect();
            let mut states = starts;
            kernel(&mut states, core::array::from_fn(|l| &msgs[l][..]));
            for l in 0..L {
                let mut want = starts[l];
                soft::compress(&mut want, &msgs[l][..n]);
                assert_eq!(states[l], want, "{L} lanes, lane {l}, {n} blocks");
                assert_eq!(want, reference(&starts[l], &msgs[l][..n]));
            }
        }
    }

    #[test]
    fn compress16_matches_portable() {
        let Some(t) = token() else { return };
        lanes_match::<16>(&mut Rng(16), |s, b| compress16(t, s, b));
    }

    #[test]
    fn compress8_matches_portable() {
        let Some(t) = token() else { return };
        lanes_match::<8>(&mut Rng(8), |s, b| compress8(t, s, b));
    }

    /// The same blocks in every lane give the same state; one lane's bytes never reach
    /// another (a transpose mistake would mix them).
    #[test]
    fn lanes_are_independent() {
        let Some(t) = token() else { return };
        let mut rng = Rng(3);
        let base = blocks(&mut rng, 3);
        let mut states = [H0; 16];
        compress16(t, &mut states, [&base[..]; 16]);
        assert!(states.iter().all(|s| *s == reference(&H0, &base)));
        for flip in 0..16 {
            let mut other = base.clone();
            other[1][(flip * 5) % 64] ^= 1;
            let mut msgs = [&base[..]; 16];
            msgs[flip] = &other;
            let mut states = [H0; 16];
            compress16(t, &mut states, msgs);
            for (l, s) in states.iter().enumerate() {
                let want = if l == flip {
                    reference(&H0, &other)
                } else {
                    reference(&H0, &base)
                };
                assert_eq!(*s, want, "flipped lane {flip}, lane {l}");
            }
        }
    }

    /// Blocks at every byte offset (the kernels load unaligned).
    #[test]
    fn unaligned_blocks() {
        let Some(t) = token() else { return };
        let mut rng = Rng(4);
        let bytes = rng.bytes(64 * 5 + 64);
        for off in 0..64 {
            let blocks: Vec<[u8; 64]> = bytes[off..]
                .chunks_exact(64)
                .take(5)
                .map(|c| c.try_into().unwrap())
                .collect();
            let want = reference(&H0, &blocks);
            let mut s16 = [H0; 16];
            compress16(t, &mut s16, [&blocks[..]; 16]);
            assert!(s16.iter().all(|s| *s == want), "offset {off}");
            let mut s8 = [H0; 8];
            compress8(t, &mut s8, [&blocks[..]; 8]);
            assert!(s8.iter().all(|s| *s == want), "offset {off}");
        }
    }
}
