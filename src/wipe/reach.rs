//! How far each wipe reaches (a site's measured depth by optimisation level, and the
//! margin) and, in test builds, the dry runs that measure it (`src/wipe/reach/dry.rs`): a
//! leaf of `crate::wipe`, which its x86-64 assembly (`src/arch/x86_64/wipe.rs`) reads too.

/// How far a call site's wipe reaches in this build, in bytes: the deepest its kernels
/// wrote below it in builds at this build's optimisation level (`by_level`, measured by
/// the leak tests and written into the site by `.ci/wipe-depths`), and a [`margin`].
///
/// `by_level`'s columns, in order, are the levels of [`LEVEL`]: opt-level 3 (the release
/// profile, other codegen-unit counts, fat LTO, `-C target-cpu=native`, frame pointers),
/// opt-level 3 with debug assertions (this crate's test profile), 2, 1, `s` and `z`
/// (one column), and 0. Each is the deepest over the builds of its level that CI makes
/// (with and without debug assertions, frame pointers or `target-cpu=native`).
/// The result is a whole number of 16-byte chunks.
pub(crate) const fn depth(by_level: [usize; 6]) -> usize {
    let bytes = by_level[LEVEL].div_ceil(16) * 16;
    bytes + margin(bytes)
}

/// The column of a depth table ([`depth`]) that this build's wipes read: its optimisation
/// level (`simdcrypt_opt_level`, set by `build.rs` from the profile and `RUSTFLAGS`).
pub(crate) const LEVEL: usize = if cfg!(simdcrypt_opt_level = "2") {
    2
} else if cfg!(simdcrypt_opt_level = "1") {
    3
} else if cfg!(any(simdcrypt_opt_level = "s", simdcrypt_opt_level = "z")) {
    4
} else if cfg!(simdcrypt_opt_level = "0") {
    5
} else if cfg!(debug_assertions) {
    1
} else {
    0
};

/// Bytes a call site's wipe adds to its measured depth `bytes`: room for frames a little
/// deeper than any measured (other compilers, flags that no CI build sets): an eighth,
/// rounded up to 32, and 32 more.
pub(crate) const fn margin(bytes: usize) -> usize {
    (bytes / 8).div_ceil(32) * 32 + 32
}

/// The stack pointer where this is inlined (`crate::arch::stack`).
#[cfg(test)]
pub(crate) use crate::arch::stack::pointer as stack_pointer;

#[cfg(test)]
mod dry;
#[cfg(test)]
pub(crate) use dry::dry_run;
#[cfg(all(test, feature = "std"))]
pub(crate) use dry::repaint;
#[cfg(all(test, feature = "std"))]
pub(crate) use dry::{DRY, LOWEST, PAINT, PAINTED, REACH, SITES};
