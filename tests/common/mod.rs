//! Shared by the integration tests (and, through `#[path]`, by `oracle/tests`): what needs
//! simdcrypt's types, over the machinery of `simdcrypt-testkit` (the vector reader, hex,
//! the test data generator and `SIMDCRYPT_REQUIRE`).
#![allow(dead_code)]

use proptest::prelude::*;
use simdcrypt::xts::Tweaks;
use simdcrypt::{Aes, Backend, Cbc, CbcHmacSha1, Error, Sha1, Xts};

/// AES keys of every valid length (16, 24 and 32 bytes).
pub fn aes_key() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(vec![16usize, 24, 32])
        .prop_flat_map(|n| prop::collection::vec(any::<u8>(), n))
}

/// HMAC-SHA1 keys shorter than, as long as and longer than a SHA-1 block (64 bytes).
pub fn hmac_key() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![0usize..64, Just(64usize), 65usize..200],
        any::<u8>(),
    )
        .prop_map(|(len, byte)| (0..len).map(|i| byte.wrapping_add(i as u8)).collect())
}

/// `nblocks` 16-byte blocks of a simple pattern that differs with `seed`.
pub fn pattern_blocks(nblocks: usize, seed: u8) -> Vec<u8> {
    (0..16 * nblocks)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

/// A CBC case: an AES key of any valid length, an IV, and `pattern_blocks` of up to 40
/// or up to 260 blocks.
pub fn cbc_case() -> impl Strategy<Value = (Vec<u8>, [u8; 16], Vec<u8>)> {
    (
        aes_key(),
        prop::array::uniform16(any::<u8>()),
        prop_oneof![0usize..=40, 0usize..=260],
        any::<u8>(),
    )
        .prop_map(|(key, iv, nblocks, seed)| (key, iv, pattern_blocks(nblocks, seed)))
}

/// An XTS key of 32 or 64 bytes with distinct halves, `bytes(seed, len)`, and its seed
/// (for the test's other data).
pub fn xts_key_and_seed() -> impl Strategy<Value = (Vec<u8>, u64)> {
    (prop::sample::select(vec![32usize, 64]), any::<u64>())
        .prop_map(|(len, seed)| (simdcrypt_testkit::bytes(seed, len), seed))
        .prop_filter("equal key halves", |(k, _)| {
            k[..k.len() / 2] != k[k.len() / 2..]
        })
}

/// RFC 3962 Appendix B: the AES-128 key ("chicken teriyaki") of its CBC ciphertext
/// stealing vectors (zero IV).
pub const RFC3962_KEY: &str = "636869636b656e207465726979616b69";

/// RFC 3962 Appendix B: (plaintext, ciphertext) in hex, the Kerberos CTS form (CBC-CS3).
pub const RFC3962_CTS: [(&str, &str); 6] = [
    (
        "4920776f756c64206c696b652074686520",
        "c6353568f2bf8cb4d8a580362da7ff7f97",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320",
        "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c2047617527732043",
        "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c",
        "97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e39312523a78662d5be7fcbcc98ebf5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20",
        "97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd839312523a78662d5be7fcbcc98ebf5a8",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20616e6420776f6e746f6e20736f75702e",
        "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a84807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8",
    ),
];

/// Backend names that `SIMDCRYPT_REQUIRE` says must be present.
pub fn required() -> Vec<Backend> {
    simdcrypt_testkit::required()
}

/// The backends to test an algorithm on: every one it reports available. Fails (does not
/// skip) when `SIMDCRYPT_REQUIRE` names a backend the algorithm implements but that is
/// missing from `available`.
pub fn backends_under_test(
    algorithm: &str,
    implemented: &[Backend],
    available: impl Iterator<Item = Backend>,
) -> Vec<Backend> {
    simdcrypt_testkit::backends_under_test(algorithm, implemented, available, Backend::Portable)
}

/// A type with a backend choice: what the per-backend loop and the dispatch checks need.
pub trait Dispatched {
    const ALGORITHM: &'static str;
    fn implemented() -> &'static [Backend];
    fn available() -> impl Iterator<Item = Backend>;
}

macro_rules! dispatched {
    ($($t:ty: $name:literal),* $(,)?) => {$(
        impl Dispatched for $t {
            const ALGORITHM: &'static str = $name;
            fn implemented() -> &'static [Backend] {
                <$t>::implemented_backends()
            }
            fn available() -> impl Iterator<Item = Backend> {
                <$t>::available_backends()
            }
        }
    )*};
}

dispatched!(Aes: "AES", Cbc: "CBC", Xts: "XTS", Sha1: "SHA-1", CbcHmacSha1: "CBC-HMAC-SHA1");

/// The per-backend loop: every backend `T` reports available (see `backends_under_test`).
pub fn backends<T: Dispatched>() -> Vec<Backend> {
    backends_under_test(T::ALGORITHM, T::implemented(), T::available())
}

/// The per-backend loop for XTS: `(backend, Xts keyed with key on it)` for every backend
/// under test.
pub fn each_xts(key: &[u8]) -> impl Iterator<Item = (Backend, Xts)> {
    backends::<Xts>()
        .into_iter()
        .map(move |b| (b, Xts::with_backend(key, b).unwrap()))
}

/// `with_backend` (given as `choose`, returning the chosen object's `backend()`) on every
/// backend the crate names: an available one is taken as asked, one `T` implements but
/// this CPU lacks is `BackendUnavailable`, any other `BackendNotForAlgorithm`.
pub fn unavailable_or_foreign_backend_is_an_error<T: Dispatched>(
    choose: impl Fn(Backend) -> Result<Backend, Error>,
) {
    for &b in simdcrypt::all_backends() {
        let r = choose(b);
        if T::available().any(|x| x == b) {
            assert_eq!(r.unwrap(), b, "{}", T::ALGORITHM);
        } else if T::implemented().contains(&b) {
            assert_eq!(
                r.unwrap_err(),
                Error::BackendUnavailable(b),
                "{}",
                T::ALGORITHM
            );
        } else {
            assert!(
                matches!(r.unwrap_err(), Error::BackendNotForAlgorithm { .. }),
                "{} {b}",
                T::ALGORITHM
            );
        }
    }
}

/// A multi-unit XTS call under a tweak convention.
#[derive(Clone, Copy, Debug)]
pub enum TweaksForm {
    /// `encrypt_sectors_with` / `decrypt_sectors_with`: whole units.
    Sectors,
    /// `encrypt_area` / `decrypt_area`: a short last unit allowed.
    Area,
}

/// On each of `xs`, `form` in units of `size` under `t` encrypts a copy of `pt` to `want`
/// and decrypts it back to `pt`; the messages name the backend and `what`.
pub fn assert_round_trips(
    xs: &[Xts],
    (form, size, t): (TweaksForm, usize, Tweaks),
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

/// Each `size`-byte unit of `pt`, encrypted alone under `tweak(i)`, is unit `i` of `all`.
pub fn assert_units_alone(
    xts: &Xts,
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
#[derive(Clone, Copy, Debug)]
pub enum Numbering {
    /// `encrypt_sectors` and the like: sector numbers counting up from this one.
    From(u128),
    /// `encrypt_sectors_with` and the like: this convention.
    With(Tweaks),
}

/// All four multi-sector calls of `xts` on `pt` in sectors of `size`, numbered by `n`: in
/// place and into a second buffer, each direction. Encryption must give `want`, decryption
/// `pt` again.
pub fn assert_sector_forms(
    xts: &Xts,
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
