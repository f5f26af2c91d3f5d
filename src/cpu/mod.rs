//! CPU feature detection and capability tokens.
//!
//! This is the only module that executes `cpuid` or `xgetbv` (x86-64) or reads the
//! kernel's hardware capabilities (AArch64: `HWCAP` on Linux, `sysctl` on macOS, through
//! `std`'s detection; without `std`, the features the build targets). Detection runs once; the
//! result is cached in an atomic, so a later query is one relaxed load.
//!
//! A *capability token* is a zero-sized type that only this module can construct, and only
//! after detection has found every instruction set extension (and the OS register state)
//! that the token stands for. A kernel compiled with `#[target_feature]` takes the token as
//! an argument, so every `unsafe` call into such a kernel has one justification: the token
//! exists, therefore the CPU runs these instructions.
//!
//! `vaes` and `vpclmulqdq` are read here from CPUID leaf 7 and XCR0 directly: `cpufeatures`
//! 0.3 reports them absent on CPUs without AVX-512 (AMD Zen 3, Intel Alder Lake), where the
//! 256-bit forms exist and work.
//!
//! ```
//! use simdcrypt::cpu::{self, AesNiToken, Features};
//! let f = cpu::detected();
//! println!("usable here: {f}");
//! assert_eq!(AesNiToken::get().is_some(), f.contains(AesNiToken::FEATURES));
//! assert!(AesNiToken::FEATURES.contains(Features::AES.union(Features::PCLMULQDQ)));
//! ```

use core::sync::atomic::{AtomicU32, Ordering};

/// The feature set and the CPU's signature: plain data, a leaf that the architecture's
/// detection fills in.
pub(crate) mod features;
pub use features::{Features, Signature, Vendor};

/// Marks the cached word as filled in.
const DETECTED: u32 = 1 << 31;

static CACHE: AtomicU32 = AtomicU32::new(0);

/// The features this CPU has and the OS has enabled. Detected on the first call, cached.
#[inline]
pub fn detected() -> Features {
    let v = CACHE.load(Ordering::Relaxed);
    if v & DETECTED != 0 {
        return Features(v & !DETECTED);
    }
    detect_and_cache()
}

#[cold]
fn detect_and_cache() -> Features {
    let f = probe();
    CACHE.store(f.0 | DETECTED, Ordering::Relaxed);
    f
}

#[cfg(simdcrypt_aarch64)]
use crate::arch::aarch64::detect::probe;
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::cpuid::{probe, read_signature};

#[cfg(not(any(simdcrypt_x86_64, simdcrypt_aarch64)))]
fn probe() -> Features {
    Features::NONE
}

/// This CPU's vendor, family, model and stepping; `None` without the architecture code
/// (non-x86-64 targets, the `pure` feature). Read with CPUID each call (it is not cached:
/// the dispatch reads it once per algorithm and caches its choice).
#[must_use]
pub fn signature() -> Option<Signature> {
    read_signature()
}

#[cfg(not(simdcrypt_x86_64))]
fn read_signature() -> Option<Signature> {
    None
}

macro_rules! tokens {
    ($d:tt $($(#[$doc:meta])* $arch:ident $name:ident = [$($feat:ident),*] $tf:literal;)*) => {
        /// `#[target_feature]` with the features of the token named, on the item after it:
        /// `target_features!(AesNiToken, unsafe fn entry(...) {...})`. The strings are the
        /// tokens' own (written beside each token below), so an entry that takes a token is
        /// compiled for exactly what the token proves.
        #[allow(unused_macros)]
        macro_rules! target_features {
            $(($name, $d($d item:tt)*) => { #[target_feature(enable = $tf)] $d($d item)* };)*
        }
        #[allow(unused_imports)]
        pub(crate) use target_features;

        $(
            $(#[$doc])*
            ///
            /// Only detection can make one: holding it proves the CPU runs its instructions.
            ///
            /// ```
            #[doc = concat!("use simdcrypt::cpu::", stringify!($name), ";")]
            /// // Code that may only run where the instructions exist takes the token as proof.
            #[doc = concat!("fn kernel(_proof: ", stringify!($name), ", data: &mut [u8]) {")]
            ///     data.reverse();
            /// }
            /// let mut data = [1, 2, 3];
            #[doc = concat!("if let Some(token) = ", stringify!($name), "::get() {")]
            ///     kernel(token, &mut data);
            ///     assert_eq!(data, [3, 2, 1]);
            /// }
            /// ```
            ///
            /// Nothing outside detection can make one:
            ///
            /// ```compile_fail,E0423
            #[doc = concat!("let forged = simdcrypt::cpu::", stringify!($name), "(());")]
            /// ```
            #[derive(Clone, Copy, Debug)]
            pub struct $name(());

            impl $name {
                /// The features this token stands for.
                pub const FEATURES: Features = Features(0 $(| Features::$feat.0)*);

                /// The features as `#[target_feature]` spells them (what the kernels that
                /// take this token are compiled with).
                #[cfg_attr(not(test), allow(dead_code))]
                pub(crate) const TARGET_FEATURES: &'static str = $tf;

                /// The token, if this CPU has every feature it stands for.
                #[inline]
                pub fn get() -> Option<Self> {
                    if tokens!(@arch $arch) && detected().contains(Self::FEATURES) {
                        Some($name(()))
                    } else {
                        None
                    }
                }
            }
        )*
    };
    (@arch x86_64) => { cfg!(simdcrypt_x86_64) };
    (@arch aarch64) => { cfg!(simdcrypt_aarch64) };
}

tokens! { $
    /// AES-NI with PCLMULQDQ and SSE up to 4.1 (128-bit `aesenc`, `pclmulqdq`, `pshufb`).
    x86_64 AesNiToken = [AES, PCLMULQDQ, SSSE3, SSE41] "aes,pclmulqdq,ssse3,sse4.1";
    /// 256-bit VAES and VPCLMULQDQ on AVX2 (plus everything in [`AesNiToken`]).
    x86_64 VaesAvx2Token = [AES, PCLMULQDQ, SSSE3, SSE41, AVX, AVX2, VAES, VPCLMULQDQ]
        "aes,pclmulqdq,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq";
    /// 512-bit VAES and VPCLMULQDQ on AVX-512 F/BW/VL (plus everything in [`VaesAvx2Token`]).
    x86_64 VaesAvx512Token = [AES, PCLMULQDQ, SSSE3, SSE41, AVX, AVX2, VAES, VPCLMULQDQ, AVX512F, AVX512BW, AVX512VL]
        "aes,pclmulqdq,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl";
    /// SSSE3 (for SIMD message schedules).
    x86_64 Ssse3Token = [SSSE3] "ssse3";
    /// AVX2 with BMI1 and BMI2 (`rorx`, `andn`).
    x86_64 Avx2Token = [SSSE3, AVX, AVX2, BMI1, BMI2] "ssse3,avx,avx2,bmi1,bmi2";
    /// AVX-512 F/BW/VL on top of everything in [`Avx2Token`] (`vprold`, `vpternlogd` on
    /// 256- and 512-bit registers, for SIMD message schedules and multi-lane hashing).
    x86_64 Avx512Token = [SSSE3, AVX, AVX2, BMI1, BMI2, AVX512F, AVX512BW, AVX512VL]
        "ssse3,avx,avx2,bmi1,bmi2,avx512f,avx512bw,avx512vl";
    /// The SHA extensions (`sha1rnds4`, `sha1msg1`, ...) with SSE up to 4.1.
    x86_64 ShaNiToken = [SHA, SSSE3, SSE41] "sha,ssse3,sse4.1";
    /// The ARMv8 Cryptography Extension's AES instructions (`AESE`, `AESMC`, `AESD`,
    /// `AESIMC`) and 64-bit polynomial multiplication (`PMULL`), on the NEON registers.
    aarch64 Armv8AesToken = [AES, PMULL] "aes";
    /// The ARMv8 Cryptography Extension's SHA-1 instructions (`SHA1C`, `SHA1P`, `SHA1M`,
    /// `SHA1H`, `SHA1SU0`, `SHA1SU1`; Rust's `sha2` target feature holds them).
    aarch64 Armv8Sha1Token = [SHA1] "sha2";
}

impl VaesAvx512Token {
    /// The narrower token that this one implies.
    #[inline]
    pub fn vaes_avx2(self) -> VaesAvx2Token {
        VaesAvx2Token(())
    }
}

impl Avx512Token {
    /// The narrower token that this one implies.
    #[inline]
    pub fn avx2(self) -> Avx2Token {
        Avx2Token(())
    }
}

impl VaesAvx2Token {
    /// The narrower token that this one implies.
    #[inline]
    pub fn aesni(self) -> AesNiToken {
        AesNiToken(())
    }
}

#[cfg(test)]
mod tests;
