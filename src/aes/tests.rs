//! Unit tests of `src/aes/mod.rs` (left out of the package).

use super::*;
use hex_literal::hex;

/// FIPS-197 appendix A: the cipher keys (A.1, A.2, A.3) and every round key of their
/// expansion, `w[4i..4i+4]` as bytes.
const FIPS197_A: [(&[u8], &[Block]); 3] = [
    (
        &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
        &[
            hex!("2b7e151628aed2a6abf7158809cf4f3c"),
            hex!("a0fafe1788542cb123a339392a6c7605"),
            hex!("f2c295f27a96b9435935807a7359f67f"),
            hex!("3d80477d4716fe3e1e237e446d7a883b"),
            hex!("ef44a541a8525b7fb671253bdb0bad00"),
            hex!("d4d1c6f87c839d87caf2b8bc11f915bc"),
            hex!("6d88a37a110b3efddbf98641ca0093fd"),
            hex!("4e54f70e5f5fc9f384a64fb24ea6dc4f"),
            hex!("ead27321b58dbad2312bf5607f8d292f"),
            hex!("ac7766f319fadc2128d12941575c006e"),
            hex!("d014f9a8c9ee2589e13f0cc8b6630ca6"),
        ],
    ),
    (
        &hex!("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        &[
            hex!("8e73b0f7da0e6452c810f32b809079e5"),
            hex!("62f8ead2522c6b7bfe0c91f72402f5a5"),
            hex!("ec12068e6c827f6b0e7a95b95c56fec2"),
            hex!("4db7b4bd69b5411885a74796e92538fd"),
            hex!("e75fad44bb095386485af05721efb14f"),
            hex!("a448f6d94d6dce24aa326360113b30e6"),
            hex!("a25e7ed583b1cf9a27f939436a94f767"),
            hex!("c0a69407d19da4e1ec1786eb6fa64971"),
            hex!("485f703222cb8755e26d135233f0b7b3"),
            hex!("40beeb282f18a2596747d26b458c553e"),
            hex!("a7e1466c9411f1df821f750aad07d753"),
            hex!("ca4005388fcc5006282d166abc3ce7b5"),
            hex!("e98ba06f448c773c8ecc720401002202"),
        ],
    ),
    (
        &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        &[
            hex!("603deb1015ca71be2b73aef0857d7781"),
            hex!("1f352c073b6108d72d9810a30914dff4"),
            hex!("9ba354118e6925afa51a8b5f2067fcde"),
            hex!("a8b09c1a93d194cdbe49846eb75d5b9a"),
            hex!("d59aecb85bf3c917fee94248de8ebe96"),
            hex!("b5a9328a2678a647983122292f6c79b3"),
            hex!("812c81addadf48ba24360af2fab8b464"),
            hex!("98c5bfc9bebd198e268c3ba709e04214"),
            hex!("68007bacb2df331696e939e46c518d80"),
            hex!("c814e20476a9fb8a5025c02d59c58239"),
            hex!("de1369676ccc5a71fa2563959674ee15"),
            hex!("5886ca5d2e2f31d77e0af1fa27cf73c3"),
            hex!("749c47ab18501ddae2757e4f7401905a"),
            hex!("cafaaae3e4d59b349adf6acebd10190d"),
            hex!("fe4890d1e6188d0b046df344706c631e"),
        ],
    ),
];

/// The equivalent inverse cipher's keys (FIPS-197 §5.3.5) of A.1's expansion:
/// `dec[i] = InvMixColumns(enc[10 - i])` for `0 < i < 10`. (The same values are in
/// RustCrypto `aes`'s ARMv8 tests.)
const FIPS197_A1_DEC: [Block; 11] = [
    hex!("d014f9a8c9ee2589e13f0cc8b6630ca6"),
    hex!("0c7b5a631319eafeb0398890664cfbb4"),
    hex!("df7d925a1f62b09da320626ed6757324"),
    hex!("12c07647c01f22c7bc42d2f37555114a"),
    hex!("6efcd876d2df54807c5df034c917c3b9"),
    hex!("6ea30afcbc238cf6ae82a4b4b54a338d"),
    hex!("90884413d280860a12a128421bc89739"),
    hex!("7c1f13f74208c219c021ae480969bf7b"),
    hex!("cc7505eb3e17d1ee82296c51c9481133"),
    hex!("2b3708a7f262d405bc3ebdbf4b617d62"),
    hex!("2b7e151628aed2a6abf7158809cf4f3c"),
];

/// Every expansion this build has: portable, and the AES instructions' where the CPU has
/// them (AES-NI, ARMv8 AES).
fn expansions() -> std::vec::Vec<(&'static str, Width)> {
    #[cfg_attr(not(any(simdcrypt_x86_64, simdcrypt_aarch64)), allow(unused_mut))]
    let mut v = std::vec![("portable", Width::Portable)];
    #[cfg(simdcrypt_x86_64)]
    if let Some(t) = AesNiToken::get() {
        v.push(("aes-ni", Width::Xmm(t)));
    }
    #[cfg(simdcrypt_aarch64)]
    if let Some(t) = crate::cpu::Armv8AesToken::get() {
        v.push(("armv8-aes", Width::Neon(t)));
    }
    v
}

#[test]
fn fips197_appendix_a_every_round_key() {
    for (name, hw) in expansions() {
        for (key, want) in FIPS197_A {
            let ks = KeySchedule::with(key, hw).unwrap();
            let r = ks.rounds;
            assert_eq!(r + 1, want.len());
            assert_eq!(&ks.enc[..=r], want, "{name} {}-byte key, enc", key.len());
            assert!(
                ks.enc[r + 1..].iter().all(|k| *k == [0; 16]),
                "{name} unused"
            );
            assert_eq!(ks.dec[0], want[r], "{name}");
            assert_eq!(ks.dec[r], want[0], "{name}");
            for i in 1..r {
                let imc = soft::tests::inv_mix_columns_ref(&want[r - i]);
                assert_eq!(ks.dec[i], imc, "{name} {}-byte key, dec[{i}]", key.len());
            }
            if r == 10 {
                assert_eq!(ks.dec[..=r], FIPS197_A1_DEC, "{name}");
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// The hardware expansion and the portable one agree on every key length.
    #[test]
    fn hardware_expansion_matches_portable(
        key in proptest::collection::vec(proptest::prelude::any::<u8>(), 32),
        len in proptest::sample::select(&[16usize, 24, 32][..]),
    ) {
        let soft = KeySchedule::with(&key[..len], Width::Portable).unwrap();
        for (_, hw) in expansions().into_iter().skip(1) {
            let hw = KeySchedule::with(&key[..len], hw).unwrap();
            proptest::prop_assert_eq!(hw.rounds, soft.rounds);
            proptest::prop_assert_eq!(hw.enc, soft.enc);
            proptest::prop_assert_eq!(hw.dec, soft.dec);
        }
        // And `new` (the automatic choice) is one of them.
        let auto = KeySchedule::new(&key[..len]).unwrap();
        proptest::prop_assert_eq!((auto.enc, auto.dec), (soft.enc, soft.dec));
    }
}

#[test]
fn every_impl_keys_with_its_token() {
    for b in Aes::available_backends() {
        let aes = Aes::with_backend(&[3u8; 32], b).unwrap();
        assert_eq!(
            aes.kernel().hardware_keying(),
            b != Backend::Portable,
            "{b}"
        );
    }
}

#[test]
fn bad_key_lengths() {
    for len in [0, 1, 15, 17, 23, 25, 31, 33, 64] {
        assert_eq!(
            Aes::new(&[0u8; 64][..len]).unwrap_err(),
            Error::InvalidKeyLength {
                len,
                expected: "16, 24 or 32 bytes"
            }
        );
    }
}

#[test]
fn debug_prints_no_key() {
    let aes = Aes::new(&[0xabu8; 16]).unwrap();
    let s = std::format!("{aes:?} {:?}", aes.ks);
    assert!(!s.contains("171") && !s.contains("abab"), "{s}"); // (not "ab": "portable")
}
