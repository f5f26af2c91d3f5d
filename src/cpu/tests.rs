//! Unit tests of `cpu/mod.rs` (a file of their own, left out of the package).

use super::*;

#[test]
fn cached_value_is_stable() {
    assert_eq!(detected(), detected());
    assert_eq!(CACHE.load(Ordering::Relaxed) & DETECTED, DETECTED);
}

#[test]
fn tokens_imply_their_subsets() {
    if VaesAvx512Token::get().is_some() {
        assert!(VaesAvx2Token::get().is_some());
    }
    if VaesAvx2Token::get().is_some() {
        assert!(AesNiToken::get().is_some());
    }
    if Avx2Token::get().is_some() {
        assert!(Ssse3Token::get().is_some());
    }
    if Avx512Token::get().is_some() {
        assert!(Avx2Token::get().is_some());
    }
    assert!(Avx512Token::FEATURES.contains(Avx2Token::FEATURES));
}

/// `std`'s detection is right for these (it checks XCR0 for the AVX family too).
#[cfg(all(feature = "std", simdcrypt_x86_64))]
#[test]
fn agrees_with_std_detection() {
    let f = detected();
    assert_eq!(
        f.contains(Features::AES),
        std::is_x86_feature_detected!("aes")
    );
    assert_eq!(
        f.contains(Features::PCLMULQDQ),
        std::is_x86_feature_detected!("pclmulqdq")
    );
    assert_eq!(
        f.contains(Features::SSSE3),
        std::is_x86_feature_detected!("ssse3")
    );
    assert_eq!(
        f.contains(Features::SSE41),
        std::is_x86_feature_detected!("sse4.1")
    );
    assert_eq!(
        f.contains(Features::AVX),
        std::is_x86_feature_detected!("avx")
    );
    assert_eq!(
        f.contains(Features::AVX2),
        std::is_x86_feature_detected!("avx2")
    );
    assert_eq!(
        f.contains(Features::BMI1),
        std::is_x86_feature_detected!("bmi1")
    );
    assert_eq!(
        f.contains(Features::BMI2),
        std::is_x86_feature_detected!("bmi2")
    );
    assert_eq!(
        f.contains(Features::SHA),
        std::is_x86_feature_detected!("sha")
    );
    assert_eq!(
        f.contains(Features::VAES),
        std::is_x86_feature_detected!("vaes")
    );
    assert_eq!(
        f.contains(Features::VPCLMULQDQ),
        std::is_x86_feature_detected!("vpclmulqdq")
    );
    assert_eq!(
        f.contains(Features::AVX512F),
        std::is_x86_feature_detected!("avx512f")
    );
    assert_eq!(
        f.contains(Features::AVX512BW),
        std::is_x86_feature_detected!("avx512bw")
    );
    assert_eq!(
        f.contains(Features::AVX512VL),
        std::is_x86_feature_detected!("avx512vl")
    );
}
