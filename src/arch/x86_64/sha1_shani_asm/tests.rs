//! Unit tests of `src/arch/x86_64/sha1_shani_asm.rs` (left out of the package).

use super::*;
use std::vec::Vec;

use crate::sha1::IV as H0;
use simdcrypt_testkit::Rng;
use simdcrypt_testkit::sha1::{
    MILLION_A, blocks, check_compress, check_compress2, digest, pad, reference, state,
};

/// The SHA-NI token, or `None` where the CPU lacks it (`token_or_skip`).
fn sha_ni_token() -> Option<ShaNiToken> {
    simdcrypt_testkit::token_or_skip(ShaNiToken::get(), &["sha-ni", "sha-ni-asm"], "SHA-NI")
}

/// One stream and two against the reference, and the same message in both streams.
#[test]
fn one_and_two_streams_match_the_reference() {
    let Some(t) = sha_ni_token() else { return };
    check_compress(|s, b| compress(t, s, b));
    check_compress2(|a, b| compress2(t, a, b));
    let mut rng = Rng(2);
    let blocks = blocks(&mut rng, 7);
    let (mut a, mut b) = (H0, H0);
    compress2(t, (&mut a, &blocks), (&mut b, &blocks));
    assert_eq!(a, reference(&H0, &blocks));
    assert_eq!(a, b);
}

#[test]
fn compress2_unequal_lengths() {
    let Some(t) = sha_ni_token() else { return };
    let mut rng = Rng(3);
    for (na, nb) in [(0, 3), (5, 0), (2, 9), (11, 4)] {
        let (sa, sb) = (state(&mut rng), state(&mut rng));
        let (ba, bb) = (blocks(&mut rng, na), blocks(&mut rng, nb));
        let (mut a, mut b) = (sa, sb);
        compress2(t, (&mut a, &ba), (&mut b, &bb));
        assert_eq!(a, reference(&sa, &ba));
        assert_eq!(b, reference(&sb, &bb));
    }
}

/// A million 'a' against "abc" repeated, interleaved.
#[test]
fn compress2_long_messages() {
    let Some(t) = sha_ni_token() else { return };
    let million = pad(&std::vec![b'a'; 1_000_000]);
    let abc = pad(b"abc");
    let (mut a, mut b) = (H0, H0);
    let abc_long: Vec<[u8; 64]> = abc.iter().cycle().take(million.len()).copied().collect();
    compress2(t, (&mut a, &million), (&mut b, &abc_long));
    assert_eq!(digest(&a), MILLION_A);
    assert_eq!(b, reference(&H0, &abc_long));
}
