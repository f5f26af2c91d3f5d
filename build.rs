//! Sets the one cfg that gates every piece of architecture-specific code, and builds the
//! hand-written assembly in `asm/`.
//!
//! - `simdcrypt_x86_64`: the target is x86-64 with 64-bit pointers and the `pure` feature is
//!   off. Every intrinsic kernel, capability token, dispatch arm, test and bench that only
//!   exists on x86-64 is gated on this cfg and on nothing else, so `--features pure` on
//!   x86-64 compiles exactly what an aarch64, riscv64 or 32-bit x86 target compiles: the
//!   portable backends.
//! - `simdcrypt_aarch64`: the target is little-endian AArch64 and `pure` is off: the
//!   ARMv8 Cryptography Extension backends (`src/arch/aarch64`), detected at run time.
//! - `simdcrypt_asm`: `simdcrypt_x86_64`, a SysV ELF target, the `asm` feature on, `no-asm`
//!   off and `SIMDCRYPT_NO_ASM` unset: the assembly in `asm/` is built (with `cc`, a build
//!   dependency of the `asm` feature alone) and linked. x32 (x86-64 with
//!   32-bit pointers) gets neither cfg: the assembly assumes 64-bit pointers.
//! - `simdcrypt_opt_level`: the optimisation level this crate is compiled at ("0", "1", "2",
//!   "3", "s" or "z"): cargo's profile (`OPT_LEVEL`) unless `RUSTFLAGS` sets one, where the
//!   last `-C opt-level` (or `-O`) wins, as in rustc: the column of each stack wipe's
//!   depth table (`src/wipe/`), and at "0" `simdcrypt_unoptimised` (the kernels' helpers
//!   not forced inline; docs/design.md, "Stack and register wipes"). Targets whose frames
//!   the leak tests do not measure get a warning.
//! - `simdcrypt_sp`, with `simdcrypt_sp_x86_64` or `simdcrypt_sp_aarch64`: the target is
//!   x86-64 or AArch64 with 64-bit pointers, whatever `pure` says. The leak tests read the
//!   stack pointer there with one instruction (`src/arch/stack.rs`), in `pure` builds too,
//!   and measure the wipes' depths; elsewhere they take a local's address and skip the
//!   depth checks. (Only test code reads these cfgs.)
//!
//! The assembly's symbols and static library carry the crate version (`asm/simdcrypt_asm.h`
//! says why): the prefix (`simdcrypt_0_1_0_` for 0.1.0) goes to the preprocessor as
//! `SIMDCRYPT_PREFIX` and to the Rust side as the environment variable
//! `SIMDCRYPT_ASM_PREFIX` (the `link_name` of each extern declaration). The library is
//! `<prefix>asm`, which is also the package's `links` key; the build fails if the two drift
//! apart, so a version bump updates both.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_x86_64)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_asm)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_aarch64)");
    println!("cargo::rustc-check-cfg=cfg(docsrs)");
    println!(
        "cargo::rustc-check-cfg=cfg(simdcrypt_opt_level, values(\"0\", \"1\", \"2\", \"3\", \"s\", \"z\"))"
    );
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_unoptimised)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_sp)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_sp_x86_64)");
    println!("cargo::rustc-check-cfg=cfg(simdcrypt_sp_aarch64)");
    println!("cargo::rerun-if-changed=asm");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=SIMDCRYPT_NO_ASM");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");

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

    let arch = var("CARGO_CFG_TARGET_ARCH");
    let pure = feature("PURE");
    if arch == "aarch64" && var("CARGO_CFG_TARGET_ENDIAN") == "little" && !pure {
        println!("cargo::rustc-cfg=simdcrypt_aarch64");
        return;
    }
    let x86_64 = arch == "x86_64" && var("CARGO_CFG_TARGET_POINTER_WIDTH") == "64" && !pure;
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

/// Sets `simdcrypt_opt_level` (and `simdcrypt_unoptimised` at "0"), and warns where the
/// leak tests do not measure the wipes' depths.
fn wipe_class(var: &dyn Fn(&str) -> String) {
    let level = opt_level(&var("OPT_LEVEL"), &var("CARGO_ENCODED_RUSTFLAGS"));
    println!("cargo::rustc-cfg=simdcrypt_opt_level=\"{level}\"");
    if level == "0" {
        println!("cargo::rustc-cfg=simdcrypt_unoptimised");
    }
    let arch = var("CARGO_CFG_TARGET_ARCH");
    let bits64 = var("CARGO_CFG_TARGET_POINTER_WIDTH") == "64";
    if bits64 && matches!(arch.as_str(), "x86_64" | "aarch64") {
        println!("cargo::rustc-cfg=simdcrypt_sp");
        println!("cargo::rustc-cfg=simdcrypt_sp_{arch}");
    }
    let measured = matches!(arch.as_str(), "x86_64" | "aarch64")
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && bits64;
    if !measured {
        println!(
            "cargo::warning=simdcrypt: the stack wipe's depths are measured on x86-64 and AArch64 Linux; \
             on this target ({}-{}) they are not, and key material may outlive a call on \
             the stack (README.md, Security)",
            var("CARGO_CFG_TARGET_ARCH"),
            var("CARGO_CFG_TARGET_OS"),
        );
    }
}

/// The level rustc compiles this crate at: `profile` (cargo's `OPT_LEVEL`), unless the
/// flags (`CARGO_ENCODED_RUSTFLAGS`: `RUSTFLAGS` or `build.rustflags`, split by 0x1f) set
/// one, where the last `-C opt-level=N` (`-Copt-level=N`, `--codegen opt-level=N`) or `-O`
/// (opt-level 3) wins, as in rustc. (A level rustc does not know fails the build there;
/// here it counts as 3.)
fn opt_level(profile: &str, encoded_flags: &str) -> String {
    let mut level = profile.to_owned();
    let mut args = encoded_flags.split('\x1f');
    while let Some(arg) = args.next() {
        let codegen = match arg {
            "-O" => {
                level = "3".to_owned();
                continue;
            }
            "-C" | "--codegen" => args.next().unwrap_or_default(),
            _ => match arg.strip_prefix("--codegen=").or(arg.strip_prefix("-C")) {
                Some(c) => c,
                None => continue,
            },
        };
        if let Some(v) = codegen.strip_prefix("opt-level=") {
            level = v.to_owned();
        }
    }
    match level.as_str() {
        "0" | "1" | "2" | "3" | "s" | "z" => level,
        _ => "3".to_owned(),
    }
}
