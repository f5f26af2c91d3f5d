//! Unit tests of `src/arch/aarch64/aes_sha1.rs` (left out of the package).

use super::*;
use crate::sha1::hmac::key_states;
use crate::{CbcHmacSha1, sha1};
use proptest::prelude::*;
use simdcrypt_testkit::{Rng, token_or_skip};

/// Both tokens, or `None` where the CPU lacks either (`token_or_skip`).
fn tokens() -> Option<(Armv8AesToken, Armv8Sha1Token)> {
    let both = ["armv8-aes-sha1"];
    let a = token_or_skip(Armv8AesToken::get(), &both, "the ARMv8 AES instructions")?;
    let s = token_or_skip(Armv8Sha1Token::get(), &both, "the ARMv8 SHA-1 instructions")?;
    Some((a, s))
}

/// Seals and opens `plain` with the stitch, one call for the whole message (the groups,
/// the blocks after them, the CS3 tail where `plain` is not whole blocks, and the tag),
/// and checks the ciphertext (or plaintext) and the tag against the portable composition.
fn check(t: (Armv8AesToken, Armv8Sha1Token), key: &[u8], mac_key: &[u8], iv: Block, plain: &[u8]) {
    let ks = KeySchedule::new(key).expect("a valid key length");
    assert!(Stitched::stitches(&ks));
    let portable = CbcHmacSha1::with_backend(key, mac_key, Backend::Portable).expect("valid keys");
    let (inner, outer) = key_states(mac_key, sha1::Kernel::Portable, Backend::Portable);
    let len = plain.len();
    let split = if len.is_multiple_of(16) {
        len
    } else {
        crate::cbc::cts_split(len)
    };
    let mut want = plain.to_vec();
    let want_tag = portable.seal_split(&iv, &mut want, split);
    let what = std::format!("AES-{}, {len} bytes", 8 * key.len());
    for seal in [true, false] {
        let mut buf = if seal { plain.to_vec() } else { want.clone() };
        let tag = Stitched::new(t).crypt(stitch::Msg {
            seal,
            ks: &ks,
            iv: &iv,
            buf: &mut buf,
            split,
            starts: &[inner, outer],
        });
        let out: &[u8] = if seal { &want } else { plain };
        assert_eq!(&buf[..], out, "{what}, seal {seal}");
        assert_eq!(tag, want_tag, "{what}, seal {seal}: the tag");
    }
}

/// Every key size, whole groups, the blocks after them and CS3 tails, sealing and opening.
#[test]
fn seals_and_opens_every_key_size() {
    let Some(t) = tokens() else { return };
    let mut rng = Rng(6);
    for key_len in [16, 24, 32] {
        for len in [0, 16, 17, 48, 64, 80, 127, 128, 192, 255, 448, 519, 576] {
            let key = rng.bytes(key_len);
            let iv: Block = rng.bytes(16).try_into().expect("16 bytes");
            check(t, &key, &rng.bytes(20), iv, &rng.bytes(len));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// The stitch against the portable composition on messages of 0 to 600 bytes (whole
    /// blocks, or at least 16 bytes with stealing), every key size.
    #[test]
    fn stitch_matches_portable(
        key in simdcrypt_testkit::strategies::aes_key(),
        mac_key in proptest::collection::vec(any::<u8>(), 0..80),
        iv in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let Some(t) = tokens() else { return Ok(()) };
        let msg = if msg.len() < 16 { &msg[..0] } else { &msg[..] };
        check(t, &key, &mac_key, iv, msg);
    }
}
