//! AES-CBC (SP 800-38A): chained single-stream encryption, parallel decryption, many
//! independent streams encrypted at once, PKCS#7 padding and CBC-CS3 ciphertext stealing
//! (the Kerberos form of RFC 3962).
//!
//! ```text
//! encrypt: C[i] = E(P[i] ^ C[i-1]), C[-1] = IV      (a chain: latency-bound)
//! decrypt: P[i] = D(C[i]) ^ C[i-1]                  (independent: throughput-bound)
//! ```
//! Three jobs, each written once over the AES vector trait in `kernel.rs`, which the
//! width handle (`crate::aes::Width::run_job`) runs in the width's `#[target_feature]`
//! entry: the chained encryption of one stream, the parallel decryption, and the
//! interleaved encryption of several streams (lanes).

use core::fmt;

use crate::Backend;
use crate::Error;
use crate::aes::{Aes, Block};
use crate::dispatch;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

mod kernel;
mod lanes;
mod soft;

/// AES-CBC under one key, on one backend.
///
/// Round keys are zeroized on drop; `Debug` prints no key material.
///
/// # Security
///
/// CBC encrypts only; it does not authenticate. Each message needs a fresh, unpredictable
/// IV (random, or the encryption of a unique nonce under the key): a repeated IV shows
/// which messages share a prefix, and a predictable one lets a chosen-plaintext attacker
/// test guesses of earlier blocks (as in BEAST against TLS 1.0). Continuing a chain across
/// calls (the `iv` the encryption leaves) is one message. Authenticate the ciphertext
/// before decrypting it, or decrypting it is an oracle: see [`Cbc::decrypt_padded`].
///
/// ```
/// use simdcrypt::Cbc;
/// let cbc = Cbc::new(&[7u8; 16])?;
/// let mut iv = [0u8; 16];
/// getrandom::fill(&mut iv).expect("OS random numbers"); // fresh for this message
/// let mut iv2 = iv; // sent with the ciphertext
/// let mut buf = [0u8; 64];
/// cbc.encrypt(&mut iv, &mut buf[..32])?;
/// cbc.encrypt(&mut iv, &mut buf[32..])?; // continues the chain: the same message
/// cbc.decrypt(&mut iv2, &mut buf)?;
/// assert_eq!(buf, [0u8; 64]);
/// assert_eq!(iv, iv2);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
#[repr(transparent)] // (`Aes::keyed_as` keys it as the `Aes` it is)
pub struct Cbc {
    /// The schedule and kernel: the block-cipher handle ECB, CBC and the stitched kernel
    /// share.
    pub(crate) aes: Aes,
}

fn as_blocks(buf: &mut [u8]) -> Result<&mut [Block], Error> {
    let len = buf.len();
    let (blocks, rest) = buf.as_chunks_mut::<16>();
    if rest.is_empty() {
        Ok(blocks)
    } else {
        Err(Error::NotBlockMultiple { len })
    }
}

/// Where a CBC-CS3 message of `len >= 16` bytes splits into whole blocks chained as usual
/// and the 16 to 32 bytes that [`steal_encrypt`] ends it with: exactly 16 bytes is one
/// plain CBC block; beyond that the last partial or full block and the one before it.
pub(crate) fn cts_split(len: usize) -> usize {
    debug_assert!(len >= 16);
    if len <= 16 {
        return 0;
    }
    // The last (partial or full) block's length, 1..=16.
    let d = len - 16 * ((len - 1) / 16);
    len - d - 16
}

/// CBC over whole blocks in place from a chain (updated): what the CS3 endings
/// ([`steal_encrypt`], [`steal_decrypt`]) run their blocks on, `Cbc`'s kernels or a
/// stitched entry's single blocks.
pub(crate) trait CbcBlocks {
    /// CBC-encrypts `blocks` from `chain`, which becomes the last ciphertext block.
    fn enc(&self, chain: &mut Block, blocks: &mut [Block]);
    /// CBC-decrypts `blocks` from `chain`, which becomes the last ciphertext block.
    fn dec(&self, chain: &mut Block, blocks: &mut [Block]);
}

impl CbcBlocks for Cbc {
    #[inline]
    fn enc(&self, chain: &mut Block, blocks: &mut [Block]) {
        self.enc_blocks(chain, blocks);
    }
    #[inline]
    fn dec(&self, chain: &mut Block, blocks: &mut [Block]) {
        self.dec_blocks(chain, blocks);
    }
}

/// The CS3 ending of an encryption: `tail` is the last 16 bytes (one plain CBC block)
/// or the last 17 to 32 bytes (two blocks, the second partial), `chain` the ciphertext
/// block before them (or the IV). Encrypts `tail` in place with the last two blocks
/// swapped and the final one truncated; `chain` becomes the last full block encrypted.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn steal_encrypt<C: CbcBlocks>(c: &C, chain: &mut Block, tail: &mut [u8]) {
    let len = tail.len();
    debug_assert!((16..=32).contains(&len));
    if len <= 16 {
        if let Ok(b) = <&mut Block>::try_from(tail) {
            c.enc(chain, core::slice::from_mut(b));
        }
        return;
    }
    let d = len - 16;
    let (pen, last) = tail.split_at_mut(16);
    // E[m-1] = E(P[m-1] ^ C[m-2]).
    let mut e = [[0u8; 16]];
    e[0].copy_from_slice(pen);
    c.enc(chain, &mut e);
    // C[m] = E(E[m-1] ^ (P[m] || 0)).
    let mut x = [[0u8; 16]];
    x[0][..d].copy_from_slice(last);
    c.enc(chain, &mut x);
    pen.copy_from_slice(&x[0]);
    last.copy_from_slice(&e[0][..d]);
    crate::wipe::blocks(&mut e);
}

/// The CS3 ending of a decryption (the inverse of [`steal_encrypt`]): `tail` is
/// the last 16 to 32 bytes, `chain` the ciphertext block before them (or the IV).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn steal_decrypt<C: CbcBlocks>(c: &C, chain: &mut Block, tail: &mut [u8]) {
    let len = tail.len();
    debug_assert!((16..=32).contains(&len));
    if len <= 16 {
        if let Ok(b) = <&mut Block>::try_from(tail) {
            c.dec(chain, core::slice::from_mut(b));
        }
        return;
    }
    let d = len - 16;
    let (pen, last) = tail.split_at_mut(16);
    // D(C[m]) = E[m-1] ^ (P[m] || 0): its tail is E[m-1]'s stolen tail.
    let mut dx = [[0u8; 16]];
    dx[0].copy_from_slice(pen);
    c.dec(&mut [0u8; 16], &mut dx);
    let mut e = [dx[0]];
    e[0][..d].copy_from_slice(last);
    let mut pm = [0u8; 16];
    for (i, p) in pm[..d].iter_mut().enumerate() {
        *p = dx[0][i] ^ last[i];
    }
    // P[m-1] = D(E[m-1]) ^ C[m-2].
    c.dec(chain, &mut e);
    pen.copy_from_slice(&e[0]);
    last.copy_from_slice(&pm[..d]);
    crate::wipe::bytes(&mut pm);
    crate::wipe::blocks(&mut dx);
    crate::wipe::blocks(&mut e);
}

/// 1 if `x == 0`, else 0 (for `x < 2^31`), without branches.
#[inline]
fn ct_is_zero(x: u32) -> u32 {
    (!x & x.wrapping_sub(1)) >> 31
}

/// 1 if `a < b`, else 0 (for `a, b < 2^31`), without branches.
#[inline]
fn ct_lt(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b) >> 31
}

/// Checks PKCS#7 padding on the last block in constant time: `(mask, pad_len)` where
/// `mask` is all ones if the padding is good and zero otherwise.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
fn pkcs7_check(last: &Block) -> (u32, u32) {
    let last = core::hint::black_box(*last);
    let p = u32::from(last[15]);
    let mut bad = ct_is_zero(p) | ct_lt(16, p);
    for (i, &b) in last.iter().rev().enumerate() {
        // i < 16, so the cast is exact.
        let in_pad = ct_lt(i as u32, p);
        bad |= in_pad & (1 ^ ct_is_zero(u32::from(b) ^ p));
    }
    let good_mask = core::hint::black_box(bad).wrapping_sub(1);
    (good_mask, p & good_mask)
}

impl Cbc {
    /// Keys AES-128, -192 or -256 (a 16-, 24- or 32-byte key) on the automatic backend.
    #[inline(always)]
    pub fn new(key: &[u8]) -> Result<Cbc, Error> {
        // SAFETY: `Cbc` is `#[repr(transparent)]` over `Aes`.
        unsafe { Aes::keyed_as(key, crate::dispatch::CBC.auto_kernel()) }
    }

    /// Keys CBC on the backend given; `Err` if CBC lacks it or this CPU cannot run it.
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Cbc, Error> {
        // SAFETY: `Cbc` is `#[repr(transparent)]` over `Aes`.
        unsafe { Aes::keyed_as(key, crate::dispatch::CBC.select(backend)?) }
    }

    dispatch::backend_methods! {
        crate::dispatch::CBC;
        /// The backends this CPU runs for CBC, best first.
        available;
        /// The backend this instance runs on.
        backend = aes.keyed_backend();
        /// Every backend that CBC has, available here or not, best first.
        implemented;
    }

    pub(crate) fn enc_blocks(&self, iv: &mut Block, blocks: &mut [Block]) {
        if !blocks.is_empty() {
            self.aes
                .kernel()
                .run_job(kernel::Stream::<false>(&self.aes.ks, iv, blocks));
        }
    }

    pub(crate) fn dec_blocks(&self, iv: &mut Block, blocks: &mut [Block]) {
        if !blocks.is_empty() {
            self.aes
                .kernel()
                .run_job(kernel::Stream::<true>(&self.aes.ks, iv, blocks));
        }
    }

    /// Encrypts `buf` in place; the updated `iv` chains one stream on, never the next message's IV.
    ///
    /// `iv` becomes the last ciphertext block, so that a following call continues the same
    /// message; a new message needs a fresh, unpredictable IV (see [`Cbc`]'s "Security"),
    /// and a chain's last ciphertext block is known to whoever saw the ciphertext. `Err`
    /// (nothing written) unless `buf.len()` is a multiple of 16.
    ///
    /// ```
    /// use hex_literal::hex;
    /// use simdcrypt::{Cbc, Error};
    /// // NIST SP 800-38A F.2.1, first block (the test vector's IV; a message's own is fresh).
    /// let cbc = Cbc::new(&hex!("2b7e151628aed2a6abf7158809cf4f3c"))?;
    /// let mut iv = hex!("000102030405060708090a0b0c0d0e0f");
    /// let mut buf = hex!("6bc1bee22e409f96e93d7e117393172a");
    /// cbc.encrypt(&mut iv, &mut buf)?;
    /// assert_eq!(buf, hex!("7649abac8119b246cee98e9b12e9197d"));
    /// assert_eq!(iv, buf); // ready to continue this stream
    /// let mut iv = [0u8; 16];
    /// getrandom::fill(&mut iv).expect("OS random numbers"); // the next message's own IV
    /// let mut odd = [1u8; 17];
    /// assert_eq!(cbc.encrypt(&mut iv, &mut odd), Err(Error::NotBlockMultiple { len: 17 }));
    /// assert_eq!(odd, [1u8; 17]);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn encrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let blocks = as_blocks(buf)?;
        self.enc_blocks(iv, blocks);
        Ok(())
    }

    /// Decrypts `buf` in place; `iv` becomes the last ciphertext block, so a following call
    /// continues the chain. `Err` (nothing written) unless `buf.len()` is a multiple of 16.
    pub fn decrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let blocks = as_blocks(buf)?;
        // (`dec_blocks`, written out: one call fewer between here and the kernel.)
        if !blocks.is_empty() {
            self.aes
                .kernel()
                .run_job(kernel::Stream::<true>(&self.aes.ks, iv, blocks));
        }
        Ok(())
    }

    /// Encrypts `msg` with PKCS#7 padding (1 to 16 bytes) into a new vector.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn encrypt_padded(&self, iv: &[u8; 16], msg: &[u8]) -> Vec<u8> {
        let pad = 16 - msg.len() % 16;
        let mut v = Vec::with_capacity(msg.len() + pad);
        v.extend_from_slice(msg);
        // pad <= 16, so the cast is exact.
        v.resize(msg.len() + pad, pad as u8);
        let mut chain = *iv;
        self.enc_blocks(&mut chain, v.as_chunks_mut::<16>().0);
        v
    }

    /// Decrypts `ct` and removes its PKCS#7 padding.
    ///
    /// The padding is checked in constant time; whatever is wrong with it, the answer is
    /// the one [`Error::BadPadding`]. A length that is not a positive multiple of 16 is a
    /// length error.
    ///
    /// # Security
    ///
    /// On ciphertext that has not been authenticated this is a padding oracle: whether it
    /// answers `BadPadding` tells an attacker who can submit modified ciphertexts enough
    /// to decrypt any of them, a byte at a time (Vaudenay, 2002), whatever the timing.
    /// Check a MAC over the IV and ciphertext first (encrypt-then-MAC) and call this only
    /// on ciphertext that passed, or use an authenticated mode.
    ///
    /// ```
    /// use simdcrypt::{Cbc, Error};
    /// let cbc = Cbc::new(&[7u8; 16])?;
    /// let mut iv = [0u8; 16];
    /// getrandom::fill(&mut iv).expect("OS random numbers");
    /// let ct = cbc.encrypt_padded(&iv, b"attack at dawn");
    /// assert_eq!(cbc.decrypt_padded(&iv, &ct)?, b"attack at dawn");
    /// // A block that decrypts to a last byte of 0 is not PKCS#7.
    /// let mut bad = [0u8; 16];
    /// cbc.encrypt(&mut iv.clone(), &mut bad)?;
    /// assert_eq!(cbc.decrypt_padded(&iv, &bad), Err(Error::BadPadding));
    /// assert_eq!(cbc.decrypt_padded(&iv, &[]), Err(Error::DataTooShort { len: 0, min: 16 }));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn decrypt_padded(&self, iv: &[u8; 16], ct: &[u8]) -> Result<Vec<u8>, Error> {
        let len = ct.len();
        if !len.is_multiple_of(16) {
            return Err(Error::NotBlockMultiple { len });
        }
        if len == 0 {
            return Err(Error::DataTooShort { len, min: 16 });
        }
        let mut v = ct.to_vec();
        let mut chain = *iv;
        let blocks = v.as_chunks_mut::<16>().0;
        self.dec_blocks(&mut chain, blocks);
        let (good, pad) = pkcs7_check(&blocks[blocks.len() - 1]);
        if !crate::ct::declassify(good) {
            zeroize::Zeroize::zeroize(v.as_mut_slice());
            return Err(Error::BadPadding);
        }
        // The padding length is public once the padding is valid (the plaintext's length
        // gives it away); declassified, it is a public length to truncate by.
        // `pkcs7_check` returns at most 16 there, so five bits hold it.
        let pad = crate::ct::declassify_bits::<5>(pad) as usize;
        v.truncate(len - pad);
        Ok(v)
    }

    /// Encrypts `buf` in place with CBC-CS3 ciphertext stealing (SP 800-38A addendum; the
    /// Kerberos form of RFC 3962): any length of at least 16. Exactly 16 bytes is one CBC
    /// block; beyond that the last two ciphertext blocks are swapped and the last one
    /// truncated. `Err` (nothing written) if `buf` is shorter than 16 bytes.
    ///
    /// ```
    /// use hex_literal::hex;
    /// // RFC 3962 appendix B, the 17-byte case.
    /// let cbc = simdcrypt::Cbc::new(&hex!("636869636b656e207465726979616b69"))?;
    /// let mut buf = hex!("4920776f756c64206c696b652074686520");
    /// cbc.encrypt_cts(&[0u8; 16], &mut buf)?;
    /// assert_eq!(buf, hex!("c6353568f2bf8cb4d8a580362da7ff7f97"));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn encrypt_cts(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        self.encrypt_cts_inner(iv, buf)
    }

    fn encrypt_cts_inner(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let len = buf.len();
        if len < 16 {
            return Err(Error::DataTooShort { len, min: 16 });
        }
        let mut chain = *iv;
        let (head, tail) = buf.split_at_mut(cts_split(len));
        self.enc_blocks(&mut chain, head.as_chunks_mut::<16>().0);
        steal_encrypt(self, &mut chain, tail);
        Ok(())
    }

    /// Decrypts a CBC-CS3 buffer in place (the inverse of [`Cbc::encrypt_cts`]). `Err`
    /// (nothing written) if `buf` is shorter than 16 bytes.
    ///
    /// ```
    /// use simdcrypt::{Cbc, Error};
    /// let cbc = Cbc::new(&[7u8; 16])?;
    /// let mut msg = *b"thirty-one bytes, not a multiple";
    /// cbc.encrypt_cts(&[1u8; 16], &mut msg)?;
    /// cbc.decrypt_cts(&[1u8; 16], &mut msg)?;
    /// assert_eq!(&msg, b"thirty-one bytes, not a multiple");
    /// let mut short = [9u8; 15];
    /// let err = cbc.decrypt_cts(&[1u8; 16], &mut short);
    /// assert_eq!(err, Err(Error::DataTooShort { len: 15, min: 16 }));
    /// assert_eq!(short, [9u8; 15]);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn decrypt_cts(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        self.decrypt_cts_inner(iv, buf)
    }

    fn decrypt_cts_inner(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let len = buf.len();
        if len < 16 {
            return Err(Error::DataTooShort { len, min: 16 });
        }
        let mut chain = *iv;
        let (head, tail) = buf.split_at_mut(cts_split(len));
        // Afterwards `chain` is C[m-2] (or the IV).
        self.dec_blocks(&mut chain, head.as_chunks_mut::<16>().0);
        steal_decrypt(self, &mut chain, tail);
        Ok(())
    }

    /// Encrypts `bufs.len()` independent streams in place, interleaved to keep the AES
    /// units busy; `ivs[i]` is stream `i`'s IV and becomes its last ciphertext block, as
    /// with [`Cbc::encrypt`]. Lengths may differ. `Err` (nothing written) if the counts
    /// differ or a length is not a multiple of 16.
    ///
    /// ```
    /// use simdcrypt::{Cbc, Error};
    /// let cbc = Cbc::new(&[7u8; 16])?;
    /// let (mut a, mut b) = ([1u8; 48], [2u8; 160]);
    /// let mut ivs = [[0u8; 16]; 2];
    /// getrandom::fill(ivs.as_flattened_mut()).expect("OS random numbers");
    /// let (mut iv, mut one) = (ivs[1], [2u8; 160]);
    /// cbc.encrypt_many(&mut ivs, &mut [&mut a[..], &mut b[..]])?;
    /// cbc.encrypt(&mut iv, &mut one)?; // the same as one stream at a time
    /// assert_eq!((b, ivs[1]), (one, iv));
    /// let err = cbc.encrypt_many(&mut ivs, &mut [&mut a[..]]);
    /// assert_eq!(err, Err(Error::LengthMismatch { what: "ivs and bufs counts", left: 2, right: 1 }));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn encrypt_many(&self, ivs: &mut [[u8; 16]], bufs: &mut [&mut [u8]]) -> Result<(), Error> {
        if ivs.len() != bufs.len() {
            return Err(Error::LengthMismatch {
                what: "ivs and bufs counts",
                left: ivs.len(),
                right: bufs.len(),
            });
        }
        if let Some(b) = bufs.iter().find(|b| !b.len().is_multiple_of(16)) {
            return Err(Error::NotBlockMultiple { len: b.len() });
        }
        // Each step on the width handle, with its wipe (one step where the streams have
        // equal lengths): the driver's frame, above the wipe, holds chaining values and
        // pointers alone.
        let (k, ks) = (self.aes.kernel(), &self.aes.ks);
        lanes::many::<16>(ivs, bufs, |l, steps| k.run_job(kernel::Lanes(ks, l, steps)));
        Ok(())
    }
}

impl fmt::Debug for Cbc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cbc")
            .field("key_bits", &((self.aes.ks.rounds - 6) * 32))
            .field("backend", &self.aes.keyed_backend())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
