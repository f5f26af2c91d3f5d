//! simdcrypt against OpenSSL, on every backend this machine runs: XTS at every data-unit
//! length, CBC (one-block and random messages, chained and not), SHA-1 and HMAC-SHA1.
//!
//! Compiled only where the oracle crate found OpenSSL (`cfg(oracle_openssl)`, set by its
//! build.rs); elsewhere the build says once that these comparisons are left out, and no test
//! here is counted.
#![cfg(oracle_openssl)]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::xts_helpers!();

use hex_literal::hex;
use proptest::prelude::*;
use simdcrypt::{Aes, Cbc, HmacSha1, Sha1, Xts};
use simdcrypt_oracle::openssl::{self, Cipher, Kind};
use simdcrypt_testkit::bytes;
use simdcrypt_testkit::strategies::{cbc_case, hmac_key, message};

#[test]
fn openssl_is_linked_and_names_its_version() {
    assert!(openssl::available());
    let v = openssl::version().unwrap();
    assert!(v.starts_with("OpenSSL "), "{v}");
    eprintln!("comparing against {v}");
}

#[test]
fn xts_every_length_agrees_with_openssl() {
    let bs = backends::<Xts>();
    for key_len in [32, 64] {
        let k = bytes(1000 + key_len as u64, key_len);
        let mut enc = Cipher::new(Kind::Xts, &k, true).unwrap();
        let mut dec = Cipher::new(Kind::Xts, &k, false).unwrap();
        let xs: Vec<Xts> = bs
            .iter()
            .map(|&b| Xts::with_backend(&k, b).unwrap())
            .collect();
        for len in (16..=300).chain([4095, 4096, 4097, 65535, 65536, 65537]) {
            let pt = bytes(7 * len as u64, len);
            let tweak: [u8; 16] = bytes(len as u64 + 5, 16).try_into().unwrap();
            let mut want = vec![0u8; len];
            assert!(enc.run(&mut tweak.clone(), &pt, &mut want));
            let mut back = vec![0u8; len];
            assert!(dec.run(&mut tweak.clone(), &want, &mut back));
            assert_eq!(back, pt);
            for xts in &xs {
                let mut x = pt.clone();
                xts.encrypt_with_tweak(&mut x, &tweak).unwrap();
                assert_eq!(
                    x,
                    want,
                    "{} vs OpenSSL key {key_len} len {len}",
                    xts.backend()
                );
                xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
                assert_eq!(x, pt, "{} key {key_len} len {len}", xts.backend());
            }
        }
    }
}

#[test]
fn aes_single_block_cbc_is_ecb() {
    let key = hex!("000102030405060708090a0b0c0d0e0f");
    let mut c = Cipher::new(Kind::Cbc, &key, true).unwrap();
    let pt = hex!("00112233445566778899aabbccddeeff");
    let mut out = [0u8; 16];
    assert!(c.run(&mut [0u8; 16], &pt, &mut out));
    // FIPS-197 Appendix C.1: OpenSSL itself is checked, then every backend against it.
    assert_eq!(out, hex!("69c4e0d86a7b0430d8cdb78070b4c55a"));
    for b in backends::<Aes>() {
        let mut x = [pt];
        Aes::with_backend(&key, b).unwrap().encrypt_blocks(&mut x);
        assert_eq!(x[0], out, "{b}");
    }
}

fn ossl_cbc(key: &[u8], iv: &[u8; 16], data: &[u8], enc: bool) -> Vec<u8> {
    let mut c = Cipher::new(Kind::Cbc, key, enc).unwrap();
    let mut out = vec![0u8; data.len()];
    let mut iv = *iv;
    if !data.is_empty() {
        assert!(c.run(&mut iv, data, &mut out));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cbc_agrees_with_openssl(
        (key, iv, pt) in cbc_case(),
        split in any::<u16>(),
    ) {
        let nblocks = pt.len() / 16;
        let want = ossl_cbc(&key, &iv, &pt, true);
        prop_assert_eq!(&ossl_cbc(&key, &iv, &want, false), &pt);
        // Two chained calls, cut at a block boundary.
        let cut = 16 * (nblocks * usize::from(split) / 65536);
        for b in Cbc::available_backends() {
            let cbc = Cbc::with_backend(&key, b).unwrap();
            let mut x = pt.clone();
            let mut v = iv;
            let (a, rest) = x.split_at_mut(cut);
            cbc.encrypt(&mut v, a).unwrap();
            cbc.encrypt(&mut v, rest).unwrap();
            prop_assert_eq!(&x, &want, "{} encrypt", b);
            let mut v = iv;
            cbc.decrypt(&mut v, &mut x).unwrap();
            prop_assert_eq!(&x, &pt, "{} decrypt", b);
        }
    }

    #[test]
    fn sha1_agrees_with_openssl(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        cut in any::<usize>(),
    ) {
        let want = openssl::Sha1::new().digest(&data);
        let cut = cut % (data.len() + 1);
        for b in Sha1::available_backends() {
            let mut h = Sha1::with_backend(b).unwrap();
            h.update(&data[..cut]);
            h.update(&data[cut..]);
            prop_assert_eq!(h.finalize(), want, "{}", b);
        }
    }

    #[test]
    fn hmac_sha1_agrees_with_openssl(
        key in hmac_key(),
        data in message(),
    ) {
        let want = openssl::hmac_sha1(&key, &data);
        for b in Sha1::available_backends() {
            let mut m = HmacSha1::with_backend(&key, b).unwrap();
            m.update(&data);
            prop_assert_eq!(m.finalize(), want, "{}", b);
        }
    }
}

/// The SHA-1 known answer (FIPS 180 "abc") through OpenSSL: the oracle itself is checked.
#[test]
fn openssl_sha1_known_answer() {
    assert_eq!(
        openssl::Sha1::new().digest(b"abc"),
        hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
    );
}

/// The kept-key HMAC (the speed tool's peer for the CBC-HMAC rows) against RFC 2202 test
/// case 2 and against the one-shot, over several messages under one key (its state reset
/// between them) and a key longer than a block.
#[test]
fn openssl_kept_key_hmac_matches_one_shot() {
    let mut k = openssl::HmacKey::new(b"Jefe").unwrap();
    assert_eq!(
        k.mac(b"what do ya want for nothing?"),
        hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    );
    for key in [&b"Jefe"[..], &[0xaa; 80][..]] {
        let mut k = openssl::HmacKey::new(key).unwrap();
        for len in [0usize, 1, 16, 55, 64, 100, 1500] {
            let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
            assert_eq!(k.mac(&msg), openssl::hmac_sha1(key, &msg), "{len}");
        }
    }
}
