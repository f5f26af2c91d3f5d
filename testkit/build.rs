//! Records the target this crate is compiled for, so that [`rerun`](src/rerun.rs) can read
//! the runner cargo was given for it (`CARGO_TARGET_<TRIPLE>_RUNNER`) at run time: cargo
//! sets `TARGET` for build scripts only.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    println!("cargo::rustc-env=SIMDCRYPT_TESTKIT_TARGET={target}");
}
