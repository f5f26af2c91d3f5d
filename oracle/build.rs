//! Finds OpenSSL the ecosystem's way and builds the C shim over it.
//!
//! In order: the `vendored` feature (the newest release, built from source by
//! `openssl-src`); `OPENSSL_DIR` (its `include/` and `lib/` or `lib64/`, linked statically
//! with `OPENSSL_STATIC` set); pkg-config's `libcrypto`. Where none is found the crate still
//! builds: `openssl::available()` is false, every constructor returns `None`, the OpenSSL
//! differential tests (gated on `cfg(oracle_openssl)`) are not compiled, and a warning says
//! so once.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(oracle_openssl)");
    println!("cargo::rustc-check-cfg=cfg(oracle_krb5)");
    println!("cargo::rerun-if-changed=shim");
    println!("cargo::rerun-if-changed=build.rs");
    for v in [
        "OPENSSL_DIR",
        "OPENSSL_STATIC",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
    ] {
        println!("cargo::rerun-if-env-changed={v}");
    }
    match find_openssl() {
        Some(includes) => {
            let mut b = cc::Build::new();
            b.file("shim/openssl_shim.c").warnings(true);
            for i in &includes {
                b.include(i);
            }
            b.compile("simdcrypt_openssl_shim");
            println!("cargo::rustc-cfg=oracle_openssl");
        }
        None => println!(
            "cargo::warning=OpenSSL (libcrypto and its headers) not found: the OpenSSL \
             comparisons are left out. Install libssl-dev (Debian/Ubuntu) or openssl-devel \
             (Fedora), set OPENSSL_DIR, or build with the `vendored` feature."
        ),
    }
    krb5();
}

/// MIT krb5 (libkrb5/libk5crypto) by pkg-config (`mit-krb5`, then `krb5`): the shim and
/// `cfg(oracle_krb5)` where found, one warning where not.
fn krb5() {
    let lib = ["mit-krb5", "krb5"]
        .iter()
        .find_map(|name| pkg_config::Config::new().probe(name).ok());
    match lib {
        Some(lib) => {
            let mut b = cc::Build::new();
            b.file("shim/krb5_shim.c").warnings(true);
            for i in &lib.include_paths {
                b.include(i);
            }
            b.compile("simdcrypt_krb5_shim");
            println!("cargo::rustc-cfg=oracle_krb5");
        }
        None => println!(
            "cargo::warning=MIT krb5 (libkrb5 and its headers) not found: the MIT krb5 \
             comparisons are left out. Install libkrb5-dev (Debian/Ubuntu) or krb5-devel \
             (Fedora)."
        ),
    }
}

/// Include directories of the OpenSSL found, having printed its link lines.
fn find_openssl() -> Option<Vec<PathBuf>> {
    #[cfg(feature = "vendored")]
    {
        let art = openssl_src::Build::new().build();
        art.print_cargo_metadata();
        return Some(vec![art.include_dir().to_path_buf()]);
    }
    #[allow(unreachable_code)]
    if let Some(dir) = env::var_os("OPENSSL_DIR").map(PathBuf::from) {
        let lib = ["lib64", "lib"]
            .iter()
            .map(|l| dir.join(l))
            .find(|l| l.join("libcrypto.a").exists() || l.join("libcrypto.so").exists())?;
        println!("cargo::rustc-link-search=native={}", lib.display());
        let kind = if env::var_os("OPENSSL_STATIC").is_some() {
            "static="
        } else {
            ""
        };
        println!("cargo::rustc-link-lib={kind}crypto");
        return Some(vec![dir.join("include")]);
    }
    pkg_config::Config::new()
        .probe("libcrypto")
        .ok()
        .map(|lib| lib.include_paths)
}
