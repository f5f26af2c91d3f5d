//! Unit tests of `src/arch/x86_64/aesni_sha_ni.rs` (left out of the package).

use super::*;
use crate::sha1::hmac::key_states;
use crate::{CbcHmacSha1, sha1};
use simdcrypt_testkit::{Rng, token_or_skip};

/// Every form of the SHA-1 schedule, whichever this CPU's row picks (the public API's
/// tests run only that one), sealing and opening whole messages (the groups, the blocks
/// after them, the CS3 tail and the tag, in one call) with each key size the stitch takes
/// (AES-128 and AES-256; `tests/cbc_hmac.rs` runs AES-192 on the stitched row, where it
/// goes one kernel after the other) against the portable composition.
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
        let key = rng.bytes(key_len);
        let mac_key = rng.bytes(20);
        let ks = KeySchedule::new(&key).expect("a valid key length");
        assert!(stitches(&ks));
        let portable =
            CbcHmacSha1::with_backend(&key, &mac_key, Backend::Portable).expect("valid keys");
        let (inner, outer) = key_states(&mac_key, sha1::Kernel::Portable, Backend::Portable);
        let starts = [inner, outer];
        for len in [
            0, 16, 48, 64, 80, 112, 128, 144, 192, 200, 255, 448, 470, 519,
        ] {
            let plain = rng.bytes(len);
            let iv: Block = rng.bytes(16).try_into().expect("16 bytes");
            // Whole blocks only, or stealing (at least 16 bytes).
            let split = if len.is_multiple_of(16) {
                len
            } else {
                crate::cbc::cts_split(len)
            };
            let mut want = plain.clone();
            let want_tag = portable.seal_split(&iv, &mut want, split);
            for form in [forms::SHA_UNIT, forms::ROL2, forms::VECTOR] {
                if form == forms::VECTOR && avx512.is_none() {
                    continue;
                }
                let what = std::format!("AES-{}, {len} bytes, form {form}", 8 * key_len);
                for seal in [true, false] {
                    let mut buf = if seal { plain.clone() } else { want.clone() };
                    let m = stitch::Msg {
                        seal,
                        ks: &ks,
                        iv: &iv,
                        buf: &mut buf,
                        split,
                        starts: &starts,
                    };
                    // The tokens above prove the CPU has AES-NI, SHA, SSSE3 and SSE4.1, and,
                    // for the vector form, AVX, AVX2 and AVX-512 F/VL.
                    let tag = match form {
                        forms::VECTOR => stitch::crypt(AesShaNi::<{ forms::VECTOR }>(aes, sha), m),
                        forms::ROL2 => stitch::crypt(AesShaNi::<{ forms::ROL2 }>(aes, sha), m),
                        _ => stitch::crypt(AesShaNi::<{ forms::SHA_UNIT }>(aes, sha), m),
                    };
                    let out = if seal { &want } else { &plain };
                    assert_eq!(&buf, out, "{what}, seal {seal}");
                    assert_eq!(tag, want_tag, "{what}, seal {seal}: the tag");
                }
            }
        }
    }
}
