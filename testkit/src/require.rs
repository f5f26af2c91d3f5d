//! `SIMDCRYPT_REQUIRE` (comma-separated backend names): the backends that must be present,
//! so that a missing one fails a test rather than being skipped. Generic over the backend
//! type, since this crate does not depend on simdcrypt.

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
