//! The key-setup contenders (`aes-128-key`, `aes-256-key`, `xts-256-key`,
//! `krb5-usage-keys`): one run keys once, replacing (and so dropping) the previous keyed
//! value, as a caller that keys per message does. The figure is keys per second (the
//! algorithms' one size is 1 "byte", one key).
//!
//! The output, computed from the last keyed value when it is asked for (not per run), is
//! what that value makes of a fixed input: a zero block encrypted (AES), a 16-byte zero
//! data unit at tweak 0 encrypted (XTS), the checksum of a fixed message (Kerberos).

use std::cell::OnceCell;
use std::hint::black_box;

use aes::cipher::array::Array;
use aes::cipher::{BlockCipherEncrypt, BlockSizeUser, KeyInit, consts::U16};
use simdcrypt::Backend;

use crate::algs::KRB5_USAGE;
use crate::measure::Runner;

/// The message the `krb5-usage-keys` output is the checksum of.
const CHECKSUM_MSG: &[u8] = b"key setup";

/// The output kept in `out`, made on its first use after a run: `f` writes into zeros (and
/// leaves them where the run's keying failed).
fn made_once<const N: usize>(out: &OnceCell<[u8; N]>, f: impl FnOnce(&mut [u8; N])) -> &[u8] {
    out.get_or_init(|| {
        let mut b = [0u8; N];
        f(&mut b);
        b
    })
}

// ---------------------------------------------------------------- simdcrypt

/// A simdcrypt type keyed per run, and what its output is made of.
pub trait Keyed: Sized {
    /// `new`: the automatic backend.
    fn new(key: &[u8]) -> Option<Self>;
    /// `with_backend`.
    fn with_backend(key: &[u8], backend: Backend) -> Option<Self>;
    /// Encrypts the zero block `b` (with a zero IV for CBC, at tweak 0 for XTS).
    fn encrypt_zero(&self, b: &mut [u8; 16]);
}

/// `Keyed` for `$t`, whose zero block `$b` encrypts as `$enc` with `$k` the keyed value.
macro_rules! keyed {
    ($t:ty, |$k:ident, $b:ident| $enc:expr) => {
        impl Keyed for $t {
            fn new(key: &[u8]) -> Option<Self> {
                <$t>::new(key).ok()
            }
            fn with_backend(key: &[u8], backend: Backend) -> Option<Self> {
                <$t>::with_backend(key, backend).ok()
            }
            fn encrypt_zero(&self, $b: &mut [u8; 16]) {
                let $k = self;
                $enc;
            }
        }
    };
}
keyed!(simdcrypt::Aes, |a, b| a.encrypt_block(b));
keyed!(simdcrypt::Cbc, |c, b| c.encrypt(&mut [0u8; 16], b).ok());
keyed!(simdcrypt::Xts, |x, b| x.encrypt_sector(b, 0).ok());

/// `T::new` (the automatic backend) or `T::with_backend` per run (`Aes`, `Cbc`, `Xts`).
pub struct OursKeyed<T> {
    pub key: Vec<u8>,
    pub backend: Backend,
    /// `backend` is the automatic choice: key with `new`, as a caller does.
    pub auto: bool,
    pub keyed: Option<T>,
    pub out: OnceCell<[u8; 16]>,
}

impl<T> OursKeyed<T> {
    pub fn new(key: &[u8], backend: Backend, auto: bool) -> Self {
        OursKeyed {
            key: key.to_vec(),
            backend,
            auto,
            keyed: None,
            out: OnceCell::new(),
        }
    }
}

impl<T: Keyed> Runner for OursKeyed<T> {
    fn process_one(&mut self) {
        let key = black_box(&self.key);
        self.keyed = if self.auto {
            T::new(key)
        } else {
            T::with_backend(key, self.backend)
        };
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        made_once(&self.out, |b| {
            if let Some(k) = &self.keyed {
                k.encrypt_zero(b);
            }
        })
    }
}

/// `Aes256CtsHmacSha196::new`, then `usage_keys_with_backend` per run.
pub struct OursKrb5 {
    pub key: Vec<u8>,
    pub backend: Backend,
    pub keys: Option<simdcrypt::krb5::UsageKeys>,
    pub out: OnceCell<[u8; 12]>,
}

impl Runner for OursKrb5 {
    fn process_one(&mut self) {
        self.keys = simdcrypt::krb5::Aes256CtsHmacSha196::new(black_box(&self.key))
            .and_then(|k| k.usage_keys_with_backend(KRB5_USAGE, self.backend))
            .ok();
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        self.out.get_or_init(|| {
            self.keys
                .as_ref()
                .map_or([0; 12], |k| k.checksum(CHECKSUM_MSG))
        })
    }
}

// ---------------------------------------------------------------- RustCrypto

/// `C::new` per run (`aes::Aes128`, `aes::Aes256`: encryption and decryption keys).
pub struct RcAes<C> {
    pub key: Vec<u8>,
    pub c: Option<C>,
    pub out: OnceCell<[u8; 16]>,
}

impl<C: KeyInit + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> Runner for RcAes<C> {
    fn process_one(&mut self) {
        self.c = C::new_from_slice(black_box(&self.key)).ok();
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        self.out.get_or_init(|| {
            let mut b = Array::from([0u8; 16]);
            if let Some(c) = &self.c {
                c.encrypt_block(&mut b);
            }
            b.into()
        })
    }
}

/// `cbc::Encryptor<aes::Aes128>::new` per run (an `Aes128`: encryption and decryption
/// keys, as `Cbc` keeps). The output: a zero block encrypted under a zero IV.
pub struct RcCbc {
    pub key: Vec<u8>,
    /// In a cell: the output encrypts with it (which steps its chaining value), from `&self`.
    pub c: std::cell::RefCell<Option<cbc::Encryptor<aes::Aes128>>>,
    pub out: OnceCell<[u8; 16]>,
}

impl Runner for RcCbc {
    fn process_one(&mut self) {
        use aes::cipher::KeyIvInit;
        *self.c.get_mut() = cbc::Encryptor::new_from_slices(black_box(&self.key), &[0u8; 16]).ok();
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        use aes::cipher::BlockModeEncrypt;
        self.out.get_or_init(|| {
            let mut b = Array::from([0u8; 16]);
            if let Some(c) = self.c.borrow_mut().as_mut() {
                c.encrypt_block(&mut b);
            }
            b.into()
        })
    }
}

/// Two `aes::Aes256` keys in an `xts_mode::Xts128` per run.
pub struct RcXts {
    pub key: Vec<u8>,
    pub xts: Option<xts_mode::Xts128<aes::Aes256>>,
    pub out: OnceCell<[u8; 16]>,
}

impl Runner for RcXts {
    fn process_one(&mut self) {
        let (k1, k2) = black_box(&self.key).split_at(32);
        self.xts = match (
            aes::Aes256::new_from_slice(k1),
            aes::Aes256::new_from_slice(k2),
        ) {
            (Ok(a), Ok(b)) => Some(xts_mode::Xts128::new(a, b)),
            _ => None,
        };
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        made_once(&self.out, |b| {
            if let Some(x) = &self.xts {
                x.encrypt_sector(b, Array::from([0u8; 16]));
            }
        })
    }
}

/// The Kerberos usage keys made of RustCrypto parts, the same work as `usage_keys`: AES-256
/// keyed with the base key, Ke, Ki and Kc each two AES blocks (DK of the n-folded usage
/// constants, folded once beforehand: the peer is spared the n-fold), then AES-256 keyed
/// with Ke and HMAC-SHA1 with Ki and with Kc.
pub struct RcKrb5 {
    pub key: Vec<u8>,
    /// The n-fold of `usage ‖ 0xaa`, `‖ 0x55`, `‖ 0x99` to 16 bytes.
    pub folded: [[u8; 16]; 3],
    pub keys: Option<RcUsageKeys>,
    pub out: OnceCell<[u8; 12]>,
}

/// What [`RcKrb5`] keeps per usage.
pub struct RcUsageKeys {
    pub ke: aes::Aes256,
    pub ki: hmac::Hmac<sha1::Sha1>,
    pub kc: hmac::Hmac<sha1::Sha1>,
}

impl Runner for RcKrb5 {
    fn process_one(&mut self) {
        use hmac::KeyInit as _;
        let Ok(base) = aes::Aes256::new_from_slice(black_box(&self.key)) else {
            return;
        };
        let mut derived = [[0u8; 32]; 3];
        for (d, c) in derived.iter_mut().zip(&self.folded) {
            let mut b = Array::from(*c);
            for half in d.chunks_mut(16) {
                base.encrypt_block(&mut b);
                half.copy_from_slice(&b);
            }
        }
        let [ke, ki, kc] = &derived;
        self.keys = match (
            aes::Aes256::new_from_slice(ke),
            hmac::Hmac::<sha1::Sha1>::new_from_slice(ki),
            hmac::Hmac::<sha1::Sha1>::new_from_slice(kc),
        ) {
            (Ok(ke), Ok(ki), Ok(kc)) => Some(RcUsageKeys { ke, ki, kc }),
            _ => None,
        };
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        use hmac::Mac as _;
        made_once(&self.out, |out| {
            if let Some(k) = &self.keys {
                black_box(&k.ke);
                black_box(&k.ki);
                let mut m = k.kc.clone();
                m.update(CHECKSUM_MSG);
                out.copy_from_slice(&m.finalize().into_bytes()[..12]);
            }
        })
    }
}

/// `n-fold` (RFC 3961 §5.1) of `input` to `out.len()` bytes, bit by bit: the peer's
/// constants, folded once.
pub fn nfold(input: &[u8], out: &mut [u8]) {
    let (k, n) = (input.len(), out.len());
    let gcd = {
        let (mut a, mut b) = (k, n);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let lcm = k / gcd * n;
    let bits = 8 * k;
    let mut acc = vec![0u32; n];
    for i in 0..lcm {
        let rot = 13 * (i / k) % bits;
        let mut byte = 0u32;
        for bit in 0..8 {
            let p = (8 * (i % k) + bit + bits - rot) % bits;
            byte = (byte << 1) | u32::from((input[p / 8] >> (7 - p % 8)) & 1);
        }
        acc[i % n] += byte;
    }
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
        acc[n - 1] += carry;
    }
    for (o, a) in out.iter_mut().zip(&acc) {
        *o = *a as u8;
    }
}

/// The three folded usage constants of [`RcKrb5`] for `usage`.
pub fn folded_usage_constants(usage: u32) -> [[u8; 16]; 3] {
    [0xaa, 0x55, 0x99].map(|kind| {
        let mut c = [0u8; 5];
        c[..4].copy_from_slice(&usage.to_be_bytes());
        c[4] = kind;
        let mut out = [0u8; 16];
        nfold(&c, &mut out);
        out
    })
}

// ---------------------------------------------------------------- OpenSSL

/// `EVP_EncryptInit_ex` with the key alone on a kept context, per run (the shim's
/// `simdcrypt_ossl_cipher_rekey`): AES-ECB or AES-XTS encryption keys.
#[cfg(feature = "openssl")]
pub struct OsslKey {
    pub key: Vec<u8>,
    /// In a cell: the output encrypts with it, from `&self` (`get_mut` when keying).
    pub c: std::cell::RefCell<simdcrypt_oracle::openssl::Cipher>,
    pub ok: bool,
    pub out: OnceCell<[u8; 16]>,
}

#[cfg(feature = "openssl")]
impl Runner for OsslKey {
    fn process_one(&mut self) {
        self.ok &= self.c.get_mut().rekey(black_box(&self.key));
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        if !self.ok {
            return &[];
        }
        self.out.get_or_init(|| {
            let (mut iv, mut out) = ([0u8; 16], [0u8; 16]);
            if !self.c.borrow_mut().run(&mut iv, &[0u8; 16], &mut out) {
                out = [0; 16];
            }
            out
        })
    }
}

// ---------------------------------------------------------------- AWS-LC

/// `UnboundCipherKey::new` and `EncryptingKey::ecb` per run (encryption keys).
#[cfg(feature = "aws-lc")]
pub struct AwsAes {
    pub key: Vec<u8>,
    pub alg: &'static aws_lc_rs::cipher::Algorithm,
    pub k: Option<aws_lc_rs::cipher::EncryptingKey>,
    pub out: OnceCell<[u8; 16]>,
}

#[cfg(feature = "aws-lc")]
impl Runner for AwsAes {
    fn process_one(&mut self) {
        use aws_lc_rs::cipher::{EncryptingKey, UnboundCipherKey};
        self.k = UnboundCipherKey::new(self.alg, black_box(&self.key))
            .ok()
            .and_then(|u| EncryptingKey::ecb(u).ok());
        self.out = OnceCell::new();
    }
    fn output(&self) -> &[u8] {
        self.out.get_or_init(|| {
            let mut b = [0u8; 16];
            if let Some(k) = &self.k
                && k.encrypt(&mut b).is_err()
            {
                b = [0; 16];
            }
            b
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nfold_rfc3961_kerberos() {
        // RFC 3961 appendix A.1: 128-fold("kerberos").
        let mut out = [0u8; 16];
        super::nfold(b"kerberos", &mut out);
        assert_eq!(out, hex_fold("6b65726265726f737b9b5b2b93132b93"));
    }

    fn hex_fold(s: &str) -> [u8; 16] {
        core::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
    }
}
