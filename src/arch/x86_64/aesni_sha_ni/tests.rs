//! Unit tests of `src/arch/x86_64/aesni_sha_ni.rs` (left out of the package).

use super::*;
use simdcrypt_testkit::sha1::{reference, state};
use simdcrypt_testkit::{Rng, token_or_skip};

/// Both forms of the SHA-1 schedule, whichever this CPU's row picks (the public API's
/// tests run only that one), sealing and opening with each key size the stitch takes
/// (AES-128 and AES-256; `tests/cbc_hmac.rs` runs AES-192 on the stitched row, where it
/// goes one kernel after the other) against portable CBC and SHA-1.
#[test]
fn every_schedule_seals_and_opens() {
    let both = ["aesni-sha-ni"];
    let Some(aes) = token_or_skip(AesNiToken::get(), &both, "AES-NI") else {
        return;
    };
    let Some(sha) = token_or_skip(crate::cpu::ShaNiToken::get(), &both, "SHA-NI") else {
        return;
    };
    let avx512 = token_or_skip(
        crate::cpu::Avx512Token::get(),
        &["avx512"],
        "AVX-512 F/BW/VL",
    );
    let mut rng = Rng(5);
    let k192 = KeySchedule::new(&[7; 24]).expect("a valid key length");
    assert!(!stitches(&k192), "no 12-round copy of the stitch");
    for key_len in [16, 32] {
        let ks = KeySchedule::new(&rng.bytes(key_len)).expect("a valid key length");
        assert!(stitches(&ks));
        for n in [1, 2, 3, 7] {
            let plain = rng.bytes(64 * n);
            let iv: Block = rng.bytes(16).try_into().expect("16 bytes");
            let start = state(&mut rng);
            // Portable CBC encryption and SHA-1 of the plaintext.
            let mut want = plain.clone();
            let mut c = iv;
            for b in want.as_chunks_mut::<16>().0 {
                for (x, y) in b.iter_mut().zip(c) {
                    *x ^= y;
                }
                crate::aes::soft::encrypt_blocks(&ks, core::slice::from_mut(b));
                c = *b;
            }
            let hash = reference(&start, plain.as_chunks::<64>().0);
            for form in [forms::SHA_UNIT, forms::ROL2, forms::VECTOR] {
                if form == forms::VECTOR && avx512.is_none() {
                    continue;
                }
                let what = std::format!("AES-{}, {n} groups, form {form}", 8 * key_len);
                for seal in [true, false] {
                    let mut buf = if seal { plain.clone() } else { want.clone() };
                    let (mut chain, mut st) = (iv, start);
                    let groups = buf.as_chunks_mut::<64>().0;
                    // The tokens above prove the CPU has AES-NI, SHA, SSSE3 and SSE4.1, and,
                    // for the vector form, AVX, AVX2 and AVX-512 F/VL.
                    match form {
                        forms::VECTOR => stitch::crypt_groups(
                            AesShaNi::<{ forms::VECTOR }>(aes, sha),
                            seal,
                            &ks,
                            &mut chain,
                            &mut st,
                            groups,
                        ),
                        forms::ROL2 => stitch::crypt_groups(
                            AesShaNi::<{ forms::ROL2 }>(aes, sha),
                            seal,
                            &ks,
                            &mut chain,
                            &mut st,
                            groups,
                        ),
                        _ => stitch::crypt_groups(
                            AesShaNi::<{ forms::SHA_UNIT }>(aes, sha),
                            seal,
                            &ks,
                            &mut chain,
                            &mut st,
                            groups,
                        ),
                    }
                    assert_eq!(
                        &buf,
                        if seal { &want } else { &plain },
                        "{what}, seal {seal}"
                    );
                    assert_eq!(chain, c, "{what}, seal {seal}: the chaining block");
                    assert_eq!(st, hash, "{what}, seal {seal}: the SHA-1 state");
                }
            }
        }
    }
}
