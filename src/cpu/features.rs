//! The feature set ([`Features`]) and the CPU's signature ([`Signature`]): what detection
//! (`crate::cpu`, with CPUID in `src/arch/x86_64/cpuid.rs`) reports, as plain data.

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
pub struct Features(pub(super) u32);

macro_rules! features {
    ($($name:ident = $bit:expr, $text:expr;)*) => {
        impl Features {
            $(
                #[doc = concat!("The `", $text, "` extension.")]
                pub const $name: Features = Features(1 << $bit);
            )*
            /// Every feature with its `/proc/cpuinfo` name, in bit order.
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
    PMULL = 14, "pmull";
    SHA1 = 15, "sha1";
}

impl Features {
    /// No features at all.
    pub const NONE: Features = Features(0);

    /// The union of two sets.
    #[must_use]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// The features in both sets.
    #[must_use]
    pub const fn intersect(self, other: Features) -> Features {
        Features(self.0 & other.0)
    }

    /// Whether every feature of `other` is in `self`.
    #[must_use]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the features in the set, `/proc/cpuinfo` style.
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

/// A CPU's maker.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
    /// Anything else (or not read: see [`signature`](super::signature)).
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
