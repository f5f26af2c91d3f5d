//! Unit tests of `src/arch/aarch64/aes_sha1.rs` (left out of the package).

use super::*;
use proptest::prelude::*;
use simdcrypt_testkit::sha1::{reference, state};
use simdcrypt_testkit::{Rng, token_or_skip};

/// Both tokens, or `None` where the CPU lacks either (`token_or_skip`).
fn tokens() -> Option<(Armv8AesToken, Armv8Sha1Token)> {
    let both = ["armv8-aes-sha1"];
    let a = token_or_skip(Armv8AesToken::get(), &both, "the ARMv8 AES instructions")?;
    let s = token_or_skip(Armv8Sha1Token::get(), &both, "the ARMv8 SHA-1 instructions")?;
    Some((a, s))
}

/// Portable CBC encryption of `plain` from `iv`, and the last ciphertext block.
fn cbc_reference(ks: &KeySchedule, iv: Block, plain: &[u8]) -> (std::vec::Vec<u8>, Block) {
    let mut out = plain.to_vec();
    let mut c = iv;
    for b in out.as_chunks_mut::<16>().0 {
        for (x, y) in b.iter_mut().zip(c) {
            *x ^= y;
        }
        crate::aes::soft::encrypt_blocks(ks, core::slice::from_mut(b));
        c = *b;
    }
    (out, c)
}

/// Seals and opens `plain` (whole groups) with the stitch and checks the ciphertext (or
/// plaintext), the chaining block and the SHA-1 state against portable CBC and
/// RustCrypto's SHA-1 of the plaintext.
fn check(t: (Armv8AesToken, Armv8Sha1Token), key: &[u8], iv: Block, start: [u32; 5], plain: &[u8]) {
    let ks = KeySchedule::new(key).expect("a valid key length");
    assert!(Stitched::stitches(&ks));
    let (want, last) = cbc_reference(&ks, iv, plain);
    let hash = reference(&start, plain.as_chunks::<64>().0);
    let what = std::format!("AES-{}, {} bytes", 8 * key.len(), plain.len());
    for seal in [true, false] {
        let mut buf = if seal { plain.to_vec() } else { want.clone() };
        let (mut chain, mut st) = (iv, start);
        Stitched::new(t).crypt_groups(seal, &ks, &mut chain, &mut st, buf.as_chunks_mut::<64>().0);
        let out: &[u8] = if seal { &want } else { plain };
        assert_eq!(&buf[..], out, "{what}, seal {seal}");
        let last = if plain.is_empty() { iv } else { last };
        assert_eq!(chain, last, "{what}, seal {seal}: the chaining block");
        assert_eq!(st, hash, "{what}, seal {seal}: the SHA-1 state");
    }
}

/// Every key size, one to nine groups, sealing and opening.
#[test]
fn seals_and_opens_every_key_size() {
    let Some(t) = tokens() else { return };
    let mut rng = Rng(6);
    for key_len in [16, 24, 32] {
        for n in [0, 1, 2, 3, 4, 7, 9] {
            let key = rng.bytes(key_len);
            let iv: Block = rng.bytes(16).try_into().expect("16 bytes");
            let start = state(&mut rng);
            check(t, &key, iv, start, &rng.bytes(64 * n));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// The stitch against portable CBC and SHA-1, on the whole groups of 0 to 600 bytes,
    /// every key size.
    #[test]
    fn stitch_matches_portable(
        key in simdcrypt_testkit::strategies::aes_key(),
        iv in any::<[u8; 16]>(),
        start in any::<[u32; 5]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let Some(t) = tokens() else { return Ok(()) };
        let whole = msg.len() / 64 * 64;
        check(t, &key, iv, start, &msg[..whole]);
    }
}
