//! `SIMDCRYPT_REQUIRE` (comma-separated backend names): the backends that must be present,
//! so that a missing one fails a test rather than being skipped. Generic over the backend
//! and CPU token types, since this crate does not depend on simdcrypt.

use std::fmt::{Debug, Display};
use std::str::FromStr;

/// The backends `SIMDCRYPT_REQUIRE` names; panics on a name `B` does not parse.
pub fn required<B: FromStr>() -> Vec<B> {
    std::env::var("SIMDCRYPT_REQUIRE")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<B>()
                .unwrap_or_else(|_| panic!("SIMDCRYPT_REQUIRE names an unknown backend {s:?}"))
        })
        .collect()
}

/// The backends to test an algorithm on: every one it reports `available`, of which
/// `last` (the portable one) must be the last. Fails (does not skip) when
/// `SIMDCRYPT_REQUIRE` names a backend the algorithm implements but that is missing from
/// `available`.
pub fn backends_under_test<B: FromStr + PartialEq + Debug + Display>(
    algorithm: &str,
    implemented: &[B],
    available: impl IntoIterator<Item = B>,
    last: B,
) -> Vec<B> {
    let available: Vec<B> = available.into_iter().collect();
    assert_eq!(
        available.last(),
        Some(&last),
        "{algorithm}: {last} must be last"
    );
    for r in required::<B>() {
        if implemented.contains(&r) {
            assert!(
                available.contains(&r),
                "{algorithm}: SIMDCRYPT_REQUIRE names {r}, but it is not available (have {available:?})"
            );
        }
    }
    eprintln!("{algorithm}: testing backends {available:?}");
    available
}

/// `token` (a CPU feature token, `Some` where the CPU has the features) unchanged. Where it
/// is `None`, says so on stderr and returns `None` for the unit test to skip its kernel,
/// unless `SIMDCRYPT_REQUIRE` names one of `backends`: then the test fails rather than
/// skips.
pub fn token_or_skip<T>(token: Option<T>, backends: &[&str], what: &str) -> Option<T> {
    if token.is_none() {
        let req = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
        assert!(
            !req.split(',').any(|r| backends.contains(&r.trim())),
            "SIMDCRYPT_REQUIRE names {backends:?} but this CPU lacks {what}"
        );
        eprintln!("{what}: not on this CPU, not tested here");
    }
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_or_skip_passes_the_token_through() {
        assert_eq!(token_or_skip(Some(7u8), &["x"], "X"), Some(7));
        // No backend named: nothing `SIMDCRYPT_REQUIRE` says can fail it.
        assert_eq!(token_or_skip(None::<u8>, &[], "X"), None);
    }
}
