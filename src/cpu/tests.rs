//! Unit tests of `src/cpu/mod.rs` (left out of the package).

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

/// `std`'s detection reads the same capabilities (`aes` holds `pmull`).
#[cfg(all(feature = "std", simdcrypt_aarch64))]
#[test]
fn agrees_with_std_detection() {
    let f = detected();
    let aes = std::arch::is_aarch64_feature_detected!("aes");
    assert_eq!(f.contains(Features::AES), aes);
    assert_eq!(f.contains(Features::PMULL), aes);
    assert_eq!(
        f.contains(Features::SHA1),
        std::arch::is_aarch64_feature_detected!("sha2")
    );
    assert_eq!(Armv8AesToken::get().is_some(), aes);
    assert!(AesNiToken::get().is_none() && ShaNiToken::get().is_none());
}

/// Each token's `#[target_feature]` string (what its kernels are compiled with) names
/// exactly the features it proves (`/proc/cpuinfo` spells two of them otherwise).
#[test]
fn target_features_are_the_tokens_features() {
    fn spelled(f: Features) -> std::vec::Vec<&'static str> {
        let mut v: std::vec::Vec<_> = f
            .names()
            .map(|n| match n {
                "sse4_1" => "sse4.1",
                "sha_ni" => "sha",
                // Rust's AArch64 `aes` holds `pmull`, its `sha2` holds `sha1`.
                "pmull" => "aes",
                "sha1" => "sha2",
                n => n,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    for (tf, f) in [
        (AesNiToken::TARGET_FEATURES, AesNiToken::FEATURES),
        (VaesAvx2Token::TARGET_FEATURES, VaesAvx2Token::FEATURES),
        (VaesAvx512Token::TARGET_FEATURES, VaesAvx512Token::FEATURES),
        (Ssse3Token::TARGET_FEATURES, Ssse3Token::FEATURES),
        (Avx2Token::TARGET_FEATURES, Avx2Token::FEATURES),
        (Avx512Token::TARGET_FEATURES, Avx512Token::FEATURES),
        (ShaNiToken::TARGET_FEATURES, ShaNiToken::FEATURES),
        (Armv8AesToken::TARGET_FEATURES, Armv8AesToken::FEATURES),
        (Armv8Sha1Token::TARGET_FEATURES, Armv8Sha1Token::FEATURES),
    ] {
        let mut names: std::vec::Vec<&str> = tf.split(',').collect();
        names.sort_unstable();
        assert_eq!(names, spelled(f), "{tf}");
    }
}
