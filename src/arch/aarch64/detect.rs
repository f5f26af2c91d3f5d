//! AArch64 feature detection: the Cryptography Extension's AES (with `PMULL`) and SHA-1
//! instructions, from the kernel's hardware capabilities as `std` reads them (`HWCAP` and
//! `HWCAP2` on Linux and Android, `sysctl` on macOS and iOS). Without `std` only what the
//! build targets counts (`-C target-feature=+aes`, or a target with it on, such as
//! `aarch64-apple-darwin`).

use crate::cpu::features::Features;

/// The features this CPU has, as [`crate::cpu::detected`] caches them.
pub(crate) fn probe() -> Features {
    let (aes, sha1) = have();
    let mut f = Features::NONE;
    if aes {
        f = f.union(Features::AES).union(Features::PMULL);
    }
    if sha1 {
        f = f.union(Features::SHA1);
    }
    f
}

/// (`aes` with `pmull`, `sha1`): `std`'s `aes` is `AES` and `PMULL` together, its `sha2`
/// the SHA-1 and SHA-256 instructions together (as Rust's target features group them).
#[cfg(feature = "std")]
fn have() -> (bool, bool) {
    (
        std::arch::is_aarch64_feature_detected!("aes"),
        std::arch::is_aarch64_feature_detected!("sha2"),
    )
}

#[cfg(not(feature = "std"))]
fn have() -> (bool, bool) {
    (cfg!(target_feature = "aes"), cfg!(target_feature = "sha2"))
}
