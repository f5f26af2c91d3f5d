//! Provenance for the records: the git commit (when built from a checkout), rustc's
//! version, the target and its features compiled in, and the peers' crate versions from
//! the workspace's Cargo.lock. Every step tolerates its source being absent.

use std::env;
use std::path::Path;
use std::process::Command;

/// The crates whose versions the records name (the peers and what builds them).
const PEER_CRATES: &[&str] = &[
    "aes",
    "xts-mode",
    "cbc",
    "sha1",
    "hmac",
    "pbkdf2",
    "sha1dc",
    "sha1collisiondetection",
    "aws-lc-rs",
    "aws-lc-sys",
    "openssl-src",
];

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !s.trim().is_empty()).then(|| s.trim().to_string())
}

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let git = |args: &[&str]| output(Command::new("git").args(args).current_dir(&dir));
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_default();
    println!("cargo::rustc-env=SPEED_GIT_COMMIT={commit}");
    // Rebuild when HEAD moves (a commit appends to logs/HEAD; a checkout rewrites HEAD).
    if let Some(gd) = git(&["rev-parse", "--absolute-git-dir"]) {
        for f in ["HEAD", "logs/HEAD"] {
            let p = Path::new(&gd).join(f);
            if p.exists() {
                println!("cargo::rerun-if-changed={}", p.display());
            }
        }
    }

    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(Command::new(rustc).arg("--version")).unwrap_or_default();
    println!("cargo::rustc-env=SPEED_RUSTC={version}");
    let target = env::var("TARGET").unwrap_or_default();
    println!("cargo::rustc-env=SPEED_TARGET={target}");
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    println!("cargo::rustc-env=SPEED_TARGET_FEATURES={features}");
    let profile = env::var("PROFILE").unwrap_or_default();
    let opt = env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo::rustc-env=SPEED_PROFILE={profile} (opt-level {opt})");

    // Cargo.lock: `name = "aes"` is followed by `version = "0.9.0"` in each [[package]].
    let lock = Path::new(&dir).join("../Cargo.lock");
    println!("cargo::rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut versions = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .strip_prefix("name = \"")
            .and_then(|r| r.strip_suffix('"'))
        else {
            continue;
        };
        if !PEER_CRATES.contains(&name) {
            continue;
        }
        let version = lines
            .next()
            .and_then(|l| l.strip_prefix("version = \""))
            .and_then(|r| r.strip_suffix('"'));
        if let Some(v) = version {
            versions.push(format!("{name}={v}"));
        }
    }
    println!(
        "cargo::rustc-env=SPEED_CRATE_VERSIONS={}",
        versions.join(",")
    );
    println!("cargo::rerun-if-changed=build.rs");
}
