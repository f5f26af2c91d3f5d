//! The dispatch table: every backend, and every algorithm's backends best first, each with
//! the kernel it selects and the capability token that kernel carries. It mirrors the
//! README's backends table (a test reads that table and compares).
//!
//! ```text
//! BACKENDS:            backend -> name, token type (so its CPU features), assembly or not
//! AES, XTS, CBC, ...:  backend -> kernel variant, best first; portable last
//! automatic choice   = the first row, in this CPU's order (crate::tuning), that is not
//!                      marked explicit, whose backend is available and within
//!                      SIMDCRYPT_BACKEND's cap, and whose token detection grants;
//!                      cached per table
//! with_backend(b)    = b's row: BackendNotForAlgorithm without one, BackendUnavailable
//!                      where this CPU or build has no token for it
//! ```
//!
//! A row names a kernel variant, and the variant's field is the token (`aes::Kernel::AesNi` takes
//! an `AesNiToken`), so a backend's token is written once, in the variant; a row whose
//! variant takes a token other than its backend's is a compile error (`Table::new`
//! compares their features). Every keyed type's `with_backend`, `available_backends` and
//! `implemented_backends` are one call into its [`Table`] (`select`, `available`,
//! `implemented`), `new` is `with_backend(auto())`, and the kernel it keeps carries its
//! token down to the `#[target_feature]` entry.
//!
//! A new backend needs:
//! 1. its kernels: for the AES modes its vector impl, which the generic bodies take, for
//!    SHA-1 its kernel file; `#[target_feature]` entries that take its token; the variant
//!    in each algorithm's kernel enum and its arm where that enum calls the kernels;
//! 2. its token in `crate::cpu` (an existing one when it uses the same instructions, as
//!    the assembly twins do);
//! 3. its `Backend` variant with its row in [`BACKENDS`], and one row in the table of each
//!    algorithm it implements, at its measured place (or marked `(explicit)`); the
//!    README's backends table gets the same row (`readme_table_mirrors_this_one` fails
//!    until it does).
//!
//! Everything else (names, parsing, `required_features`, `is_asm`, availability, the
//! automatic choice, `with_backend`'s errors, `available_backends`, `implemented_backends`,
//! `SIMDCRYPT_BACKEND`, the tuning rows) follows from these rows.

use core::sync::atomic::{AtomicU8, Ordering};

use crate::backend::automatic_features;
use crate::cpu::{
    AesNiToken, Avx2Token, Avx512Token, Features, ShaNiToken, Ssse3Token, VaesAvx2Token,
    VaesAvx512Token,
};
use crate::{Backend, Error};

/// A capability token as the table uses it: the features it stands for and the only way
/// to get one (`crate::cpu`'s detection). `()` is the portable backend's (no features),
/// a pair stands for both of its tokens (a stitched kernel).
pub(crate) trait Token: Copy {
    /// The CPU features the token proves.
    const FEATURES: Features;
    /// The token, if this CPU has its features.
    fn get() -> Option<Self>;
}

/// The backend-list methods of a type that runs on one backend of a dispatch table, each
/// with its own docs: `available` (`available_backends`, what this CPU runs, best first),
/// `implemented` (`implemented_backends`, hidden: all the table has), `backend = field`
/// (`backend(&self)`, the instance's: `self.field`, a path of fields, or a method call at
/// its end).
macro_rules! backend_methods {
    ($table:expr; $($(#[$doc:meta])* $kind:ident $(= $f:ident $(. $g:ident)* $(($($arg:tt)*))?)?;)+) => {
        $($crate::dispatch::backend_methods!(
            @ $table; $(#[$doc])* $kind $(= $f $(. $g)* $(($($arg)*))?)?
        );)+
    };
    (@ $table:expr; $(#[$doc:meta])* available) => {
        $(#[$doc])*
        pub fn available_backends() -> impl Iterator<Item = $crate::Backend> {
            $table.available()
        }
    };
    (@ $table:expr; $(#[$doc:meta])* implemented) => {
        $(#[$doc])*
        #[doc(hidden)]
        pub fn implemented_backends() -> &'static [$crate::Backend] {
            $table.implemented()
        }
    };
    (@ $table:expr; $(#[$doc:meta])* backend = $f:ident $(. $g:ident)* $(($($arg:tt)*))?) => {
        $(#[$doc])*
        #[must_use]
        pub fn backend(&self) -> $crate::Backend {
            self.$f $(.$g)* $(($($arg)*))?
        }
    };
}
pub(crate) use backend_methods;

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
    ShaNiToken
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

/// One candidate of an algorithm: a backend and how to get its kernel.
pub(crate) struct Candidate<K> {
    backend: Backend,
    /// The features of the token the kernel takes.
    features: Features,
    /// The kernel with its token, if detection grants the token (`None` in a build
    /// without the kernel).
    kernel: fn() -> Option<K>,
    /// Never the automatic choice: only `with_backend` selects it (an assembly twin that
    /// measured no faster than its intrinsics kernel).
    explicit: bool,
}

/// The features of the token that a kernel constructor takes.
const fn features_of<T: Token, K>(_: fn(T) -> K) -> Features {
    T::FEATURES
}

/// The kernel `make` builds, if detection grants its token.
#[inline]
fn grant<T: Token, K>(make: fn(T) -> K) -> Option<K> {
    T::get().map(make)
}

/// One algorithm's candidates, best first, with its automatic choice cached.
pub(crate) struct Table<K: 'static> {
    /// For `Error::BackendNotForAlgorithm`.
    algorithm: &'static str,
    rows: &'static [Candidate<K>],
    /// The rows' backends, in the same order: `implemented_backends()`.
    backends: &'static [Backend],
    /// The portable kernel (the last row's), which needs no token.
    portable: K,
    /// The index of the automatic choice in `rows`, or `UNSET`.
    cache: AtomicU8,
}

const UNSET: u8 = u8::MAX;

const fn same(a: Features, b: Features) -> bool {
    a.contains(b) && b.contains(a)
}

impl<K: Copy> Table<K> {
    /// Checked when compiled: the rows name distinct backends, each row's token has its
    /// backend's features, and portable comes last.
    pub(crate) const fn new(
        algorithm: &'static str,
        rows: &'static [Candidate<K>],
        backends: &'static [Backend],
        portable: K,
    ) -> Self {
        let n = rows.len();
        assert!(n == backends.len() && n <= crate::tuning::MAX);
        assert!(backends[n - 1] as usize == Backend::Portable as usize);
        let mut i = 0;
        while i < n {
            let b = rows[i].backend;
            assert!(b as usize == backends[i] as usize);
            assert!(
                same(rows[i].features, row(b).features),
                "a row's kernel takes a token other than its backend's"
            );
            let mut j = 0;
            while j < i {
                assert!(backends[j] as usize != b as usize, "a backend listed twice");
                j += 1;
            }
            i += 1;
        }
        Table {
            algorithm,
            rows,
            backends,
            portable,
            cache: AtomicU8::new(UNSET),
        }
    }

    /// Every backend of the algorithm, available here or not, in the default order.
    pub(crate) fn implemented(&self) -> &'static [Backend] {
        self.backends
    }

    /// The candidates in this CPU's order: its row of the tuning table, else the defaults.
    fn ordered(&self) -> impl Iterator<Item = Backend> + use<K> {
        let (order, n) = crate::tuning::order(self.backends, crate::tuning::current());
        order.into_iter().take(n)
    }

    fn index(&self, b: Backend) -> Option<usize> {
        self.backends.iter().position(|&x| x == b)
    }

    /// The backends this CPU runs, best first.
    pub(crate) fn available(&self) -> impl Iterator<Item = Backend> + use<K> {
        self.ordered().filter(|b| b.is_available())
    }

    /// The automatic choice: the best available backend within `SIMDCRYPT_BACKEND`'s cap.
    #[inline]
    pub(crate) fn auto(&self) -> Backend {
        self.backends[self.auto_index()]
    }

    /// The automatic choice's kernel and backend.
    #[inline]
    pub(crate) fn auto_kernel(&self) -> (K, Backend) {
        let i = self.auto_index();
        match (self.rows[i].kernel)() {
            Some(k) => (k, self.backends[i]),
            // Not reached: `choose` picked a row whose token detection granted, and
            // detection is cached.
            None => (self.portable, Backend::Portable),
        }
    }

    #[inline]
    fn auto_index(&self) -> usize {
        let i = self.cache.load(Ordering::Relaxed);
        if i != UNSET {
            return usize::from(i);
        }
        self.choose()
    }

    #[cold]
    fn choose(&self) -> usize {
        let cap = automatic_features();
        let i = self
            .ordered()
            .filter_map(|b| self.index(b))
            .find(|&i| {
                let r = &self.rows[i];
                !r.explicit
                    && r.backend.is_available()
                    && cap.contains(r.features)
                    && (r.kernel)().is_some()
            })
            // Portable is every table's last row and needs nothing.
            .unwrap_or(self.rows.len() - 1);
        // Fits in u8: a table has at most `tuning::MAX` rows.
        self.cache.store(i as u8, Ordering::Relaxed);
        i
    }

    /// The kernel for `b`: `Err` if the algorithm does not implement `b` or this CPU (or
    /// build) cannot run it.
    pub(crate) fn select(&self, b: Backend) -> Result<(K, Backend), Error> {
        let Some(i) = self.index(b) else {
            return Err(Error::BackendNotForAlgorithm {
                backend: b,
                algorithm: self.algorithm,
            });
        };
        if !b.is_available() {
            return Err(Error::BackendUnavailable(b));
        }
        (self.rows[i].kernel)()
            .map(|k| (k, b))
            .ok_or(Error::BackendUnavailable(b))
    }
}

/// An algorithm's table: its name, the kernel of the portable backend (always the last
/// row), then the other rows best first, `Backend => kernel variant`. A row behind
/// `#[cfg(..)]` names a variant that exists only there; elsewhere its backend stays
/// implemented but has no kernel (`BackendUnavailable`). `Backend(explicit)` marks a row
/// that the automatic choice skips.
macro_rules! table {
    (@explicit explicit) => { true };
    (@explicit) => { false };
    ($kernel:ty, $algorithm:literal, portable: $portable:expr,
     [$($(#[cfg($c:meta)])? $b:ident $(($flag:ident))? => $k:expr,)*]) => {{
        const ROWS: &[Candidate<$kernel>] = &[
            $(Candidate {
                backend: Backend::$b,
                $(#[cfg($c)])? features: features_of($k),
                $(#[cfg(not($c))] features: row(Backend::$b).features,)?
                $(#[cfg($c)])? kernel: || grant($k),
                $(#[cfg(not($c))] kernel: || None,)?
                explicit: table!(@explicit $($flag)?),
            },)*
            Candidate {
                backend: Backend::Portable,
                features: Features::NONE,
                kernel: || Some($portable),
                explicit: false,
            },
        ];
        Table::new($algorithm, ROWS, &[$(Backend::$b,)* Backend::Portable], $portable)
    }};
}

use crate::aes::Kernel as AesKernel;
use crate::cbc::Kernel as CbcKernel;
use crate::cbc_hmac::Kernel as CbcHmacKernel;
use crate::sha1::Kernel as Sha1Kernel;
use crate::xts::Kernel as XtsKernel;

/// AES blocks (ECB). VAES on zmm moves no more bytes per cycle than on ymm (measured on
/// Emerald Rapids; docs/design.md, "Dispatch and per-CPU tuning"), so the 256-bit kernel goes first
/// (zmm first where `crate::tuning` says so: Zen 5, whose zmm AES moves twice the bytes).
pub(crate) static AES: Table<AesKernel> = table!(
    AesKernel, "AES", portable: AesKernel::Portable, [
    VaesAvx2 => AesKernel::VaesAvx2,
    VaesAvx512 => AesKernel::VaesAvx512,
    AesNi => AesKernel::AesNi,
]);

/// XTS data units, widest first (docs/design.md, "Dispatch and per-CPU tuning"). The assembly has no
/// multi-unit entry, so it loses on small sectors: the intrinsics kernel goes first where
/// AVX-512 is missing, and the assembly twin (slower on sectors on AMD Zen 3 too,
/// `crate::tuning`) is selected explicitly only.
pub(crate) static XTS: Table<XtsKernel> = table!(
    XtsKernel, "XTS", portable: XtsKernel::Portable, [
    #[cfg(simdcrypt_x86_64)]
    VaesAvx512 => XtsKernel::VaesAvx512,
    #[cfg(simdcrypt_x86_64)]
    VaesAvx2 => XtsKernel::VaesAvx2,
    #[cfg(simdcrypt_asm)]
    VaesAvx2Asm(explicit) => XtsKernel::VaesAvx2Asm,
    #[cfg(simdcrypt_x86_64)]
    AesNi => XtsKernel::AesNi,
]);

/// CBC. VAES decrypts twice the blocks per instruction of AES-NI and interleaves twice as
/// many streams; single-stream encryption is the same AES-NI chain on both. A zmm
/// decryption gains nothing where `vaesenc zmm` runs at half the ymm rate (Emerald Rapids,
/// Zen 4: docs/design.md, "Dispatch and per-CPU tuning"), so it comes after ymm here and first only
/// where `crate::tuning` says so (Zen 5, whose zmm AES moves twice ymm's bytes).
pub(crate) static CBC: Table<CbcKernel> = table!(
    CbcKernel, "CBC", portable: CbcKernel::Portable, [
    VaesAvx2 => CbcKernel::VaesAvx2,
    VaesAvx512 => CbcKernel::VaesAvx512,
    AesNi => CbcKernel::AesNi,
]);

/// One SHA-1 stream, fastest first as measured (docs/design.md, "Dispatch and per-CPU tuning"). The
/// AVX-512 one-stream kernel is the AVX2 intrinsics kernel compiled with AVX-512 VL: only
/// its schedule changes and the scalar rounds bound it, so it sits below AVX2 assembly.
pub(crate) static SHA1: Table<Sha1Kernel> = table!(
    Sha1Kernel, "SHA-1", portable: Sha1Kernel::Portable, [
    #[cfg(simdcrypt_asm)]
    ShaNiAsm => Sha1Kernel::ShaNiAsm,
    #[cfg(simdcrypt_x86_64)]
    ShaNi => Sha1Kernel::ShaNi,
    #[cfg(simdcrypt_asm)]
    Avx2Asm => Sha1Kernel::Avx2Asm,
    #[cfg(simdcrypt_x86_64)]
    Avx512 => Sha1Kernel::Avx512,
    #[cfg(simdcrypt_x86_64)]
    Avx2 => Sha1Kernel::Avx2,
    #[cfg(simdcrypt_x86_64)]
    Ssse3 => Sha1Kernel::Ssse3,
]);

/// The multi-lane kernels of `sha1_many` (stragglers go to [`SHA1`]'s choice), fastest
/// first as measured (docs/design.md, "Dispatch and per-CPU tuning"): vector lanes hash eight or
/// sixteen messages per instruction, while SHA-NI gains little from a second interleaved
/// stream (`sha1rnds4` latency is close to its reciprocal throughput).
pub(crate) static SHA1_MANY: Table<Sha1Kernel> = table!(
    Sha1Kernel, "SHA-1", portable: Sha1Kernel::Portable, [
    #[cfg(simdcrypt_x86_64)]
    Avx512 => Sha1Kernel::Avx512,
    #[cfg(simdcrypt_x86_64)]
    Avx2 => Sha1Kernel::Avx2,
    #[cfg(simdcrypt_asm)]
    ShaNiAsm => Sha1Kernel::ShaNiAsm,
    #[cfg(simdcrypt_x86_64)]
    ShaNi => Sha1Kernel::ShaNi,
    #[cfg(simdcrypt_x86_64)]
    Ssse3 => Sha1Kernel::Ssse3,
]);

/// CBC with HMAC-SHA1: the stitched kernel, then CBC and SHA-1 one after the other on the
/// CBC backends (SHA-1 on its own automatic backend; all-portable for `portable`).
pub(crate) static CBC_HMAC_SHA1: Table<CbcHmacKernel> = table!(
    CbcHmacKernel, "CBC-HMAC-SHA1", portable: CbcHmacKernel::Sequential, [
    #[cfg(simdcrypt_x86_64)]
    AesNiShaNi => |(a, s): (AesNiToken, ShaNiToken)| CbcHmacKernel::Stitched(a, s),
    VaesAvx2 => |_: VaesAvx2Token| CbcHmacKernel::Sequential,
    AesNi => |_: AesNiToken| CbcHmacKernel::Sequential,
]);

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod tests;
