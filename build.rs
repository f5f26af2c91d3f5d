//! Sets the one cfg that gates every piece of architecture-specific code, and builds the
//! hand-written assembly in `asm/`.
//!
//! - `simdcrypt_x86_64`: the target is x86-64 with 64-bit pointers and the `pure` feature is
//!   off. Every intrinsic kernel, capability token, dispatch arm, test and bench that only
//!   exists on x86-64 is gated on this cfg and on nothing else, so `--features pure` on
//!   x86-64 compiles exactly what an aarch64, riscv64 or 32-bit x86 target compiles: the
//!   portable backends.
//! - `simdcrypt_asm`: `simdcrypt_x86_64`, a SysV ELF target, the `asm` feature on, `no-asm`
//!   off and `SIMDCRYPT_NO_ASM` unset: the assembly in `asm/` is built (with `cc`, a build
//!   dependency of the `asm` feature alone) and linked. x32 (x86-64 with
//!   32-bit pointers) gets neither cfg: the assembly assumes 64-bit pointers.
//! - The stack wipe's build class (`src/wipe/`, docs/design.md "Stack and register
//!   wipes"), from the profile's opt-level: `simdcrypt_wipe_site` at 2 and 3 (each call site
//!   wipes its measured depth; `simdcrypt_wipe_opt2` picks the depths measured at 2),
//!   `simdcrypt_wipe_unoptimised` at 0 (one deep class-wide
//!   depth), neither at 1, `s` and `z` (a shallower class-wide depth). Targets whose
//!   frames the leak tests do not measure get a warning.
//!
//! The assembly's symbols and static library carry the crate version, so that two
//! semver-incompatible versions of the crate in one binary neither clash nor bind to each
//! other's code: the prefix (`simdcrypt_0_1_0_` for 0.1.0) goes to the preprocessor as
//! `SIMDCRYPT_PREFIX` (`asm/simdcrypt_asm.h` names every symbol through it) and to the
//! Rust side as the environment variable `SIMDCRYPT_ASM_PREFIX` (the `link_name` of each
//! extern declaration). The library is `<prefix>asm`, which is also the package's `links`
//! key; the build fails if the two drift apart, so a version bump updates both.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_x86_64)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_asm)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_neon_check)");
    println!("cargo::rustc-check-cfg=cfg(docsrs)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_wipe_site)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_wipe_unoptimised)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_wipe_opt2)");
    println!("cargo::rerun-if-changed=asm");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=SIMDCRYPT_NO_ASM");

    let var = |k: &str| env::var(k).unwrap_or_default();

    // Every character of the version that cannot be in a symbol (`.`, `-`, `+`) becomes `_`.
    let prefix: String = format!("simdcrypt_{}_", var("CARGO_PKG_VERSION"))
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let lib = format!("{prefix}asm");
    let links = var("CARGO_MANIFEST_LINKS");
    assert_eq!(
        links, lib,
        "Cargo.toml's `links` must be \"{lib}\" (the assembly library of this version)"
    );
    println!("cargo::rustc-env=SIMDCRYPT_ASM_PREFIX={prefix}");
    let feature = |name: &str| env::var_os(format!("CARGO_FEATURE_{name}")).is_some();

    wipe_class(&var);

    let x86_64 = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_POINTER_WIDTH") == "64"
        && !feature("PURE");
    if !x86_64 {
        return;
    }
    println!("cargo::rustc-cfg=simdcrypt_x86_64");

    let sysv_elf = matches!(
        var("CARGO_CFG_TARGET_OS").as_str(),
        "linux" | "freebsd" | "netbsd" | "openbsd" | "android" | "dragonfly"
    );
    let no_asm = feature("NO_ASM") || env::var_os("SIMDCRYPT_NO_ASM").is_some();
    if !sysv_elf || no_asm {
        return;
    }
    assemble(&prefix, &lib);
}

/// Builds every `asm/*.S` into the static library `lib` and sets `simdcrypt_asm` (the `asm`
/// feature: `cc` is a build dependency only with it).
#[cfg(feature = "asm")]
fn assemble(prefix: &str, lib: &str) {
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
        b.define("SIMDCRYPT_PREFIX", prefix);
        for f in &files {
            b.file(f);
        }
        b.compile(lib);
        println!("cargo::rustc-cfg=simdcrypt_asm");
    }
}

/// Without the `asm` feature there is no `cc`, and nothing to build.
#[cfg(not(feature = "asm"))]
fn assemble(_: &str, _: &str) {}

/// Sets the stack wipe's build class, and warns where the leak tests do not measure it.
fn wipe_class(var: &dyn Fn(&str) -> String) {
    match var("OPT_LEVEL").as_str() {
        "3" => println!("cargo::rustc-cfg=simdcrypt_wipe_site"),
        "2" => {
            println!("cargo::rustc-cfg=simdcrypt_wipe_site");
            println!("cargo::rustc-cfg=simdcrypt_wipe_opt2");
        }
        "0" => println!("cargo::rustc-cfg=simdcrypt_wipe_unoptimised"),
        _ => {}
    }
    let measured = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_POINTER_WIDTH") == "64";
    if !measured {
        println!(
            "cargo::warning=simdcrypt: the stack wipe's depths are measured on x86-64 Linux; \
             on this target ({}-{}) they are not, and key material may outlive a call on \
             the stack (README.md, Security)",
            var("CARGO_CFG_TARGET_ARCH"),
            var("CARGO_CFG_TARGET_OS"),
        );
    }
}
