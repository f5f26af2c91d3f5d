//! CPU feature detection and capability tokens.
//!
//! This is the only module that executes `cpuid` or `xgetbv`. Detection runs once; the
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

/// A set of CPU features, as detected (and usable: the OS saves the registers they need).
///
/// ```
/// use simdcrypt::cpu::Features;
/// let aes_ni = Features::AES.union(Features::PCLMULQDQ);
/// assert_eq!(aes_ni.to_string(), "aes pclmulqdq");
/// assert_eq!(format!("{aes_ni:?}"), r#"["aes", "pclmulqdq"]"#);
/// assert!(aes_ni.contains(Features::AES) && !aes_ni.contains(Features::SHA));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features(u32);

macro_rules! features {
    ($($name:ident = $bit:expr, $text:expr;)*) => {
        impl Features {
            $(
                #[doc = concat!("The `", $text, "` extension.")]
                ///
                /// ```
                /// use simdcrypt::cpu::Features;
                #[doc = concat!("let f = Features::", stringify!($name), ";")]
                #[doc = concat!("assert!(f.names().eq([\"", $text, "\"]));")]
                /// assert!(Features::NONE.union(f).contains(f));
                /// ```
                pub const $name: Features = Features(1 << $bit);
            )*
            /// Every feature with its `/proc/cpuinfo` name, in bit order.
            ///
            /// ```
            /// use simdcrypt::cpu::Features;
            /// assert_eq!(Features::ALL[0], (Features::AES, "aes"));
            /// let every = Features::ALL.iter().fold(Features::NONE, |a, &(f, _)| a.union(f));
            /// assert_eq!(every.names().count(), Features::ALL.len());
            /// assert!(every.contains(simdcrypt::cpu::detected()));
            /// ```
            pub const ALL: &'static [(Features, &'static str)] = &[$((Features::$name, $text)),*];
        }
    };
}

features! {
    AES = 0, "aes";
    PCLMULQDQ = 1, "pclmulqdq";
    SSSE3 = 2, "ssse3";
    SSE41 = 3, "sse4_1";
    AVX = 4, "avx";
    AVX2 = 5, "avx2";
    BMI1 = 6, "bmi1";
    BMI2 = 7, "bmi2";
    SHA = 8, "sha_ni";
    VAES = 9, "vaes";
    VPCLMULQDQ = 10, "vpclmulqdq";
    AVX512F = 11, "avx512f";
    AVX512BW = 12, "avx512bw";
    AVX512VL = 13, "avx512vl";
}

/// Marks the cached word as filled in.
const DETECTED: u32 = 1 << 31;

impl Features {
    /// No features at all.
    ///
    /// ```
    /// use simdcrypt::{Backend, cpu::Features};
    /// assert_eq!(Features::NONE.names().count(), 0);
    /// assert!(Features::AES.contains(Features::NONE));
    /// assert_eq!(Backend::Portable.required_features(), Features::NONE);
    /// ```
    pub const NONE: Features = Features(0);

    /// The union of two sets.
    ///
    /// ```
    /// use simdcrypt::cpu::Features;
    /// let f = Features::SSSE3.union(Features::AVX2);
    /// assert!(f.contains(Features::SSSE3) && f.contains(Features::AVX2));
    /// assert_eq!(f.to_string(), "ssse3 avx2");
    /// ```
    #[must_use]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// The features in both sets.
    ///
    /// ```
    /// use simdcrypt::cpu::Features;
    /// let a = Features::AES.union(Features::SSSE3);
    /// let b = Features::SSSE3.union(Features::SHA);
    /// assert_eq!(a.intersect(b), Features::SSSE3);
    /// assert_eq!(Features::AES.intersect(Features::SHA), Features::NONE);
    /// ```
    #[must_use]
    pub const fn intersect(self, other: Features) -> Features {
        Features(self.0 & other.0)
    }

    /// Whether every feature of `other` is in `self`.
    ///
    /// ```
    /// use simdcrypt::cpu::Features;
    /// let f = Features::AES.union(Features::PCLMULQDQ);
    /// assert!(f.contains(Features::AES));
    /// assert!(f.contains(f));
    /// assert!(!f.contains(Features::AES.union(Features::VAES)));
    /// ```
    #[must_use]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the features in the set, `/proc/cpuinfo` style.
    ///
    /// ```
    /// use simdcrypt::cpu::Features;
    /// let f = Features::SHA.union(Features::SSE41);
    /// assert_eq!(f.names().collect::<Vec<_>>(), ["sse4_1", "sha_ni"]); // bit order
    /// ```
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Features::ALL
            .iter()
            .filter(move |(f, _)| self.contains(*f))
            .map(|(_, n)| *n)
    }
}

impl core::fmt::Debug for Features {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl core::fmt::Display for Features {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut first = true;
        for n in self.names() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            f.write_str(n)?;
        }
        Ok(())
    }
}

static CACHE: AtomicU32 = AtomicU32::new(0);

/// The features this CPU has and the OS has enabled. Detected on the first call, cached.
///
/// ```
/// use simdcrypt::cpu::{Features, detected};
/// let f = detected();
/// assert_eq!(f, detected());
/// // Without the SIMD backends compiled in (non-x86-64 targets, the `pure` feature) no
/// // feature is reported, so no token can be had.
/// if f == Features::NONE {
///     assert!(simdcrypt::cpu::AesNiToken::get().is_none());
/// }
/// println!("{f}");
/// ```
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

/// CPUID and XCR0: `probe` and `read_signature` on x86-64.
#[cfg(simdcrypt_x86_64)]
#[path = "arch/x86_64/cpuid.rs"]
mod cpuid;
#[cfg(simdcrypt_x86_64)]
use cpuid::{probe, read_signature};

#[cfg(not(simdcrypt_x86_64))]
fn probe() -> Features {
    Features::NONE
}

/// A CPU's maker.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
    /// Anything else (or not read: see [`signature`]).
    Other,
}

/// Which CPU this is, as CPUID leaves 0 and 1 name it: what the per-microarchitecture
/// choices (the crate's tuning table) are keyed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The maker.
    pub vendor: Vendor,
    /// The family, extended family included (6 for Intel Core and Xeon, 25 for AMD Zen 3
    /// and Zen 4).
    pub family: u32,
    /// The model, extended model included (207 for Emerald Rapids, 17 for Zen 4 EPYC).
    pub model: u32,
    /// The stepping.
    pub stepping: u32,
}

/// This CPU's vendor, family, model and stepping; `None` without the architecture code
/// (non-x86-64 targets, the `pure` feature). Read with CPUID each call (it is not cached:
/// the dispatch reads it once per algorithm and caches its choice).
///
/// ```
/// if let Some(sig) = simdcrypt::cpu::signature() {
///     println!("{:?} family {} model {}", sig.vendor, sig.family, sig.model);
///     assert!(sig.family > 0);
/// }
/// ```
#[must_use]
pub fn signature() -> Option<Signature> {
    read_signature()
}

#[cfg(not(simdcrypt_x86_64))]
fn read_signature() -> Option<Signature> {
    None
}

macro_rules! tokens {
    ($($(#[$doc:meta])* $name:ident = [$($feat:ident),*];)*) => {
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
                ///
                /// ```
                #[doc = concat!("use simdcrypt::cpu::{", stringify!($name), ", Features};")]
                #[doc = concat!("let f = ", stringify!($name), "::FEATURES;")]
                #[doc = concat!("assert_eq!(f, Features::NONE", $(".union(Features::", stringify!($feat), ")",)* ");")]
                /// ```
                pub const FEATURES: Features = Features(0 $(| Features::$feat.0)*);

                /// The token, if this CPU has every feature it stands for.
                ///
                /// ```
                #[doc = concat!("use simdcrypt::cpu::{", stringify!($name), ", detected};")]
                #[doc = concat!("let have = detected().contains(", stringify!($name), "::FEATURES);")]
                #[doc = concat!("match ", stringify!($name), "::get() {")]
                ///     Some(token) => assert!(have, "{token:?} without its features"),
                ///     None => assert!(!have),
                /// }
                /// ```
                #[inline]
                pub fn get() -> Option<Self> {
                    if cfg!(simdcrypt_x86_64) && detected().contains(Self::FEATURES) {
                        Some($name(()))
                    } else {
                        None
                    }
                }
            }
        )*
    };
}

tokens! {
    /// AES-NI with PCLMULQDQ and SSE up to 4.1 (128-bit `aesenc`, `pclmulqdq`, `pshufb`).
    AesNiToken = [AES, PCLMULQDQ, SSSE3, SSE41];
    /// 256-bit VAES and VPCLMULQDQ on AVX2 (plus everything in [`AesNiToken`]).
    VaesAvx2Token = [AES, PCLMULQDQ, SSSE3, SSE41, AVX, AVX2, VAES, VPCLMULQDQ];
    /// 512-bit VAES and VPCLMULQDQ on AVX-512 F/BW/VL (plus everything in [`VaesAvx2Token`]).
    VaesAvx512Token = [AES, PCLMULQDQ, SSSE3, SSE41, AVX, AVX2, VAES, VPCLMULQDQ, AVX512F, AVX512BW, AVX512VL];
    /// SSSE3 (for SIMD message schedules).
    Ssse3Token = [SSSE3];
    /// AVX2 with BMI1 and BMI2 (`rorx`, `andn`).
    Avx2Token = [SSSE3, AVX, AVX2, BMI1, BMI2];
    /// AVX-512 F/BW/VL on top of everything in [`Avx2Token`] (`vprold`, `vpternlogd` on
    /// 256- and 512-bit registers, for SIMD message schedules and multi-lane hashing).
    Avx512Token = [SSSE3, AVX, AVX2, BMI1, BMI2, AVX512F, AVX512BW, AVX512VL];
    /// The SHA extensions (`sha1rnds4`, `sha1msg1`, ...) with SSE up to 4.1.
    ShaNiToken = [SHA, SSSE3, SSE41];
}

impl VaesAvx512Token {
    /// The narrower token that this one implies.
    ///
    /// ```
    /// use simdcrypt::cpu::{VaesAvx2Token, VaesAvx512Token};
    /// assert!(VaesAvx512Token::FEATURES.contains(VaesAvx2Token::FEATURES));
    /// if let Some(wide) = VaesAvx512Token::get() {
    ///     let _narrow: VaesAvx2Token = wide.vaes_avx2();
    ///     assert!(VaesAvx2Token::get().is_some());
    /// }
    /// ```
    #[inline]
    pub fn vaes_avx2(self) -> VaesAvx2Token {
        VaesAvx2Token(())
    }
}

impl Avx512Token {
    /// The narrower token that this one implies.
    ///
    /// ```
    /// use simdcrypt::cpu::{Avx2Token, Avx512Token};
    /// assert!(Avx512Token::FEATURES.contains(Avx2Token::FEATURES));
    /// if let Some(wide) = Avx512Token::get() {
    ///     let _narrow: Avx2Token = wide.avx2();
    ///     assert!(Avx2Token::get().is_some());
    /// }
    /// ```
    #[inline]
    pub fn avx2(self) -> Avx2Token {
        Avx2Token(())
    }
}

impl VaesAvx2Token {
    /// The narrower token that this one implies.
    ///
    /// ```
    /// use simdcrypt::cpu::{AesNiToken, VaesAvx2Token};
    /// assert!(VaesAvx2Token::FEATURES.contains(AesNiToken::FEATURES));
    /// if let Some(wide) = VaesAvx2Token::get() {
    ///     let _narrow: AesNiToken = wide.aesni();
    ///     assert!(AesNiToken::get().is_some());
    /// }
    /// ```
    #[inline]
    pub fn aesni(self) -> AesNiToken {
        AesNiToken(())
    }
}

#[cfg(test)]
#[path = "cpu_tests.rs"]
mod tests;
