//! The dispatch table: every backend, and every algorithm's backends best first, each with
//! the kernel it selects and the capability token that kernel carries. It mirrors the
//! README's backends table (a test reads that table and compares). The rows and the
//! automatic choice in brief: docs/design.md, "Dispatch and per-CPU tuning".
//!
//! The tables are in `src/dispatch/tables.rs`, one per algorithm. A row names a kernel
//! constructor, whose argument is the token (`aes::Width::Xmm` takes an `AesNiToken`),
//! so a backend's token is written once, in the kernel; a row whose kernel takes a token
//! other than its backend's is a compile error (`Table::new` compares their features). Every keyed type's `with_backend`, `available_backends` and
//! `implemented_backends` are one call into its [`Table`] (`select`, `available`,
//! `implemented`), `new` is `with_backend(auto())`, and the kernel it keeps carries its
//! token down to the `#[target_feature]` entry.
//!
//! What a new backend needs: docs/design.md, "Dispatch and per-CPU tuning".

use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::backend::automatic_features;
use crate::backend::{Token, row};
use crate::cpu::Features;
use crate::{Backend, Error};

mod tables;
pub(crate) use tables::*;

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

/// One candidate of an algorithm: a backend and how to get its kernel.
pub(crate) struct Candidate<K> {
    pub(crate) backend: Backend,
    /// The features of the token the kernel takes.
    pub(crate) features: Features,
    /// The kernel with its token, if detection grants the token (`None` in a build
    /// without the kernel).
    pub(crate) kernel: fn() -> Option<K>,
    /// Never the automatic choice: only `with_backend` selects it (an assembly twin that
    /// measured no faster than its intrinsics kernel).
    pub(crate) explicit: bool,
}

/// The features of the token that a kernel constructor takes. (Without SIMD backends the
/// tables have no row that asks, here and in [`grant`].)
#[cfg_attr(not(any(simdcrypt_x86_64, simdcrypt_aarch64)), allow(dead_code))]
pub(crate) const fn features_of<T: Token, K>(_: fn(T) -> K) -> Features {
    T::FEATURES
}

/// The kernel `make` builds, if detection grants its token.
#[cfg_attr(not(any(simdcrypt_x86_64, simdcrypt_aarch64)), allow(dead_code))]
#[inline]
pub(crate) fn grant<T: Token, K>(make: fn(T) -> K) -> Option<K> {
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
    /// The automatic choice's kernel and backend, once resolved (apart from its row's
    /// entry in `granted`, so that an automatic call needs no index first).
    chosen: Chosen<K>,
    /// Each row's kernel, once an explicit choice of its backend has granted it (so that
    /// a call on an explicit backend pays one load, as the automatic choice does).
    granted: [Chosen<K>; crate::tuning::MAX],
}

const UNSET: u8 = u8::MAX;

/// Test builds: whether knobs set for this thread stand in for the CPU's tuning row, which
/// a kernel value reads; then kernels are resolved afresh, not kept. Always false
/// elsewhere.
#[inline(always)]
fn knobs_stand_in() -> bool {
    #[cfg(all(test, feature = "std"))]
    return crate::tuning::KNOBS.with(core::cell::Cell::get).is_some();
    #[cfg(not(all(test, feature = "std")))]
    false
}

/// A kernel value resolved once: the automatic choice's kernel, or one row's (its token
/// granted, and what the kernel reads of the CPU's tuning row, such as the SHA-NI schedule
/// form, read into it) with its backend, written by the first call that resolves it and
/// read by every later one with one load of `state` and a copy.
struct Chosen<K> {
    /// `EMPTY`, `WRITING` (one thread is writing `value`) or `READY`.
    state: AtomicU8,
    value: UnsafeCell<MaybeUninit<(K, Backend)>>,
}

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const READY: u8 = 2;

// SAFETY: `value` is written once, by the one thread whose compare-exchange moved `state`
// from `EMPTY` to `WRITING`, and read only after a load of `state` (Acquire) saw `READY`,
// which that thread stores (Release) after the write; the value is `Copy` (no drop) and
// its parts are tokens and plain data, `Send`.
unsafe impl<K: Copy + Send> Sync for Chosen<K> {}

impl<K: Copy> Chosen<K> {
    const fn new() -> Self {
        Chosen {
            state: AtomicU8::new(EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// The value, once written.
    #[inline(always)]
    fn get(&self) -> Option<(K, Backend)> {
        if self.state.load(Ordering::Acquire) == READY {
            // SAFETY: `READY` is stored after the one write of `value` (see the `Sync`
            // impl), and `value` is never written again.
            Some(unsafe { (*self.value.get()).assume_init() })
        } else {
            None
        }
    }

    /// Writes the value, unless another thread is writing or has written it (the same
    /// value: resolution is deterministic).
    #[cold]
    fn set(&self, v: (K, Backend)) {
        if self
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            // SAFETY: this thread alone moved `state` to `WRITING`, so no other thread
            // writes `value`, and none reads it before `READY` is stored below.
            unsafe { (*self.value.get()).write(v) };
            self.state.store(READY, Ordering::Release);
        }
    }
}

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
            chosen: Chosen::new(),
            granted: [const { Chosen::new() }; crate::tuning::MAX],
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

    /// The automatic choice's kernel and backend, resolved once ([`Chosen`]).
    #[inline]
    pub(crate) fn auto_kernel(&self) -> (K, Backend) {
        if knobs_stand_in() {
            return self.resolve();
        }
        match self.chosen.get() {
            Some(v) => v,
            None => self.resolve_and_keep(),
        }
    }

    #[cold]
    fn resolve_and_keep(&self) -> (K, Backend) {
        let v = self.resolve();
        self.chosen.set(v);
        v
    }

    /// The automatic choice's kernel and backend, granted from its row.
    fn resolve(&self) -> (K, Backend) {
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
        if knobs_stand_in() {
            return self.grant_row(i);
        }
        match self.granted[i].get() {
            Some(v) => Ok(v),
            None => self.grant_and_keep(i),
        }
    }

    #[cold]
    fn grant_and_keep(&self, i: usize) -> Result<(K, Backend), Error> {
        let v = self.grant_row(i)?;
        self.granted[i].set(v);
        Ok(v)
    }

    /// Row `i`'s kernel: `Err` if this CPU (or build) cannot run its backend.
    fn grant_row(&self, i: usize) -> Result<(K, Backend), Error> {
        let b = self.backends[i];
        if !b.is_available() {
            return Err(Error::BackendUnavailable(b));
        }
        (self.rows[i].kernel)()
            .map(|k| (k, b))
            .ok_or(Error::BackendUnavailable(b))
    }
}

/// An algorithm's table: its name, the kernel of the portable backend (always the last
/// row), then the other rows best first, `Backend => kernel`. Rows behind `#[cfg(..)]`
/// come in groups, `#[cfg(..)] { rows }`, and name kernels that exist only there;
/// elsewhere their backends stay implemented but have no kernel (`BackendUnavailable`).
/// `Backend(explicit)` marks a row that the automatic choice skips.
macro_rules! table {
    (@explicit explicit) => { true };
    (@explicit) => { false };
    // Each row of a group under the group's cfg, an ungrouped row under `all()`.
    (@rows $head:tt [$($done:tt)*]
     #[cfg($c:meta)] { $($b:ident $(($flag:ident))? => $k:expr,)* } $($rest:tt)*) => {
        $crate::dispatch::table!(@rows $head [$($done)* $([($c) $b ($($flag)?) $k])*] $($rest)*)
    };
    (@rows $head:tt [$($done:tt)*] $b:ident $(($flag:ident))? => $k:expr, $($rest:tt)*) => {
        $crate::dispatch::table!(@rows $head [$($done)* [(all()) $b ($($flag)?) $k]] $($rest)*)
    };
    (@rows ($kernel:ty, $algorithm:literal, $portable:expr)
     [$([($c:meta) $b:ident ($($flag:ident)?) $k:expr])*]) => {{
        const ROWS: &[$crate::dispatch::Candidate<$kernel>] = &[
            $($crate::dispatch::Candidate {
                backend: $crate::Backend::$b,
                #[cfg($c)] features: $crate::dispatch::features_of($k),
                #[cfg(not($c))] features: $crate::backend::row($crate::Backend::$b).features,
                #[cfg($c)] kernel: || $crate::dispatch::grant($k),
                #[cfg(not($c))] kernel: || None,
                explicit: $crate::dispatch::table!(@explicit $($flag)?),
            },)*
            $crate::dispatch::Candidate {
                backend: $crate::Backend::Portable,
                features: $crate::cpu::Features::NONE,
                kernel: || Some($portable),
                explicit: false,
            },
        ];
        $crate::dispatch::Table::new($algorithm, ROWS, &[$($crate::Backend::$b,)* $crate::Backend::Portable], $portable)
    }};
    ($kernel:ty, $algorithm:literal, portable: $portable:expr, [$($rows:tt)*]) => {
        $crate::dispatch::table!(@rows ($kernel, $algorithm, $portable) [] $($rows)*)
    };
}
pub(crate) use table;

// (Against every algorithm's table and the README's: in the build with all of them.)
#[cfg(all(test, feature = "xts", feature = "cbc", feature = "sha1"))]
mod tests;
