//! AES-CBC and HMAC-SHA1 of the same plaintext in one pass (encrypt-and-MAC, Kerberos'
//! order: RFC 3961's simplified profile MACs the plaintext), with CBC-CS3 ciphertext
//! stealing.
//!
//! ```text
//! seal: C = CBC-CS3(Ke, iv, P)        tag = HMAC-SHA1(Ki, P)
//! open: P = CBC-CS3^-1(Ke, iv, C)     check HMAC-SHA1(Ki, P) against the tag
//! ```
//!
//! CBC encryption is one serial chain of `aesenc` (`AESE`/`AESMC` on AArch64) and SHA-1 on
//! the SHA extensions (the ARMv8 SHA-1 instructions) is another; the stitched backend
//! (`crate::arch::Stitched`) interleaves them in one loop (one 64-byte SHA-1 block per four
//! CBC blocks, the AES rounds spread between the four-round SHA-1 steps), so the MAC hides
//! in the gaps of the AES chain. Opening decrypts four blocks in parallel
//! while the previous four are hashed. The blocks after the last whole 64-byte group, the
//! CS3 tail (the last 16 to 32 bytes) and the HMAC's last blocks run in the same kernel
//! call, after the groups: one entry and one stack wipe per message. The other backends
//! run CBC and SHA-1 one after the other.
//!
//! ```
//! use simdcrypt::CbcHmacSha1;
//! let c = CbcHmacSha1::new(&[1u8; 16], &[2u8; 20])?;
//! let mut buf = *b"attack at dawn, with seventeen+ bytes";
//! let tag = c.seal_cts(&[0u8; 16], &mut buf)?;
//! c.open_cts(&[0u8; 16], &mut buf, &tag)?;
//! assert_eq!(&buf, b"attack at dawn, with seventeen+ bytes");
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use core::fmt;

use crate::Backend;
use crate::aes::Block;
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
use crate::arch::Stitched;
use crate::cbc::{Cbc, cts_split, steal_decrypt, steal_encrypt};
use crate::dispatch;
use crate::sha1::hmac::{TAG_LEN, check_tag_len, ct_verify, finish_tag, key_states};
use crate::sha1::{self, Sha1};
use crate::{Error, wipe};

#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
pub(crate) mod stitch;

/// How a message is processed, in one pass or two: a row of the dispatch table
/// (`crate::dispatch::CBC_HMAC`) makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pass {
    /// CBC, then SHA-1 (or the reverse when opening).
    Sequential,
    /// The stitched kernels: AES-NI + SHA-NI, or the ARMv8 AES + SHA-1 instructions.
    #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
    Stitched(Stitched),
}

/// AES-CBC and HMAC-SHA1 under two keys, computed in one pass over the data.
///
/// The HMAC's inner and outer chaining values (after the padded key blocks) are computed
/// when keyed and wiped on drop with the AES round keys; `Debug` prints no key material.
///
/// # Security
///
/// - The tag is the HMAC of the plaintext only (encrypt-and-MAC, as RFC 3961 does), not
///   of the ciphertext or the IV: `open` must decrypt before it can check, and the tag is
///   a deterministic function of the plaintext, so equal messages have equal tags.
///   Prepend a fresh random block (Kerberos' confounder, as [`crate::krb5`] does) when
///   messages may repeat, or when the tag must not reveal which of known messages was
///   sent. This is a building block for such protocols, not a general-purpose AEAD.
/// - The IV must be fresh and unpredictable for every message under a key (CBC), unless
///   the protocol makes the first block random itself (a confounder with a fixed IV).
/// - `open` and `open_cts` check all 20 bytes of the tag; a protocol with a truncated
///   tag states its length with the `_truncated` forms (at least 10 bytes).
///
/// ```
/// use simdcrypt::{Backend, CbcHmacSha1};
/// let c = CbcHmacSha1::new(&[1u8; 32], b"mac key")?;
/// let mut buf = [0u8; 64];
/// let tag = c.seal(&[9u8; 16], &mut buf)?; // whole blocks, no stealing
/// // The same as CBC, then HMAC-SHA1 of the plaintext.
/// let mut cbc = [0u8; 64];
/// simdcrypt::Cbc::new(&[1u8; 32])?.encrypt(&mut [9u8; 16], &mut cbc)?;
/// let mut mac = simdcrypt::HmacSha1::new(b"mac key");
/// mac.update(&[0u8; 64]);
/// assert_eq!((buf, tag), (cbc, mac.finalize()));
/// c.open(&[9u8; 16], &mut buf, &tag)?;
/// assert_eq!(buf, [0u8; 64]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct CbcHmacSha1 {
    cbc: Cbc,
    sha: sha1::Kernel,
    sha_backend: Backend,
    /// The HMAC's inner and outer chaining values after the key blocks.
    starts: [[u32; 5]; 2],
    pass: Pass,
    backend: Backend,
}

impl CbcHmacSha1 {
    /// Keys AES-CBC with `aes_key` (16, 24 or 32 bytes) and HMAC-SHA1 with `mac_key` (any
    /// length) on the automatic backend; [`Error::InvalidKeyLength`] for an AES key of
    /// another length.
    #[inline(always)]
    pub fn new(aes_key: &[u8], mac_key: &[u8]) -> Result<CbcHmacSha1, Error> {
        let keyed = CbcHmacSha1::keyed(aes_key, mac_key, crate::dispatch::CBC_HMAC.auto_kernel());
        CbcHmacSha1::wipe_keying();
        keyed
    }

    /// Keys on the backend given; `Err` if this type lacks it or this CPU cannot run it.
    ///
    /// ```
    /// use simdcrypt::{Backend, CbcHmacSha1, Error};
    /// let reference = CbcHmacSha1::with_backend(&[5u8; 16], b"k", Backend::Portable)?;
    /// let mut want = [3u8; 40];
    /// let want_tag = reference.seal_cts(&[1u8; 16], &mut want)?;
    /// for b in CbcHmacSha1::available_backends() {
    ///     let c = CbcHmacSha1::with_backend(&[5u8; 16], b"k", b)?;
    ///     let mut buf = [3u8; 40];
    ///     assert_eq!(c.seal_cts(&[1u8; 16], &mut buf)?, want_tag);
    ///     assert_eq!(buf, want);
    /// }
    /// let not_here = CbcHmacSha1::with_backend(&[5u8; 16], b"k", Backend::ShaNi);
    /// assert!(matches!(not_here, Err(Error::BackendNotForAlgorithm { .. })));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn with_backend(
        aes_key: &[u8],
        mac_key: &[u8],
        backend: Backend,
    ) -> Result<CbcHmacSha1, Error> {
        let keyed =
            CbcHmacSha1::keyed(aes_key, mac_key, crate::dispatch::CBC_HMAC.select(backend)?);
        CbcHmacSha1::wipe_keying();
        keyed
    }

    /// Zeroes the stack after [`CbcHmacSha1::keyed`], from the frame that receives the
    /// value (`new` and `with_backend` are inlined into it): `keyed`'s own frame, where the
    /// CBC state and the two HMAC starting states are made before they are moved into the
    /// value (found there by the leak tests, round keys and chaining values both). The
    /// kernels' frames below it are wiped inside (`Cbc`'s keying, `sha1::Kernel::wipe`).
    #[inline(always)]
    fn wipe_keying() {
        crate::wipe::stack::<{ crate::wipe::depth([2128, 1808, 2112, 2256, 1872, 9024]) }>();
    }

    /// Keys on a kernel the dispatch table gave (`new`: the cached automatic choice). A
    /// frame of its own, below the caller's stack wipe ([`CbcHmacSha1::wipe_keying`]).
    #[inline(never)]
    fn keyed(
        aes_key: &[u8],
        mac_key: &[u8],
        (pass, backend): (Pass, Backend),
    ) -> Result<CbcHmacSha1, Error> {
        // The stitched kernel's tokens give its CBC and SHA-1 kernels; the sequential rows
        // run CBC on their own backend and SHA-1 on its automatic one.
        let (cbc_backend, (sha, sha_backend)) = match pass {
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            Pass::Stitched(s) => s.parts(),
            Pass::Sequential if backend == Backend::Portable => {
                (backend, (sha1::Kernel::Portable, Backend::Portable))
            }
            Pass::Sequential => (backend, crate::dispatch::SHA1.auto_kernel()),
        };
        let cbc = Cbc::with_backend(aes_key, cbc_backend)?;
        // The x86-64 stitch has no AES-192 copy: such a key runs the stitched row's AES-NI
        // and SHA-NI kernels one after the other (AArch64's stitches every key size), and
        // reports the CBC backend it runs on.
        #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
        let (pass, backend) = match pass {
            Pass::Stitched(_) if !Stitched::stitches(&cbc.aes.ks) => {
                (Pass::Sequential, cbc_backend)
            }
            pass => (pass, backend),
        };
        let (inner_start, outer_start) = key_states(mac_key, sha, sha_backend);
        // The key blocks' schedules and chaining values are left in the compression's
        // stack frame: zeroed once per key, as `HmacSha1` does.
        sha.wipe(sha1::Site::Keyed, 1);
        Ok(CbcHmacSha1 {
            cbc,
            sha,
            sha_backend,
            starts: [inner_start, outer_start],
            pass,
            backend,
        })
    }

    dispatch::backend_methods! {
        crate::dispatch::CBC_HMAC;
        /// The backend this instance runs on: what runs, not only what was asked for. A key
        /// the stitched backend has no copy for (AES-192 on x86-64, whose stitch runs AES-128
        /// and AES-256) runs CBC and SHA-1 one after the other on that backend's kernels,
        /// and reports its CBC backend (`aesni` for `aesni-sha-ni`), the row that runs the
        /// same kernels.
        ///
        /// ```
        /// use simdcrypt::{Backend, CbcHmacSha1};
        /// let c = CbcHmacSha1::with_backend(&[0u8; 16], b"k", Backend::Portable)?;
        /// assert_eq!(c.backend(), Backend::Portable);
        /// assert_eq!(format!("{c:?}"), "CbcHmacSha1 { key_bits: 128, backend: Portable, .. }");
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        backend = backend;
        /// The backends this CPU runs for CBC-HMAC-SHA1, best first.
        ///
        /// ```
        /// use simdcrypt::{Backend, CbcHmacSha1};
        /// let all: Vec<Backend> = CbcHmacSha1::available_backends().collect();
        /// assert!(all.iter().all(|b| b.is_available()));
        /// assert_eq!(all.last(), Some(&Backend::Portable));
        /// ```
        available;
        /// Every backend that CBC-HMAC-SHA1 has, available here or not, best first.
        implemented;
    }

    /// Encrypts (`seal`) or decrypts the whole 64-byte groups at the start of `buf[..split]`
    /// from `iv`, one kernel after the other, and hashes their plaintext after the inner
    /// key block into `h` (the running inner hash, set in place: a returned `Sha1` would
    /// leave copies of the key-derived state in the caller's frame, above the stack
    /// wipes). Returns where the groups end and the CBC chain.
    fn bulk(
        &self,
        seal: bool,
        iv: &Block,
        buf: &mut [u8],
        split: usize,
        h: &mut Sha1,
    ) -> (usize, Block) {
        let bulk = split / 64 * 64;
        let mut chain = *iv;
        let mut state = self.starts[0];
        let groups = buf[..bulk].as_chunks_mut::<64>().0;
        if !groups.is_empty() {
            if seal {
                self.sha.compress(&mut state, groups);
                // The compression ran from the keyed state: its frame holds key-derived
                // chaining values.
                self.sha.wipe(sha1::Site::Keyed, groups.len());
                self.cbc
                    .enc_blocks(&mut chain, groups.as_flattened_mut().as_chunks_mut().0);
            } else {
                self.cbc
                    .dec_blocks(&mut chain, groups.as_flattened_mut().as_chunks_mut().0);
                self.sha.compress(&mut state, groups);
                self.sha.wipe(sha1::Site::Keyed, groups.len());
            }
        }
        h.resume(&state, 64 + bulk as u64);
        wipe::words(&mut state);
        (bulk, chain)
    }

    /// A message split as in [`CbcHmacSha1::seal_split`] through the stitched kernel `k`,
    /// one call and its wipe: sealed (`seal`) or opened in place; the tag of the plaintext.
    #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn stitched(
        &self,
        k: Stitched,
        seal: bool,
        iv: &Block,
        buf: &mut [u8],
        split: usize,
    ) -> [u8; 20] {
        let tag = k.crypt(stitch::Msg {
            seal,
            ks: &self.cbc.aes.ks,
            iv,
            buf,
            split,
            starts: &self.starts,
        });
        Stitched::wipe();
        tag
    }

    /// Seals `buf[..split]` (whole blocks) and then, with stealing, `buf[split..]` (16 to
    /// 32 bytes, or nothing): in one stitched kernel call, or one kernel after the other.
    pub(crate) fn seal_split(&self, iv: &Block, buf: &mut [u8], split: usize) -> [u8; 20] {
        match self.pass {
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            Pass::Stitched(k) => return self.stitched(k, true, iv, buf, split),
            Pass::Sequential => {}
        }
        let mut h = Sha1::from_parts(self.sha, self.sha_backend, [0; 5], 0);
        let (bulk, mut chain) = self.bulk(true, iv, buf, split, &mut h);
        // The rest of the plaintext is hashed before it is encrypted.
        h.update(&buf[bulk..]);
        let (mid, tail) = buf[bulk..].split_at_mut(split - bulk);
        self.cbc.enc_blocks(&mut chain, mid.as_chunks_mut::<16>().0);
        if !tail.is_empty() {
            steal_encrypt(&self.cbc, &mut chain, tail);
        }
        finish_tag(&mut h, &self.starts[1])
    }

    /// Opens `buf` split as in [`CbcHmacSha1::seal_split`] and checks `tag`; wipes `buf` on
    /// a mismatch. The caller has checked the tag's length ([`check_tag_len`]).
    fn open_split(
        &self,
        iv: &Block,
        buf: &mut [u8],
        split: usize,
        tag: &[u8],
    ) -> Result<(), Error> {
        let mut mac = self.open_mac(iv, buf, split);
        let r = ct_verify(&mac, tag);
        wipe::bytes(&mut mac);
        if r.is_err() {
            wipe::bytes(buf);
        }
        r
    }

    /// Decrypts `buf` split as in [`CbcHmacSha1::seal_split`] and returns the HMAC-SHA1 of
    /// the plaintext.
    fn open_mac(&self, iv: &Block, buf: &mut [u8], split: usize) -> [u8; 20] {
        match self.pass {
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            Pass::Stitched(k) => return self.stitched(k, false, iv, buf, split),
            Pass::Sequential => {}
        }
        let mut h = Sha1::from_parts(self.sha, self.sha_backend, [0; 5], 0);
        let (bulk, mut chain) = self.bulk(false, iv, buf, split, &mut h);
        let (mid, tail) = buf[bulk..].split_at_mut(split - bulk);
        self.cbc.dec_blocks(&mut chain, mid.as_chunks_mut::<16>().0);
        if !tail.is_empty() {
            steal_decrypt(&self.cbc, &mut chain, tail);
        }
        h.update(&buf[bulk..]);
        finish_tag(&mut h, &self.starts[1])
    }

    /// Encrypts `buf` in place with CBC-CS3 ciphertext stealing (as
    /// [`Cbc::encrypt_cts`]: any length of at least 16; exactly 16 is one CBC block) and
    /// returns the HMAC-SHA1 of the plaintext. `Err` (nothing written) if `buf` is shorter
    /// than 16 bytes.
    ///
    /// # Security
    ///
    /// The tag covers the plaintext only, not the ciphertext or `iv`, and is the same for
    /// the same plaintext under the same key: a deterministic MAC unless the message starts
    /// with a fresh random block (a confounder). `iv` must be fresh and unpredictable for
    /// each message. See [`CbcHmacSha1`]'s `# Security`.
    ///
    /// ```
    /// use simdcrypt::{Cbc, CbcHmacSha1, Error, HmacSha1};
    /// let c = CbcHmacSha1::new(&[7u8; 16], b"integrity key")?;
    /// let msg = *b"a message of thirty-three bytes!!";
    /// let mut buf = msg;
    /// let tag = c.seal_cts(&[0u8; 16], &mut buf)?;
    /// let mut want = msg;
    /// Cbc::new(&[7u8; 16])?.encrypt_cts(&[0u8; 16], &mut want)?;
    /// let mut mac = HmacSha1::new(b"integrity key");
    /// mac.update(&msg);
    /// assert_eq!((buf, tag), (want, mac.finalize()));
    /// let mut short = [0u8; 15];
    /// let err = c.seal_cts(&[0u8; 16], &mut short);
    /// assert_eq!(err, Err(Error::DataTooShort { len: 15, min: 16 }));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn seal_cts(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<[u8; 20], Error> {
        let len = buf.len();
        if len < 16 {
            return Err(Error::DataTooShort { len, min: 16 });
        }
        Ok(self.seal_split(iv, buf, cts_split(len)))
    }

    /// Decrypts a CBC-CS3 `buf` in place and checks `tag`, the full 20-byte HMAC-SHA1 of
    /// the plaintext, in constant time. A protocol with a truncated tag states its length
    /// with [`CbcHmacSha1::open_cts_truncated`].
    ///
    /// `Err` with `buf` untouched if `buf` is shorter than 16 bytes
    /// ([`Error::DataTooShort`]) or the tag is not 20 bytes long
    /// ([`Error::InvalidTagLength`]). On a mismatch `buf` is overwritten with zeros, so no
    /// unauthenticated plaintext is left behind, and the answer is [`Error::TagMismatch`].
    ///
    /// ```
    /// use simdcrypt::{CbcHmacSha1, Error};
    /// let c = CbcHmacSha1::new(&[7u8; 32], b"k")?;
    /// let mut buf = [5u8; 50];
    /// let tag = c.seal_cts(&[1u8; 16], &mut buf)?;
    /// let sealed = buf;
    /// c.open_cts(&[1u8; 16], &mut buf, &tag)?;
    /// assert_eq!(buf, [5u8; 50]);
    /// let mut forged = sealed;
    /// forged[0] ^= 1;
    /// assert_eq!(c.open_cts(&[1u8; 16], &mut forged, &tag), Err(Error::TagMismatch));
    /// assert_eq!(forged, [0u8; 50]); // wiped
    /// let mut kept = sealed;
    /// let err = c.open_cts(&[1u8; 16], &mut kept, &tag[..12]);
    /// assert_eq!(err, Err(Error::InvalidTagLength { len: 12, expected: 20 }));
    /// assert_eq!(kept, sealed); // untouched
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn open_cts(&self, iv: &[u8; 16], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        self.open_cts_truncated(iv, buf, tag, TAG_LEN)
    }

    /// [`CbcHmacSha1::open_cts`] with a tag truncated to its first `tag_len` bytes, 10 to
    /// 20 (at least 80 bits, RFC 2104 section 5), the length the protocol fixes (12 for
    /// RFC 3962's HMAC-SHA1-96).
    ///
    /// `Err` with `buf` untouched if `buf` is shorter than 16 bytes
    /// ([`Error::DataTooShort`]), `tag_len` is outside 10 to 20
    /// ([`Error::InvalidTruncatedTagLength`]) or `tag` is not `tag_len` bytes long
    /// ([`Error::InvalidTagLength`]); on a mismatch, `buf` wiped and
    /// [`Error::TagMismatch`].
    ///
    /// ```
    /// use simdcrypt::{CbcHmacSha1, Error};
    /// let c = CbcHmacSha1::new(&[7u8; 32], b"k")?;
    /// let mut buf = [5u8; 50];
    /// let tag = c.seal_cts(&[1u8; 16], &mut buf)?;
    /// let sealed = buf;
    /// c.open_cts_truncated(&[1u8; 16], &mut buf, &tag[..12], 12)?;
    /// assert_eq!(buf, [5u8; 50]);
    /// let mut kept = sealed;
    /// let err = c.open_cts_truncated(&[1u8; 16], &mut kept, &tag[..10], 12);
    /// assert_eq!(err, Err(Error::InvalidTagLength { len: 10, expected: 12 }));
    /// let err = c.open_cts_truncated(&[1u8; 16], &mut kept, &tag[..9], 9);
    /// assert_eq!(err, Err(Error::InvalidTruncatedTagLength { tag_len: 9 }));
    /// assert_eq!(kept, sealed); // untouched
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn open_cts_truncated(
        &self,
        iv: &[u8; 16],
        buf: &mut [u8],
        tag: &[u8],
        tag_len: usize,
    ) -> Result<(), Error> {
        let len = buf.len();
        if len < 16 {
            return Err(Error::DataTooShort { len, min: 16 });
        }
        check_tag_len(tag, tag_len)?;
        self.open_split(iv, buf, cts_split(len), tag)
    }

    /// Encrypts whole blocks in place with plain CBC and returns the HMAC-SHA1 of the
    /// plaintext. `Err` (nothing written) unless `buf.len()` is a multiple of 16; an empty
    /// buffer gives the HMAC of the empty message.
    ///
    /// # Security
    ///
    /// The tag covers the plaintext only, not the ciphertext or `iv`, and is the same for
    /// the same plaintext under the same key: a deterministic MAC unless the message starts
    /// with a fresh random block (a confounder). `iv` must be fresh and unpredictable for
    /// each message. See [`CbcHmacSha1`]'s `# Security`.
    pub fn seal(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<[u8; 20], Error> {
        let len = buf.len();
        if !len.is_multiple_of(16) {
            return Err(Error::NotBlockMultiple { len });
        }
        Ok(self.seal_split(iv, buf, len))
    }

    /// Decrypts whole blocks in place and checks `tag` (the full 20 bytes) as
    /// [`CbcHmacSha1::open_cts`] does (wiping `buf` on a mismatch). `Err` (nothing
    /// written) unless `buf.len()` is a multiple of 16 and the tag 20 bytes long.
    pub fn open(&self, iv: &[u8; 16], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        self.open_truncated(iv, buf, tag, TAG_LEN)
    }

    /// [`CbcHmacSha1::open`] with a tag truncated to its first `tag_len` bytes, 10 to 20,
    /// with the errors of [`CbcHmacSha1::open_cts_truncated`] (and
    /// [`Error::NotBlockMultiple`] for a `buf` that is not whole blocks), whose example
    /// shows them.
    pub fn open_truncated(
        &self,
        iv: &[u8; 16],
        buf: &mut [u8],
        tag: &[u8],
        tag_len: usize,
    ) -> Result<(), Error> {
        let len = buf.len();
        if !len.is_multiple_of(16) {
            return Err(Error::NotBlockMultiple { len });
        }
        check_tag_len(tag, tag_len)?;
        self.open_split(iv, buf, len, tag)
    }
}

impl Drop for CbcHmacSha1 {
    fn drop(&mut self) {
        for s in &mut self.starts {
            wipe::words(s);
        }
        // `cbc` wipes its round keys.
    }
}

impl fmt::Debug for CbcHmacSha1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CbcHmacSha1")
            .field("key_bits", &((self.cbc.aes.ks.rounds - 6) * 32))
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}
