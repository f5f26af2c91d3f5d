//! Builds the hand-written assembly in `asm/` (x86-64 SysV ELF only) and, with the
//! `openssl` feature, the C shim over the system libcrypto.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_asm)");
    println!("cargo::rerun-if-changed=asm");
    println!("cargo::rerun-if-changed=shim");
    println!("cargo::rerun-if-env-changed=SIMDCRYPT_NO_ASM");

    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let no_asm =
        env::var_os("CARGO_FEATURE_NO_ASM").is_some() || env::var_os("SIMDCRYPT_NO_ASM").is_some();
    let sysv_elf = arch == "x86_64"
        && matches!(
            os.as_str(),
            "linux" | "freebsd" | "netbsd" | "openbsd" | "android"
        );

    if sysv_elf && !no_asm {
        let mut files: Vec<_> = std::fs::read_dir("asm")
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "S"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        if !files.is_empty() {
            let mut b = cc::Build::new();
            for f in &files {
                b.file(f);
            }
            b.compile("simdcrypt_asm");
            println!("cargo::rustc-cfg=simdcrypt_asm");
        }
    }

    if env::var_os("CARGO_FEATURE_OPENSSL").is_some() {
        build_openssl_shim();
    }
}

fn build_openssl_shim() {
    let header_dirs = [
        "/usr/include",
        "/usr/local/include",
        "/opt/homebrew/include",
    ];
    let found = env::var_os("OPENSSL_INCLUDE_DIR")
        .map(|d| Path::new(&d).join("openssl/evp.h").exists())
        .unwrap_or(false)
        || header_dirs
            .iter()
            .any(|d| Path::new(d).join("openssl/evp.h").exists());
    if !found {
        panic!(
            "\n\nsimdcrypt: the `openssl` feature needs OpenSSL's headers and libcrypto \
             (openssl/evp.h was not found).\nInstall them (Debian/Ubuntu: `apt-get install \
             libssl-dev`; Fedora: `dnf install openssl-devel`) or set OPENSSL_INCLUDE_DIR, \
             or build without `--features openssl`.\n\n"
        );
    }
    let mut b = cc::Build::new();
    b.file("shim/openssl_shim.c").warnings(true);
    if let Some(d) = env::var_os("OPENSSL_INCLUDE_DIR") {
        b.include(d);
    }
    b.compile("simdcrypt_openssl_shim");
    if let Some(d) = env::var_os("OPENSSL_LIB_DIR") {
        println!("cargo::rustc-link-search=native={}", d.to_string_lossy());
    }
    println!("cargo::rustc-link-lib=crypto");
}
