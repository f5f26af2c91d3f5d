//! simdcrypt's Kerberos AES enctypes against MIT krb5 (libk5crypto), on every backend this
//! machine runs: MIT decrypts what we encrypt and we decrypt what MIT encrypts (MIT picks
//! its own random confounder, so the ciphertexts are compared through decryption), for
//! both enctypes, several key usages and every message length to 300 plus large ones;
//! checksums equal byte for byte and verified both ways; string-to-key equal; altered
//! ciphertexts and checksums rejected by both.
//!
//! Compiled only where the oracle crate found MIT krb5 (`cfg(oracle_krb5)`, set by its
//! build.rs); elsewhere the build says once that these comparisons are left out.
#![cfg(oracle_krb5)]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(CbcHmacSha1);

use simdcrypt::krb5::{Aes128CtsHmacSha196, Aes256CtsHmacSha196, UsageKeys};
use simdcrypt::{Backend, CbcHmacSha1};
use simdcrypt_oracle::krb5 as mit;
use simdcrypt_testkit::bytes;

const USAGES: [u32; 7] = [1, 2, 3, 7, 24, 1026, 0xffff_fff0];

fn lengths() -> Vec<usize> {
    (0..=300)
        .chain([511, 512, 1000, 1500, 4096, 4097, 9000, 65536 + 5, 1 << 20])
        .collect()
}

/// One enctype: its number, the base key, and the usage keys on a backend.
struct Case {
    enctype: i32,
    key: Vec<u8>,
    keys: Box<dyn Fn(u32, Backend) -> UsageKeys>,
}

fn cases() -> Vec<Case> {
    let k128 = bytes(1, 16);
    let k256 = bytes(2, 32);
    let a = Aes128CtsHmacSha196::new(&k128).unwrap();
    let b = Aes256CtsHmacSha196::new(&k256).unwrap();
    vec![
        Case {
            enctype: mit::AES128_CTS_HMAC_SHA1_96,
            key: k128,
            keys: Box::new(move |u, be| a.usage_keys_with_backend(u, be).unwrap()),
        },
        Case {
            enctype: mit::AES256_CTS_HMAC_SHA1_96,
            key: k256,
            keys: Box::new(move |u, be| b.usage_keys_with_backend(u, be).unwrap()),
        },
    ]
}

#[test]
fn encrypt_and_decrypt_both_ways() {
    assert!(mit::available());
    let mut n = 0;
    for be in backends::<CbcHmacSha1>() {
        for c in cases() {
            for usage in USAGES {
                let keys = (c.keys)(usage, be);
                for len in lengths() {
                    let m = bytes(len as u64 ^ u64::from(usage), len);
                    let conf: [u8; 16] = bytes(len as u64 + 7, 16).try_into().unwrap();
                    // MIT decrypts ours.
                    let ours = keys.encrypt(&conf, &m);
                    let back = mit::decrypt(c.enctype, &c.key, usage, &ours);
                    assert_eq!(
                        back.as_deref(),
                        Some(&m[..]),
                        "MIT rejects ours: {be} etype {} usage {usage} len {len}",
                        c.enctype
                    );
                    // We decrypt MIT's.
                    let theirs = mit::encrypt(c.enctype, &c.key, usage, &m).unwrap();
                    assert_eq!(theirs.len(), ours.len());
                    assert_eq!(
                        keys.decrypt(&theirs).unwrap(),
                        m,
                        "{be} etype {} usage {usage} len {len}",
                        c.enctype
                    );
                    n += 1;
                }
            }
        }
    }
    assert!(n >= backends::<CbcHmacSha1>().len() * 2 * USAGES.len() * 301);
}

#[test]
fn altered_ciphertexts_are_rejected_by_both() {
    for be in backends::<CbcHmacSha1>() {
        for c in cases() {
            let keys = (c.keys)(3, be);
            for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 64, 100, 257] {
                let m = bytes(len as u64, len);
                let ours = keys.encrypt(&[0xc3; 16], &m);
                let theirs = mit::encrypt(c.enctype, &c.key, 3, &m).unwrap();
                for i in (0..ours.len()).step_by(5) {
                    let mut a = ours.clone();
                    a[i] ^= 0x40;
                    assert_eq!(
                        mit::decrypt(c.enctype, &c.key, 3, &a),
                        None,
                        "{be} len {len} byte {i}"
                    );
                    assert!(keys.decrypt(&a).is_err());
                    let mut b = theirs.clone();
                    b[i] ^= 0x40;
                    assert!(keys.decrypt(&b).is_err(), "{be} len {len} byte {i}");
                }
                // Another usage: both reject.
                assert_eq!(mit::decrypt(c.enctype, &c.key, 4, &ours), None);
                assert!((c.keys)(4, be).decrypt(&theirs).is_err());
            }
        }
    }
}

#[test]
fn checksums_equal_and_verified_both_ways() {
    for c in cases() {
        for usage in USAGES {
            let keys = (c.keys)(usage, Backend::Portable);
            for len in lengths() {
                let m = bytes(len as u64 * 3 + 1, len);
                let ours = keys.checksum(&m);
                let theirs = mit::make_checksum(c.enctype, &c.key, usage, &m).unwrap();
                assert_eq!(
                    &ours[..],
                    &theirs[..],
                    "etype {} usage {usage} len {len}",
                    c.enctype
                );
                assert_eq!(
                    mit::verify_checksum(c.enctype, &c.key, usage, &m, &ours),
                    Some(true)
                );
                keys.verify_checksum(&m, &theirs).unwrap();
                let mut bad = ours;
                bad[len % 12] ^= 1;
                assert_eq!(
                    mit::verify_checksum(c.enctype, &c.key, usage, &m, &bad),
                    Some(false)
                );
                assert!(keys.verify_checksum(&m, &bad).is_err());
            }
        }
    }
}

/// MIT refuses counts under 4096 without `allow_weak_crypto` (KRB5_ERR_BAD_S2K_PARAMS), so
/// the counts start there; RFC 3962's smaller ones are checked in tests/krb5.rs.
#[test]
fn string_to_key_equals_mit() {
    for (i, iterations) in [4096u32, 4097, 6000].into_iter().enumerate() {
        for (pwlen, saltlen) in [
            (0, 0),
            (1, 5),
            (8, 21),
            (20, 40),
            (64, 7),
            (65, 1),
            (100, 100),
        ] {
            let pw = bytes(i as u64 * 100 + pwlen as u64, pwlen);
            let salt = bytes(i as u64 * 1000 + saltlen as u64 + 1, saltlen);
            let a = Aes128CtsHmacSha196::string_to_key(&pw, &salt, iterations).unwrap();
            let b = Aes256CtsHmacSha196::string_to_key(&pw, &salt, iterations).unwrap();
            let ma = mit::string_to_key(mit::AES128_CTS_HMAC_SHA1_96, &pw, &salt, iterations);
            let mb = mit::string_to_key(mit::AES256_CTS_HMAC_SHA1_96, &pw, &salt, iterations);
            assert_eq!(
                Some(a.key_bytes()),
                ma.as_deref(),
                "{iterations} {pwlen} {saltlen}"
            );
            assert_eq!(
                Some(b.key_bytes()),
                mb.as_deref(),
                "{iterations} {pwlen} {saltlen}"
            );
        }
    }
}
