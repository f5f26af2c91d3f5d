//! The `cipher` 0.5 adapters plugged into RustCrypto modes, on every AES backend, against
//! the same modes over RustCrypto's own `aes`.
#![cfg(feature = "cipher")]

simdcrypt_testkit::backend_helpers!();

use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, StreamCipher};
use cipher::InnerIvInit;
use proptest::prelude::*;
use simdcrypt::Aes;

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn ctr_matches(key in any::<[u8; 16]>(), iv in any::<[u8; 16]>(), len in 0usize..1200) {
        let mut want = data(len, 1);
        ctr::Ctr128BE::<aes::Aes128>::new(&key.into(), &iv.into()).apply_keystream(&mut want);
        for b in backends::<Aes>() {
            let c = simdcrypt::Aes128::with_backend(&key.into(), b).unwrap();
            let mut got = data(len, 1);
            let core = ctr::CtrCore::<simdcrypt::Aes128, ctr::flavors::Ctr128BE>::inner_iv_init(c, &iv.into());
            ctr::Ctr128BE::from_core(core).apply_keystream(&mut got);
            prop_assert_eq!(&got, &want, "{}", b);
        }
    }

    #[test]
    fn cbc_matches(key in any::<[u8; 24]>(), iv in any::<[u8; 16]>(), blocks in 0usize..70) {
        let pt = data(16 * blocks, 2);
        let want = cbc::Encryptor::<aes::Aes192>::new(&key.into(), &iv.into())
            .encrypt_padded_vec::<cipher::block_padding::NoPadding>(&pt);
        for b in backends::<Aes>() {
            let c = simdcrypt::Aes192::with_backend(&key.into(), b).unwrap();
            let got = cbc::Encryptor::<simdcrypt::Aes192>::inner_iv_init(c.clone(), &iv.into())
                .encrypt_padded_vec::<cipher::block_padding::NoPadding>(&pt);
            prop_assert_eq!(&got, &want, "{} encrypt", b);
            let back = cbc::Decryptor::<simdcrypt::Aes192>::inner_iv_init(c, &iv.into())
                .decrypt_padded_vec::<cipher::block_padding::NoPadding>(&got)
                .unwrap();
            prop_assert_eq!(&back, &pt, "{} decrypt", b);
        }
    }

    #[test]
    fn xts_mode_matches(k1 in any::<[u8; 32]>(), k2 in any::<[u8; 32]>(), units in 1usize..5, sector in any::<u64>()) {
        let len = 512 * units;
        let mut want = data(len, 3);
        let x = xts_mode::Xts128::new(aes::Aes256::new(&k1.into()), aes::Aes256::new(&k2.into()));
        x.encrypt_area(&mut want, 512, u128::from(sector), xts_mode::get_tweak_default);
        for b in backends::<Aes>() {
            let x = xts_mode::Xts128::new(
                simdcrypt::Aes256::with_backend(&k1.into(), b).unwrap(),
                simdcrypt::Aes256::with_backend(&k2.into(), b).unwrap(),
            );
            let mut got = data(len, 3);
            x.encrypt_area(&mut got, 512, u128::from(sector), xts_mode::get_tweak_default);
            prop_assert_eq!(&got, &want, "{}", b);
            x.decrypt_area(&mut got, 512, u128::from(sector), xts_mode::get_tweak_default);
            prop_assert_eq!(&got, &data(len, 3), "{} round trip", b);
        }
    }
}

#[test]
fn keyinit_uses_the_automatic_backend() {
    let c = simdcrypt::Aes256::new(&[5u8; 32].into());
    assert_eq!(c.inner().backend(), Aes::new(&[5u8; 32]).unwrap().backend());
    assert!(!format!("{c:?}").contains("05"));
}
