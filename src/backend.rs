//! Backends (kernel families), the automatic choice, and the `SIMDCRYPT_BACKEND` cap.

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::cpu::{
    AesNiToken, Armv8AesToken, Armv8Sha1Token, Avx2Token, Avx512Token, Features, ShaNiToken,
    Ssse3Token, VaesAvx2Token, VaesAvx512Token,
};

/// A kernel family. Each algorithm implements some of them; see its `available_backends()`.
///
/// ```
/// use simdcrypt::{Aes, Backend};
/// let b: Backend = "sha-ni".parse()?;
/// assert_eq!(b, Backend::ShaNi);
/// assert_eq!(b.to_string(), "sha-ni");
/// assert!(Backend::Portable.is_available());
/// // Every algorithm lists what runs here; portable always does.
/// assert!(Aes::available_backends().any(|b| b == Backend::Portable));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Constant-time portable Rust (bitsliced AES, scalar SHA-1). Runs everywhere.
    Portable,
    /// AES-NI on 128-bit registers.
    AesNi,
    /// VAES and VPCLMULQDQ on 256-bit AVX2 registers, Rust intrinsics.
    VaesAvx2,
    /// VAES and VPCLMULQDQ on 256-bit AVX2 registers, hand-written assembly (`asm/`).
    VaesAvx2Asm,
    /// VAES and VPCLMULQDQ on 512-bit AVX-512 registers, Rust intrinsics.
    VaesAvx512,
    /// SSSE3 SIMD message schedule (SHA-1).
    Ssse3,
    /// AVX2 SIMD message schedule with BMI2 rounds (SHA-1), Rust intrinsics.
    Avx2,
    /// AVX2 SIMD message schedule with BMI2 rounds (SHA-1), hand-written assembly.
    Avx2Asm,
    /// AVX-512 F/BW/VL (SHA-1): the AVX2 schedule kernel with `vprold`/`vpternlogd`, and
    /// many messages at once (sixteen in 512-bit registers, eight in 256-bit ones), Rust
    /// intrinsics.
    Avx512,
    /// The SHA extensions, Rust intrinsics.
    ShaNi,
    /// The SHA extensions, hand-written assembly, on runs of at least 16 blocks (1 KiB);
    /// shorter runs and the padded tails go through the `ShaNi` intrinsics (the same
    /// instructions).
    ShaNiAsm,
    /// AES-NI and the SHA extensions stitched into one loop (CBC with HMAC-SHA1, Rust
    /// intrinsics): two independent dependency chains interleaved.
    AesNiShaNi,
    /// The ARMv8 Cryptography Extension's AES and `PMULL` instructions on the NEON
    /// registers (AArch64), Rust intrinsics.
    Armv8Aes,
    /// The ARMv8 Cryptography Extension's SHA-1 instructions (AArch64), Rust intrinsics.
    Armv8Sha1,
    /// The ARMv8 AES and SHA-1 instructions stitched into one loop (CBC with HMAC-SHA1,
    /// AArch64, Rust intrinsics): two independent dependency chains interleaved.
    Armv8AesSha1,
}

/// A capability token as the table uses it: the features it stands for and the only way
/// to get one (`crate::cpu`'s detection). `()` is the portable backend's (no features),
/// a pair stands for both of its tokens (a stitched kernel).
pub(crate) trait Token: Copy {
    /// The CPU features the token proves.
    const FEATURES: Features;
    /// The token, if this CPU has its features. (Without SIMD backends no table row
    /// asks.)
    #[cfg_attr(not(any(simdcrypt_x86_64, simdcrypt_aarch64)), allow(dead_code))]
    fn get() -> Option<Self>;
}

macro_rules! tokens {
    ($($t:ident),*) => {
        $(
            impl Token for $t {
                const FEATURES: Features = $t::FEATURES;
                #[inline]
                fn get() -> Option<Self> {
                    $t::get()
                }
            }
        )*
    };
}

tokens!(
    AesNiToken,
    VaesAvx2Token,
    VaesAvx512Token,
    Ssse3Token,
    Avx2Token,
    Avx512Token,
    ShaNiToken,
    Armv8AesToken,
    Armv8Sha1Token
);

impl Token for () {
    const FEATURES: Features = Features::NONE;
    #[inline]
    fn get() -> Option<()> {
        Some(())
    }
}

impl<A: Token, B: Token> Token for (A, B) {
    const FEATURES: Features = A::FEATURES.union(B::FEATURES);
    #[inline]
    fn get() -> Option<Self> {
        Some((A::get()?, B::get()?))
    }
}

/// One backend: its name and the features of its token.
pub(crate) struct BackendRow {
    pub(crate) backend: Backend,
    /// As `FromStr`, `SIMDCRYPT_BACKEND` and `SIMDCRYPT_REQUIRE` spell it.
    pub(crate) name: &'static str,
    /// The features of the token its kernels take.
    pub(crate) features: Features,
    /// Written in assembly (`asm/`), so built only with `simdcrypt_asm`.
    pub(crate) asm: bool,
}

macro_rules! backends {
    ($($b:ident $name:literal $token:ty $(, $asm:ident)?;)*) => {
        &[$(BackendRow {
            backend: Backend::$b,
            name: $name,
            features: <$token as Token>::FEATURES,
            asm: backends!(@asm $($asm)?),
        }),*]
    };
    (@asm asm) => { true };
    (@asm) => { false };
}

/// Every backend, in `Backend`'s declaration order (checked when compiled).
pub(crate) const BACKENDS: &[BackendRow] = backends! {
    Portable "portable" ();
    AesNi "aesni" AesNiToken;
    VaesAvx2 "vaes-avx2" VaesAvx2Token;
    VaesAvx2Asm "vaes-avx2-asm" VaesAvx2Token, asm;
    VaesAvx512 "vaes-avx512" VaesAvx512Token;
    Ssse3 "ssse3" Ssse3Token;
    Avx2 "avx2" Avx2Token;
    Avx2Asm "avx2-asm" Avx2Token, asm;
    Avx512 "avx512" Avx512Token;
    ShaNi "sha-ni" ShaNiToken;
    ShaNiAsm "sha-ni-asm" ShaNiToken, asm;
    AesNiShaNi "aesni-sha-ni" (AesNiToken, ShaNiToken);
    Armv8Aes "armv8-aes" Armv8AesToken;
    Armv8Sha1 "armv8-sha1" Armv8Sha1Token;
    Armv8AesSha1 "armv8-aes-sha1" (Armv8AesToken, Armv8Sha1Token);
};

const N_BACKENDS: usize = BACKENDS.len();

/// Every backend, in declaration order.
pub(crate) static ALL: [Backend; N_BACKENDS] = {
    let mut all = [Backend::Portable; N_BACKENDS];
    let mut i = 0;
    while i < N_BACKENDS {
        assert!(
            BACKENDS[i].backend as usize == i,
            "BACKENDS is in Backend's declaration order"
        );
        all[i] = BACKENDS[i].backend;
        i += 1;
    }
    all
};

/// The row of a backend.
#[inline]
pub(crate) const fn row(b: Backend) -> &'static BackendRow {
    &BACKENDS[b as usize]
}

/// The names of every backend, comma-separated, for messages.
pub(crate) struct KnownNames;

/// `known: ...` in error messages.
pub(crate) const KNOWN_NAMES: KnownNames = KnownNames;

impl fmt::Display for KnownNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in BACKENDS.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(r.name)?;
        }
        Ok(())
    }
}

impl Backend {
    /// The backend's name, as `FromStr`, `SIMDCRYPT_BACKEND` and `SIMDCRYPT_REQUIRE` spell it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        row(self).name
    }

    /// The CPU features the backend's kernels use.
    #[must_use]
    pub const fn required_features(self) -> Features {
        row(self).features
    }

    /// Whether the backend is written in assembly (`asm/`).
    #[must_use]
    pub const fn is_asm(self) -> bool {
        row(self).asm
    }

    /// Whether this CPU and this build can run the backend (whatever the algorithm).
    #[must_use]
    pub fn is_available(self) -> bool {
        (!self.is_asm() || cfg!(simdcrypt_asm))
            && (self == Backend::Portable || cfg!(any(simdcrypt_x86_64, simdcrypt_aarch64)))
            && crate::cpu::detected().contains(self.required_features())
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;

    fn from_str(s: &str) -> Result<Backend, Error> {
        let s = s.trim();
        ALL.iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownBackendName {
                name: crate::BackendName::new(s),
            })
    }
}

/// The features the automatic choice may use: every detected feature, unless
/// `SIMDCRYPT_BACKEND` names backends, in which case only the features those backends use.
///
/// `SIMDCRYPT_BACKEND=aesni` makes every algorithm pick its best backend that uses no more
/// than AES-NI's features (AES goes to `aesni`, SHA-1 to `ssse3`); `portable` turns every
/// SIMD kernel off; a comma-separated list allows the union. An unknown name, or a value
/// that is not UTF-8, is reported on standard error once and caps everything at
/// `portable`; a name this CPU cannot run is reported and caps at what the CPU has of it;
/// a value that names no backend (empty, or commas only) is reported and caps nothing.
/// A report that cannot be written (standard error closed) is dropped, never a panic.
/// Read once per process; [`backend_env_problem`] returns the report.
///
/// ```
/// use simdcrypt::{Aes, automatic_features, cpu};
/// let cap = automatic_features();
/// assert!(cpu::detected().contains(cap));
/// // The automatic choices stay within the cap.
/// assert!(cap.contains(Aes::new(&[0u8; 16])?.backend().required_features()));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn automatic_features() -> Features {
    cap::get()
}

/// Why `SIMDCRYPT_BACKEND` was not honoured as written, if it was not.
///
/// `None` when the variable is unset or every name in it is known and available; a
/// problem for an unknown or unavailable name, a value that names no backend (`""`, `","`)
/// and a value that is not UTF-8.
#[cfg(feature = "std")]
pub fn backend_env_problem() -> Option<&'static str> {
    cap::problem()
}

#[cfg(feature = "std")]
mod cap {
    use super::*;
    use std::io::Write;
    use std::sync::OnceLock;

    struct Cap {
        features: Features,
        problem: Option<&'static str>,
    }

    static CAP: OnceLock<Cap> = OnceLock::new();

    fn compute() -> Cap {
        let detected = crate::cpu::detected();
        let (features, problem) = match std::env::var_os("SIMDCRYPT_BACKEND") {
            None => (detected, None),
            Some(raw) => match raw.to_str() {
                Some(value) => parse(value, detected),
                // Names are ASCII, so a value that is not UTF-8 cannot be read as meant:
                // as for an unknown name, nothing but portable.
                None => (
                    Features::NONE,
                    Some(std::format!(
                        "the value {raw:?} is not valid UTF-8; capping at portable"
                    )),
                ),
            },
        };
        if let Some(p) = &problem {
            // Reported once. A closed stderr or a broken pipe must not make every
            // constructor panic (as `eprintln!` would): a failed write is ignored.
            let _ = writeln!(std::io::stderr(), "simdcrypt: SIMDCRYPT_BACKEND: {p}");
        }
        Cap {
            features,
            problem: problem.map(|p| &*std::boxed::Box::leak(p.into_boxed_str())),
        }
    }

    /// The cap for one value of the variable, and what is wrong with it.
    ///
    /// A value that names no backend (empty, blanks, commas only) is a problem and caps
    /// nothing: the automatic choice is as without the variable.
    pub(crate) fn parse(
        value: &str,
        detected: Features,
    ) -> (Features, Option<std::string::String>) {
        let mut features = Features::NONE;
        let mut problems = std::vec::Vec::new();
        let mut unknown = false;
        let mut named = 0;
        for name in value.split(',').map(str::trim) {
            if name.is_empty() {
                continue;
            }
            named += 1;
            match name.parse::<Backend>() {
                Ok(b) => {
                    if !detected.contains(b.required_features()) {
                        problems.push(std::format!("backend {b} is not available on this CPU"));
                    }
                    features = features.union(b.required_features());
                }
                Err(_) => {
                    unknown = true;
                    problems.push(std::format!(
                        "unknown backend {name:?} (known: {KNOWN_NAMES}); capping at portable"
                    ));
                }
            }
        }
        if named == 0 {
            return (
                detected,
                Some(std::format!(
                    "the value {value:?} names no backend (known: {KNOWN_NAMES}); ignored, no cap"
                )),
            );
        }
        if unknown {
            features = Features::NONE;
        }
        let problem = if problems.is_empty() {
            None
        } else {
            Some(problems.join("; "))
        };
        (features.intersect(detected), problem)
    }

    pub(super) fn get() -> Features {
        CAP.get_or_init(compute).features
    }

    pub(super) fn problem() -> Option<&'static str> {
        CAP.get_or_init(compute).problem
    }
}

#[cfg(not(feature = "std"))]
mod cap {
    use super::*;
    pub(super) fn get() -> Features {
        crate::cpu::detected()
    }
}

#[cfg(test)]
mod tests;
