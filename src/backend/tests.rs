//! Unit tests of `src/backend.rs` (left out of the package).

use super::*;
#[cfg(feature = "std")]
use crate::cpu::{AesNiToken, Avx2Token, Avx512Token, ShaNiToken};

#[test]
fn names_round_trip() {
    let known = std::format!("{KNOWN_NAMES}");
    assert!(known.starts_with("portable, aesni, vaes-avx2, "), "{known}");
    for &b in &ALL {
        assert_eq!(b.name().parse::<Backend>(), Ok(b));
        assert_eq!(std::format!("{b}"), b.name());
        assert!(known.contains(b.name()));
    }
    assert_eq!("VAES-AVX2".parse::<Backend>(), Ok(Backend::VaesAvx2));
    assert_eq!("AVX512".parse::<Backend>(), Ok(Backend::Avx512));
    assert_ne!(Backend::Avx512.name(), Backend::VaesAvx512.name());
    assert_eq!(
        " nope ".parse::<Backend>(),
        Err(Error::UnknownBackendName {
            name: crate::BackendName::new("nope")
        })
    );
}

#[cfg(feature = "std")]
#[test]
fn cap_parsing() {
    let all = Features::ALL
        .iter()
        .fold(Features::NONE, |a, (f, _)| a.union(*f));
    assert_eq!(cap::parse("aesni", all), (AesNiToken::FEATURES, None));
    assert_eq!(cap::parse("portable", all), (Features::NONE, None));
    assert_eq!(
        cap::parse("aesni, sha-ni", all).0,
        AesNiToken::FEATURES.union(ShaNiToken::FEATURES)
    );
    // The AVX-512 SHA-1 backend allows everything the AVX2 one uses, not SHA-NI.
    let (f, p) = cap::parse("avx512", all);
    assert_eq!((f, p), (Avx512Token::FEATURES, None));
    assert!(f.contains(Avx2Token::FEATURES) && !f.contains(ShaNiToken::FEATURES));
    let (f, p) = cap::parse("aesni,bogus", all);
    assert_eq!(f, Features::NONE);
    assert!(p.unwrap().contains("unknown backend \"bogus\""));
    // A value that names nothing is a problem and caps nothing.
    for empty in ["", ",", " , ,", "   "] {
        let (f, p) = cap::parse(empty, all);
        assert_eq!(f, all, "{empty:?}");
        assert!(p.unwrap().contains("names no backend"), "{empty:?}");
    }
    // Empty items between names are skipped.
    assert_eq!(cap::parse("aesni,,", all), (AesNiToken::FEATURES, None));
    let (f, p) = cap::parse("vaes-avx512", AesNiToken::FEATURES);
    assert_eq!(f, AesNiToken::FEATURES);
    assert!(p.unwrap().contains("not available"));
}
