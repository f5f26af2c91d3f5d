//! The algorithms and their contenders: simdcrypt's backends, OpenSSL and RustCrypto.
//!
//! Table-driven: [`catalog`] lists every algorithm with its family, key length, direction,
//! stream count and ceiling; [`Algorithm::make`] builds a [`Runner`] for one contender and
//! one message size. Adding simdcrypt's rows for a family is one arm in `make` plus its
//! `backends` and `auto`.

use std::hint::black_box;

use aes::cipher::array::Array;
use aes::cipher::consts::U16;
use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser,
    InnerIvInit, KeyInit, KeyIvInit,
};
use simdcrypt::{Aes, Backend};

use crate::ceiling::Ceiling;
use crate::keysetup::{self, OursKeyed};
use crate::measure::Runner;

/// Who implements a contender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// simdcrypt on a backend (`None`: through RustCrypto's traits, `simdcrypt::Sha1` as
    /// the digest of `hmac` and `pbkdf2`, which have no backend parameter and run on the
    /// automatic choice; labelled `simdcrypt-trait`).
    Simdcrypt(Option<Backend>),
    /// OpenSSL's libcrypto through the C shim (the system's, or a vendored build).
    OpenSsl,
    /// AWS-LC through `aws-lc-rs`.
    AwsLc,
    /// simdcrypt's `par_encrypt_sectors` on a rayon pool of this many threads (automatic
    /// backend).
    Par(u16),
    /// The RustCrypto crates (`aes`, `xts-mode`, `cbc`, `sha1`, `hmac`).
    RustCrypto,
    /// The `sha1dc` crate (SIMD SHA-1 with collision detection; the `sha1dc` rows only).
    Sha1DcCrate,
    /// The `sha1collisiondetection` crate (the authors' C, ported to Rust; the `sha1dc`
    /// rows only).
    Sha1Cd,
}

impl Who {
    /// The backend column: a simdcrypt backend name, `auto`, `openssl` or `rustcrypto`.
    pub fn backend_name(self) -> &'static str {
        match self {
            Who::Simdcrypt(Some(b)) => b.name(),
            Who::Simdcrypt(None) => "simdcrypt-trait",
            Who::OpenSsl => "openssl",
            Who::AwsLc => "aws-lc",
            Who::Par(n) => par_name(n),
            Who::RustCrypto => "rustcrypto",
            Who::Sha1DcCrate => "sha1dc",
            Who::Sha1Cd => "sha1collisiondetection",
        }
    }

    /// `simdcrypt`, `openssl`, `aws-lc`, `rustcrypto`, `sha1dc` or `sha1collisiondetection`.
    pub fn implementation(self) -> &'static str {
        match self {
            Who::Simdcrypt(_) | Who::Par(_) => "simdcrypt",
            Who::OpenSsl => "openssl",
            Who::AwsLc => "aws-lc",
            Who::RustCrypto => "rustcrypto",
            Who::Sha1DcCrate => "sha1dc",
            Who::Sha1Cd => "sha1collisiondetection",
        }
    }

    /// Whether this is a peer (not simdcrypt).
    pub fn is_peer(self) -> bool {
        !matches!(self, Who::Simdcrypt(_) | Who::Par(_))
    }
}

/// `par-N`, the backend column of [`Who::Par`].
fn par_name(n: u16) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| (0..=1024).map(|i| format!("par-{i}")).collect());
    names.get(usize::from(n)).map_or("par-many", String::as_str)
}

/// The thread counts of the `par_*` sweep up to `n`: every count up to 8, then doublings
/// and `n` itself.
pub fn par_threads(n: usize) -> Vec<u16> {
    let mut v: Vec<usize> = (1..=n.min(8)).collect();
    let mut k = 16;
    while k < n {
        v.push(k);
        k *= 2;
    }
    if n > 8 {
        v.push(n);
    }
    v.into_iter().map(|k| k.min(1024) as u16).collect()
}

/// Every peer, in the order of the ratio columns.
pub const PEERS: [Who; 5] = [
    Who::OpenSsl,
    Who::AwsLc,
    Who::RustCrypto,
    Who::Sha1DcCrate,
    Who::Sha1Cd,
];

/// The peers compiled into this build (OpenSSL only where the oracle crate found it).
pub fn peers_built() -> Vec<Who> {
    let mut v = Vec::new();
    if openssl_built() {
        v.push(Who::OpenSsl);
    }
    if cfg!(feature = "aws-lc") {
        v.push(Who::AwsLc);
    }
    v.push(Who::RustCrypto);
    v.push(Who::Sha1DcCrate);
    v.push(Who::Sha1Cd);
    v
}

/// AWS-LC's own version string (`AWS-LC 5.12.0`), where it is built in.
pub fn aws_lc_version() -> Option<String> {
    #[cfg(feature = "aws-lc")]
    return Some(format!("AWS-LC {}", aws_lc_rs::awslc_version()));
    #[cfg(not(feature = "aws-lc"))]
    None
}

/// Whether OpenSSL is linked in: the `openssl` feature, and the oracle crate found it.
pub fn openssl_built() -> bool {
    #[cfg(feature = "openssl")]
    return simdcrypt_oracle::openssl::available();
    #[cfg(not(feature = "openssl"))]
    false
}

/// Kinds of algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// AES on independent blocks (`Aes::encrypt_blocks`).
    Ecb,
    /// AES-XTS, one data unit per message.
    Xts,
    /// AES-XTS over many consecutive 512-byte data units per call (`size` is the total).
    XtsSectors,
    /// AES-CBC, one chain.
    Cbc,
    /// AES-CBC encryption of several independent streams at once.
    CbcMany,
    /// SHA-1 of one message.
    Sha1,
    /// SHA-1 of several independent messages at once.
    Sha1Many,
    /// SHA-1 with collision detection of one message (`sha1dc` on the automatic backend,
    /// `sha1dc_with` on the others; the `sha1dc` and `sha1collisiondetection` crates' one-shot
    /// digests). The ceiling is plain SHA-1 (`simdcrypt::sha1`) of the same message.
    Sha1Dc,
    /// SHA-1 with collision detection of several independent messages per run
    /// (`sha1dc_many` on the automatic backend, `sha1dc_many_with` on the others; the peers
    /// one message after another). The ceiling is plain
    /// `simdcrypt::sha1_many` of the same messages.
    Sha1DcMany,
    /// HMAC-SHA1 of one message, keyed per message (each library's one-shot call where it
    /// has one: `hmac_sha1`, OpenSSL's `HMAC()`, AWS-LC's `hmac::Key::new` then `sign`;
    /// RustCrypto's `new_from_slice`, `update`, `finalize`).
    HmacSha1,
    /// HMAC-SHA1 of one message through RustCrypto's traits, keyed per message:
    /// `hmac::Hmac::<D>::new_from_slice`, `update`, `finalize`, with `D` simdcrypt's `Sha1`
    /// (its `digest` traits, on the automatic backend: the `simdcrypt-trait` contender) or
    /// RustCrypto's `sha1::Sha1`. What a user of the `hmac` crate gets from simdcrypt.
    HmacSha1Trait,
    /// PBKDF2-HMAC-SHA1 of a 20-byte output (one block): `pbkdf2::pbkdf2_hmac::<D>`, `D` as
    /// in [`Family::HmacSha1Trait`], and simdcrypt's own on each backend, keying an
    /// `HmacSha1Key` with the password and chaining its `mac` (per call, as `pbkdf2_hmac`
    /// keys per call). `size` is the iteration count, and a run counts
    /// [`PBKDF2_BYTES_PER_ITERATION`] bytes an iteration (two one-block compressions), so
    /// that the figures are SHA-1 throughput, comparable with the one-stream ceiling.
    Pbkdf2HmacSha1,
    /// HMAC-SHA1 of one message under a key set up once (`HmacSha1Key::mac`; RustCrypto's
    /// keyed `Hmac` cloned per message; AWS-LC's `hmac::Key` reused; OpenSSL's shim has
    /// no kept key, so no OpenSSL row).
    HmacSha1Keyed,
    /// AES-XTS over 4 KiB data units through `par_encrypt_sectors`, from 1 to `--threads`
    /// threads (only with `--threads` above 1 and the `rayon` feature).
    XtsPar,
    /// AES-CBC and HMAC-SHA1 of the plaintext in one pass (`CbcHmacSha1::seal`/`open`,
    /// whole blocks); `key_len` is the AES key's. The output is the ciphertext and the tag
    /// (seal) or the plaintext (open). The peers do the same work with their CBC and an
    /// HMAC keyed once (`OsslCbcHmac`, `AwsCbcHmac`, `RcCbcHmac`).
    CbcHmacSha1,
    /// Kerberos `aes256-cts-hmac-sha1-96` encrypt/decrypt of one message (confounder,
    /// CBC-CS3, HMAC-SHA1-96): the automatic contender through the base key's
    /// `encrypt(usage, ..)` (usage keys derived per message), the other backends under kept
    /// per-usage keys (on a non-stitched backend, the sequential composition).
    Krb5,
    /// AES key setup (`Aes::new`: encryption and decryption round keys; RustCrypto's
    /// `Aes128::new`/`Aes256::new`, the same; OpenSSL's `EVP_EncryptInit_ex` and AWS-LC's
    /// `EncryptingKey::ecb`: encryption keys only). One key per run, size 1: keys per second.
    AesKey,
    /// CBC key setup (`Cbc::new`: encryption and decryption round keys; RustCrypto's
    /// `cbc::Encryptor<Aes128>::new`, an `Aes128` with both; OpenSSL's
    /// `EVP_EncryptInit_ex` on AES-128-CBC: encryption keys only).
    CbcKey,
    /// XTS key setup (`Xts::new`; RustCrypto: two `Aes256` in an `Xts128`; OpenSSL:
    /// `EVP_EncryptInit_ex` on AES-256-XTS).
    XtsKey,
    /// Kerberos `Aes256CtsHmacSha196::new` then `usage_keys` (RustCrypto: the same
    /// derivations and keyed primitives composed, `keysetup::RcKrb5`).
    Krb5Keys,
}

impl Family {
    /// Whether simdcrypt's automatic contender is the route through RustCrypto's traits
    /// (`Who::Simdcrypt(None)`), whatever other simdcrypt rows run beside it.
    pub fn is_trait_route(self) -> bool {
        matches!(self, Family::HmacSha1Trait | Family::Pbkdf2HmacSha1)
    }

    /// Whether AWS-LC (through aws-lc-rs) runs the family: it has no XTS, no stitched
    /// CBC-HMAC or Kerberos API, no CBC key row, and no route through RustCrypto's traits.
    pub fn aws_lc_runs(self) -> bool {
        !matches!(
            self,
            Family::Xts
                | Family::XtsSectors
                | Family::XtsPar
                | Family::Krb5
                | Family::XtsKey
                | Family::CbcKey
                | Family::Krb5Keys
                | Family::HmacSha1Trait
                | Family::Pbkdf2HmacSha1
                | Family::Sha1Dc
                | Family::Sha1DcMany
        )
    }

    /// Whether the family times key setup (one key per run, [`KEY_SETUP_SIZE`]).
    pub fn is_key_setup(self) -> bool {
        matches!(
            self,
            Family::AesKey | Family::CbcKey | Family::XtsKey | Family::Krb5Keys
        )
    }
}

/// The iteration counts `pbkdf2-hmac-sha1` is measured at by default (its `size`): one (the
/// keying and the salt's blocks dominate) to 16384; 4096 is WPA2's.
pub const PBKDF2_ITERATIONS: [usize; 5] = [1, 64, 1024, 4096, 16384];
/// The most iterations `pbkdf2-hmac-sha1` takes (a `--sweep` stops there: past a few
/// thousand the figure no longer moves, and a call takes milliseconds).
pub const PBKDF2_MAX_ITERATIONS: usize = 1 << 16;
/// The bytes an iteration of PBKDF2-HMAC-SHA1 counts: one 64-byte block through the inner
/// hash and one through the outer.
pub const PBKDF2_BYTES_PER_ITERATION: usize = 2 * 64;

/// The one size of the key-setup algorithms: a run is one key, counted as one byte, so
/// that bytes per second are keys per second.
pub const KEY_SETUP_SIZE: usize = 1;

/// One algorithm of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algorithm {
    /// Its name, as `--alg` takes it.
    pub name: &'static str,
    /// Its kind.
    pub family: Family,
    /// Key bytes (0 for SHA-1; the HMAC key length for HMAC).
    pub key_len: usize,
    /// Encrypt (true) or decrypt.
    pub encrypt: bool,
    /// Independent messages per call; `size` is per message.
    pub streams: usize,
    /// What bounds it.
    pub ceiling: Ceiling,
}

/// The stream count of the many-stream algorithms.
pub const MANY: usize = 8;

/// The sizes every algorithm is measured at, as `openssl speed` prints them.
pub const SIZES: [usize; 6] = [16, 64, 256, 1024, 8192, 16384];
/// The extra size for XTS: one 4 KiB data unit (a disk sector of today).
pub const XTS_SECTOR: usize = 4096;
/// The data unit of the `-sectors` XTS algorithms: the classic 512-byte disk sector.
pub const SMALL_SECTOR: usize = 512;
/// The sizes of the `-par` algorithms: from `Xts::PAR_THRESHOLD` (1 MiB) up.
pub const PAR_SIZES: [usize; 3] = [1 << 20, 4 << 20, 16 << 20];

const fn alg(
    name: &'static str,
    family: Family,
    key_len: usize,
    encrypt: bool,
    streams: usize,
    ceiling: Ceiling,
) -> Algorithm {
    Algorithm {
        name,
        family,
        key_len,
        encrypt,
        streams,
        ceiling,
    }
}

/// `alg` with `streams` streams (a many-stream algorithm; `--streams`): the catalog's entry
/// at [`MANY`], else a copy named `<name>-x<streams>` (made once per process and kept).
pub fn with_streams(alg: &'static Algorithm, streams: usize) -> &'static Algorithm {
    use std::sync::Mutex;
    static MADE: Mutex<Vec<&'static Algorithm>> = Mutex::new(Vec::new());
    if alg.streams <= 1 || streams == alg.streams {
        return alg;
    }
    let name = format!("{}-x{streams}", alg.name);
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(a) = made.iter().find(|a| a.name == name) {
        return a;
    }
    let a: &'static Algorithm = Box::leak(Box::new(Algorithm {
        name: Box::leak(name.into_boxed_str()),
        streams,
        ceiling: match alg.ceiling {
            Ceiling::Sha1Lanes(_) => Ceiling::Sha1Lanes(streams as u32),
            Ceiling::PlainSha1(_) => Ceiling::PlainSha1(streams as u32),
            c => c,
        },
        ..*alg
    }));
    made.push(a);
    a
}

/// The catalog's algorithm that `name` is, or is a `--streams` copy of.
pub fn base(name: &str) -> Option<&'static Algorithm> {
    let base = match name.rsplit_once("-x") {
        Some((b, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => b,
        _ => name,
    };
    catalog().iter().find(|a| a.name == base)
}

/// Every algorithm, in the order the tool runs them.
pub fn catalog() -> &'static [Algorithm] {
    use Ceiling::*;
    use Family::*;
    // A table: one algorithm a line.
    #[rustfmt::skip]
    const CATALOG: &[Algorithm] = &[
        alg("aes-128-ecb-enc", Ecb, 16, true, 1, Parallel(10)),
        alg("aes-256-ecb-enc", Ecb, 32, true, 1, Parallel(14)),
        alg("aes-128-ecb-dec", Ecb, 16, false, 1, Parallel(10)),
        alg("aes-256-ecb-dec", Ecb, 32, false, 1, Parallel(14)),
        alg("aes-128-xts-enc", Xts, 32, true, 1, Parallel(10)),
        alg("aes-128-xts-dec", Xts, 32, false, 1, Parallel(10)),
        alg("aes-256-xts-enc", Xts, 64, true, 1, Parallel(14)),
        alg("aes-256-xts-dec", Xts, 64, false, 1, Parallel(14)),
        alg("aes-128-xts-enc-sectors", XtsSectors, 32, true, 1, Parallel(10)),
        alg("aes-256-xts-enc-sectors", XtsSectors, 64, true, 1, Parallel(14)),
        alg("aes-128-cbc-enc", Cbc, 16, true, 1, Chained(10)),
        alg("aes-128-cbc-dec", Cbc, 16, false, 1, Parallel(10)),
        alg("aes-192-cbc-enc", Cbc, 24, true, 1, Chained(12)),
        alg("aes-192-cbc-dec", Cbc, 24, false, 1, Parallel(12)),
        alg("aes-256-cbc-enc", Cbc, 32, true, 1, Chained(14)),
        alg("aes-256-cbc-dec", Cbc, 32, false, 1, Parallel(14)),
        alg("aes-128-cbc-enc-many", CbcMany, 16, true, MANY, Parallel(10)),
        alg("sha1", Sha1, 0, true, 1, Sha1Latency),
        alg("sha1-many", Sha1Many, 0, true, MANY, Sha1Lanes(MANY as u32)),
        alg("sha1dc", Sha1Dc, 0, true, 1, PlainSha1(1)),
        alg("sha1dc-many", Sha1DcMany, 0, true, MANY, PlainSha1(MANY as u32)),
        alg("hmac-sha1", HmacSha1, 20, true, 1, Sha1Latency),
        alg("hmac-sha1-keyed", HmacSha1Keyed, 20, true, 1, Sha1Latency),
        alg("hmac-sha1-trait", HmacSha1Trait, 20, true, 1, Sha1Latency),
        alg("pbkdf2-hmac-sha1", Pbkdf2HmacSha1, 20, true, 1, Sha1Latency),
        alg("aes-128-xts-enc-par", XtsPar, 32, true, 1, Ceiling::None),
        alg("aes-256-xts-enc-par", XtsPar, 64, true, 1, Ceiling::None),
        alg("aes-128-cbc-hmac-sha1-seal", CbcHmacSha1, 16, true, 1, Chained(10)),
        alg("aes-128-cbc-hmac-sha1-open", CbcHmacSha1, 16, false, 1, Sha1Latency),
        alg("aes-256-cbc-hmac-sha1-seal", CbcHmacSha1, 32, true, 1, Chained(14)),
        alg("aes-256-cbc-hmac-sha1-open", CbcHmacSha1, 32, false, 1, Sha1Latency),
        alg("krb5-aes256-encrypt", Krb5, 32, true, 1, Chained(14)),
        alg("krb5-aes256-decrypt", Krb5, 32, false, 1, Sha1Latency),
        alg("aes-128-key", AesKey, 16, true, 1, Ceiling::None),
        alg("aes-256-key", AesKey, 32, true, 1, Ceiling::None),
        alg("cbc-128-key", CbcKey, 16, true, 1, Ceiling::None),
        alg("xts-256-key", XtsKey, 64, true, 1, Ceiling::None),
        alg("krb5-usage-keys", Krb5Keys, 32, true, 1, Ceiling::None),
    ];
    CATALOG
}

/// Whether `pattern` selects the algorithm `name`: `all`, or its `-`-separated words
/// appear contiguously in the name (`xts`, `aes-128`, `cbc-enc`, `aes-256-xts-dec`).
pub fn selects(pattern: &str, name: &str) -> bool {
    if pattern == "all" {
        return true;
    }
    let p: Vec<&str> = pattern.split('-').collect();
    let n: Vec<&str> = name.split('-').collect();
    p.iter().all(|w| !w.is_empty()) && n.windows(p.len()).any(|w| w == p.as_slice())
}

/// The algorithms that `patterns` select, in catalog order: an exact name selects that
/// algorithm alone, any other pattern every algorithm it [`selects`]. An unknown pattern
/// is an error that names the closest algorithm and lists them all.
pub fn select<S: AsRef<str>>(patterns: &[S]) -> Result<Vec<&'static Algorithm>, String> {
    let pats: Vec<&str> = patterns
        .iter()
        .map(|p| p.as_ref().trim())
        .filter(|p| !p.is_empty())
        .collect();
    if pats.is_empty() {
        return Err("--alg: no algorithm given".into());
    }
    let names: Vec<&str> = catalog().iter().map(|a| a.name).collect();
    for p in &pats {
        if !names.iter().any(|n| selects(p, n)) {
            let closest = names
                .iter()
                .map(|n| (strsim::jaro_winkler(p, n), *n))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .filter(|(score, _)| *score > 0.8)
                .map(|(_, n)| format!(" (did you mean {n:?}?)"))
                .unwrap_or_default();
            return Err(format!(
                "unknown algorithm {p:?}{closest}; known: {} (or a word of them, or `all`)",
                names.join(", ")
            ));
        }
    }
    Ok(catalog()
        .iter()
        .filter(|a| {
            pats.iter().any(|p| {
                if names.contains(p) {
                    *p == a.name
                } else {
                    selects(p, a.name)
                }
            })
        })
        .collect())
}

/// Deterministic key bytes (the two XTS halves differ).
pub fn key(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// Deterministic message bytes, with no period: a SplitMix64 stream from `seed`. SHA-1
/// with collision detection branches on its input (about one random block in 20 goes to
/// the recompression tests, and the filter's later rows run for the disturbance vectors
/// its first ones leave), so a repeating pattern would let the branch predictor learn the
/// input; the other algorithms do not look at the bytes.
pub fn message(len: usize, seed: usize) -> Vec<u8> {
    let mut x = (seed as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The sizes of the `krb5-*` algorithms: 64 B to 64 KiB.
pub const KRB5_SIZES: [usize; 6] = [64, 256, 1024, 8192, 16384, 65536];
/// The HMAC key of the `*-cbc-hmac-sha1-*` algorithms.
pub fn mac_key() -> Vec<u8> {
    message(20, 99)
}
/// The Kerberos key usage of the `krb5-*` algorithms (GSS wrap, acceptor seal).
pub const KRB5_USAGE: u32 = 22;

/// The salt of `pbkdf2-hmac-sha1` (16 bytes, as a caller draws one; the password is
/// [`key`]`(20)`).
pub fn pbkdf2_salt() -> Vec<u8> {
    message(16, 7)
}

/// The XTS data unit number every message uses (its tweak, little-endian).
pub const SECTOR: u128 = 0x0123_4567_89ab_cdef_1122_3344_5566_7788;
/// The CBC IV of stream `i`.
pub fn iv(i: usize) -> [u8; 16] {
    core::array::from_fn(|j| (0xa0 ^ (j * 5) ^ (i * 17)) as u8)
}

impl Algorithm {
    /// The sizes measured by default.
    pub fn default_sizes(&self) -> Vec<usize> {
        if self.family == Family::XtsPar {
            return PAR_SIZES.to_vec();
        }
        if self.family == Family::Krb5 {
            return KRB5_SIZES.to_vec();
        }
        if self.family.is_key_setup() {
            return vec![KEY_SETUP_SIZE];
        }
        if self.family == Family::Pbkdf2HmacSha1 {
            return PBKDF2_ITERATIONS.to_vec();
        }
        let mut v: Vec<usize> = SIZES.into_iter().filter(|&s| self.size_ok(s)).collect();
        if matches!(self.family, Family::Xts | Family::XtsSectors) {
            v.push(XTS_SECTOR);
            v.sort_unstable();
        }
        v
    }

    /// Whether a message of `size` bytes is valid for the algorithm.
    pub fn size_ok(&self, size: usize) -> bool {
        match self.family {
            Family::Ecb | Family::Cbc | Family::CbcMany => size > 0 && size.is_multiple_of(16),
            Family::Xts => (16..=1 << 24).contains(&size),
            Family::XtsSectors => size > 0 && size.is_multiple_of(SMALL_SECTOR),
            Family::XtsPar => size > 0 && size.is_multiple_of(XTS_SECTOR),
            Family::Sha1
            | Family::Sha1Many
            | Family::Sha1Dc
            | Family::Sha1DcMany
            | Family::HmacSha1
            | Family::HmacSha1Keyed
            | Family::HmacSha1Trait
            | Family::Krb5 => size > 0,
            Family::Pbkdf2HmacSha1 => (1..=PBKDF2_MAX_ITERATIONS).contains(&size),
            Family::CbcHmacSha1 => size > 0 && size.is_multiple_of(16),
            Family::AesKey | Family::CbcKey | Family::XtsKey | Family::Krb5Keys => {
                size == KEY_SETUP_SIZE
            }
        }
    }

    /// AES rounds (10, 12, 14), or 0 for SHA-1.
    pub fn rounds(&self) -> u32 {
        match self.family {
            Family::Xts | Family::XtsSectors | Family::XtsPar | Family::XtsKey => {
                (self.key_len / 2 / 4 + 6) as u32
            }
            Family::Ecb
            | Family::Cbc
            | Family::CbcMany
            | Family::CbcHmacSha1
            | Family::Krb5
            | Family::AesKey
            | Family::CbcKey
            | Family::Krb5Keys => (self.key_len / 4 + 6) as u32,
            _ => 0,
        }
    }

    /// Bytes one `process_one` processes (for PBKDF2, whose `size` is the iteration count, the
    /// bytes its iterations compress).
    pub fn bytes(&self, size: usize) -> usize {
        match self.family {
            Family::Pbkdf2HmacSha1 => size * PBKDF2_BYTES_PER_ITERATION,
            _ => size * self.streams,
        }
    }

    /// simdcrypt's contenders on this CPU, best first.
    pub fn backends(&self) -> Vec<Option<Backend>> {
        match self.family {
            Family::Ecb | Family::AesKey => Aes::available_backends().map(Some).collect(),
            Family::Cbc | Family::CbcMany | Family::CbcKey => {
                simdcrypt::Cbc::available_backends().map(Some).collect()
            }
            Family::Xts | Family::XtsSectors | Family::XtsKey => {
                simdcrypt::Xts::available_backends().map(Some).collect()
            }
            // The `par-N` contenders, chosen by `--threads`.
            Family::XtsPar => Vec::new(),
            Family::Sha1 | Family::Sha1Many | Family::HmacSha1 | Family::HmacSha1Keyed => {
                simdcrypt::Sha1::available_backends().map(Some).collect()
            }
            Family::Sha1Dc | Family::Sha1DcMany => {
                simdcrypt::Sha1Dc::available_backends().map(Some).collect()
            }
            // The trait route alone: `Hmac<simdcrypt::Sha1>` has no backend parameter.
            Family::HmacSha1Trait => vec![None],
            // The trait route, then simdcrypt's own PBKDF2 on each backend.
            Family::Pbkdf2HmacSha1 => std::iter::once(None)
                .chain(simdcrypt::Sha1::available_backends().map(Some))
                .collect(),
            Family::CbcHmacSha1 | Family::Krb5 | Family::Krb5Keys => {
                simdcrypt::CbcHmacSha1::available_backends()
                    .map(Some)
                    .collect()
            }
        }
    }

    /// The backend simdcrypt picks automatically (`None`: no simdcrypt implementation yet,
    /// or an API without a backend parameter).
    pub fn auto(&self) -> Option<Backend> {
        match self.family {
            Family::Ecb | Family::AesKey => Aes::new(&key(self.key_len)).ok().map(|a| a.backend()),
            Family::Xts | Family::XtsSectors | Family::XtsPar | Family::XtsKey => {
                simdcrypt::Xts::new(&key(self.key_len))
                    .ok()
                    .map(|x| x.backend())
            }
            Family::Cbc | Family::CbcMany | Family::CbcKey => {
                simdcrypt::Cbc::new(&key(self.key_len))
                    .ok()
                    .map(|c| c.backend())
            }
            // `sha1_many` has its own automatic choice of multi-lane kernel.
            Family::Sha1Many => Some(simdcrypt::sha1::sha1_many_backend()),
            // `sha1dc` and `sha1dc_many` run on `Sha1Dc::new`'s choice.
            Family::Sha1Dc | Family::Sha1DcMany => Some(simdcrypt::Sha1Dc::new().backend()),
            // `HmacSha1::new` uses SHA-1's automatic choice, and so do the digest traits.
            Family::Sha1
            | Family::HmacSha1
            | Family::HmacSha1Keyed
            | Family::HmacSha1Trait
            | Family::Pbkdf2HmacSha1 => Some(simdcrypt::Sha1::new().backend()),
            Family::CbcHmacSha1 | Family::Krb5 | Family::Krb5Keys => {
                simdcrypt::CbcHmacSha1::new(&key(self.key_len), &mac_key())
                    .ok()
                    .map(|c| c.backend())
            }
        }
    }

    /// Every contender on this CPU: simdcrypt's backends, then the peers built in.
    pub fn contenders(&self) -> Vec<Who> {
        let mut v: Vec<Who> = self.backends().into_iter().map(Who::Simdcrypt).collect();
        for p in peers_built() {
            if self.has_peer(p) {
                v.push(p);
            }
        }
        v
    }

    fn has_peer(&self, who: Who) -> bool {
        match who {
            // The CBC-HMAC rows: EVP CBC and a kept-key HMAC (`OsslCbcHmac`).
            Who::OpenSsl => !matches!(
                self.family,
                Family::Ecb
                    | Family::Krb5
                    | Family::XtsPar
                    | Family::HmacSha1Keyed
                    | Family::HmacSha1Trait
                    | Family::Pbkdf2HmacSha1
                    | Family::Krb5Keys
                    | Family::Sha1Dc
                    | Family::Sha1DcMany
            ),
            // (Its key rows: `aes-*-key`, ECB keys.)
            Who::AwsLc => self.family.aws_lc_runs(),
            // RustCrypto's `sha1` has no collision detection.
            Who::RustCrypto => !matches!(
                self.family,
                Family::Krb5 | Family::XtsPar | Family::Sha1Dc | Family::Sha1DcMany
            ),
            Who::Sha1DcCrate | Who::Sha1Cd => {
                matches!(self.family, Family::Sha1Dc | Family::Sha1DcMany)
            }
            Who::Simdcrypt(_) | Who::Par(_) => false,
        }
    }

    /// A runner for `who` at `size` bytes per message, or `None` if `who` cannot run it.
    pub fn make(&self, who: Who, size: usize) -> Option<Box<dyn Runner>> {
        if !self.size_ok(size) {
            return None;
        }
        let k = key(self.key_len);
        match who {
            Who::Simdcrypt(b) => self.make_simdcrypt(b, &k, size),
            Who::OpenSsl => self.make_openssl(&k, size),
            Who::AwsLc => self.make_awslc(&k, size),
            Who::Par(n) => self.make_par(n, &k, size),
            Who::RustCrypto => self.make_rustcrypto(&k, size),
            Who::Sha1DcCrate | Who::Sha1Cd => self.make_sha1dc_peer(who, size),
        }
    }

    /// The collision-detecting peers: each message in turn through the crate's one-shot
    /// digest (`sha1dc::digest`; `sha1collisiondetection`'s `Sha1CD` in its default
    /// safe-hash mode, `update` then `finalize_into_dirty_cd`), the plain digest out.
    fn make_sha1dc_peer(&self, who: Who, size: usize) -> Option<Box<dyn Runner>> {
        if !matches!(self.family, Family::Sha1Dc | Family::Sha1DcMany) {
            return None;
        }
        let streams = self.streams;
        match who {
            Who::Sha1DcCrate => Some(Sha1Each::boxed(size, streams, |m, o| {
                let d = sha1dc::digest(m).unwrap_or_else(|c| c.digest());
                o.copy_from_slice(d.as_ref());
            })),
            Who::Sha1Cd => Some(Sha1Each::boxed(size, streams, |m, o| {
                use sha1collisiondetection::{Output, Sha1CD};
                let mut h = Sha1CD::default();
                h.update(m);
                let mut d = Output::default();
                black_box(h.finalize_into_dirty_cd(&mut d).is_ok());
                o.copy_from_slice(&d);
            })),
            _ => None,
        }
    }

    fn make_simdcrypt(&self, b: Option<Backend>, k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        // The key-setup rows key with `new` where the backend is the automatic choice.
        let auto = b == self.auto();
        match self.family {
            Family::Ecb => {
                let aes = match b {
                    Some(b) => Aes::with_backend(k, b).ok()?,
                    None => Aes::new(k).ok()?,
                };
                let blocks = to_blocks(&message(size, 0));
                Some(Box::new(Ecb {
                    c: aes,
                    blocks,
                    encrypt: self.encrypt,
                }))
            }
            Family::Xts => Some(Box::new(OursXts {
                xts: simdcrypt::Xts::with_backend(k, b?).ok()?,
                buf: message(size, 0),
                encrypt: self.encrypt,
            })),
            Family::XtsPar => None,
            Family::XtsSectors => Some(Box::new(OursXtsSectors {
                xts: simdcrypt::Xts::with_backend(k, b?).ok()?,
                buf: message(size, 0),
            })),
            Family::Cbc => Some(Box::new(OursCbc {
                cbc: simdcrypt::Cbc::with_backend(k, b?).ok()?,
                iv: iv(0),
                buf: message(size, 0),
                encrypt: self.encrypt,
            })),
            Family::CbcMany => Some(Box::new(OursCbcMany {
                cbc: simdcrypt::Cbc::with_backend(k, b?).ok()?,
                ivs: (0..self.streams).map(iv).collect(),
                buf: messages(size, self.streams),
                size,
            })),
            Family::Sha1 => {
                let backend = b?;
                simdcrypt::Sha1::with_backend(backend).ok()?;
                Some(Box::new(OursSha1 {
                    backend,
                    msg: message(size, 0),
                    out: [0; 20],
                }))
            }
            Family::Sha1Many => {
                let backend = b?;
                let mut r = OursSha1Many {
                    backend,
                    automatic: backend == simdcrypt::sha1::sha1_many_backend(),
                    msgs: messages(size, self.streams),
                    size,
                    out: vec![[0; 20]; self.streams],
                };
                r.try_run().ok()?;
                Some(Box::new(r))
            }
            Family::Sha1Dc => {
                let backend = b?;
                simdcrypt::Sha1Dc::with_backend(backend).ok()?;
                Some(Box::new(OursSha1Dc {
                    backend,
                    automatic: auto,
                    msg: message(size, 0),
                    out: [0; 20],
                }))
            }
            Family::Sha1DcMany => {
                let backend = b?;
                simdcrypt::Sha1Dc::with_backend(backend).ok()?;
                Some(Box::new(OursSha1DcMany {
                    backend,
                    automatic: auto,
                    msgs: messages(size, self.streams),
                    size,
                    res: vec![Ok([0; 20]); self.streams],
                    out: vec![[0; 20]; self.streams],
                }))
            }
            Family::HmacSha1Keyed => Some(Box::new(OursHmacKeyed {
                key: simdcrypt::HmacSha1Key::with_backend(k, b?).ok()?,
                msg: message(size, 0),
                out: [0; 20],
            })),
            Family::HmacSha1Trait => match b {
                None => Some(HmacRow::boxed(k.to_vec(), size, |key, msg, out| {
                    hmac_via_traits::<simdcrypt::Sha1>(key, msg, out);
                })),
                Some(_) => None,
            },
            Family::Pbkdf2HmacSha1 => match b {
                None => Pbkdf2Row::boxed(k, size, |pw, salt, n, out| {
                    pbkdf2::pbkdf2_hmac::<simdcrypt::Sha1>(pw, salt, n, out);
                }),
                Some(backend) => {
                    simdcrypt::HmacSha1Key::with_backend(k, backend).ok()?;
                    Pbkdf2Row::boxed(k, size, move |pw, salt, n, out| {
                        *out = pbkdf2_hmac_sha1_key(backend, pw, salt, n);
                    })
                }
            },
            Family::HmacSha1 => {
                let backend = b?;
                simdcrypt::sha1::hmac_with(backend, k, &[]).ok()?;
                Some(Box::new(OursHmac {
                    backend,
                    auto: Some(backend) == self.auto(),
                    key: k.to_vec(),
                    msg: message(size, 0),
                    out: [0; 20],
                }))
            }
            Family::CbcHmacSha1 => {
                let c = simdcrypt::CbcHmacSha1::with_backend(k, &mac_key(), b?).ok()?;
                let msg = message(size, 0);
                let mut ct = msg.clone();
                let tag = c.seal(&iv(0), &mut ct).ok()?;
                // Sealing: the message and room for its tag (the output is both, as the
                // OpenSSL peer's); opening: the ciphertext's room.
                let buf = if self.encrypt {
                    Unaliased::new(&[&msg[..], &[0; 20]].concat())
                } else {
                    Unaliased::new(&ct)
                };
                Some(Box::new(OursCbcHmac {
                    c,
                    buf,
                    ct,
                    tag,
                    size,
                    encrypt: self.encrypt,
                }))
            }
            Family::AesKey => Some(Box::new(OursKeyed::<Aes>::new(k, b?, auto))),
            Family::CbcKey => Some(Box::new(OursKeyed::<simdcrypt::Cbc>::new(k, b?, auto))),
            Family::XtsKey => Some(Box::new(OursKeyed::<simdcrypt::Xts>::new(k, b?, auto))),
            Family::Krb5Keys => Some(Box::new(keysetup::OursKrb5 {
                key: k.to_vec(),
                backend: b?,
                keys: None,
                out: Default::default(),
            })),
            Family::Krb5 => {
                let base = simdcrypt::krb5::Aes256CtsHmacSha196::new(k).ok()?;
                let keys = base.usage_keys_with_backend(KRB5_USAGE, b?).ok()?;
                let msg = message(size, 0);
                let ct = keys.encrypt(&KRB5_CONFOUNDER, &msg);
                Some(Box::new(OursKrb5 {
                    keys,
                    // The automatic contender derives per message, as a caller keeping
                    // only the base key does (`encrypt(usage, ..)`).
                    base: (b == self.auto()).then_some(base),
                    input: if self.encrypt { msg } else { ct },
                    out: Vec::new(),
                    encrypt: self.encrypt,
                }))
            }
        }
    }

    #[cfg(feature = "rayon")]
    fn make_par(&self, threads: u16, k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        if self.family != Family::XtsPar {
            return None;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.into())
            .build()
            .ok()?;
        Some(Box::new(OursXtsPar {
            pool,
            xts: simdcrypt::Xts::new(k).ok()?,
            buf: message(size, 0),
        }))
    }

    #[cfg(not(feature = "rayon"))]
    fn make_par(&self, _: u16, _: &[u8], _: usize) -> Option<Box<dyn Runner>> {
        None
    }

    fn make_rustcrypto(&self, k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        use aes::{Aes128, Aes192, Aes256};
        let enc = self.encrypt;
        match (self.family, self.key_len) {
            (Family::Ecb, 16) => rc_ecb::<Aes128>(k, size, enc),
            (Family::Ecb, 32) => rc_ecb::<Aes256>(k, size, enc),
            (Family::Xts, 32) => RcXts::<Aes128>::boxed(k, size, enc),
            (Family::Xts, 64) => RcXts::<Aes256>::boxed(k, size, enc),
            (Family::XtsSectors, 32) => RcXtsSectors::<Aes128>::boxed(k, size),
            (Family::XtsSectors, 64) => RcXtsSectors::<Aes256>::boxed(k, size),
            (Family::Cbc, 16) => rc_cbc::<Aes128>(k, size, enc),
            (Family::Cbc, 24) => rc_cbc::<Aes192>(k, size, enc),
            (Family::Cbc, 32) => rc_cbc::<Aes256>(k, size, enc),
            (Family::CbcMany, 16) => RcCbcMany::<Aes128>::boxed(k, size, self.streams),
            (Family::CbcHmacSha1, 16) => RcCbcHmac::<Aes128>::boxed(k, size, enc),
            (Family::CbcHmacSha1, 32) => RcCbcHmac::<Aes256>::boxed(k, size, enc),
            (Family::Sha1 | Family::Sha1Many, _) => {
                Some(Sha1Each::boxed(size, self.streams, |m, o| {
                    use sha1::Digest;
                    o.copy_from_slice(&sha1::Sha1::digest(m));
                }))
            }
            (Family::HmacSha1 | Family::HmacSha1Trait, _) => {
                Some(HmacRow::boxed(k.to_vec(), size, |key, msg, out| {
                    hmac_via_traits::<sha1::Sha1>(key, msg, out);
                }))
            }
            (Family::Pbkdf2HmacSha1, _) => Pbkdf2Row::boxed(k, size, |pw, salt, n, out| {
                pbkdf2::pbkdf2_hmac::<sha1::Sha1>(pw, salt, n, out);
            }),
            (Family::AesKey, 16) => Some(Box::new(keysetup::RcAes::<Aes128> {
                key: k.to_vec(),
                c: None,
                out: Default::default(),
            })),
            (Family::AesKey, 32) => Some(Box::new(keysetup::RcAes::<Aes256> {
                key: k.to_vec(),
                c: None,
                out: Default::default(),
            })),
            (Family::CbcKey, 16) => Some(Box::new(keysetup::RcCbc {
                key: k.to_vec(),
                c: Default::default(),
                out: Default::default(),
            })),
            (Family::XtsKey, 64) => Some(Box::new(keysetup::RcXts {
                key: k.to_vec(),
                xts: None,
                out: Default::default(),
            })),
            (Family::Krb5Keys, 32) => Some(Box::new(keysetup::RcKrb5 {
                key: k.to_vec(),
                folded: keysetup::folded_usage_constants(KRB5_USAGE),
                keys: None,
                out: Default::default(),
            })),
            (Family::HmacSha1Keyed, _) => {
                use hmac::KeyInit;
                // The keyed state cloned per message.
                let keyed = hmac::Hmac::<sha1::Sha1>::new_from_slice(k).ok()?;
                Some(HmacRow::boxed(keyed, size, |keyed, msg, out| {
                    use hmac::Mac;
                    let mut m = keyed.clone();
                    m.update(msg);
                    out.copy_from_slice(&m.finalize().into_bytes());
                }))
            }
            _ => None,
        }
    }

    #[cfg(feature = "openssl")]
    fn make_openssl(&self, k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        use simdcrypt_oracle::openssl as ossl;
        let streams = self.streams;
        let r: Box<dyn Runner> = match self.family {
            Family::Ecb | Family::XtsPar | Family::Krb5Keys => return None,
            Family::AesKey | Family::CbcKey | Family::XtsKey => {
                let kind = match self.family {
                    Family::AesKey => ossl::Kind::Ecb,
                    Family::CbcKey => ossl::Kind::Cbc,
                    _ => ossl::Kind::Xts,
                };
                Box::new(keysetup::OsslKey {
                    key: k.to_vec(),
                    c: std::cell::RefCell::new(ossl::Cipher::new(kind, k, true)?),
                    ok: true,
                    out: Default::default(),
                })
            }
            Family::XtsSectors => Box::new(OsslXtsSectors {
                c: ossl::Cipher::new(ossl::Kind::Xts, k, self.encrypt)?,
                input: message(size, 0),
                out: vec![0; size],
                ok: true,
            }),
            Family::Krb5 => return None,
            Family::CbcHmacSha1 => {
                let w = cbc_hmac_input(k, size, self.encrypt)?;
                Box::new(OsslCbcHmac {
                    c: ossl::Cipher::new(ossl::Kind::Cbc, k, self.encrypt)?,
                    mac: ossl::HmacKey::new(&mac_key())?,
                    out: vec![0; w.out_len],
                    input: w.data,
                    tag: w.tag,
                    encrypt: self.encrypt,
                    ok: true,
                })
            }
            Family::Xts | Family::Cbc | Family::CbcMany => {
                let kind = match self.family {
                    Family::Xts => ossl::Kind::Xts,
                    _ => ossl::Kind::Cbc,
                };
                let ivs = (0..streams)
                    .map(|i| {
                        if self.family == Family::Xts {
                            SECTOR.to_le_bytes()
                        } else {
                            iv(i)
                        }
                    })
                    .collect();
                Box::new(OsslCipher {
                    c: ossl::Cipher::new(kind, k, self.encrypt)?,
                    chained: kind != ossl::Kind::Xts,
                    ivs,
                    input: messages(size, streams),
                    out: vec![0; size * streams],
                    size,
                    ok: true,
                })
            }
            Family::Sha1 | Family::Sha1Many => {
                let mut h = ossl::Sha1::try_new()?;
                Sha1Each::boxed(size, streams, move |m, o| o.copy_from_slice(&h.digest(m)))
            }
            Family::HmacSha1Keyed
            | Family::HmacSha1Trait
            | Family::Pbkdf2HmacSha1
            | Family::Sha1Dc
            | Family::Sha1DcMany => {
                return None;
            }
            Family::HmacSha1 => HmacRow::boxed(k.to_vec(), size, |key, msg, out| {
                *out = ossl::hmac_sha1(key, msg);
            }),
        };
        Some(r)
    }

    #[cfg(not(feature = "openssl"))]
    fn make_openssl(&self, _: &[u8], _: usize) -> Option<Box<dyn Runner>> {
        None
    }

    #[cfg(not(feature = "aws-lc"))]
    fn make_awslc(&self, _: &[u8], _: usize) -> Option<Box<dyn Runner>> {
        None
    }

    /// AWS-LC through aws-lc-rs: ECB and CBC through its cipher API, SHA-1 and HMAC-SHA1
    /// through its `*_FOR_LEGACY_USE_ONLY` algorithms.
    #[cfg(feature = "aws-lc")]
    fn make_awslc(&self, k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        use aws_lc_rs::cipher::{AES_128, AES_192, AES_256, UnboundCipherKey};
        let alg = match self.key_len {
            16 => &AES_128,
            24 => &AES_192,
            32 => &AES_256,
            _ => &AES_128,
        };
        let key = || UnboundCipherKey::new(alg, k).ok();
        if !self.family.aws_lc_runs() {
            return None;
        }
        let r: Box<dyn Runner> = match self.family {
            Family::AesKey => Box::new(crate::keysetup::AwsAes {
                key: k.to_vec(),
                alg,
                k: None,
                out: Default::default(),
            }),
            Family::CbcHmacSha1 => {
                let w = cbc_hmac_input(k, size, self.encrypt)?;
                let dir = if self.encrypt {
                    AwsDir::Enc(aws_lc_rs::cipher::EncryptingKey::cbc(key()?).ok()?)
                } else {
                    AwsDir::Dec(aws_lc_rs::cipher::DecryptingKey::cbc(key()?).ok()?)
                };
                let mut buf = w.data.clone();
                buf.resize(w.out_len, 0);
                Box::new(AwsCbcHmac {
                    dir,
                    mac: aws_lc_rs::hmac::Key::new(
                        aws_lc_rs::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
                        &mac_key(),
                    ),
                    input: w.data,
                    tag: w.tag,
                    buf,
                    ok: true,
                })
            }
            Family::Ecb => Box::new(AwsEcb {
                k: if self.encrypt {
                    AwsDir::Enc(aws_lc_rs::cipher::EncryptingKey::ecb(key()?).ok()?)
                } else {
                    AwsDir::Dec(aws_lc_rs::cipher::DecryptingKey::ecb(key()?).ok()?)
                },
                buf: message(size, 0),
                ok: true,
            }),
            Family::Cbc | Family::CbcMany => {
                let dir = if self.encrypt {
                    AwsDir::Enc(aws_lc_rs::cipher::EncryptingKey::cbc(key()?).ok()?)
                } else {
                    AwsDir::Dec(aws_lc_rs::cipher::DecryptingKey::cbc(key()?).ok()?)
                };
                Box::new(AwsCbc {
                    dir,
                    ivs: (0..self.streams).map(iv).collect(),
                    buf: messages(size, self.streams),
                    size,
                    ok: true,
                })
            }
            Family::Sha1 | Family::Sha1Many => Sha1Each::boxed(size, self.streams, |m, o| {
                use aws_lc_rs::digest;
                o.copy_from_slice(digest::digest(&digest::SHA1_FOR_LEGACY_USE_ONLY, m).as_ref());
            }),
            // Keyed per message, as the other rows are.
            Family::HmacSha1 => HmacRow::boxed(k.to_vec(), size, |key, msg, out| {
                use aws_lc_rs::hmac;
                let k = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, key);
                out.copy_from_slice(hmac::sign(&k, msg).as_ref());
            }),
            // `hmac::Key` keeps the keyed context.
            Family::HmacSha1Keyed => {
                use aws_lc_rs::hmac;
                let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, k);
                HmacRow::boxed(key, size, |key, msg, out| {
                    out.copy_from_slice(hmac::sign(key, msg).as_ref());
                })
            }
            // (Those `aws_lc_runs` leaves out, returned above.)
            _ => return None,
        };
        Some(r)
    }
}

/// `streams` messages of `size` bytes, one after another (stream `i` seeded with `i`).
pub fn messages(size: usize, streams: usize) -> Vec<u8> {
    (0..streams).flat_map(|i| message(size, i)).collect()
}

fn to_blocks(bytes: &[u8]) -> Vec<[u8; 16]> {
    bytes
        .chunks_exact(16)
        .map(|c| c.try_into().expect("16 bytes"))
        .collect()
}

fn to_arrays(bytes: &[u8]) -> Vec<Array<u8, U16>> {
    bytes
        .chunks_exact(16)
        .map(|c| Array::try_from(c).expect("16 bytes"))
        .collect()
}

// ---------------------------------------------------------------- simdcrypt

/// A block cipher over independent blocks (ECB): simdcrypt's `Aes`, or RustCrypto's in
/// [`RcBlocks`].
trait EcbCipher {
    type Block;
    fn encrypt_all(&self, blocks: &mut [Self::Block]);
    fn decrypt_all(&self, blocks: &mut [Self::Block]);
    fn bytes(blocks: &[Self::Block]) -> &[u8];
}

impl EcbCipher for Aes {
    type Block = [u8; 16];
    fn encrypt_all(&self, blocks: &mut [[u8; 16]]) {
        self.encrypt_blocks(blocks);
    }
    fn decrypt_all(&self, blocks: &mut [[u8; 16]]) {
        self.decrypt_blocks(blocks);
    }
    fn bytes(blocks: &[[u8; 16]]) -> &[u8] {
        blocks.as_flattened()
    }
}

/// ECB: `blocks` through the cipher, one direction per run.
struct Ecb<C: EcbCipher> {
    c: C,
    blocks: Vec<C::Block>,
    encrypt: bool,
}

impl<C: EcbCipher> Runner for Ecb<C> {
    fn process_one(&mut self) {
        let blocks = black_box(&mut self.blocks);
        if self.encrypt {
            self.c.encrypt_all(blocks);
        } else {
            self.c.decrypt_all(blocks);
        }
    }
    fn output(&self) -> &[u8] {
        C::bytes(&self.blocks)
    }
}

/// One data unit per run, tweak `SECTOR`.
struct OursXts {
    xts: simdcrypt::Xts,
    buf: Vec<u8>,
    encrypt: bool,
}

impl Runner for OursXts {
    fn process_one(&mut self) {
        let r = if self.encrypt {
            self.xts.encrypt_sector(black_box(&mut self.buf), SECTOR)
        } else {
            self.xts.decrypt_sector(black_box(&mut self.buf), SECTOR)
        };
        black_box(r.is_ok());
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `encrypt_sectors` over 512-byte data units numbered from `SECTOR`.
struct OursXtsSectors {
    xts: simdcrypt::Xts,
    buf: Vec<u8>,
}

impl Runner for OursXtsSectors {
    fn process_one(&mut self) {
        let r = self
            .xts
            .encrypt_sectors(black_box(&mut self.buf), SMALL_SECTOR, SECTOR);
        black_box(r.is_ok());
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `par_encrypt_sectors` over 4 KiB data units on its own rayon pool; timed in wall time.
#[cfg(feature = "rayon")]
struct OursXtsPar {
    pool: rayon::ThreadPool,
    xts: simdcrypt::Xts,
    buf: Vec<u8>,
}

#[cfg(feature = "rayon")]
impl Runner for OursXtsPar {
    fn process_one(&mut self) {
        let (xts, buf) = (&self.xts, &mut self.buf);
        let r = self
            .pool
            .install(|| xts.par_encrypt_sectors(black_box(buf), XTS_SECTOR, SECTOR));
        black_box(r.is_ok());
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
    fn wall_clock(&self) -> bool {
        true
    }
}

/// One chain, continued across runs through the updated IV.
struct OursCbc {
    cbc: simdcrypt::Cbc,
    iv: [u8; 16],
    buf: Vec<u8>,
    encrypt: bool,
}

impl Runner for OursCbc {
    fn process_one(&mut self) {
        let r = if self.encrypt {
            self.cbc.encrypt(&mut self.iv, black_box(&mut self.buf))
        } else {
            self.cbc.decrypt(&mut self.iv, black_box(&mut self.buf))
        };
        black_box(r.is_ok());
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `streams` streams through `encrypt_many`, each chain continued across runs.
struct OursCbcMany {
    cbc: simdcrypt::Cbc,
    ivs: Vec<[u8; 16]>,
    buf: Vec<u8>,
    size: usize,
}

impl Runner for OursCbcMany {
    fn process_one(&mut self) {
        let mut bufs: Vec<&mut [u8]> = self.buf.chunks_exact_mut(self.size).collect();
        let r = self.cbc.encrypt_many(&mut self.ivs, black_box(&mut bufs));
        black_box(r.is_ok());
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// One message per run, hashed one-shot.
struct OursSha1 {
    backend: Backend,
    msg: Vec<u8>,
    out: [u8; 20],
}

impl Runner for OursSha1 {
    fn process_one(&mut self) {
        // One-shot, as RustCrypto's row (`Sha1::digest`): `simdcrypt::sha1` on the backend.
        self.out = simdcrypt::sha1::digest_with(self.backend, black_box(&self.msg))
            .expect("checked when made");
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// One message per run with collision detection: `simdcrypt::sha1dc` where the backend is
/// the automatic choice (what users call), `sha1dc_with` on the others.
struct OursSha1Dc {
    backend: Backend,
    automatic: bool,
    msg: Vec<u8>,
    out: [u8; 20],
}

impl Runner for OursSha1Dc {
    fn process_one(&mut self) {
        let msg = black_box(&self.msg[..]);
        let r = if self.automatic {
            simdcrypt::sha1dc(msg)
        } else {
            simdcrypt::sha1::sha1dc_with(self.backend, msg).expect("checked when made")
        };
        self.out = r.unwrap_or_else(|c| c.digest());
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// `streams` messages per run with collision detection: through `sha1dc_many` where the
/// backend is the automatic choice, `sha1dc_many_with` on the others.
struct OursSha1DcMany {
    backend: Backend,
    automatic: bool,
    msgs: Vec<u8>,
    size: usize,
    res: Vec<Result<[u8; 20], simdcrypt::Collision>>,
    out: Vec<[u8; 20]>,
}

impl Runner for OursSha1DcMany {
    fn process_one(&mut self) {
        let inputs: Vec<&[u8]> = self.msgs.chunks_exact(self.size).collect();
        if self.automatic {
            simdcrypt::sha1dc_many(black_box(&inputs), &mut self.res).expect("as many results");
        } else {
            simdcrypt::sha1::sha1dc_many_with(self.backend, black_box(&inputs), &mut self.res)
                .expect("checked when made");
        }
        for (r, o) in self.res.iter().zip(self.out.iter_mut()) {
            *o = r.unwrap_or_else(|c| c.digest());
        }
    }
    fn output(&self) -> &[u8] {
        self.out.as_flattened()
    }
}

/// The ceiling of the `sha1dc` rows ([`Ceiling::PlainSha1`]): plain SHA-1 of the same
/// `streams` messages of `size` bytes on the automatic backend (`simdcrypt::sha1`, or
/// `sha1_many` for several), with the bytes one run hashes.
pub fn plain_sha1_probe(streams: u32, size: usize) -> (Box<dyn Runner>, f64) {
    let streams = streams.max(1) as usize;
    let r: Box<dyn Runner> = if streams == 1 {
        Box::new(OursSha1 {
            backend: simdcrypt::Sha1::new().backend(),
            msg: message(size, 0),
            out: [0; 20],
        })
    } else {
        Box::new(OursSha1Many {
            backend: simdcrypt::sha1::sha1_many_backend(),
            automatic: true,
            msgs: messages(size, streams),
            size,
            out: vec![[0; 20]; streams],
        })
    };
    (r, (size * streams) as f64)
}

/// `streams` messages per run through `sha1_many` on the backend given; the automatic
/// contender through `sha1_many` itself, as a caller runs it: its stragglers and (by the
/// CPU's row of the tuning table) batches of few short messages go to SHA-1's one-stream
/// choice, where `sha1_many_with` keeps to the backend named.
struct OursSha1Many {
    backend: Backend,
    automatic: bool,
    msgs: Vec<u8>,
    size: usize,
    out: Vec<[u8; 20]>,
}

impl OursSha1Many {
    fn try_run(&mut self) -> Result<(), simdcrypt::Error> {
        let inputs: Vec<&[u8]> = self.msgs.chunks_exact(self.size).collect();
        if self.automatic {
            simdcrypt::sha1_many(black_box(&inputs), &mut self.out)
        } else {
            simdcrypt::sha1::sha1_many_with(self.backend, black_box(&inputs), &mut self.out)
        }
    }
}

impl Runner for OursSha1Many {
    fn process_one(&mut self) {
        black_box(self.try_run().is_ok());
    }
    fn output(&self) -> &[u8] {
        self.out.as_flattened()
    }
}

/// HMAC keyed per message, as the peers' rows are: the one-shot `hmac_sha1` (what users
/// call) on the automatic backend, `sha1::hmac_with` on the others.
struct OursHmac {
    backend: Backend,
    auto: bool,
    key: Vec<u8>,
    msg: Vec<u8>,
    out: [u8; 20],
}

impl Runner for OursHmac {
    fn process_one(&mut self) {
        // One-shot, keyed in the call (as OpenSSL's `HMAC()`; RustCrypto has no one-shot,
        // its row keys, updates and finalizes).
        let (key, msg) = (black_box(&self.key[..]), black_box(&self.msg[..]));
        self.out = if self.auto {
            simdcrypt::hmac_sha1(key, msg)
        } else {
            simdcrypt::sha1::hmac_with(self.backend, key, msg).expect("checked when made")
        };
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// HMAC under a key set up once (`HmacSha1Key::mac`).
struct OursHmacKeyed {
    key: simdcrypt::HmacSha1Key,
    msg: Vec<u8>,
    out: [u8; 20],
}

impl Runner for OursHmacKeyed {
    fn process_one(&mut self) {
        self.out = black_box(&self.key).mac(black_box(&self.msg));
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// Seal: encrypts (and MACs) the buffer in place again each run. Open: copies the sealed
/// message into the buffer and opens it (a 16 KiB copy is about 0.3 µs; open about 9).
/// A copy of a message placed so that its start is 2 KiB away, modulo 4 KiB, from the
/// original's: a run that copies the original into it first (open) must not time a
/// pathological copy. When the two start a multiple of 4 KiB plus a few bytes apart (as two
/// adjacent heap blocks of 8 KiB are), glibc's memcpy runs at a fraction of its speed on AMD
/// Zen 3 (8 KiB: 2.4 µs instead of 0.1; loads falsely wait for stores to the same address
/// modulo 4 KiB), which made the open rows at 4 KiB and up about 0.65 times what the kernel
/// does.
struct Unaliased {
    mem: Vec<u8>,
    at: usize,
    len: usize,
}

impl Unaliased {
    fn new(src: &[u8]) -> Unaliased {
        let mut mem = vec![0u8; src.len() + 4096];
        let dist = (mem.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize) % 4096;
        let at = (2048 + 4096 - dist) % 4096;
        mem[at..at + src.len()].copy_from_slice(src);
        Unaliased {
            mem,
            at,
            len: src.len(),
        }
    }
    fn get(&self) -> &[u8] {
        &self.mem[self.at..self.at + self.len]
    }
    fn get_mut(&mut self) -> &mut [u8] {
        &mut self.mem[self.at..self.at + self.len]
    }
}

struct OursCbcHmac {
    c: simdcrypt::CbcHmacSha1,
    /// Sealing: the message, then its tag; opening: the ciphertext's place.
    buf: Unaliased,
    ct: Vec<u8>,
    tag: [u8; 20],
    size: usize,
    encrypt: bool,
}

impl Runner for OursCbcHmac {
    fn process_one(&mut self) {
        if self.encrypt {
            let (data, tag) = self.buf.get_mut().split_at_mut(self.size);
            if let Ok(t) = self.c.seal(&iv(0), black_box(data)) {
                tag.copy_from_slice(&t);
            }
        } else {
            self.buf.get_mut().copy_from_slice(&self.ct);
            let r = self
                .c
                .open(&iv(0), black_box(self.buf.get_mut()), &self.tag);
            black_box(r.is_ok());
        }
    }
    fn output(&self) -> &[u8] {
        self.buf.get()
    }
}

/// The fixed confounder of the `krb5-*` algorithms (a caller draws a fresh one).
const KRB5_CONFOUNDER: [u8; 16] = [0x5c; 16];

/// One message per run, into a new vector (as the API returns): through the base key's
/// `encrypt(usage, ..)`/`decrypt(usage, ..)` (the usage keys derived per message) where
/// `base` is kept, else through kept per-usage keys.
struct OursKrb5 {
    keys: simdcrypt::krb5::UsageKeys,
    base: Option<simdcrypt::krb5::Aes256CtsHmacSha196>,
    input: Vec<u8>,
    out: Vec<u8>,
    encrypt: bool,
}

impl Runner for OursKrb5 {
    fn process_one(&mut self) {
        let input = black_box(&self.input);
        self.out = match (&self.base, self.encrypt) {
            (Some(base), true) => base.encrypt(KRB5_USAGE, &KRB5_CONFOUNDER, input),
            (Some(base), false) => base.decrypt(KRB5_USAGE, input).unwrap_or_default(),
            (None, true) => self.keys.encrypt(&KRB5_CONFOUNDER, input),
            (None, false) => self.keys.decrypt(input).unwrap_or_default(),
        };
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

// ---------------------------------------------------------------- RustCrypto

/// A RustCrypto block cipher, for [`Ecb`].
struct RcBlocks<C>(C);

impl<C> EcbCipher for RcBlocks<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
{
    type Block = Array<u8, U16>;
    fn encrypt_all(&self, blocks: &mut [Array<u8, U16>]) {
        self.0.encrypt_blocks(blocks);
    }
    fn decrypt_all(&self, blocks: &mut [Array<u8, U16>]) {
        self.0.decrypt_blocks(blocks);
    }
    fn bytes(blocks: &[Array<u8, U16>]) -> &[u8] {
        Array::slice_as_flattened(blocks)
    }
}

fn rc_ecb<C>(k: &[u8], size: usize, encrypt: bool) -> Option<Box<dyn Runner>>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit + 'static,
{
    Some(Box::new(Ecb {
        c: RcBlocks(C::new_from_slice(k).ok()?),
        blocks: to_arrays(&message(size, 0)),
        encrypt,
    }))
}

struct RcXts<C> {
    xts: xts_mode::Xts128<C>,
    buf: Vec<u8>,
    encrypt: bool,
}

impl<C> RcXts<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit + 'static,
{
    fn boxed(k: &[u8], size: usize, encrypt: bool) -> Option<Box<dyn Runner>> {
        let (k1, k2) = k.split_at(k.len() / 2);
        Some(Box::new(RcXts {
            xts: xts_mode::Xts128::new(C::new_from_slice(k1).ok()?, C::new_from_slice(k2).ok()?),
            buf: message(size, 0),
            encrypt,
        }))
    }
}

impl<C> Runner for RcXts<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
{
    fn process_one(&mut self) {
        let tweak = Array::from(SECTOR.to_le_bytes());
        if self.encrypt {
            self.xts.encrypt_sector(black_box(&mut self.buf), tweak);
        } else {
            self.xts.decrypt_sector(black_box(&mut self.buf), tweak);
        }
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// Consecutive 512-byte data units through `encrypt_area`.
struct RcXtsSectors<C> {
    xts: xts_mode::Xts128<C>,
    buf: Vec<u8>,
}

impl<C> RcXtsSectors<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit + 'static,
{
    fn boxed(k: &[u8], size: usize) -> Option<Box<dyn Runner>> {
        let (k1, k2) = k.split_at(k.len() / 2);
        Some(Box::new(RcXtsSectors {
            xts: xts_mode::Xts128::new(C::new_from_slice(k1).ok()?, C::new_from_slice(k2).ok()?),
            buf: message(size, 0),
        }))
    }
}

impl<C> Runner for RcXtsSectors<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
{
    fn process_one(&mut self) {
        self.xts.encrypt_area(
            black_box(&mut self.buf),
            SMALL_SECTOR,
            SECTOR,
            xts_mode::get_tweak_default,
        );
    }
    fn output(&self) -> &[u8] {
        &self.buf
    }
}

fn rc_cbc<C>(k: &[u8], size: usize, encrypt: bool) -> Option<Box<dyn Runner>>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit + 'static,
{
    let blocks = to_arrays(&message(size, 0));
    let iv = iv(0);
    if encrypt {
        let mode = cbc::Encryptor::<C>::new_from_slices(k, &iv).ok()?;
        Some(Box::new(RcCbc { mode, blocks }))
    } else {
        let mode = cbc::Decryptor::<C>::new_from_slices(k, &iv).ok()?;
        Some(Box::new(RcCbc { mode, blocks }))
    }
}

/// A CBC-HMAC row's work for a peer, from [`cbc_hmac_input`].
struct CbcHmacInput {
    /// The message (sealing) or simdcrypt's sealed message (opening).
    data: Vec<u8>,
    /// Opening: the tag to check (unused when sealing).
    tag: [u8; 20],
    /// The output's length: the ciphertext and then the tag (sealing), the plaintext
    /// (opening).
    out_len: usize,
}

/// A CBC-HMAC row's input for a peer, as every peer's runner takes it.
fn cbc_hmac_input(k: &[u8], size: usize, encrypt: bool) -> Option<CbcHmacInput> {
    let mut data = message(size, 0);
    if encrypt {
        return Some(CbcHmacInput {
            data,
            tag: [0; 20],
            out_len: size + 20,
        });
    }
    let c = simdcrypt::CbcHmacSha1::new(k, &mac_key()).ok()?;
    let tag = c.seal(&iv(0), &mut data).ok()?;
    Some(CbcHmacInput {
        data,
        tag,
        out_len: size,
    })
}

/// The work of `CbcHmacSha1::seal` and `open` with RustCrypto: `cbc` over an AES key
/// schedule set up once (cloned into each message's `Encryptor` or `Decryptor`, for its
/// IV) and HMAC-SHA1 keyed once (cloned per message); output as [`OsslCbcHmac`]'s, the
/// tag checked with `verify_slice`.
struct RcCbcHmac<C> {
    cipher: C,
    mac: hmac::Hmac<sha1::Sha1>,
    input: Vec<Array<u8, U16>>,
    tag: [u8; 20],
    out: Vec<u8>,
    encrypt: bool,
    ok: bool,
}

impl<C> RcCbcHmac<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit,
    C: Clone + 'static,
{
    fn boxed(k: &[u8], size: usize, encrypt: bool) -> Option<Box<dyn Runner>> {
        use hmac::KeyInit as _;
        let w = cbc_hmac_input(k, size, encrypt)?;
        Some(Box::new(RcCbcHmac {
            cipher: C::new_from_slice(k).ok()?,
            mac: hmac::Hmac::<sha1::Sha1>::new_from_slice(&mac_key()).ok()?,
            input: to_arrays(&w.data),
            tag: w.tag,
            out: vec![0; w.out_len],
            encrypt,
            ok: true,
        }))
    }
}

impl<C> Runner for RcCbcHmac<C>
where
    C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + Clone,
{
    fn process_one(&mut self) {
        use hmac::Mac;
        let n = 16 * self.input.len();
        let input = black_box(&self.input[..]);
        let (blocks, _) = Array::slice_as_chunks_mut(&mut self.out[..n]);
        let v = iv(0).into();
        let mut m = black_box(&self.mac).clone();
        if self.encrypt {
            let mut e = cbc::Encryptor::<C>::inner_iv_init(self.cipher.clone(), &v);
            self.ok &= e.encrypt_blocks_b2b(input, blocks).is_ok();
            m.update(Array::slice_as_flattened(input));
            self.out[n..].copy_from_slice(&m.finalize().into_bytes());
        } else {
            let mut d = cbc::Decryptor::<C>::inner_iv_init(self.cipher.clone(), &v);
            self.ok &= d.decrypt_blocks_b2b(input, blocks).is_ok();
            m.update(&self.out);
            self.ok &= m.verify_slice(&self.tag).is_ok();
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.out } else { &[] }
    }
}

/// A RustCrypto CBC direction (`cbc::Encryptor` or `cbc::Decryptor`) over whole blocks.
trait RcCbcMode {
    fn run_blocks(&mut self, blocks: &mut [Array<u8, U16>]);
}

impl<C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> RcCbcMode for cbc::Encryptor<C> {
    fn run_blocks(&mut self, blocks: &mut [Array<u8, U16>]) {
        self.encrypt_blocks(blocks);
    }
}

impl<C: BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> RcCbcMode for cbc::Decryptor<C> {
    fn run_blocks(&mut self, blocks: &mut [Array<u8, U16>]) {
        self.decrypt_blocks(blocks);
    }
}

/// One chain, continued across runs (as simdcrypt's updated IV and OpenSSL's do).
struct RcCbc<M> {
    mode: M,
    blocks: Vec<Array<u8, U16>>,
}

impl<M: RcCbcMode> Runner for RcCbc<M> {
    fn process_one(&mut self) {
        self.mode.run_blocks(black_box(&mut self.blocks));
    }
    fn output(&self) -> &[u8] {
        Array::slice_as_flattened(&self.blocks)
    }
}

/// Many streams, one after another (RustCrypto has no multi-stream CBC).
struct RcCbcMany<C: BlockCipherEncrypt> {
    e: Vec<cbc::Encryptor<C>>,
    blocks: Vec<Array<u8, U16>>,
}

impl<C> RcCbcMany<C>
where
    C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16> + KeyInit + 'static,
{
    fn boxed(k: &[u8], size: usize, streams: usize) -> Option<Box<dyn Runner>> {
        let e = (0..streams)
            .map(|i| cbc::Encryptor::<C>::new_from_slices(k, &iv(i)).ok())
            .collect::<Option<Vec<_>>>()?;
        Some(Box::new(RcCbcMany {
            e,
            blocks: to_arrays(&messages(size, streams)),
        }))
    }
}

impl<C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> Runner for RcCbcMany<C> {
    fn process_one(&mut self) {
        let n = self.blocks.len() / self.e.len();
        for (e, chunk) in self.e.iter_mut().zip(self.blocks.chunks_exact_mut(n)) {
            e.encrypt_blocks(black_box(chunk));
        }
    }
    fn output(&self) -> &[u8] {
        Array::slice_as_flattened(&self.blocks)
    }
}

/// SHA-1 of each of `streams` messages in turn, by a peer's `digest` (a message, and where
/// its digest goes).
struct Sha1Each<F> {
    digest: F,
    msgs: Vec<u8>,
    out: Vec<u8>,
}

impl<F: FnMut(&[u8], &mut [u8]) + 'static> Sha1Each<F> {
    fn boxed(size: usize, streams: usize, digest: F) -> Box<dyn Runner> {
        Box::new(Sha1Each {
            digest,
            msgs: messages(size, streams),
            out: vec![0; 20 * streams],
        })
    }
}

impl<F: FnMut(&[u8], &mut [u8])> Runner for Sha1Each<F> {
    fn process_one(&mut self) {
        let n = self.out.len() / 20;
        let size = self.msgs.len() / n;
        for (m, o) in self
            .msgs
            .chunks_exact(size)
            .zip(self.out.chunks_exact_mut(20))
        {
            (self.digest)(black_box(m), o);
        }
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// HMAC-SHA1 of one message per run by a peer's `mac` under `key`: the raw key (keyed per
/// message) or the peer's keyed state (set up once).
struct HmacRow<K, F> {
    key: K,
    mac: F,
    msg: Vec<u8>,
    out: [u8; 20],
}

impl<K: 'static, F: FnMut(&K, &[u8], &mut [u8; 20]) + 'static> HmacRow<K, F> {
    fn boxed(key: K, size: usize, mac: F) -> Box<dyn Runner> {
        Box::new(HmacRow {
            key,
            mac,
            msg: message(size, 0),
            out: [0; 20],
        })
    }
}

impl<K, F: FnMut(&K, &[u8], &mut [u8; 20])> Runner for HmacRow<K, F> {
    fn process_one(&mut self) {
        (self.mac)(black_box(&self.key), black_box(&self.msg), &mut self.out);
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

/// HMAC of `msg` under `key` through RustCrypto's `hmac` over the digest `D` (keyed in the
/// call): RustCrypto's `sha1::Sha1`, or simdcrypt's `Sha1` through its `digest` traits.
fn hmac_via_traits<D: hmac::digest::block_api::EagerHash>(
    key: &[u8],
    msg: &[u8],
    out: &mut [u8; 20],
) {
    use hmac::{KeyInit, Mac};
    let mut m = hmac::Hmac::<D>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(msg);
    out.copy_from_slice(&m.finalize().into_bytes());
}

/// PBKDF2-HMAC-SHA1 of one 20-byte block through simdcrypt's own API on `backend`: the
/// password keyed once into an `HmacSha1Key`, U_1 = HMAC(P, S || INT(1)) through its
/// streaming `start`, then U_i = `mac(U_(i-1))`, the output their XOR (RFC 8018, 5.2).
fn pbkdf2_hmac_sha1_key(backend: Backend, password: &[u8], salt: &[u8], n: u32) -> [u8; 20] {
    let key = simdcrypt::HmacSha1Key::with_backend(password, backend).expect("checked when made");
    let mut h = key.start();
    h.update(salt);
    h.update(&1u32.to_be_bytes());
    let mut u = h.finalize();
    let mut t = u;
    for _ in 1..n {
        u = key.mac(&u);
        for (t, u) in t.iter_mut().zip(u) {
            *t ^= u;
        }
    }
    t
}

/// PBKDF2 of a 20-byte output per run: `derive(password, salt, iterations, out)`, the
/// password [`key`]`(20)` and the salt [`pbkdf2_salt`].
struct Pbkdf2Row<F> {
    password: Vec<u8>,
    salt: Vec<u8>,
    iterations: u32,
    derive: F,
    out: [u8; 20],
}

impl<F: FnMut(&[u8], &[u8], u32, &mut [u8; 20]) + 'static> Pbkdf2Row<F> {
    fn boxed(password: &[u8], iterations: usize, derive: F) -> Option<Box<dyn Runner>> {
        Some(Box::new(Pbkdf2Row {
            password: password.to_vec(),
            salt: pbkdf2_salt(),
            iterations: iterations.try_into().ok()?,
            derive,
            out: [0; 20],
        }))
    }
}

impl<F: FnMut(&[u8], &[u8], u32, &mut [u8; 20])> Runner for Pbkdf2Row<F> {
    fn process_one(&mut self) {
        (self.derive)(
            black_box(&self.password),
            black_box(&self.salt),
            black_box(self.iterations),
            &mut self.out,
        );
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
}

// ---------------------------------------------------------------- AWS-LC

#[cfg(feature = "aws-lc")]
struct AwsEcb {
    k: AwsDir,
    buf: Vec<u8>,
    ok: bool,
}

#[cfg(feature = "aws-lc")]
impl Runner for AwsEcb {
    fn process_one(&mut self) {
        let buf = black_box(&mut self.buf);
        self.ok &= match &self.k {
            AwsDir::Enc(k) => k.encrypt(buf).is_ok(),
            AwsDir::Dec(k) => {
                let ctx = aws_lc_rs::cipher::DecryptionContext::None;
                k.decrypt(buf, ctx).is_ok()
            }
        };
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.buf } else { &[] }
    }
}

#[cfg(feature = "aws-lc")]
enum AwsDir {
    Enc(aws_lc_rs::cipher::EncryptingKey),
    Dec(aws_lc_rs::cipher::DecryptingKey),
}

/// CBC, one call per stream, each chain continued across runs (the next IV is the last
/// ciphertext block, as simdcrypt's updated IV is).
#[cfg(feature = "aws-lc")]
struct AwsCbc {
    dir: AwsDir,
    ivs: Vec<[u8; 16]>,
    buf: Vec<u8>,
    size: usize,
    ok: bool,
}

#[cfg(feature = "aws-lc")]
impl Runner for AwsCbc {
    fn process_one(&mut self) {
        use aws_lc_rs::cipher::{DecryptionContext, EncryptionContext};
        use aws_lc_rs::iv::FixedLength;
        for (iv, chunk) in self
            .ivs
            .iter_mut()
            .zip(self.buf.chunks_exact_mut(self.size))
        {
            let last: [u8; 16] = chunk[chunk.len() - 16..].try_into().expect("16 bytes");
            let chunk = black_box(chunk);
            match &self.dir {
                AwsDir::Enc(k) => {
                    let ctx = EncryptionContext::Iv128(FixedLength::from(*iv));
                    self.ok &= k.less_safe_encrypt(chunk, ctx).is_ok();
                    *iv = chunk[chunk.len() - 16..].try_into().expect("16 bytes");
                }
                AwsDir::Dec(k) => {
                    let ctx = DecryptionContext::Iv128(FixedLength::from(*iv));
                    self.ok &= k.decrypt(chunk, ctx).is_ok();
                    *iv = last;
                }
            }
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.buf } else { &[] }
    }
}

/// The work of `CbcHmacSha1::seal` and `open` with AWS-LC (in place, as its CBC works):
/// sealing MACs the message with a kept `hmac::Key` and encrypts it in place again each
/// run, as simdcrypt's row does; opening copies the sealed message in, decrypts it and
/// checks the tag with `hmac::verify`. Output as [`OsslCbcHmac`]'s.
#[cfg(feature = "aws-lc")]
struct AwsCbcHmac {
    dir: AwsDir,
    mac: aws_lc_rs::hmac::Key,
    /// Opening: the sealed message.
    input: Vec<u8>,
    tag: [u8; 20],
    buf: Vec<u8>,
    ok: bool,
}

#[cfg(feature = "aws-lc")]
impl Runner for AwsCbcHmac {
    fn process_one(&mut self) {
        use aws_lc_rs::cipher::{DecryptionContext, EncryptionContext};
        use aws_lc_rs::hmac;
        use aws_lc_rs::iv::FixedLength;
        let n = self.input.len();
        match &self.dir {
            AwsDir::Enc(k) => {
                let (data, tag) = self.buf.split_at_mut(n);
                let data = black_box(data);
                tag.copy_from_slice(hmac::sign(&self.mac, data).as_ref());
                let ctx = EncryptionContext::Iv128(FixedLength::from(iv(0)));
                self.ok &= k.less_safe_encrypt(data, ctx).is_ok();
            }
            AwsDir::Dec(k) => {
                self.buf.copy_from_slice(&self.input);
                let ctx = DecryptionContext::Iv128(FixedLength::from(iv(0)));
                self.ok &= k.decrypt(black_box(&mut self.buf), ctx).is_ok();
                self.ok &= hmac::verify(&self.mac, &self.buf, &self.tag).is_ok();
            }
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.buf } else { &[] }
    }
}

// ---------------------------------------------------------------- OpenSSL

/// XTS (one data unit, fixed tweak) or CBC (chains continued across runs), one call per
/// stream on one reused context, out of place as EVP works.
#[cfg(feature = "openssl")]
struct OsslCipher {
    c: simdcrypt_oracle::openssl::Cipher,
    chained: bool,
    ivs: Vec<[u8; 16]>,
    input: Vec<u8>,
    out: Vec<u8>,
    size: usize,
    ok: bool,
}

#[cfg(feature = "openssl")]
impl Runner for OsslCipher {
    fn process_one(&mut self) {
        let size = self.size;
        for (i, iv) in self.ivs.iter_mut().enumerate() {
            let mut tweak = *iv;
            let slot = if self.chained { iv } else { &mut tweak };
            let r = &self.input[i * size..(i + 1) * size];
            let ok = self
                .c
                .run(slot, black_box(r), &mut self.out[i * size..(i + 1) * size]);
            self.ok &= ok;
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.out } else { &[] }
    }
}

/// The work of `CbcHmacSha1::seal` and `open` through OpenSSL: AES-CBC of the message
/// (EVP, a fresh IV per message) and HMAC-SHA1 of the plaintext under a key set up once;
/// sealing outputs the ciphertext and then the tag, opening the plaintext (decrypted, then
/// its MAC compared with the tag, as `open` does; `CRYPTO_memcmp`'s work is a 20-byte
/// compare). (OpenSSL's stitched `EVP_aes_*_cbc_hmac_sha1`, this row's peer before,
/// outputs no tag unless a TLS record is set up: without one it hashes the plaintext into
/// a state it never finalises, so it did a third of an HMAC's SHA-1 work on a 64-byte
/// message; with one it MACs a record header and encrypts the tag and padding, other work
/// again.)
#[cfg(feature = "openssl")]
struct OsslCbcHmac {
    c: simdcrypt_oracle::openssl::Cipher,
    mac: simdcrypt_oracle::openssl::HmacKey,
    /// The plaintext (sealing) or the ciphertext (opening).
    input: Vec<u8>,
    /// Opening: the tag to check.
    tag: [u8; 20],
    out: Vec<u8>,
    encrypt: bool,
    ok: bool,
}

#[cfg(feature = "openssl")]
impl Runner for OsslCbcHmac {
    fn process_one(&mut self) {
        let n = self.input.len();
        let mut v = iv(0);
        let input = black_box(&self.input[..]);
        self.ok &= self.c.run(&mut v, input, &mut self.out[..n]);
        if self.encrypt {
            let tag = self.mac.mac(input);
            self.out[n..].copy_from_slice(&tag);
        } else {
            self.ok &= self.mac.mac(&self.out) == self.tag;
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.out } else { &[] }
    }
}

/// One EVP call per 512-byte data unit, the tweak rising by one per unit.
#[cfg(feature = "openssl")]
struct OsslXtsSectors {
    c: simdcrypt_oracle::openssl::Cipher,
    input: Vec<u8>,
    out: Vec<u8>,
    ok: bool,
}

#[cfg(feature = "openssl")]
impl Runner for OsslXtsSectors {
    fn process_one(&mut self) {
        let units = self
            .input
            .chunks_exact(SMALL_SECTOR)
            .zip(self.out.chunks_exact_mut(SMALL_SECTOR));
        for (i, (src, dst)) in units.enumerate() {
            let mut tweak = (SECTOR + i as u128).to_le_bytes();
            self.ok &= self.c.run(&mut tweak, black_box(src), dst);
        }
    }
    fn output(&self) -> &[u8] {
        if self.ok { &self.out } else { &[] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_patterns() {
        assert!(selects("all", "sha1"));
        assert!(selects("xts", "aes-128-xts-enc"));
        assert!(selects("aes-128-xts", "aes-128-xts-dec"));
        assert!(selects("cbc-enc", "aes-128-cbc-enc-many"));
        assert!(selects("sha1", "hmac-sha1"));
        assert!(!selects("aes-128-x", "aes-128-xts-enc"));
        assert!(!selects("xts", "aes-128-cbc-enc"));
        assert!(!selects("", "sha1"));
        assert!(!selects("aes--xts", "aes-128-xts-enc"));
    }

    #[test]
    fn names_are_unique_and_sizes_valid() {
        let cat = catalog();
        for (i, a) in cat.iter().enumerate() {
            assert!(cat[..i].iter().all(|b| b.name != a.name), "{}", a.name);
            for s in a.default_sizes() {
                assert!(a.size_ok(s), "{} {s}", a.name);
            }
        }
        let xts = cat.iter().find(|a| a.name == "aes-256-xts-enc").unwrap();
        assert_eq!(xts.rounds(), 14);
        assert!(xts.default_sizes().contains(&XTS_SECTOR));
        let cbc = cat.iter().find(|a| a.name == "aes-192-cbc-dec").unwrap();
        assert_eq!(cbc.rounds(), 12);
        assert!(!cbc.size_ok(100));
    }

    /// simdcrypt's own PBKDF2 row on every backend, and both trait routes, give RFC 6070's
    /// outputs.
    #[test]
    fn pbkdf2_rows_match_rfc_6070() {
        let want = [
            (1, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            (2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            (4096, "4b007901b765489abead49d926f721d065a429c1"),
        ];
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        for (n, tag) in want {
            for b in simdcrypt::Sha1::available_backends() {
                let ours = pbkdf2_hmac_sha1_key(b, b"password", b"salt", n);
                assert_eq!(hex(&ours), tag, "{b:?} at {n}");
            }
            let mut out = [0u8; 20];
            pbkdf2::pbkdf2_hmac::<simdcrypt::Sha1>(b"password", b"salt", n, &mut out);
            assert_eq!(hex(&out), tag, "trait route at {n}");
            pbkdf2::pbkdf2_hmac::<sha1::Sha1>(b"password", b"salt", n, &mut out);
            assert_eq!(hex(&out), tag, "RustCrypto at {n}");
        }
    }

    /// The trait-route rows: simdcrypt through the traits (labelled `simdcrypt-trait`) and
    /// RustCrypto, no OpenSSL or AWS-LC; PBKDF2 adds simdcrypt's own on each backend, and
    /// counts 128 bytes an iteration.
    #[test]
    fn trait_route_rows() {
        let by_name = |n: &str| catalog().iter().find(|a| a.name == n).unwrap();
        let hmac = by_name("hmac-sha1-trait");
        assert_eq!(hmac.contenders(), [Who::Simdcrypt(None), Who::RustCrypto]);
        assert_eq!(Who::Simdcrypt(None).backend_name(), "simdcrypt-trait");
        assert_eq!(Who::Simdcrypt(None).implementation(), "simdcrypt");
        assert!(hmac.family.is_trait_route());
        assert_eq!(hmac.bytes(4096), 4096);
        assert_eq!(hmac.ceiling, Ceiling::Sha1Latency);
        assert_eq!(hmac.auto(), Some(simdcrypt::Sha1::new().backend()));

        let pbkdf2 = by_name("pbkdf2-hmac-sha1");
        let who = pbkdf2.contenders();
        assert_eq!(who[0], Who::Simdcrypt(None));
        assert_eq!(who.last(), Some(&Who::RustCrypto));
        assert_eq!(who.len(), 2 + simdcrypt::Sha1::available_backends().count());
        assert_eq!(pbkdf2.bytes(1000), 128_000);
        assert_eq!(pbkdf2.default_sizes(), PBKDF2_ITERATIONS);
        assert!(pbkdf2.size_ok(1) && pbkdf2.size_ok(PBKDF2_MAX_ITERATIONS));
        assert!(!pbkdf2.size_ok(0) && !pbkdf2.size_ok(PBKDF2_MAX_ITERATIONS + 1));
        assert_eq!(pbkdf2.ceiling, Ceiling::Sha1Latency);
        // The other SHA-1 families keep their contenders: no trait route there.
        assert!(!by_name("hmac-sha1").backends().contains(&None));
        assert!(!by_name("hmac-sha1").family.is_trait_route());
    }

    /// The `sha1dc` rows: simdcrypt's collision-detecting backends and the two
    /// collision-detecting crates, no peer without detection; plain SHA-1 of the same
    /// messages as the ceiling, its probe giving the rows' digests.
    #[test]
    fn sha1dc_rows() {
        let by_name = |n: &str| base(n).unwrap();
        let ours = simdcrypt::Sha1Dc::available_backends().count();
        for (name, streams) in [("sha1dc", 1), ("sha1dc-many", MANY)] {
            let a = by_name(name);
            assert_eq!(a.streams, streams);
            assert_eq!(a.ceiling, Ceiling::PlainSha1(streams as u32));
            let who = a.contenders();
            assert_eq!(who.len(), ours + 2, "{name}: {who:?}");
            assert_eq!(&who[ours..], [Who::Sha1DcCrate, Who::Sha1Cd]);
            assert_eq!(a.auto(), Some(simdcrypt::Sha1Dc::new().backend()));
            let (mut probe, bytes) = plain_sha1_probe(streams as u32, 300);
            assert_eq!(bytes, (300 * streams) as f64);
            probe.process_one();
            let mut row = a.make(Who::Sha1Cd, 300).unwrap();
            row.process_one();
            assert_eq!(probe.output(), row.output(), "{name}");
            assert_eq!(probe.output().len(), 20 * streams);
        }
        let x3 = with_streams(by_name("sha1dc-many"), 3);
        assert_eq!(
            (x3.name, x3.ceiling),
            ("sha1dc-many-x3", Ceiling::PlainSha1(3))
        );
        for peer in [Who::OpenSsl, Who::AwsLc, Who::RustCrypto] {
            assert!(by_name("sha1dc").make(peer, 64).is_none(), "{peer:?}");
        }
        assert!(by_name("sha1").make(Who::Sha1DcCrate, 64).is_none());
    }

    /// Every contender of every algorithm agrees after one run, at two sizes.
    #[test]
    fn contenders_agree() {
        for a in catalog().iter().filter(|a| a.family != Family::XtsPar) {
            let sizes = if a.family.is_key_setup() {
                vec![KEY_SETUP_SIZE]
            } else {
                vec![512, 4096]
            };
            for size in sizes {
                let outs: Vec<(Who, Vec<u8>)> = a
                    .contenders()
                    .into_iter()
                    .map(|w| {
                        let mut r = a
                            .make(w, size)
                            .unwrap_or_else(|| panic!("{} {w:?}", a.name));
                        r.process_one();
                        (w, r.output().to_vec())
                    })
                    .collect();
                for (w, o) in &outs[1..] {
                    assert_eq!(
                        o, &outs[0].1,
                        "{} at {size}: {w:?} differs from {:?}",
                        a.name, outs[0].0
                    );
                }
                assert_eq!(
                    outs[0].1.len(),
                    if matches!(
                        a.family,
                        Family::Sha1
                            | Family::Sha1Dc
                            | Family::HmacSha1
                            | Family::HmacSha1Keyed
                            | Family::HmacSha1Trait
                            | Family::Pbkdf2HmacSha1
                    ) {
                        20
                    } else if matches!(a.family, Family::Sha1Many | Family::Sha1DcMany) {
                        20 * a.streams
                    } else if a.family.is_key_setup() {
                        // A block (AES, XTS) or a checksum (Kerberos) of the keyed value.
                        if a.family == Family::Krb5Keys { 12 } else { 16 }
                    } else if a.family == Family::Krb5 && a.encrypt {
                        size + 28
                    } else if a.family == Family::CbcHmacSha1 && a.encrypt {
                        // The ciphertext, then the tag.
                        size + 20
                    } else {
                        size * a.streams
                    }
                );
            }
        }
    }
}
