//! The `digest` 0.11 traits on `simdcrypt::Sha1` (feature `digest`): `Digest` on the
//! FIPS 180 answers and against RustCrypto `sha1` under random chunking,
//! `hmac::Hmac<simdcrypt::Sha1>` against RustCrypto `hmac::Hmac<sha1::Sha1>` (RFC 2202 and
//! keys shorter than, equal to and longer than the block), and `pbkdf2::pbkdf2_hmac`
//! against RustCrypto's (RFC 6070).
#![cfg(feature = "digest")]

use ::sha1::digest::{self, Digest, FixedOutputReset, Update};
use hex_literal::hex;
use hmac::{KeyInit, Mac};
use proptest::prelude::*;
use simdcrypt::{HmacSha1, Sha1, Sha1Core};
use simdcrypt_testkit::strategies::message;

type OurHmac = hmac::Hmac<Sha1>;
type TheirHmac = hmac::Hmac<::sha1::Sha1>;

fn theirs(data: &[u8]) -> [u8; 20] {
    ::sha1::Sha1::digest(data).into()
}

fn ours(data: &[u8]) -> [u8; 20] {
    <Sha1 as Digest>::digest(data).into()
}

fn hmac_ours(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut m = <OurHmac as KeyInit>::new_from_slice(key).unwrap();
    Mac::update(&mut m, data);
    m.finalize().into_bytes().into()
}

fn hmac_theirs(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut m = <TheirHmac as KeyInit>::new_from_slice(key).unwrap();
    Mac::update(&mut m, data);
    m.finalize().into_bytes().into()
}

#[test]
fn digest_fips_answers() {
    assert_eq!(ours(b""), hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    assert_eq!(
        ours(b"abc"),
        hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
    );
    assert_eq!(
        ours(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        hex!("84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    );
    // One million 'a', fed through the trait in uneven pieces.
    let mut h = <Sha1 as Digest>::new();
    let piece = [b'a'; 1000];
    let mut left = 1_000_000usize;
    let mut step = 1usize;
    while left > 0 {
        let n = step.min(left).min(piece.len());
        Digest::update(&mut h, &piece[..n]);
        left -= n;
        step = step * 7 % 997 + 1;
    }
    let out: [u8; 20] = Digest::finalize(h).into();
    assert_eq!(out, hex!("34aa973cd4c4daa4f61eeb2bdbad27316534016f"));
}

#[test]
fn digest_metadata_and_reset() {
    assert_eq!(<Sha1 as Digest>::output_size(), 20);
    let mut h = <Sha1 as Digest>::new_with_prefix(b"ab");
    let mut copy = h.clone();
    Digest::update(&mut h, b"c");
    let first: [u8; 20] = Digest::finalize_reset(&mut h).into();
    assert_eq!(first, hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
    // After the reset: the empty message.
    let empty: [u8; 20] = FixedOutputReset::finalize_fixed_reset(&mut h).into();
    assert_eq!(empty, hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    // The clone kept "ab" and is independent.
    Update::update(&mut copy, b"c");
    assert_eq!(copy.clone().finalize(), first);
    Digest::reset(&mut copy);
    assert_eq!(copy.finalize(), theirs(b""));
    // The inherent API is unchanged and the trait path runs on the automatic backend.
    assert_eq!(Sha1Core::default().backend(), Sha1::new().backend());
    struct Name<T>(core::marker::PhantomData<T>);
    impl<T: digest::block_api::AlgorithmName> core::fmt::Display for Name<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            T::write_alg_name(f)
        }
    }
    assert_eq!(
        Name::<OurHmac>(core::marker::PhantomData).to_string(),
        "Hmac<Sha1>"
    );
}

#[test]
fn hmac_rfc2202() {
    assert_eq!(
        hmac_ours(b"Jefe", b"what do ya want for nothing?"),
        hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    );
    // Case 1: 20-byte key of 0x0b.
    assert_eq!(
        hmac_ours(&[0x0b; 20], b"Hi There"),
        hex!("b617318655057264e28bc0b6fb378c8ef146be00")
    );
    // Case 6: 80-byte key (longer than a block, hashed first).
    assert_eq!(
        hmac_ours(
            &[0xaa; 80],
            b"Test Using Larger Than Block-Size Key - Hash Key First"
        ),
        hex!("aa4ae5e15272d00e95705637ce8a3b55ed402112")
    );
    // Verify through the trait, wrong tag rejected.
    let mut m = <OurHmac as KeyInit>::new_from_slice(b"Jefe").unwrap();
    Mac::update(&mut m, b"what do ya want for nothing?");
    let mut m2 = m.clone();
    m.verify_slice(&hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"))
        .unwrap();
    assert!(
        m2.clone()
            .verify_slice(&hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c78"))
            .is_err()
    );
    Mac::update(&mut m2, b"!");
    assert_eq!(
        <[u8; 20]>::from(m2.finalize().into_bytes()),
        hmac_theirs(b"Jefe", b"what do ya want for nothing?!")
    );
}

#[test]
fn hmac_key_lengths_match_rustcrypto_and_own_hmac() {
    let data: Vec<u8> = (0..300u32).map(|i| (i * 31 + 7) as u8).collect();
    for key_len in [0usize, 1, 20, 63, 64, 65, 100, 128, 200] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 13 + 1) as u8).collect();
        for msg_len in [0usize, 1, 55, 56, 64, 119, 300] {
            let expect = hmac_theirs(&key, &data[..msg_len]);
            assert_eq!(
                hmac_ours(&key, &data[..msg_len]),
                expect,
                "key {key_len} msg {msg_len}"
            );
            let mut own = HmacSha1::new(&key);
            own.update(&data[..msg_len]);
            assert_eq!(own.finalize(), expect);
        }
    }
}

#[test]
fn pbkdf2_rfc6070_and_rustcrypto() {
    let mut out = [0u8; 20];
    pbkdf2::pbkdf2_hmac::<Sha1>(b"password", b"salt", 2, &mut out);
    assert_eq!(out, hex!("ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"));
    pbkdf2::pbkdf2_hmac::<Sha1>(b"password", b"salt", 1, &mut out);
    assert_eq!(out, hex!("0c60c80f961f0e71f3a9b524af6012062fe037a6"));
    pbkdf2::pbkdf2_hmac::<Sha1>(b"password", b"salt", 4096, &mut out);
    assert_eq!(out, hex!("4b007901b765489abead49d926f721d065a429c1"));
    let mut long = [0u8; 25];
    pbkdf2::pbkdf2_hmac::<Sha1>(
        b"passwordPASSWORDpassword",
        b"saltSALTsaltSALTsaltSALTsaltSALTsalt",
        4096,
        &mut long,
    );
    assert_eq!(
        long,
        hex!("3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
    );

    let password = [0x5au8; 70]; // longer than a block: hashed into the key first
    for (rounds, len) in [(1u32, 20usize), (3, 41), (100, 64), (1000, 7)] {
        for pw in [&password[..8], &password[..64], &password[..]] {
            let mut a = vec![0u8; len];
            let mut b = vec![0u8; len];
            pbkdf2::pbkdf2_hmac::<Sha1>(pw, b"NaCl salt", rounds, &mut a);
            pbkdf2::pbkdf2_hmac::<::sha1::Sha1>(pw, b"NaCl salt", rounds, &mut b);
            assert_eq!(a, b, "rounds {rounds} len {len} pw {}", pw.len());
        }
    }
}

#[test]
fn core_wrapper_matches() {
    // The block-level core on its own, with RustCrypto's eager block buffer in front.
    use digest::block_api::{Buffer, FixedOutputCore, UpdateCore};
    for len in [0usize, 55, 56, 63, 64, 65, 1000] {
        let data: Vec<u8> = (0..len).map(|i| (i * 5 + 3) as u8).collect();
        let mut core = Sha1Core::default();
        let mut buffer = Buffer::<Sha1Core>::default();
        for part in data.chunks(37) {
            buffer.digest_blocks(part, |b| core.update_blocks(b));
        }
        let mut out = Default::default();
        core.finalize_fixed_core(&mut buffer, &mut out);
        assert_eq!(<[u8; 20]>::from(out), theirs(&data), "len {len}");
    }
}

/// Splits `data` at the given (sorted, clamped) cut points.
fn pieces<'a>(data: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c % (data.len() + 1)).collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut at = 0;
    for c in cuts {
        out.push(&data[at..c]);
        at = c;
    }
    out.push(&data[at..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn digest_matches_rustcrypto_under_chunking(
        data in message(),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut h = <Sha1 as Digest>::new();
        for p in pieces(&data, &cuts) {
            Digest::update(&mut h, p);
        }
        prop_assert_eq!(<[u8; 20]>::from(Digest::finalize(h)), theirs(&data));
        prop_assert_eq!(ours(&data), theirs(&data));
    }

    #[test]
    fn hmac_matches_rustcrypto_under_chunking(
        key in proptest::collection::vec(any::<u8>(), 0..150),
        data in proptest::collection::vec(any::<u8>(), 0..400),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let mut m = <OurHmac as KeyInit>::new_from_slice(&key).unwrap();
        for p in pieces(&data, &cuts) {
            Mac::update(&mut m, p);
        }
        prop_assert_eq!(
            <[u8; 20]>::from(m.finalize().into_bytes()),
            hmac_theirs(&key, &data)
        );
    }
}
