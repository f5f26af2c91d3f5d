//! HMAC-SHA1 (RFC 2104, FIPS 198-1).
//!
//! ```text
//! K0 = SHA1(key) if |key| > 64 else key, zero-padded to 64 bytes
//! HMAC(key, m) = SHA1((K0 ^ opad) || SHA1((K0 ^ ipad) || m))     ipad = 0x36.., opad = 0x5c..
//! ```
//! The two chaining values after the padded key blocks are computed once, at `new`, and
//! wiped on drop. `verify` compares in constant time, on all 20 bytes unless the caller
//! states a truncated length (`verify_truncated`, at least 10 bytes).

use super::{IV, Kernel, Sha1, Site, hmac_from, impl_for};
use crate::{Backend, Error};

/// The HMAC-SHA1 tag of `msg` under `key` (any length), one-shot, on the automatic
/// backend: what [`HmacSha1::new`], `update` and `finalize` compute, faster, and nothing
/// left of the key: the chaining values are wiped and the stack the kernels used is
/// zeroed.
///
/// ```
/// use hex_literal::hex;
/// // RFC 2202 test cases 2 and 6 (a key longer than the block is hashed first).
/// let tag = simdcrypt::hmac_sha1(b"Jefe", b"what do ya want for nothing?");
/// assert_eq!(tag, hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"));
/// let msg = b"Test Using Larger Than Block-Size Key - Hash Key First";
/// let tag = simdcrypt::hmac_sha1(&[0xaa; 80], msg);
/// assert_eq!(tag, hex!("aa4ae5e15272d00e95705637ce8a3b55ed402112"));
/// ```
#[must_use]
pub fn hmac_sha1(key: &[u8], msg: &[u8]) -> [u8; 20] {
    let (kernel, backend) = crate::dispatch::SHA1.auto_kernel();
    one_shot(kernel, backend, key, msg)
}

/// [`hmac_sha1`] on the backend given: a hook for the speed tool's per-backend rows and
/// for differential tests; `Err` if this CPU cannot run it or it is not a SHA-1 backend.
#[doc(hidden)]
pub fn hmac_with(backend: Backend, key: &[u8], msg: &[u8]) -> Result<[u8; 20], Error> {
    Ok(one_shot(impl_for(backend)?, backend, key, msg))
}

/// [`one_shot_work`], then the stack below it zeroed ([`Kernel::wipe`]). Inlined,
/// so that the wipe starts in the caller's frame, above the work's.
#[inline(always)]
fn one_shot(kernel: Kernel, backend: Backend, key: &[u8], msg: &[u8]) -> [u8; 20] {
    let tag = one_shot_work(kernel, backend, key, msg);
    kernel.wipe(Site::OneShotHmac, msg.len() / 64);
    tag
}

/// The key's two blocks, then the message and the outer block (two kernel calls). A
/// frame of its own, below the caller's stack wipe ([`Kernel::wipe`]): the starting
/// states it gets back from [`key_states`] and passes on are wiped, but the compiler may
/// keep copies of them in this frame (which inlined would be the caller's, above the
/// wipe).
#[inline(never)]
fn one_shot_work(kernel: Kernel, backend: Backend, key: &[u8], msg: &[u8]) -> [u8; 20] {
    let (mut inner, mut outer) = key_states(key, kernel, backend);
    let tag = hmac_from(kernel, &inner, &outer, 64, msg);
    crate::wipe::words(&mut inner);
    crate::wipe::words(&mut outer);
    tag
}

/// HMAC-SHA1, incremental.
///
/// ```
/// use simdcrypt::HmacSha1;
/// let mut mac = HmacSha1::new(b"Jefe");
/// mac.update(b"what do ya want for nothing?");
/// let tag = mac.clone().finalize();
/// assert_eq!(tag[..4], [0xef, 0xfc, 0xdf, 0x6a]);
/// mac.clone().verify(&tag)?;
/// mac.verify_truncated(&tag[..12], 12)?; // HMAC-SHA1-96
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct HmacSha1 {
    /// The running inner hash (started with `K0 ^ ipad`).
    inner: Sha1,
    /// The chaining value after `K0 ^ ipad` (for `reset`).
    inner_start: [u32; 5],
    /// The chaining value after `K0 ^ opad`.
    outer_start: [u32; 5],
}

impl HmacSha1 {
    /// Keys HMAC-SHA1 (any key length) on the automatic backend.
    #[must_use]
    #[inline(always)]
    pub fn new(key: &[u8]) -> HmacSha1 {
        HmacSha1::keyed(key, crate::dispatch::SHA1.auto_kernel())
    }

    /// Keys HMAC-SHA1 on the backend given; `Err` if this CPU cannot run it.
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<HmacSha1, Error> {
        Ok(HmacSha1::keyed(key, crate::dispatch::SHA1.select(backend)?))
    }

    /// Keyed straight from the two key states, as [`HmacSha1Key`] keys (the same wipe),
    /// without a key object in between.
    ///
    /// Inlined with its constructors into the frame that receives the value, and the wipe
    /// after the value is made: an unoptimised build makes it in `from_states`' frame (and
    /// `Sha1::from_parts`'), below the caller, and copies it up.
    #[inline(always)]
    fn keyed(key: &[u8], (kernel, backend): (Kernel, Backend)) -> HmacSha1 {
        let (inner_start, outer_start) = key_states_below(key, kernel, backend);
        let value = HmacSha1::from_states(kernel, backend, inner_start, outer_start);
        // (As deep as the one-block kernel's frames: [`key_states`] wipes a long key's own.)
        kernel.wipe(Site::Keyed, 1);
        value
    }

    fn from_states(
        kernel: Kernel,
        backend: Backend,
        inner_start: [u32; 5],
        outer_start: [u32; 5],
    ) -> HmacSha1 {
        HmacSha1 {
            inner: Sha1::from_parts(kernel, backend, inner_start, 64),
            inner_start,
            outer_start,
        }
    }

    crate::dispatch::backend_methods! {
        crate::dispatch::SHA1;
        /// The backends this CPU runs for HMAC-SHA1 (SHA-1's), best first: what
        /// [`HmacSha1::with_backend`] accepts.
        available;
        /// The backend this instance runs on (as [`Sha1::backend`]).
        backend = inner.backend();
    }

    /// Authenticates more data; any chunking gives the same tag.
    pub fn update(&mut self, data: &[u8]) {
        // Compressions from the keyed state leave key-derived chaining values in the
        // kernel's frame: zeroed when a block was compressed (short pieces only buffer).
        // (The wipe's run: at least the longest run the update compresses.)
        let blocks = (self.inner.buf_len + data.len()) / 64;
        self.inner.update(data);
        if blocks > 0 {
            self.inner.kernel().wipe(Site::Keyed, blocks);
        }
    }

    /// Starts a new message under the same key.
    pub fn reset(&mut self) {
        self.inner = Sha1::from_parts(
            self.inner.kernel(),
            self.inner.backend(),
            self.inner_start,
            64,
        );
    }

    /// The 20-byte tag of everything authenticated.
    #[must_use]
    pub fn finalize(mut self) -> [u8; 20] {
        self.tag()
    }

    fn tag(&mut self) -> [u8; 20] {
        finish_tag(&mut self.inner, &self.outer_start)
    }

    /// Checks the full 20-byte `tag` in constant time.
    ///
    /// `Err(InvalidTagLength)` for a tag of any other length (a received tag passed
    /// straight through cannot shorten the check), `Err(TagMismatch)` if it does not
    /// match. A protocol that sends a truncated tag states its length with
    /// [`HmacSha1::verify_truncated`].
    ///
    /// ```
    /// use hex_literal::hex;
    /// use simdcrypt::{Error, HmacSha1};
    /// let mut mac = HmacSha1::new(b"Jefe");
    /// mac.update(b"what do ya want for nothing?");
    /// let tag = hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
    /// mac.clone().verify(&tag)?;
    /// assert_eq!(
    ///     mac.clone().verify(&tag[..12]),
    ///     Err(Error::InvalidTagLength { len: 12, expected: 20 })
    /// );
    /// assert_eq!(mac.verify(&[0u8; 20]), Err(Error::TagMismatch));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        self.verify_truncated(tag, TAG_LEN)
    }

    /// Checks `tag`, the first `tag_len` bytes of the tag, in constant time: for protocols
    /// that send a truncated tag (HMAC-SHA1-96: `tag_len` 12). The caller states the
    /// length the protocol fixes, so a shorter tag from the wire is refused rather than
    /// checked on fewer bytes.
    ///
    /// `tag_len` is 10 to 20: at least 80 bits and half the output, as RFC 2104 section 5
    /// advises. `Err(InvalidTruncatedTagLength)` for a `tag_len` outside that range,
    /// `Err(InvalidTagLength)` if `tag` is not `tag_len` bytes long, `Err(TagMismatch)` if
    /// it does not match.
    ///
    /// ```
    /// use hex_literal::hex;
    /// use simdcrypt::{Error, HmacSha1};
    /// let mut mac = HmacSha1::new(b"Jefe");
    /// mac.update(b"what do ya want for nothing?");
    /// let tag = hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
    /// mac.clone().verify_truncated(&tag[..12], 12)?; // HMAC-SHA1-96
    /// assert_eq!(
    ///     mac.clone().verify_truncated(&tag[..10], 12),
    ///     Err(Error::InvalidTagLength { len: 10, expected: 12 })
    /// );
    /// assert_eq!(
    ///     mac.clone().verify_truncated(&tag[..8], 8),
    ///     Err(Error::InvalidTruncatedTagLength { tag_len: 8 })
    /// );
    /// assert_eq!(mac.verify_truncated(&[0u8; 12], 12), Err(Error::TagMismatch));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn verify_truncated(mut self, tag: &[u8], tag_len: usize) -> Result<(), Error> {
        verify_with(tag, tag_len, || self.tag())
    }
}

/// PBKDF2-HMAC-SHA1 (RFC 8018 §5.2) into `out` (at most 40 bytes: two output blocks), on
/// the automatic backend. The password is keyed once (its two starting states); each
/// iteration after the first is then two compressions of one block each (`U ‖ padding`
/// from the inner state, the inner digest `‖ padding` from the outer), with the two output
/// blocks' chains compressed together ([`Kernel::compress_pair`]: interleaved on SHA-NI).
#[cfg(feature = "alloc")]
pub(crate) fn pbkdf2(password: &[u8], salt: &[u8], iterations: u32, out: &mut [u8]) {
    debug_assert!(out.len() <= 40 && iterations > 0);
    let (kernel, backend) = crate::dispatch::SHA1.auto_kernel();
    let (mut inner, mut outer) = key_states(password, kernel, backend);
    let blocks = out.len().div_ceil(20);
    // U_1 = HMAC(P, S ‖ INT(i)); T starts as U_1.
    let mut u = [[0u8; 20]; 2];
    for (i, ui) in u.iter_mut().enumerate().take(blocks) {
        let mut h = Sha1::from_parts(kernel, backend, inner, 64);
        h.update(salt);
        // `i` is 0 or 1.
        h.update(&(i as u32 + 1).to_be_bytes());
        *ui = h.finish_hmac(&outer);
    }
    let mut t = u;
    // One-block messages after a 64-byte key block: `x ‖ 0x80 ‖ 0.. ‖ (64 + 20) * 8`.
    let mut pad = [[0u8; 64]; 2];
    for p in &mut pad {
        p[20] = 0x80;
        p[56..].copy_from_slice(&((64 + 20) * 8u64).to_be_bytes());
    }
    let mut s = [[0u32; 5]; 2];
    let one = kernel.on_run(1);
    for _ in 1..iterations {
        for half in [&inner, &outer] {
            for j in 0..2 {
                pad[j][..20].copy_from_slice(&u[j]);
                s[j] = *half;
            }
            let [s0, s1] = &mut s;
            let [p0, p1] = &pad;
            if blocks == 2 {
                one.compress_pair(
                    (s0, core::slice::from_ref(p0)),
                    (s1, core::slice::from_ref(p1)),
                );
            } else {
                one.compress(s0, core::slice::from_ref(p0));
            }
            for j in 0..2 {
                for (b, w) in u[j].as_chunks_mut::<4>().0.iter_mut().zip(&s[j]) {
                    *b = w.to_be_bytes();
                }
            }
        }
        for (tj, uj) in t.iter_mut().zip(&u) {
            for (a, b) in tj.iter_mut().zip(uj) {
                *a ^= b;
            }
        }
    }
    for (chunk, tj) in out.chunks_mut(20).zip(&t) {
        chunk.copy_from_slice(&tj[..chunk.len()]);
    }
    for x in [&mut inner, &mut outer] {
        crate::wipe::words(x);
    }
    for x in &mut s {
        crate::wipe::words(x);
    }
    for x in &mut u {
        crate::wipe::bytes(x);
    }
    for x in &mut t {
        crate::wipe::bytes(x);
    }
    for x in &mut pad {
        crate::wipe::bytes(x);
    }
    // The compressions from the keyed states left chaining values and schedules in the
    // kernels' frames (one-block runs, as HMAC keying's).
    one.wipe(Site::Keyed, 1);
}

/// The chaining values after the padded key blocks `K0 ^ ipad` and `K0 ^ opad`: HMAC's
/// inner and outer starting states (the caller wipes them when done, and zeroes the stack
/// the compressions used with `Kernel::wipe`: inlined, so that the measured depths
/// hold).
#[inline(always)]
pub(crate) fn key_states(key: &[u8], kernel: Kernel, backend: Backend) -> ([u32; 5], [u32; 5]) {
    let mut d = [0u8; 20];
    let k0: &[u8] = if key.len() > 64 {
        let mut h = Sha1::from_parts(kernel, backend, IV, 0);
        h.update(key);
        d = h.finish();
        // K0 = SHA-1(key) passed through the digest call's frames (the SHA-NI digest
        // builds it about 850 bytes below this frame, deeper than `Kernel::wipe`
        // reaches for the key blocks): zeroed here, for long keys only.
        crate::wipe::stack::<{ crate::wipe::depth([2528, 2688, 2720, 2720, 2880, 33040]) }>();
        &d
    } else {
        key
    };
    // Both key blocks at once (two interleaved chains on SHA-NI), each 16-byte piece of
    // K0 made in a register ([`key_piece`]) and written once (docs/design.md, "HMAC-SHA1").
    let mut ipad = [[0u8; 64]; 1];
    let mut opad = [[0u8; 64]; 1];
    let (ip, _) = ipad[0].as_chunks_mut::<16>();
    let (op, _) = opad[0].as_chunks_mut::<16>();
    for (i, (ic, oc)) in ip.iter_mut().zip(op.iter_mut()).enumerate() {
        let k = key_piece(k0, 16 * i);
        *ic = (k ^ u128::from_le_bytes([0x36; 16])).to_le_bytes();
        *oc = (k ^ u128::from_le_bytes([0x5c; 16])).to_le_bytes();
    }
    let mut inner_start = IV;
    let mut outer_start = IV;
    kernel.compress_pair((&mut inner_start, &ipad), (&mut outer_start, &opad));
    crate::wipe::bytes(ipad.as_flattened_mut());
    crate::wipe::bytes(opad.as_flattened_mut());
    // (`d` holds a key digest only for a key longer than a block.)
    if key.len() > 64 {
        crate::wipe::bytes(&mut d);
    }
    (inner_start, outer_start)
}

/// [`key_states`] in a frame of its own, below the caller's stack wipe: the padded key
/// blocks and whatever copies of them the compiler makes (unoptimised builds keep
/// temporaries of every 16-byte piece) lie where `Kernel::wipe` reaches.
#[inline(never)]
fn key_states_below(key: &[u8], kernel: Kernel, backend: Backend) -> ([u32; 5], [u32; 5]) {
    key_states(key, kernel, backend)
}

/// Bytes `start..start + 16` of `k0` (at most 64 bytes) as a little-endian `u128`, zero
/// past its end, from whole loads: one of 16 bytes, or, for a short last piece, the 16
/// bytes that end where `k0` ends shifted down (a key of at least 16 bytes), or two
/// overlapping 8- or 4-byte loads (a shorter key), not a loop over the bytes
/// (docs/design.md, "HMAC-SHA1"). Branches on the key's length only, which is public.
#[inline(always)]
fn key_piece(k0: &[u8], start: usize) -> u128 {
    let piece = k0.get(start..).unwrap_or(&[]);
    let n = piece.len();
    if let Some(c) = piece.first_chunk::<16>() {
        return u128::from_le_bytes(*c);
    }
    if n == 0 {
        return 0;
    }
    if let Some(end) = k0.last_chunk::<16>() {
        return u128::from_le_bytes(*end) >> (8 * (16 - n));
    }
    // The whole key is this piece, 1 to 15 bytes.
    super::short_le(piece)
}

/// The HMAC tag from the inner hash (the key block already in it) and the outer start;
/// then zeroes the stack both compressions used (inlined, so that the wipe also covers
/// the frames of the caller's earlier compressions from the keyed state).
#[inline(always)]
pub(crate) fn finish_tag(inner: &mut Sha1, outer_start: &[u32; 5]) -> [u8; 20] {
    let tag = inner.finish_hmac(outer_start);
    // The buffered tail is under a block, so the one-block kernel ran (`update` wiped
    // after any longer runs).
    inner.kernel().wipe(Site::Keyed, 0);
    tag
}

/// The length of an HMAC-SHA1 tag, in bytes: what `verify` and `open` require.
pub(crate) const TAG_LEN: usize = 20;

/// The shortest truncated tag checked, in bytes: 80 bits, the least RFC 2104 section 5
/// advises (and more than half of SHA-1's 160).
pub(crate) const MIN_TAG_LEN: usize = 10;

/// `Ok` if `tag_len` is a length a tag may be checked on (10 to 20 bytes) and `tag` is
/// that long: `Err(InvalidTruncatedTagLength)` or `Err(InvalidTagLength)` otherwise. Only
/// lengths, which are public, are compared.
pub(crate) fn check_tag_len(tag: &[u8], tag_len: usize) -> Result<(), Error> {
    if !(MIN_TAG_LEN..=TAG_LEN).contains(&tag_len) {
        return Err(Error::InvalidTruncatedTagLength { tag_len });
    }
    if tag.len() != tag_len {
        return Err(Error::InvalidTagLength {
            len: tag.len(),
            expected: tag_len,
        });
    }
    Ok(())
}

/// Compares the first `tag.len()` bytes of `mac` with `tag` in constant time: `Ok` if
/// equal. The caller has checked the length against the one expected
/// ([`check_tag_len`]); the range is checked again here, so that no path compares fewer
/// than 10 bytes.
pub(crate) fn ct_verify(mac: &[u8; 20], tag: &[u8]) -> Result<(), Error> {
    if !(MIN_TAG_LEN..=TAG_LEN).contains(&tag.len()) {
        return Err(Error::InvalidTruncatedTagLength { tag_len: tag.len() });
    }
    let mut diff = 0u8;
    for (a, b) in mac.iter().zip(tag) {
        diff |= a ^ b;
    }
    // The comparison is over every byte; only the final result, public by design, is
    // branched on, in `ct::declassify`.
    if crate::ct::declassify(u32::from(diff)) {
        Err(Error::TagMismatch)
    } else {
        Ok(())
    }
}

/// Checks `tag` against the first `tag_len` bytes of the MAC that `mac` computes (only
/// once the lengths are known to be valid), in constant time; the MAC is wiped.
fn verify_with(tag: &[u8], tag_len: usize, mac: impl FnOnce() -> [u8; 20]) -> Result<(), Error> {
    check_tag_len(tag, tag_len)?;
    let mut mac = mac();
    let r = ct_verify(&mac, tag);
    crate::wipe::bytes(&mut mac);
    r
}

/// An HMAC-SHA1 key, set up once: the chaining values after `K0 ^ ipad` and `K0 ^ opad`,
/// so that a message costs its own blocks and one outer block, and nothing for the key.
/// The pattern of Kerberos and IPsec, where one key authenticates many packets.
///
/// ```
/// use hex_literal::hex;
/// use simdcrypt::{Error, HmacSha1Key};
/// // RFC 2202 test case 2.
/// let key = HmacSha1Key::new(b"Jefe");
/// let tag = key.mac(b"what do ya want for nothing?");
/// assert_eq!(tag, hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"));
/// key.verify(b"what do ya want for nothing?", &tag)?;
/// key.verify_truncated(b"what do ya want for nothing?", &tag[..12], 12)?; // HMAC-SHA1-96
/// assert_eq!(key.verify(b"tampered", &tag), Err(Error::TagMismatch));
/// // Incremental, from the keyed state (no key blocks compressed again):
/// let mut mac = key.start();
/// mac.update(b"what do ya want ");
/// mac.update(b"for nothing?");
/// assert_eq!(mac.finalize(), tag);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct HmacSha1Key {
    inner_start: [u32; 5],
    outer_start: [u32; 5],
    kernel: Kernel,
    backend: Backend,
}

impl HmacSha1Key {
    /// Sets up `key` (any length) on the automatic backend.
    #[must_use]
    #[inline(always)]
    pub fn new(key: &[u8]) -> HmacSha1Key {
        HmacSha1Key::keyed(key, crate::dispatch::SHA1.auto_kernel())
    }

    /// Sets up `key` on the backend given; `Err` if this CPU cannot run it or it is not a
    /// SHA-1 backend.
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<HmacSha1Key, Error> {
        Ok(HmacSha1Key::keyed(
            key,
            crate::dispatch::SHA1.select(backend)?,
        ))
    }

    /// Inlined with its constructors into the frame that receives the value (an
    /// unoptimised build would otherwise make the value in a frame of its own, below the
    /// caller, and copy it up).
    #[inline(always)]
    fn keyed(key: &[u8], (kernel, backend): (Kernel, Backend)) -> HmacSha1Key {
        let (inner_start, outer_start) = key_states_below(key, kernel, backend);
        // The compression of `K0 ^ ipad` and `K0 ^ opad` (and of a long key) leaves their
        // message schedules (key bytes) and chaining values in the kernels' stack frames:
        // zeroed here, once per key, so `update`, `mac` and `finalize` pay nothing. (As
        // deep as the one-block kernel's frames: [`key_states`] wipes a long key's own.)
        kernel.wipe(Site::Keyed, 1);
        HmacSha1Key {
            inner_start,
            outer_start,
            kernel,
            backend,
        }
    }

    /// The inner and outer starting states, for the leak tests' calls through the
    /// `digest` traits' core.
    #[cfg(all(test, feature = "std", feature = "digest"))]
    pub(crate) fn starts(&self) -> (&[u32; 5], &[u32; 5]) {
        (&self.inner_start, &self.outer_start)
    }

    crate::dispatch::backend_methods! {
        crate::dispatch::SHA1;
        /// The backends this CPU runs for HMAC-SHA1, best first.
        available;
        /// The backend this key runs on (as [`Sha1::backend`]).
        backend = backend;
    }

    /// The 20-byte HMAC-SHA1 tag of `msg`.
    #[must_use]
    pub fn mac(&self, msg: &[u8]) -> [u8; 20] {
        let tag = hmac_from(self.kernel, &self.inner_start, &self.outer_start, 64, msg);
        // Both digests start from key-derived states, which their kernels' frames hold
        // (as deep as the kernel that ran: `sha-ni-asm` runs only long messages).
        self.kernel.wipe(Site::Keyed, msg.len() / 64);
        tag
    }

    /// Checks the full 20-byte `tag` for `msg` in constant time, as [`HmacSha1::verify`]
    /// does (`Err(InvalidTagLength)` for any other length).
    pub fn verify(&self, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify_truncated(msg, tag, TAG_LEN)
    }

    /// Checks `tag`, the first `tag_len` bytes (10 to 20) of the tag of `msg`, in constant
    /// time, as [`HmacSha1::verify_truncated`] does.
    pub fn verify_truncated(&self, msg: &[u8], tag: &[u8], tag_len: usize) -> Result<(), Error> {
        verify_with(tag, tag_len, || self.mac(msg))
    }

    /// An incremental [`HmacSha1`] under this key, ready for `update`.
    #[must_use]
    pub fn start(&self) -> HmacSha1 {
        HmacSha1::from_states(
            self.kernel,
            self.backend,
            self.inner_start,
            self.outer_start,
        )
    }
}

impl Drop for HmacSha1Key {
    fn drop(&mut self) {
        crate::wipe::words(&mut self.inner_start);
        crate::wipe::words(&mut self.outer_start);
    }
}

crate::debug_shows!(HmacSha1Key, backend);

impl Drop for HmacSha1 {
    fn drop(&mut self) {
        crate::wipe::words(&mut self.inner_start);
        crate::wipe::words(&mut self.outer_start);
        // `inner` wipes itself.
    }
}

crate::debug_shows!(HmacSha1, backend());

#[cfg(test)]
mod tests;
