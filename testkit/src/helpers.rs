//! The test helpers that name simdcrypt's types, as macros that expand in the calling test
//! crate (see the crate docs for why): one for the per-backend loop, then one per
//! algorithm, each invoked where that test build has the algorithm. Every item they define
//! is private to the test crate and may go unused there.

/// In the calling test crate: the per-backend loop, for `simdcrypt::Aes` (always built) and
/// every type an algorithm macro ([`xts_helpers!`](crate::xts_helpers),
/// [`algorithm_helpers!`](crate::algorithm_helpers)) adds. Defines:
///
/// - `trait Dispatched`: a type with a backend choice (its algorithm's name, the backends
///   it implements and those it has here), implemented for `Aes`;
/// - `backends::<T>()`: the backends to test `T` on, every one it reports available
///   (portable last); fails (does not skip) when `SIMDCRYPT_REQUIRE` names a backend `T`
///   implements but that is missing (see [`backends_under_test`](crate::backends_under_test));
/// - `assert_unavailable_or_foreign_backend_errors::<T>(choose)`: `with_backend` (given as
///   `choose`, returning the chosen object's `backend()`) on every backend the crate
///   names takes an available one as asked; one `T` implements but this CPU lacks is
///   `BackendUnavailable`, any other `BackendNotForAlgorithm`.
#[macro_export]
macro_rules! backend_helpers {
    () => {
        /// A type with a backend choice: what the per-backend loop and the dispatch checks
        /// need.
        #[allow(dead_code)]
        trait Dispatched {
            const ALGORITHM: &'static str;
            fn implemented() -> &'static [::simdcrypt::Backend];
            fn available() -> impl Iterator<Item = ::simdcrypt::Backend>;
        }

        $crate::dispatched!(::simdcrypt::Aes: "AES");

        /// The per-backend loop: every backend `T` reports available. Fails (does not
        /// skip) when `SIMDCRYPT_REQUIRE` names a backend `T` implements but that is
        /// missing.
        #[allow(dead_code)]
        fn backends<T: Dispatched>() -> Vec<::simdcrypt::Backend> {
            $crate::backends_under_test(
                T::ALGORITHM,
                T::implemented(),
                T::available(),
                ::simdcrypt::Backend::Portable,
            )
        }

        /// `with_backend` (given as `choose`, returning the chosen object's `backend()`) on
        /// every backend the crate names: an available one is taken as asked, one `T`
        /// implements but this CPU lacks is `BackendUnavailable`, any other
        /// `BackendNotForAlgorithm`.
        #[allow(dead_code)]
        fn assert_unavailable_or_foreign_backend_errors<T: Dispatched>(
            choose: impl Fn(
                ::simdcrypt::Backend,
            ) -> Result<::simdcrypt::Backend, ::simdcrypt::Error>,
        ) {
            for &b in ::simdcrypt::all_backends() {
                let r = choose(b);
                if T::available().any(|x| x == b) {
                    assert_eq!(r.unwrap(), b, "{}", T::ALGORITHM);
                } else if T::implemented().contains(&b) {
                    assert_eq!(
                        r.unwrap_err(),
                        ::simdcrypt::Error::BackendUnavailable(b),
                        "{}",
                        T::ALGORITHM
                    );
                } else {
                    assert!(
                        matches!(
                            r.unwrap_err(),
                            ::simdcrypt::Error::BackendNotForAlgorithm { .. }
                        ),
                        "{} {b}",
                        T::ALGORITHM
                    );
                }
            }
        }
    };
}

/// `impl Dispatched for $t` (the trait of [`backend_helpers!`](crate::backend_helpers)),
/// `$name` in messages.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatched {
    ($t:ty: $name:literal) => {
        impl Dispatched for $t {
            const ALGORITHM: &'static str = $name;
            fn implemented() -> &'static [::simdcrypt::Backend] {
                <$t>::implemented_backends()
            }
            fn available() -> impl Iterator<Item = ::simdcrypt::Backend> {
                <$t>::available_backends()
            }
        }
    };
}

/// In the calling test crate, beside [`backend_helpers!`](crate::backend_helpers): the
/// per-backend loop for one of the types whose helpers are that loop alone
/// (`backends::<T>()`): `simdcrypt::Cbc`, `simdcrypt::Sha1` (whose backends the HMAC types
/// share), `simdcrypt::Sha1Dc` or `simdcrypt::CbcHmacSha1` (whose backends the Kerberos enctypes share), named
/// as the argument (`algorithm_helpers!(Cbc)`).
#[macro_export]
macro_rules! algorithm_helpers {
    (Cbc) => {
        $crate::dispatched!(::simdcrypt::Cbc: "CBC");
    };
    (Sha1) => {
        $crate::dispatched!(::simdcrypt::Sha1: "SHA-1");
    };
    (Sha1Dc) => {
        $crate::dispatched!(::simdcrypt::Sha1Dc: "SHA-1 with collision detection");
    };
    (CbcHmacSha1) => {
        $crate::dispatched!(::simdcrypt::CbcHmacSha1: "CBC-HMAC-SHA1");
    };
}

/// In the calling test crate, beside [`backend_helpers!`](crate::backend_helpers): the
/// per-backend loop for `simdcrypt::Xts` and the XTS checks. Defines:
///
/// - `backends::<Xts>()`, and `each_xts(key)`: `(backend, Xts keyed with key on it)` for
///   every backend under test;
/// - `assert_sector_forms(xts, numbering, size, pt, want, what)`: the four multi-sector
///   calls (in place and into a second buffer, each direction), sectors numbered by
///   `Numbering::From(first)` or `Numbering::With(tweaks)`;
/// - `assert_round_trips(xs, (form, size, tweaks), pt, want, what)`: a multi-unit call
///   under a tweak convention (`TweaksForm::Sectors` or `TweaksForm::Area`) on each of
///   `xs`, encrypting and back;
/// - `assert_units_alone(xts, pt, all, size, tweak, what)`: each unit, encrypted alone
///   under `tweak(i)`, is unit `i` of `all`;
/// - `c.tweaks()` for a [`Conv`](crate::xts::Conv): the convention as the library's
///   `Tweaks` (trait `ConvTweaks`).
#[macro_export]
macro_rules! xts_helpers {
    () => {
        $crate::dispatched!(::simdcrypt::Xts: "XTS");

        /// The per-backend loop for XTS: `(backend, Xts keyed with key on it)` for every
        /// backend under test.
        #[allow(dead_code)]
        fn each_xts(key: &[u8]) -> impl Iterator<Item = (::simdcrypt::Backend, ::simdcrypt::Xts)> {
            backends::<::simdcrypt::Xts>()
                .into_iter()
                .map(move |b| (b, ::simdcrypt::Xts::with_backend(key, b).unwrap()))
        }

        /// A convention of `simdcrypt_testkit::xts` as the library's `Tweaks`.
        #[allow(dead_code)]
        trait ConvTweaks {
            fn tweaks(&self) -> ::simdcrypt::xts::Tweaks;
        }

        impl ConvTweaks for $crate::xts::Conv {
            fn tweaks(&self) -> ::simdcrypt::xts::Tweaks {
                let t = ::simdcrypt::xts::Tweaks::new(self.first)
                    .step(self.step)
                    .wrap_bits(self.bits);
                if self.be { t.big_endian() } else { t }
            }
        }

        /// A multi-unit XTS call under a tweak convention.
        #[allow(dead_code)]
        #[derive(Clone, Copy, Debug)]
        enum TweaksForm {
            /// `encrypt_sectors_with` / `decrypt_sectors_with`: whole units.
            Sectors,
            /// `encrypt_area` / `decrypt_area`: a short last unit allowed.
            Area,
        }

        /// On each of `xs`, `form` in units of `size` under `t` encrypts a copy of `pt` to
        /// `want` and decrypts it back to `pt`; the messages name the backend and `what`.
        #[allow(dead_code)]
        fn assert_round_trips(
            xs: &[::simdcrypt::Xts],
            (form, size, t): (TweaksForm, usize, ::simdcrypt::xts::Tweaks),
            pt: &[u8],
            want: &[u8],
            what: &str,
        ) {
            for xts in xs {
                let what = format!("{} {form:?} {what}", xts.backend());
                let mut x = pt.to_vec();
                match form {
                    TweaksForm::Sectors => xts.encrypt_sectors_with(&mut x, size, t),
                    TweaksForm::Area => xts.encrypt_area(&mut x, size, t),
                }
                .unwrap();
                assert_eq!(x, want, "encrypt {what}");
                match form {
                    TweaksForm::Sectors => xts.decrypt_sectors_with(&mut x, size, t),
                    TweaksForm::Area => xts.decrypt_area(&mut x, size, t),
                }
                .unwrap();
                assert_eq!(x, pt, "decrypt {what}");
            }
        }

        /// Each `size`-byte unit of `pt`, encrypted alone under `tweak(i)`, is unit `i` of
        /// `all`.
        #[allow(dead_code)]
        fn assert_units_alone(
            xts: &::simdcrypt::Xts,
            pt: &[u8],
            all: &[u8],
            size: usize,
            tweak: impl Fn(usize) -> [u8; 16],
            what: &str,
        ) {
            assert_eq!(pt.len(), all.len(), "{what}");
            for (i, (unit, want)) in pt.chunks(size).zip(all.chunks(size)).enumerate() {
                let mut one = unit.to_vec();
                xts.encrypt_with_tweak(&mut one, &tweak(i)).unwrap();
                assert_eq!(one, want, "{what} unit {i}");
            }
        }

        /// How a multi-sector XTS call numbers its sectors.
        #[allow(dead_code)]
        #[derive(Clone, Copy, Debug)]
        enum Numbering {
            /// `encrypt_sectors` and the like: sector numbers counting up from this one.
            From(u128),
            /// `encrypt_sectors_with` and the like: this convention.
            With(::simdcrypt::xts::Tweaks),
        }

        /// All four multi-sector calls of `xts` on `pt` in sectors of `size`, numbered by
        /// `n`: in place and into a second buffer, each direction. Encryption must give
        /// `want`, decryption `pt` again.
        #[allow(dead_code)]
        fn assert_sector_forms(
            xts: &::simdcrypt::Xts,
            n: Numbering,
            size: usize,
            pt: &[u8],
            want: &[u8],
            what: &str,
        ) {
            use Numbering::{From, With};
            let run = |buf: &mut [u8], dec: bool| match (n, dec) {
                (From(f), false) => xts.encrypt_sectors(buf, size, f),
                (From(f), true) => xts.decrypt_sectors(buf, size, f),
                (With(t), false) => xts.encrypt_sectors_with(buf, size, t),
                (With(t), true) => xts.decrypt_sectors_with(buf, size, t),
            };
            let run_to = |src: &[u8], dst: &mut [u8], dec: bool| match (n, dec) {
                (From(f), false) => xts.encrypt_sectors_to(src, dst, size, f),
                (From(f), true) => xts.decrypt_sectors_to(src, dst, size, f),
                (With(t), false) => xts.encrypt_sectors_with_to(src, dst, size, t),
                (With(t), true) => xts.decrypt_sectors_with_to(src, dst, size, t),
            };
            let mut x = pt.to_vec();
            run(&mut x, false).unwrap();
            assert_eq!(x, want, "encrypt {what}");
            let mut y = vec![0u8; x.len()];
            run_to(&x, &mut y, true).unwrap();
            assert_eq!(y, pt, "decrypt_to {what}");
            let mut z = vec![0u8; x.len()];
            run_to(pt, &mut z, false).unwrap();
            assert_eq!(z, want, "encrypt_to {what}");
            run(&mut z, true).unwrap();
            assert_eq!(z, pt, "decrypt {what}");
        }
    };
}
