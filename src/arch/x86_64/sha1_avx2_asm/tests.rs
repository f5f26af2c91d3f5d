use super::*;
use simdcrypt_testkit::token_or_skip;

#[test]
fn compress_matches_reference() {
    let token = token_or_skip(Avx2Token::get(), &["avx2", "avx2-asm"], "AVX2+BMI1+BMI2");
    let Some(t) = token else { return };
    simdcrypt_testkit::sha1::check_compress(|s, b| compress(t, s, b));
}
