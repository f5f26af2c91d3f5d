//! Kerberos `aes128-cts-hmac-sha1-96` and `aes256-cts-hmac-sha1-96`: RFC 3962 appendix B
//! string-to-key vectors, MIT krb5's known ciphertexts (`t_decrypt.c`), and on every
//! backend: round trips for every message length to 300, equal output across backends,
//! and rejection of short, truncated and altered ciphertexts. The comparison with the MIT
//! library itself (both directions) is in `oracle/tests/krb5.rs`.
#![cfg(all(feature = "cbc", feature = "sha1", feature = "alloc"))]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(CbcHmacSha1);

use simdcrypt::krb5::{Aes128CtsHmacSha196, Aes256CtsHmacSha196};
use simdcrypt::{Backend, CbcHmacSha1, Error};
use simdcrypt_testkit::hex;

/// (iterations, password, salt, 128-bit key, 256-bit key).
type S2k<'a> = (u32, &'a [u8], &'a [u8], &'a str, &'a str);

/// RFC 3962 appendix B.
#[test]
fn rfc3962_string_to_key() {
    let g_clef = [0xf0u8, 0x9d, 0x84, 0x9e];
    let x64 = [b'X'; 64];
    let x65 = [b'X'; 65];
    let salt5 = hex("1234567878563412");
    let cases: [S2k<'_>; 7] = [
        (
            1,
            b"password",
            b"ATHENA.MIT.EDUraeburn",
            "42263c6e89f4fc28b8df68ee09799f15",
            "fe697b52bc0d3ce14432ba036a92e65bbb52280990a2fa27883998d72af30161",
        ),
        (
            2,
            b"password",
            b"ATHENA.MIT.EDUraeburn",
            "c651bf29e2300ac27fa469d693bdda13",
            "a2e16d16b36069c135d5e9d2e25f896102685618b95914b467c67622225824ff",
        ),
        (
            1200,
            b"password",
            b"ATHENA.MIT.EDUraeburn",
            "4c01cd46d632d01e6dbe230a01ed642a",
            "55a6ac740ad17b4846941051e1e8b0a7548d93b0ab30a8bc3ff16280382b8c2a",
        ),
        (
            5,
            b"password",
            &salt5,
            "e9b23d52273747dd5c35cb55be619d8e",
            "97a4e786be20d81a382d5ebc96d5909cabcdadc87ca48f574504159f16c36e31",
        ),
        (
            1200,
            &x64,
            b"pass phrase equals block size",
            "59d1bb789a828b1aa54ef9c2883f69ed",
            "89adee3608db8bc71f1bfbfe459486b05618b70cbae22092534e56c553ba4b34",
        ),
        (
            1200,
            &x65,
            b"pass phrase exceeds block size",
            "cb8005dc5f90179a7f02104c0018751d",
            "d78c5c9cb872a8c9dad4697f0bb5b2d21496c82beb2caeda2112fceea057401b",
        ),
        (
            50,
            &g_clef,
            b"EXAMPLE.COMpianist",
            "f149c1f2e154a73452d43e7fe62a56e5",
            "4b6d9839f84406df1f09cc166db4b83c571848b784a3d6bdc346589a3e393f9e",
        ),
    ];
    for (iter, pw, salt, k128, k256) in cases.iter() {
        let a = Aes128CtsHmacSha196::string_to_key(pw, salt, *iter).unwrap();
        assert_eq!(a.key_bytes(), hex(k128), "aes128 iterations {iter}");
        let b = Aes256CtsHmacSha196::string_to_key(pw, salt, *iter).unwrap();
        assert_eq!(b.key_bytes(), hex(k256), "aes256 iterations {iter}");
    }
    assert_eq!(
        Aes128CtsHmacSha196::string_to_key(b"pw", b"salt", 0).unwrap_err(),
        Error::InvalidIterationCount { iterations: 0 }
    );
}

/// MIT krb5 `src/lib/crypto/crypto_tests/t_decrypt.c`: (plaintext, usage, key, ciphertext)
/// for enctypes 17 and 18, made by MIT's `krb5_c_encrypt` with random confounders.
const MIT_AES128: [(&str, u32, &str, &str); 5] = [
    (
        "",
        0,
        "5a5c0f0ba54f3828b2195e66ca24a289",
        "49ff8e11c173d9583a3254fbe7b1f1df36c538e8416784a1672e6676",
    ),
    (
        "1",
        1,
        "98450e3f3baa13f5c99beb936981b06f",
        "f86742f537b35dc2174a4dbaa920faf9042090b065e1ebb1cad9a65394",
    ),
    (
        "9 bytesss",
        2,
        "9062430c8cda3388922e6d6a509f5b7a",
        "68fb9679601f45c78857b2bf820fd6e53eca8d42fd4b1d7024a09205abb7cd2ec26c355d2f",
    ),
    (
        "13 bytes byte",
        3,
        "033ee6502c54fd23e27791e987983827",
        "ec366d0327a933bf49330e650e49bc6b974637fe80bf532fe51795b4809718e6194724db948d1fd637",
    ),
    (
        "30 bytes bytes bytes bytes byt",
        4,
        "dceeb70b3de76562e689226c76429148",
        "c96081032d5d8eeb7e32b4089f789d0faa481dea74c0f97cbf3146ddfcf8e800156ecb532fc203e30ff600b63b350939fece510f02d7ff1e7bac",
    ),
];

const MIT_AES256: [(&str, u32, &str, &str); 5] = [
    (
        "",
        0,
        "17f275f2954f2ed1f90c377ba7f4d6a369aa0136e0bf0c927ad6133c693759a9",
        "e5094c55ee7b38262e2b044280b069379a95bf95bd8376fb3281b435",
    ),
    (
        "1",
        1,
        "b9477e1ff0329c0050e20ce6c72d2dff27e8fe541ab0954429a9cb5b4f7b1e2a",
        "406150b97aeb76d43b36b62cc1ecdfbe6f40e95755e0beb5c27825f3a4",
    ),
    (
        "9 bytesss",
        2,
        "b1ae4cd8462aff1677053cc9279aac30b796fb81ce21474dd3ddbcfea4ec76d7",
        "09957aa25fcaf88f7b39e4406e633012d5fea21853f6478da7065caef41fd454a40824eec5",
    ),
    (
        "13 bytes byte",
        3,
        "e5a72be9b7926c1225bafef9c1872e7ba4cdb2b17893d84abd90acdd8764d966",
        "d8f1aafeec84587cc3e700a774e56651a6d693e174ec4473b5e6d96f80297a653fb818ad893e719f96",
    ),
    (
        "30 bytes bytes bytes bytes byt",
        4,
        "f1c795e9248a09338d82c3f8d5b567040b0110736845041347235b1404231398",
        "d1137a4d634cfece924dbc3bf6790648bd5cff7de0e7b99460211d0daef3d79a295c688858f3b34b9cbd6eebae81daf6b734d4d498b6714f1c1d",
    ),
];

#[test]
fn mit_known_ciphertexts_decrypt_on_every_backend() {
    for b in backends::<CbcHmacSha1>() {
        for (pt, usage, key, ct) in MIT_AES128 {
            let k = Aes128CtsHmacSha196::new(&hex(key)).unwrap();
            let keys = k.usage_keys_with_backend(usage, b).unwrap();
            assert_eq!(keys.backend(), b);
            let ct = hex(ct);
            assert_eq!(
                keys.decrypt(&ct).unwrap(),
                pt.as_bytes(),
                "{b} aes128 {pt:?}"
            );
            assert_eq!(k.decrypt(usage, &ct).unwrap(), pt.as_bytes());
            // Our encryption of the same plaintext has MIT's length and decrypts back.
            let ours = keys.encrypt(&[0x5a; 16], pt.as_bytes());
            assert_eq!(ours.len(), ct.len());
            assert_eq!(keys.decrypt(&ours).unwrap(), pt.as_bytes());
        }
        for (pt, usage, key, ct) in MIT_AES256 {
            let k = Aes256CtsHmacSha196::new(&hex(key)).unwrap();
            let keys = k.usage_keys_with_backend(usage, b).unwrap();
            let ct = hex(ct);
            assert_eq!(
                keys.decrypt(&ct).unwrap(),
                pt.as_bytes(),
                "{b} aes256 {pt:?}"
            );
            // Any altered byte is rejected.
            for i in 0..ct.len() {
                let mut bad = ct.clone();
                bad[i] ^= 0x01;
                assert_eq!(keys.decrypt(&bad), Err(Error::TagMismatch), "{b} byte {i}");
            }
            // Another usage's keys reject it.
            assert_eq!(k.decrypt(usage + 1, &ct), Err(Error::TagMismatch));
        }
    }
}

fn msg(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 13 + 7) as u8).collect()
}

#[test]
fn every_length_round_trips_and_backends_agree() {
    let k128 = Aes128CtsHmacSha196::new(&[0x11; 16]).unwrap();
    let k256 = Aes256CtsHmacSha196::string_to_key(b"secret", b"REALM.EXAMPLEuser", 4096).unwrap();
    let conf: [u8; 16] = core::array::from_fn(|i| (i * 29) as u8);
    let lens: Vec<usize> = (0..=300).chain([1000, 4096, 4097, 65536 + 3]).collect();
    for usage in [1u32, 3, 7, 24, 1026] {
        let ref128 = k128
            .usage_keys_with_backend(usage, Backend::Portable)
            .unwrap();
        let ref256 = k256
            .usage_keys_with_backend(usage, Backend::Portable)
            .unwrap();
        for b in backends::<CbcHmacSha1>() {
            let u128 = k128.usage_keys_with_backend(usage, b).unwrap();
            let u256 = k256.usage_keys_with_backend(usage, b).unwrap();
            assert_eq!(u256.usage(), usage);
            for &len in &lens {
                let m = msg(len);
                for (ours, reference) in [(&u128, &ref128), (&u256, &ref256)] {
                    let ct = ours.encrypt(&conf, &m);
                    assert_eq!(ct.len(), len + 28);
                    assert_eq!(
                        ct,
                        reference.encrypt(&conf, &m),
                        "{b} usage {usage} len {len}"
                    );
                    assert_eq!(ours.decrypt(&ct).unwrap(), m, "{b} usage {usage} len {len}");
                    let c = ours.checksum(&m);
                    assert_eq!(c, reference.checksum(&m));
                    ours.verify_checksum(&m, &c).unwrap();
                }
            }
        }
        // The enctype's one-call methods derive the same keys.
        let m = msg(77);
        assert_eq!(k256.encrypt(usage, &conf, &m), ref256.encrypt(&conf, &m));
        assert_eq!(k256.checksum(usage, &m), ref256.checksum(&m));
        k256.verify_checksum(usage, &m, &ref256.checksum(&m))
            .unwrap();
    }
}

#[test]
fn rejections_leave_nothing() {
    let k = Aes256CtsHmacSha196::new(&[0x22; 32]).unwrap();
    for b in backends::<CbcHmacSha1>() {
        let keys = k.usage_keys_with_backend(9, b).unwrap();
        for len in [0usize, 1, 16, 17, 100] {
            let ct = keys.encrypt(&[1; 16], &msg(len));
            // Truncated anywhere: short (under 28 bytes) or a bad MAC.
            for cut in 0..ct.len() {
                let r = keys.decrypt(&ct[..cut]);
                if cut < 28 {
                    assert_eq!(r, Err(Error::DataTooShort { len: cut, min: 28 }));
                } else {
                    assert_eq!(r, Err(Error::TagMismatch), "{b} len {len} cut {cut}");
                }
            }
            let mut longer = ct.clone();
            longer.push(0);
            assert_eq!(keys.decrypt(&longer), Err(Error::TagMismatch));
        }
        let c = keys.checksum(b"abc");
        assert_eq!(
            keys.verify_checksum(b"abc", &c[..11]),
            Err(Error::LengthMismatch {
                what: "checksum and MAC lengths",
                left: 11,
                right: 12
            })
        );
        let mut bad = c;
        bad[11] ^= 0x80;
        assert_eq!(keys.verify_checksum(b"abc", &bad), Err(Error::TagMismatch));
    }
    assert!(matches!(
        Aes128CtsHmacSha196::new(&[0; 32]),
        Err(Error::InvalidKeyLength { len: 32, .. })
    ));
    assert!(matches!(
        Aes256CtsHmacSha196::new(&[0; 16]),
        Err(Error::InvalidKeyLength { len: 16, .. })
    ));
}
