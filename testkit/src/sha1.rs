//! SHA-1 test data and the checks every one-stream compression kernel passes, with the
//! compression function of RustCrypto `sha1` as the oracle. A kernel is any
//! `Fn(&mut [u32; 5], &[[u8; 64]])`: the chaining state (H0..H4) and whole blocks, so
//! nothing here names simdcrypt's types.

use crate::Rng;

/// The SHA-1 initial value H0..H4 (FIPS 180-4 §5.3.1).
pub const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// The FIPS 180 digest of a million 'a'.
pub const MILLION_A: [u8; 20] = hex_literal::hex!("34aa973cd4c4daa4f61eeb2bdbad27316534016f");

/// A random chaining state.
pub fn state(rng: &mut Rng) -> [u32; 5] {
    core::array::from_fn(|_| rng.next() as u32)
}

/// `n` random message blocks.
pub fn blocks(rng: &mut Rng, n: usize) -> Vec<[u8; 64]> {
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.next() as u8))
        .collect()
}

/// The compression function of RustCrypto `sha1`, as the oracle.
pub fn reference(state: &[u32; 5], blocks: &[[u8; 64]]) -> [u32; 5] {
    let mut s = *state;
    ::sha1::block_api::compress(&mut s, blocks);
    s
}

/// Pads `msg` (FIPS 180-4 §5.1.1) into whole blocks.
pub fn pad(msg: &[u8]) -> Vec<[u8; 64]> {
    let mut m = msg.to_vec();
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    m.chunks_exact(64).map(|c| c.try_into().unwrap()).collect()
}

/// The digest bytes of a final state.
pub fn digest(state: &[u32; 5]) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// Checks a two-stream compression (`compress2((a, blocks_a), (b, blocks_b))`, equally many
/// blocks in each stream) against the reference: random states, 0 to 40 blocks.
pub fn check_compress2(
    compress2: impl Fn((&mut [u32; 5], &[[u8; 64]]), (&mut [u32; 5], &[[u8; 64]])),
) {
    let mut rng = Rng(2);
    for n in 0..=40 {
        let (sa, sb) = (state(&mut rng), state(&mut rng));
        let (ba, bb) = (blocks(&mut rng, n), blocks(&mut rng, n));
        let (mut a, mut b) = (sa, sb);
        compress2((&mut a, &ba), (&mut b, &bb));
        assert_eq!(a, reference(&sa, &ba), "stream a, {n} blocks");
        assert_eq!(b, reference(&sb, &bb), "stream b, {n} blocks");
    }
}

/// The tests every one-stream compression kernel passes: RustCrypto's results on 0 to
/// 40 random blocks, blocks at every byte offset (the kernels load unaligned) in odd and
/// even counts, and the FIPS 180 digests of "abc" and a million 'a' from [`IV`].
pub fn check_compress(compress: impl Fn(&mut [u32; 5], &[[u8; 64]])) {
    let mut rng = Rng(1);
    for n in 0..=40 {
        for _ in 0..3 {
            let start = state(&mut rng);
            let blocks = blocks(&mut rng, n);
            let mut s = start;
            compress(&mut s, &blocks);
            assert_eq!(s, reference(&start, &blocks), "{n} blocks");
        }
    }

    let mut rng = Rng(4);
    let bytes: Vec<u8> = (0..64 * 9 + 64).map(|_| rng.next() as u8).collect();
    for off in 0..64 {
        for n in [1, 2, 3, 8, 9] {
            let (blocks, _) = bytes[off..off + 64 * n].as_chunks::<64>();
            let start = state(&mut rng);
            let mut s = start;
            compress(&mut s, blocks);
            assert_eq!(s, reference(&start, blocks), "offset {off}, {n} blocks");
        }
    }

    let mut s = IV;
    compress(&mut s, &pad(b"abc"));
    assert_eq!(
        digest(&s),
        hex_literal::hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
    );
    let mut s = IV;
    compress(&mut s, &pad(&vec![b'a'; 1_000_000]));
    assert_eq!(digest(&s), MILLION_A);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks pass on the oracle itself, and `pad` and `digest` give the FIPS 180
    /// digests through it.
    #[test]
    fn the_oracle_passes_its_own_checks() {
        check_compress(::sha1::block_api::compress);
        assert_eq!(
            digest(&reference(&IV, &pad(b""))),
            hex_literal::hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709")
        );
        // 55 bytes pad into one block, 56 into two.
        assert_eq!(pad(&[0; 55]).len(), 1);
        assert_eq!(pad(&[0; 56]).len(), 2);
    }
}
