//! Unit tests of `src/arch/x86_64/sha_ni.rs` (left out of the package).

use super::*;

use crate::sha1::{Kernel, digest_from};
use simdcrypt_testkit::sha1::{blocks, reference, state};
use simdcrypt_testkit::{Rng, token_or_skip};

/// The SHA-NI token (the kernels of `sha-ni` and `sha-ni-asm`), or `None` where the CPU
/// lacks it (`token_or_skip`).
fn sha_ni_token() -> Option<ShaNiToken> {
    token_or_skip(ShaNiToken::get(), &["sha-ni", "sha-ni-asm"], "SHA-NI")
}

#[test]
fn the_form_follows_the_row_and_the_cap() {
    use crate::cpu::Features;
    use crate::tuning::ShaNiSchedule::{ShaUnit, Vector};
    let all = Avx512Token::FEATURES.union(ShaNiToken::FEATURES);
    assert_eq!(form_for(Vector, all), forms::VECTOR);
    assert_eq!(form_for(ShaUnit, all), forms::SHA_UNIT);
    assert_eq!(form_for(Vector, ShaNiToken::FEATURES), forms::ROL2);
    assert_eq!(form_for(Vector, Features::NONE), forms::ROL2);
    assert_eq!(form_for(ShaUnit, Features::NONE), forms::SHA_UNIT);
    // This process: the form its row and cap give (the cap lies within the detected
    // features, so the vector form has its token).
    let want = form_for(
        crate::tuning::tuning().sha_ni_schedule,
        crate::backend::automatic_features(),
    );
    let Some(t) = sha_ni_token() else { return };
    let got = match Form::new(t) {
        Form::ShaUnit(_) => forms::SHA_UNIT,
        Form::Rol2(_) => forms::ROL2,
        Form::Vector(..) => forms::VECTOR,
    };
    assert_eq!(got, want);
}

/// Every form of the schedule, whichever this CPU's row picks: one stream, pairs, the
/// one-call digest and HMAC tag, against the portable code.
#[test]
fn every_schedule_matches_the_reference() {
    let Some(_sha) = sha_ni_token() else { return };
    let avx512 = token_or_skip(Avx512Token::get(), &["avx512"], "AVX-512 F/BW/VL");
    let mut rng = Rng(11);
    for form in [forms::SHA_UNIT, forms::ROL2, forms::VECTOR] {
        if form == forms::VECTOR && avx512.is_none() {
            continue;
        }
        // The entry of `form`. SAFETY (every use below): the tokens above prove the
        // CPU has SHA, SSSE3 and SSE4.1, and, for the vector form, AVX, AVX2 and
        // AVX-512 F/VL.
        macro_rules! call {
            ($f:ident $(::<$g:literal>)? ($($arg:expr),*)) => {
                unsafe {
                    match form {
                        forms::VECTOR => vector::$f $(::<$g>)? ($($arg),*),
                        forms::ROL2 => rol2::$f $(::<$g>)? ($($arg),*),
                        _ => sha_unit::$f $(::<$g>)? ($($arg),*),
                    }
                }
            };
        }
        for n in 0..=20 {
            let (sa, sb) = (state(&mut rng), state(&mut rng));
            let (ba, bb) = (blocks(&mut rng, n), blocks(&mut rng, n));
            let mut a = sa;
            call!(compress(&mut a, &ba));
            assert_eq!(a, reference(&sa, &ba), "{n} blocks, form {form}");
            let (mut a, mut b) = (sa, sb);
            call!(compress2((&mut a, &ba), (&mut b, &bb)));
            assert_eq!(a, reference(&sa, &ba), "pair a, {n} blocks, form {form}");
            assert_eq!(b, reference(&sb, &bb), "pair b, {n} blocks, form {form}");
        }
        for len in [
            0, 1, 15, 16, 20, 55, 56, 63, 64, 65, 119, 120, 128, 200, 1000,
        ] {
            let msg = rng.bytes(len);
            let (inner, outer) = (state(&mut rng), state(&mut rng));
            let want = digest_from(Kernel::Portable, inner, 64, &msg);
            let got = call!(finish::<false>(&inner, &inner, 64, &msg, 0));
            let tag = call!(finish::<true>(&inner, &outer, 64, &msg, 0));
            assert_eq!(got, want, "digest of {len} bytes, form {form}");
            assert_eq!(
                tag,
                digest_from(Kernel::Portable, outer, 64, &want),
                "HMAC of {len} bytes, form {form}"
            );
        }
    }
}

/// What `Sha1::backend` documents for `sha-ni-asm`: runs of under 16 blocks (and so every
/// padded tail) go to the `sha-ni` intrinsics, longer ones to the assembly; the other
/// kernels keep every run.
#[cfg(simdcrypt_asm)]
#[test]
fn sha_ni_asm_hands_runs_under_16_blocks_to_the_intrinsics() {
    use crate::sha1::Kernel;
    let Some(t) = sha_ni_token() else { return };
    let asm = Kernel::ShaNiAsm(Form::new(t));
    for blocks in [0, 1, 15] {
        assert!(
            matches!(asm.on_run(blocks), Kernel::ShaNi(_)),
            "{blocks} blocks"
        );
    }
    for blocks in [16, 17, 1000] {
        assert!(
            matches!(asm.on_run(blocks), Kernel::ShaNiAsm(_)),
            "{blocks} blocks"
        );
    }
    let intrinsics = Kernel::ShaNi(Form::new(t));
    for blocks in [0, 1, 16, 1000] {
        assert!(
            matches!(intrinsics.on_run(blocks), Kernel::ShaNi(_)),
            "{blocks} blocks"
        );
    }
}
