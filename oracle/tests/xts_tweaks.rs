//! XTS tweak conventions (`Tweaks`) and equal-halves keys against OpenSSL, on every backend
//! this machine runs: each multi-unit call equals OpenSSL run once per unit on the tweak the
//! convention gives it; OpenSSL's policy for equal key halves (decrypt only) is ours.
//!
//! Compiled only where the oracle crate found OpenSSL (`cfg(oracle_openssl)`).
#![cfg(oracle_openssl)]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::xts_helpers!();

use TweaksForm::Sectors;
use simdcrypt::Xts;
use simdcrypt::xts::Tweaks;
use simdcrypt_oracle::openssl::{Cipher, Kind};
use simdcrypt_testkit::bytes;
use simdcrypt_testkit::xts::{SHAPES, conventions};

#[test]
fn multi_unit_calls_agree_with_openssl_per_unit() {
    let convs = conventions();
    for key_len in [32, 64] {
        let k = bytes(70 + key_len as u64, key_len);
        let mut enc = Cipher::new(Kind::Xts, &k, true).unwrap();
        let mut dec = Cipher::new(Kind::Xts, &k, false).unwrap();
        let xs: Vec<Xts> = backends::<Xts>()
            .into_iter()
            .map(|b| Xts::with_backend(&k, b).unwrap())
            .collect();
        for (ci, c) in convs.iter().enumerate() {
            let (size, count) = SHAPES[ci % SHAPES.len()];
            let pt = bytes(ci as u64 + 1000, size * count);
            let mut want = vec![0u8; pt.len()];
            for (i, (p, w)) in pt.chunks(size).zip(want.chunks_mut(size)).enumerate() {
                assert!(enc.run(&mut c.tweak(i as u128), p, w));
            }
            let mut back = vec![0u8; pt.len()];
            for (i, (w, p)) in want.chunks(size).zip(back.chunks_mut(size)).enumerate() {
                assert!(dec.run(&mut c.tweak(i as u128), w, p));
            }
            assert_eq!(back, pt);
            let what = format!("vs OpenSSL key {key_len} {c:?} {size} x {count}");
            assert_round_trips(&xs, (Sectors, size, c.tweaks()), &pt, &want, &what);
        }
    }
}

/// OpenSSL outside FIPS mode decrypts under equal halves and refuses to encrypt: the same
/// policy, and the same plaintext.
#[test]
fn equal_halves_match_openssl_policy() {
    for key_len in [32, 64] {
        let half = bytes(30 + key_len as u64, key_len / 2);
        let k = [half.clone(), half].concat();
        assert!(
            Cipher::new(Kind::Xts, &k, true).is_none(),
            "OpenSSL encrypts under equal halves"
        );
        let mut dec = Cipher::new(Kind::Xts, &k, false).expect("OpenSSL decrypts");
        let ct = bytes(31, 4096 + 7);
        let tweak = Tweaks::plain64(12345).tweak(0).unwrap();
        let mut want = vec![0u8; ct.len()];
        assert!(dec.run(&mut tweak.clone(), &ct, &mut want));
        for b in backends::<Xts>() {
            let xts = Xts::with_backend_allow_equal_halves(&k, b).unwrap();
            let mut x = ct.clone();
            xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
            assert_eq!(x, want, "{b} key {key_len}");
        }
    }
}
