//! The Kerberos 5 AES encryption types `aes128-cts-hmac-sha1-96` (17) and
//! `aes256-cts-hmac-sha1-96` (18), RFC 3962 on RFC 3961's simplified profile, with their
//! checksums `hmac-sha1-96-aes128` (15) and `hmac-sha1-96-aes256` (16).
//!
//! ```text
//! n-fold(s, n)      s repeated lcm(|s|, n)/|s| times, copy i rotated right by 13·i bits,
//!                   the n-bit pieces added with end-around carry (RFC 3961 §5.1)
//! DK(K, c)          K1 = AES(K, n-fold(c, 128)), K2 = AES(K, K1), ... first |K| bytes
//! string-to-key     DK(PBKDF2-HMAC-SHA1(password, salt, iterations, |K|), "kerberos")
//! per key usage u   Kc = DK(K, u‖99), Ke = DK(K, u‖aa), Ki = DK(K, u‖55)  (u: 4 bytes, big-endian)
//! encrypt           C = CBC-CS3(Ke, iv 0, conf‖P) ‖ HMAC-SHA1(Ki, conf‖P)[..12]
//! checksum          HMAC-SHA1(Kc, msg)[..12]
//! ```
//!
//! Encryption and decryption run on [`CbcHmacSha1`]: on a CPU with AES-NI and the SHA
//! extensions, the CBC chain and the HMAC over the same plaintext are stitched into one
//! loop. The derived keys of one usage are a [`UsageKeys`] value that the caller keeps to
//! skip the derivation on every message.
//!
//! ```
//! use simdcrypt::krb5::Aes256CtsHmacSha196;
//! let key = Aes256CtsHmacSha196::string_to_key(b"password", b"EXAMPLE.COMuser", 4096)?;
//! let mut confounder = [0u8; 16];
//! getrandom::fill(&mut confounder).expect("OS random numbers"); // fresh per message
//! let ct = key.encrypt(3, &confounder, b"ticket contents");
//! assert_eq!(ct.len(), 16 + 15 + 12); // confounder, plaintext, HMAC-SHA1-96
//! assert_eq!(key.decrypt(3, &ct)?, b"ticket contents");
//! let cksum = key.checksum(17, b"header");
//! key.verify_checksum(17, b"header", &cksum)?;
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::cbc::cts_split;
use crate::{Aes, Backend, CbcHmacSha1, Error, HmacSha1Key, wipe};

/// The length of the HMAC-SHA1-96 tag and checksum.
pub const MAC_LEN: usize = 12;
/// The length of the random confounder that starts every plaintext.
pub const CONFOUNDER_LEN: usize = 16;

/// `n-fold` (RFC 3961 §5.1): folds `input` (1 to 64 bytes) into `out` (1 to 32 bytes).
/// The inputs are public constants (key usages, "kerberos"). Up to 16 bytes (every
/// constant this module folds: a usage and its kind, 5 bytes; "kerberos") each copy is one
/// rotation of the input as an integer (a 64-bit one up to 8 bytes); longer inputs pick
/// bits one at a time. (The leak tests fold the usage constants to know the derived keys.)
pub(crate) fn nfold(input: &[u8], out: &mut [u8]) {
    let (k, n) = (input.len(), out.len());
    debug_assert!((1..=64).contains(&k) && (1..=32).contains(&n));
    let lcm = k / gcd(k, n) * n;
    let in_bits = 8 * k;
    let mut acc = [0u32; 32];
    if k <= 16 {
        // Copy `c` is the input rotated right by 13 c bits, big-endian in `in_bits` bits;
        // the copies laid end to end make `lcm` bytes, summed a row of `n` at a time.
        // (16 bytes past the copies: each copy is stored as a whole register, its bytes
        // past `k` overwritten by the next copy.)
        let mut stream = [0u8; 16 * 32 + 16];
        let bits = in_bits as u32;
        macro_rules! copies {
            ($t:ty) => {{
                let x = input.iter().fold(0, |a: $t, &b| a << 8 | <$t>::from(b));
                let mask = <$t>::MAX >> (<$t>::BITS - bits);
                let mut r = 0;
                for c in 0..lcm / k {
                    let y = if r == 0 {
                        x
                    } else {
                        ((x >> r) | (x << (bits - r))) & mask
                    };
                    let at = c * k;
                    let y = (y << (<$t>::BITS - bits)).to_be_bytes();
                    stream[at..at + y.len()].copy_from_slice(&y);
                    r += 13;
                    while r >= bits {
                        r -= bits;
                    }
                }
            }};
        }
        if k <= 8 {
            copies!(u64);
        } else {
            copies!(u128);
        }
        for row in stream[..lcm].chunks_exact(n) {
            for (a, &b) in acc.iter_mut().zip(row) {
                *a += u32::from(b);
            }
        }
    } else {
        add_bitwise(input, lcm, &mut acc[..n]);
    }
    end_around_carry(&mut acc[..n]);
    for (o, a) in out.iter_mut().zip(&acc) {
        // Reduced to a byte above.
        *o = *a as u8;
    }
}

/// Ones' complement addition of byte sums: carries each sum's excess from the last byte
/// towards the first, and around, until every sum is a byte.
fn end_around_carry(acc: &mut [u32]) {
    loop {
        let mut carry = 0u32;
        for a in acc.iter_mut().rev() {
            let v = *a + carry;
            *a = v & 0xff;
            carry = v >> 8;
        }
        if carry == 0 {
            break;
        }
        acc[acc.len() - 1] += carry;
    }
}

/// Adds the `lcm` bytes of `input`'s rotated copies to `acc` (byte `i` to `acc[i % n]`),
/// each bit picked on its own.
fn add_bitwise(input: &[u8], lcm: usize, acc: &mut [u32]) {
    let (k, n) = (input.len(), acc.len());
    let in_bits = 8 * k;
    // Byte `i` of the replicated string: copy `i / k`, rotated right by 13 bits per copy.
    let byte = |i: usize| -> u32 {
        let rot = 13 * (i / k) % in_bits;
        let mut b = 0u32;
        for bit in 0..8 {
            // Bit `p` (from the most significant) of the rotated copy is bit `p - rot`.
            let p = (8 * (i % k) + bit + in_bits - rot) % in_bits;
            b = (b << 1) | u32::from((input[p / 8] >> (7 - p % 8)) & 1);
        }
        b
    };
    for i in 0..lcm {
        acc[i % n] += byte(i);
    }
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `DK(base, constant)` into `out` (16 or 32 bytes): the AES keystream of `base` started
/// from the constant n-folded to one block (random-to-key is the identity for AES).
fn dk(base: &Aes, constant: &[u8], out: &mut [u8]) {
    let mut block = [0u8; 16];
    nfold(constant, &mut block);
    for chunk in out.chunks_mut(16) {
        base.encrypt_block(&mut block);
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
    wipe::bytes(&mut block);
}

/// PBKDF2-HMAC-SHA1 (RFC 8018 §5.2) into `out` (16 or 32 bytes): the password keyed
/// once, two compressions per iteration (`crate::sha1::hmac::pbkdf2`).
fn pbkdf2_hmac_sha1(password: &[u8], salt: &[u8], iterations: u32, out: &mut [u8]) {
    crate::sha1::hmac::pbkdf2(password, salt, iterations, out);
}

/// A base key of either length, with AES keyed for the derivations.
#[derive(Clone)]
struct BaseKey {
    bytes: [u8; 32],
    len: usize,
    aes: Aes,
}

impl BaseKey {
    /// The base key, AES keyed where the value is received: inlined (as `Aes::new` is), so
    /// that no frame below the caller holds a copy of the round keys.
    #[inline(always)]
    fn new(key: &[u8], want: usize) -> Result<BaseKey, Error> {
        if key.len() != want {
            return Err(Error::InvalidKeyLength {
                len: key.len(),
                expected: if want == 16 { "16 bytes" } else { "32 bytes" },
            });
        }
        // A `match`, not `?`: in an unoptimised build `?` is a call of its own, which would
        // pass the keyed `Aes` through a frame below the caller.
        #[allow(clippy::question_mark)]
        let aes = match Aes::new(key) {
            Ok(aes) => aes,
            Err(e) => return Err(e),
        };
        let mut bytes = [0u8; 32];
        bytes[..want].copy_from_slice(key);
        Ok(BaseKey {
            bytes,
            len: want,
            aes,
        })
    }

    fn string_to_key(
        password: &[u8],
        salt: &[u8],
        iterations: u32,
        len: usize,
    ) -> Result<BaseKey, Error> {
        if iterations == 0 {
            return Err(Error::InvalidIterationCount { iterations });
        }
        let mut tkey = [0u8; 32];
        pbkdf2_hmac_sha1(password, salt, iterations, &mut tkey[..len]);
        let tk = BaseKey::new(&tkey[..len], len);
        wipe::bytes(&mut tkey);
        let tk = tk?;
        let mut key = [0u8; 32];
        dk(&tk.aes, b"kerberos", &mut key[..len]);
        let k = BaseKey::new(&key[..len], len);
        wipe::bytes(&mut key);
        k
    }

    /// [`BaseKey::derive`], then the stack it used zeroed: inlined into the frame that
    /// receives the keys (the enctypes' `usage_keys` are inlined too).
    #[inline(always)]
    fn usage_keys(&self, usage: u32, backend: Option<Backend>) -> Result<UsageKeys, Error> {
        let keys = self.derive(usage, backend);
        // `derive`'s frame: the derived keys' `CbcHmacSha1` and `HmacSha1Key` are made there
        // and moved into the value (Ke's round keys, Ki's and Kc's HMAC states); the
        // kernels' frames below it are wiped inside.
        wipe::stack::<{ wipe::depth([2048, 2064, 2064, 2512, 1952, 7232]) }>();
        keys
    }

    /// Runs `f` on the keys of `usage`, derived for this call and dropped (wiped) after,
    /// in a frame below a stack wipe: the enctypes' one-call `encrypt`, `decrypt` and
    /// checksums, whose keys are this crate's temporaries (the moves of the value leave
    /// copies).
    #[inline(always)]
    fn with_keys<R>(&self, usage: u32, f: impl FnOnce(&UsageKeys) -> R) -> R {
        let r = self.with_keys_below(usage, f);
        wipe::stack::<{ wipe::depth([2176, 2224, 2240, 2224, 2256, 5216]) }>();
        r
    }

    /// [`BaseKey::with_keys`]' work, in a frame of its own.
    #[inline(never)]
    fn with_keys_below<R>(&self, usage: u32, f: impl FnOnce(&UsageKeys) -> R) -> R {
        match self.usage_keys(usage, None) {
            Ok(keys) => f(&keys),
            // As in the enctypes' `usage_keys`: keying cannot fail.
            Err(_) => unreachable!("derived keys have a valid length"),
        }
    }

    /// Ke, Ki and Kc of `usage`: `DK` of `usage ‖ 0xaa`, `‖ 0x55`, `‖ 0x99`, the three
    /// keystreams advanced together (one AES call of three blocks per 16 bytes of key). A
    /// frame of its own, below the caller's stack wipe ([`BaseKey::usage_keys`]).
    #[inline(never)]
    fn derive(&self, usage: u32, backend: Option<Backend>) -> Result<UsageKeys, Error> {
        let mut blocks = [[0u8; 16]; 3];
        for (b, kind) in blocks.iter_mut().zip([0xaa, 0x55, 0x99]) {
            let mut c = [0u8; 5];
            c[..4].copy_from_slice(&usage.to_be_bytes());
            c[4] = kind;
            nfold(&c, b);
        }
        // (Test builds: the leak tests measure each wipe site against the calls since the
        // one before; the n-fold frames just written hold the public usage constant only,
        // and are not the ECB kernels' for the wipe after the AES call below to cover.)
        #[cfg(all(test, feature = "std"))]
        crate::wipe::repaint();
        let n = self.len;
        let mut derived = [[0u8; 32]; 3];
        for half in 0..n / 16 {
            self.aes.encrypt_blocks(&mut blocks);
            for (d, b) in derived.iter_mut().zip(&blocks) {
                d[16 * half..16 * half + 16].copy_from_slice(b);
            }
        }
        wipe::blocks(&mut blocks);
        let [ke, ki, kc] = &derived;
        let cipher = match backend {
            Some(b) => CbcHmacSha1::with_backend(&ke[..n], &ki[..n], b),
            None => CbcHmacSha1::new(&ke[..n], &ki[..n]),
        };
        let checksum = HmacSha1Key::new(&kc[..n]);
        for d in &mut derived {
            wipe::bytes(d);
        }
        Ok(UsageKeys {
            usage,
            cipher: cipher?,
            checksum,
        })
    }
}

impl Drop for BaseKey {
    fn drop(&mut self) {
        wipe::bytes(&mut self.bytes);
    }
}

/// The keys derived from a base key for one key usage: Ke and Ki (AES-CBC-CS3 and
/// HMAC-SHA1, stitched, as a [`CbcHmacSha1`]) for encryption, Kc for checksums.
///
/// Derivation costs three AES key schedules, a few AES blocks and four SHA-1
/// compressions; keep this value to pay that once per usage, not once per message. Key
/// material is wiped on drop; `Debug` prints none.
///
/// ```
/// use simdcrypt::krb5::Aes128CtsHmacSha196;
/// let key = Aes128CtsHmacSha196::new(&[0x42; 16])?;
/// let wrap = key.usage_keys(24); // GSS wrap, say: derived once, used for every message
/// for msg in [&b"one"[..], b"two", b"three"] {
///     let mut confounder = [0u8; 16];
///     getrandom::fill(&mut confounder).expect("OS random numbers"); // fresh per message
///     let ct = wrap.encrypt(&confounder, msg);
///     assert_eq!(wrap.decrypt(&ct)?, msg);
///     assert_eq!(key.decrypt(24, &ct)?, msg); // the same keys, derived again
/// }
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct UsageKeys {
    usage: u32,
    cipher: CbcHmacSha1,
    checksum: HmacSha1Key,
}

impl UsageKeys {
    /// The key usage these keys were derived for.
    #[must_use]
    pub fn usage(&self) -> u32 {
        self.usage
    }

    /// The backend of the encryption (see [`CbcHmacSha1::backend`]).
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.cipher.backend()
    }

    /// Encrypts `confounder ‖ plaintext` with AES-CBC-CS3 under Ke (zero IV) and appends
    /// the first 12 bytes of its HMAC-SHA1 under Ki. The confounder must be fresh random
    /// bytes for every message (RFC 3961 §5.3); it is a parameter so that this crate needs
    /// no random number generator.
    #[must_use]
    pub fn encrypt(&self, confounder: &[u8; 16], plaintext: &[u8]) -> Vec<u8> {
        let len = CONFOUNDER_LEN + plaintext.len();
        let mut v = Vec::with_capacity(len + MAC_LEN);
        v.extend_from_slice(confounder);
        v.extend_from_slice(plaintext);
        let mut tag = self.cipher.seal_split(&[0u8; 16], &mut v, cts_split(len));
        v.extend_from_slice(&tag[..MAC_LEN]);
        wipe::bytes(&mut tag);
        v
    }

    /// Decrypts what [`UsageKeys::encrypt`] (or another Kerberos implementation) made and
    /// returns the plaintext without the confounder.
    ///
    /// `Err(DataTooShort)` for fewer than 28 bytes (a block and the tag),
    /// `Err(TagMismatch)` if the HMAC does not match; in neither case is any decrypted
    /// byte left behind.
    ///
    /// ```
    /// use simdcrypt::Error;
    /// use simdcrypt::krb5::Aes256CtsHmacSha196;
    /// let keys = Aes256CtsHmacSha196::new(&[1u8; 32])?.usage_keys(2);
    /// let mut confounder = [0u8; 16];
    /// getrandom::fill(&mut confounder).expect("OS random numbers");
    /// let mut ct = keys.encrypt(&confounder, b"pay 100 to Bob");
    /// ct[20] ^= 1;
    /// assert_eq!(keys.decrypt(&ct), Err(Error::TagMismatch));
    /// assert_eq!(keys.decrypt(&ct[..27]), Err(Error::DataTooShort { len: 27, min: 28 }));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        let len = ciphertext.len();
        let min = CONFOUNDER_LEN + MAC_LEN;
        if len < min {
            return Err(Error::DataTooShort { len, min });
        }
        let (body, tag) = ciphertext.split_at(len - MAC_LEN);
        let mut v = body.to_vec();
        // RFC 3962's 12-byte truncation, fixed here, never the received length (which is
        // `MAC_LEN` by the split above). On a mismatch `open_cts_truncated` has wiped `v`.
        self.cipher
            .open_cts_truncated(&[0u8; 16], &mut v, tag, MAC_LEN)?;
        let n = v.len() - CONFOUNDER_LEN;
        v.copy_within(CONFOUNDER_LEN.., 0);
        wipe::bytes(&mut v[n..]);
        v.truncate(n);
        Ok(v)
    }

    /// The `hmac-sha1-96-aes` checksum of `msg`: HMAC-SHA1 under Kc, first 12 bytes.
    #[must_use]
    pub fn checksum(&self, msg: &[u8]) -> [u8; MAC_LEN] {
        // (Under the kept key: an incremental state cloned into this frame would leave its
        // chaining values here, above the kernels' wipe.)
        let mut full = self.checksum.mac(msg);
        let mut out = [0u8; MAC_LEN];
        out.copy_from_slice(&full[..MAC_LEN]);
        wipe::bytes(&mut full);
        out
    }

    /// Checks a 12-byte checksum in constant time. `Err(LengthMismatch)` if `cksum` is not
    /// 12 bytes long, `Err(TagMismatch)` if it does not match.
    ///
    /// ```
    /// use simdcrypt::Error;
    /// use simdcrypt::krb5::Aes128CtsHmacSha196;
    /// let keys = Aes128CtsHmacSha196::new(&[3u8; 16])?.usage_keys(17);
    /// let c = keys.checksum(b"m");
    /// let err = keys.verify_checksum(b"m", &c[..10]);
    /// assert_eq!(
    ///     err,
    ///     Err(Error::LengthMismatch { what: "checksum and MAC lengths", left: 10, right: 12 })
    /// );
    /// assert_eq!(keys.verify_checksum(b"m", &[0u8; 12]), Err(Error::TagMismatch));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn verify_checksum(&self, msg: &[u8], cksum: &[u8]) -> Result<(), Error> {
        if cksum.len() != MAC_LEN {
            return Err(Error::LengthMismatch {
                what: "checksum and MAC lengths",
                left: cksum.len(),
                right: MAC_LEN,
            });
        }
        self.checksum.verify_truncated(msg, cksum, MAC_LEN)
    }
}

impl fmt::Debug for UsageKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UsageKeys")
            .field("usage", &self.usage)
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

macro_rules! enctype {
    ($(#[$doc:meta])* $name:ident, $len:literal, $bits:literal, $etype:literal, $s2k:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(BaseKey);

        impl $name {
            /// The key length in bytes.
            pub const KEY_LEN: usize = $len;
            /// The IANA encryption type number.
            pub const ENCTYPE: i32 = $etype;

            /// The enctype under a base key (the protocol key, as a keytab holds it).
            #[inline(always)]
            pub fn new(key: &[u8]) -> Result<Self, Error> {
                // Inlined, with no `map` (a call of its own in unoptimised builds): the
                // key is set up where the value is received.
                match BaseKey::new(key, $len) {
                    Ok(k) => Ok($name(k)),
                    Err(e) => Err(e),
                }
            }

            /// The key from a password (RFC 3962 §4): PBKDF2-HMAC-SHA1 with `salt` and
            /// `iterations` (4096 is the RFC's default), then `DK(tkey, "kerberos")`.
            /// `Err(InvalidIterationCount)` for 0 iterations (the RFC reads that as 2^32).
            ///
            /// ```
            /// use hex_literal::hex;
            #[doc = concat!("use simdcrypt::krb5::", stringify!($name), ";")]
            /// // RFC 3962 appendix B, the first vector.
            #[doc = concat!("let k = ", stringify!($name), "::string_to_key(b\"password\", b\"ATHENA.MIT.EDUraeburn\", 1)?;")]
            #[doc = concat!("assert_eq!(k.key_bytes()[..4], hex!(\"", $s2k, "\"));")]
            /// # Ok::<(), simdcrypt::Error>(())
            /// ```
            pub fn string_to_key(
                password: &[u8],
                salt: &[u8],
                iterations: u32,
            ) -> Result<Self, Error> {
                BaseKey::string_to_key(password, salt, iterations, $len).map($name)
            }

            /// The base key's bytes.
            #[must_use]
            pub fn key_bytes(&self) -> &[u8] {
                &self.0.bytes[..$len]
            }

            /// The keys for `usage` (Ke, Ki, Kc), on the automatic backend: keep the value
            /// to encrypt, decrypt and checksum many messages without deriving again.
            #[must_use]
            #[inline(always)]
            pub fn usage_keys(&self, usage: u32) -> UsageKeys {
                match self.0.usage_keys(usage, None) {
                    Ok(k) => k,
                    // The derived keys have the base key's valid length and the automatic
                    // backend is always available, so keying cannot fail.
                    Err(_) => unreachable!("derived keys have a valid length"),
                }
            }

            /// The keys for `usage` with encryption on the backend given (see
            /// [`CbcHmacSha1::available_backends`]).
            #[inline(always)]
            pub fn usage_keys_with_backend(
                &self,
                usage: u32,
                backend: Backend,
            ) -> Result<UsageKeys, Error> {
                self.0.usage_keys(usage, Some(backend))
            }

            /// Encrypts under the keys of `usage` (derived for this call; see
            /// [`UsageKeys::encrypt`]).
            #[must_use]
            pub fn encrypt(&self, usage: u32, confounder: &[u8; 16], plaintext: &[u8]) -> Vec<u8> {
                self.0.with_keys(usage, |k| k.encrypt(confounder, plaintext))
            }

            /// Decrypts under the keys of `usage` (see [`UsageKeys::decrypt`]).
            pub fn decrypt(&self, usage: u32, ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
                self.0.with_keys(usage, |k| k.decrypt(ciphertext))
            }

            #[doc = concat!("The `hmac-sha1-96-aes", $bits, "` checksum of `msg` for `usage`.")]
            #[must_use]
            pub fn checksum(&self, usage: u32, msg: &[u8]) -> [u8; MAC_LEN] {
                self.0.with_keys(usage, |k| k.checksum(msg))
            }

            /// Checks a checksum made by [`Self::checksum`] (see
            /// [`UsageKeys::verify_checksum`]).
            pub fn verify_checksum(&self, usage: u32, msg: &[u8], cksum: &[u8]) -> Result<(), Error> {
                self.0.with_keys(usage, |k| k.verify_checksum(msg, cksum))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }
    };
}

enctype!(
    /// `aes128-cts-hmac-sha1-96` (enctype 17, RFC 3962): AES-128 in CBC-CS3 and
    /// HMAC-SHA1-96; checksum type `hmac-sha1-96-aes128` (15). Key material is wiped on
    /// drop; `Debug` prints none.
    Aes128CtsHmacSha196, 16, "128", 17, "42263c6e"
);
enctype!(
    /// `aes256-cts-hmac-sha1-96` (enctype 18, RFC 3962): AES-256 in CBC-CS3 and
    /// HMAC-SHA1-96; checksum type `hmac-sha1-96-aes256` (16). Key material is wiped on
    /// drop; `Debug` prints none.
    Aes256CtsHmacSha196, 32, "256", 18, "fe697b52"
);

#[cfg(test)]
mod tests;
