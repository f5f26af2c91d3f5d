//! AES block core on every available backend: FIPS-197, AESAVS KAT, and property tests
//! against the portable backend and RustCrypto `aes`. `Aes` is in every build: no feature
//! needed.

simdcrypt_testkit::backend_helpers!();

use aes::cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use hex_literal::hex;
use proptest::prelude::*;
use simdcrypt::Aes;
use simdcrypt_testkit::{hex, records};

#[test]
fn fips197_appendix_c() {
    let pt = hex!("00112233445566778899aabbccddeeff");
    let cases: [(&[u8], [u8; 16]); 3] = [
        (
            &hex!("000102030405060708090a0b0c0d0e0f"),
            hex!("69c4e0d86a7b0430d8cdb78070b4c55a"),
        ),
        (
            &hex!("000102030405060708090a0b0c0d0e0f1011121314151617"),
            hex!("dda97ca4864cdfe06eaf70a0ec0d7191"),
        ),
        (
            &hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
            hex!("8ea2b7ca516745bfeafc49904b496089"),
        ),
    ];
    for b in backends::<Aes>() {
        for (key, ct) in cases {
            let aes = Aes::with_backend(key, b).unwrap();
            assert_eq!(aes.backend(), b);
            // Every position of a 67-block batch sees the same answer.
            let mut blocks = vec![pt; 67];
            aes.encrypt_blocks(&mut blocks);
            assert!(blocks.iter().all(|x| *x == ct), "{b} key {}", key.len());
            aes.decrypt_blocks(&mut blocks);
            assert!(blocks.iter().all(|x| *x == pt), "{b} key {}", key.len());
        }
    }
}

#[test]
fn aesavs_known_answers() {
    let mut n = 0;
    for kind in ["GFSbox", "KeySbox", "VarKey", "VarTxt"] {
        for bits in [128, 192, 256] {
            let recs = records(&format!("nist-cavp/cbc/CBC{kind}{bits}.rsp"));
            for b in backends::<Aes>() {
                for r in &recs {
                    assert_eq!(r.hex("IV"), [0u8; 16]);
                    let aes = Aes::with_backend(&r.hex("KEY"), b).unwrap();
                    let pt: [u8; 16] = r.hex("PLAINTEXT").try_into().unwrap();
                    let ct: [u8; 16] = r.hex("CIPHERTEXT").try_into().unwrap();
                    let mut x = [pt];
                    if r.section == "ENCRYPT" {
                        aes.encrypt_blocks(&mut x);
                        assert_eq!(x[0], ct, "{b} {kind}{bits} {:?}", r.fields);
                    } else {
                        x = [ct];
                        aes.decrypt_blocks(&mut x);
                        assert_eq!(x[0], pt, "{b} {kind}{bits} {:?}", r.fields);
                    }
                    n += 1;
                }
            }
        }
    }
    assert!(n >= 2 * 1000, "only {n} known answers checked");
}

#[test]
fn unavailable_or_foreign_backend_is_an_error() {
    assert_unavailable_or_foreign_backend_errors::<Aes>(|b| {
        Aes::with_backend(&[0u8; 16], b).map(|x| x.backend())
    });
    assert!(hex("00").len() == 1);
}

fn rustcrypto_encrypt(key: &[u8], blocks: &mut [[u8; 16]], decrypt: bool) {
    macro_rules! run {
        ($t:ty) => {{
            let c = <$t>::new_from_slice(key).unwrap();
            for b in blocks.iter_mut() {
                let blk: &mut aes::Block = b.into();
                if decrypt {
                    c.decrypt_block(blk)
                } else {
                    c.encrypt_block(blk)
                }
            }
        }};
    }
    match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        _ => run!(aes::Aes256),
    }
}

/// Every block count from 0 to 40 on every backend, each key size, against RustCrypto:
/// the short entries (fewer than 8 registers of blocks: 8 on AES-NI, 16 on VAES-AVX2, 32
/// on VAES-AVX512) and the looping ones on both sides of each hand-over.
#[test]
fn every_block_count_on_every_backend() {
    for key_len in [16usize, 24, 32] {
        let key: Vec<u8> = (0..key_len as u8)
            .map(|i| i.wrapping_mul(29) ^ 0x5c)
            .collect();
        for n in 0..=40usize {
            let data: Vec<[u8; 16]> = (0..n)
                .map(|i| core::array::from_fn(|j| (i * 16 + j) as u8 ^ 0xa7))
                .collect();
            let (mut enc, mut dec) = (data.clone(), data.clone());
            rustcrypto_encrypt(&key, &mut enc, false);
            rustcrypto_encrypt(&key, &mut dec, true);
            for b in Aes::available_backends() {
                let aes = Aes::with_backend(&key, b).unwrap();
                let mut x = data.clone();
                aes.encrypt_blocks(&mut x);
                assert_eq!(x, enc, "{b} encrypt, {n} blocks, {key_len}-byte key");
                let mut y = data.clone();
                aes.decrypt_blocks(&mut y);
                assert_eq!(y, dec, "{b} decrypt, {n} blocks, {key_len}-byte key");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn all_backends_agree(
        key_len in prop::sample::select(vec![16usize, 24, 32]),
        key in prop::array::uniform32(any::<u8>()),
        data in prop::collection::vec(prop::array::uniform16(any::<u8>()), 0..=67),
    ) {
        let key = &key[..key_len];
        let mut want = data.clone();
        rustcrypto_encrypt(key, &mut want, false);
        for b in Aes::available_backends() {
            let aes = Aes::with_backend(key, b).unwrap();
            let mut x = data.clone();
            aes.encrypt_blocks(&mut x);
            prop_assert_eq!(&x, &want, "{} encrypt", b);
            let mut d = data.clone();
            rustcrypto_encrypt(key, &mut d, true);
            let mut y = data.clone();
            aes.decrypt_blocks(&mut y);
            prop_assert_eq!(&y, &d, "{} decrypt", b);
            aes.decrypt_blocks(&mut x);
            prop_assert_eq!(&x, &data, "{} round trip", b);
        }
    }
}
