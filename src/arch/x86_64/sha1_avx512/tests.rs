//! Unit tests of `src/arch/x86_64/sha1_avx512.rs` (left out of the package).

use super::*;
use std::vec::Vec;

use crate::sha1::{IV as H0, soft};
use simdcrypt_testkit::Rng;
use simdcrypt_testkit::sha1::{blocks, reference, state};

/// The AVX-512 F/BW/VL token (the `avx512` backend), or `None` where the CPU lacks it
/// (`token_or_skip`).
fn token() -> Option<Avx512Token> {
    simdcrypt_testkit::token_or_skip(Avx512Token::get(), &["avx512"], "AVX-512 F/BW/VL")
}

/// Every lane of a `L`-lane kernel against the portable compression function (and
/// RustCrypto's), for block counts 0..=12, unequal per lane (the kernel does the
/// fewest).
fn lanes_match<const L: usize>(
    rng: &mut Rng,
    kernel: impl Fn(&mut [[u32; 5]; L], [&[[u8; 64]]; L]),
) {
    for n in 0..=12 {
        let starts: [[u32; 5]; L] = core::array::from_fn(|_| state(rng));
        let msgs: Vec<Vec<[u8; 64]>> = (0..L).map(|l| blocks(rng, n + (l * 7 + n) % 3)).collect();
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
