//! Unit tests of `src/arch/aarch64/sha1.rs` (left out of the package).

use super::*;

use crate::sha1::{Kernel, digest_from};
use proptest::prelude::*;
use simdcrypt_testkit::sha1::{check_compress, check_compress2, state};
use simdcrypt_testkit::strategies::message;
use simdcrypt_testkit::{Rng, token_or_skip};

/// The SHA-1 token (the kernels of `armv8-sha1` and `armv8-aes-sha1`), or `None` where the
/// CPU lacks the instructions (`token_or_skip`).
fn sha1_token() -> Option<Armv8Sha1Token> {
    token_or_skip(
        Armv8Sha1Token::get(),
        &["armv8-sha1", "armv8-aes-sha1"],
        "the ARMv8 SHA-1 instructions",
    )
}

/// One stream and two (also through the kernel value, as HMAC keying and `sha1_many`
/// call it) against the reference.
#[test]
fn one_and_two_streams_pass_the_compression_checks() {
    let Some(t) = sha1_token() else { return };
    check_compress(|s, b| compress(t, s, b));
    check_compress2(|a, b| compress2(t, a, b));
    check_compress2(|a, b| Kernel::Armv8(t).compress_pair(a, b));
}

/// The one-call digest and HMAC tag at the padding's edges (a tail of 55, 56, 63 bytes;
/// messages under 16 bytes, whose tail is read piece by piece) and after prefixes whose
/// bit count wraps.
#[test]
fn one_call_at_the_padding_edges() {
    let Some(t) = sha1_token() else { return };
    let mut rng = Rng(13);
    for len in [
        0, 1, 2, 3, 7, 8, 15, 16, 17, 20, 31, 32, 47, 48, 55, 56, 57, 63, 64, 65, 119, 120, 127,
        128, 200, 1000,
    ] {
        for prefix in [0, 64, u64::MAX - 63, 1 << 61] {
            let msg = rng.bytes(len);
            let (inner, outer) = (state(&mut rng), state(&mut rng));
            let want = digest_from(Kernel::Portable, inner, prefix, &msg);
            let got = one_call::<false>(t, &inner, &inner, prefix, &msg);
            assert_eq!(got, want, "digest of {len} bytes after {prefix}");
            let tag = one_call::<true>(t, &inner, &outer, prefix, &msg);
            let want_tag = digest_from(Kernel::Portable, outer, 64, &want);
            assert_eq!(tag, want_tag, "HMAC of {len} bytes after {prefix}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Every kernel against the portable one, on messages of 0 to 600 bytes at any offset:
    /// one stream, two streams, the one-call digest and HMAC tag.
    #[test]
    fn every_kernel_matches_the_portable_one(
        msg in message(),
        other in message(),
        off in 0usize..16,
        inner in any::<[u32; 5]>(),
        outer in any::<[u32; 5]>(),
    ) {
        let Some(t) = sha1_token() else { return Ok(()) };
        let msg = &msg[off.min(msg.len())..];
        let (b, _) = msg.as_chunks::<64>();
        let (o, _) = other.as_chunks::<64>();
        let mut s = inner;
        compress(t, &mut s, b);
        let mut want = inner;
        crate::sha1::soft::compress(&mut want, b);
        prop_assert_eq!(s, want);
        let n = b.len().min(o.len());
        let (mut x, mut y) = (inner, outer);
        compress2(t, (&mut x, &b[..n]), (&mut y, &o[..n]));
        let (mut wx, mut wy) = (inner, outer);
        crate::sha1::soft::compress(&mut wx, &b[..n]);
        crate::sha1::soft::compress(&mut wy, &o[..n]);
        prop_assert_eq!((x, y), (wx, wy));
        let digest = digest_from(Kernel::Portable, inner, 64, msg);
        prop_assert_eq!(one_call::<false>(t, &inner, &outer, 64, msg), digest);
        prop_assert_eq!(
            one_call::<true>(t, &inner, &outer, 64, msg),
            digest_from(Kernel::Portable, outer, 64, &digest)
        );
    }
}
