//! simdcrypt's test oracles and benchmark peers: reference C implementations reached through
//! small C shims built with `cc`. Used by the OpenSSL differential tests in `tests/` here
//! and by the speed tool; never a dependency of the library, never published.
//!
//! OpenSSL is found by `build.rs` (pkg-config's `libcrypto`, `OPENSSL_DIR`, or the
//! `vendored` feature for the newest release built from source). Where it is not found the
//! crate still builds, [`openssl::available`] is false, and the differential tests are left
//! out (not compiled, so never counted as passed). MIT krb5 (`libkrb5-dev`, found by
//! pkg-config's `mit-krb5` or `krb5`) is the Kerberos reference, on the same terms
//! (`cfg(oracle_krb5)`, [`krb5::available`]).

pub mod krb5;
pub mod openssl;
