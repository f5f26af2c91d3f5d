//! SHA-1 (FIPS 180-4) and HMAC-SHA1 (RFC 2104) on every backend, and many independent
//! messages at once.
//!
//! SHA-1 is broken for collision resistance; it is here for the protocols and formats that
//! fixed it (HMAC-SHA1 in Kerberos and IPsec, TOTP, git object ids, legacy signatures).
//!
//! Which to use:
//! - git object ids, content addressing, checking SHA-1 signatures over data others
//!   supply: [`Sha1Dc`] ([`sha1dc`], [`sha1dc_many`]), SHA-1 with collision detection, as
//!   git computes it: plain SHA-1's digest, or a [`Collision`] for an input that carries a
//!   known collision attack (SHAttered, SHA-mbles);
//! - HMAC-SHA1 (which collisions do not break), TOTP, PBKDF2, legacy formats that need
//!   SHA-1's value on every input: plain [`Sha1`] ([`sha1`], [`sha1_many`]), on every
//!   SIMD backend.
//!
//! ```text
//! H = 67452301 efcdab89 98badcfe 10325476 c3d2e1f0
//! M' = M || 0x80 || 0x00 * k || bitlen(M) as 64-bit big-endian,  |M'| ≡ 0 (mod 64)
//! for each 64-byte block of M': H = compress(H, block)
//! digest = H as five big-endian words
//! ```
//!
//! The length field is the message length in bits modulo 2^64: the byte counter is a
//! wrapping `u64` and the bit count is that times 8, wrapping.

use crate::Backend;
use crate::Error;

pub(crate) mod dc;
pub(crate) mod hmac;
mod kernel;
mod many;
pub(crate) mod soft;

pub use dc::{Collision, Sha1Dc, sha1dc, sha1dc_many};
#[doc(hidden)]
pub use dc::{sha1dc_many_with, sha1dc_with};
pub use hmac::{HmacSha1, HmacSha1Key, hmac_sha1, hmac_with};
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
pub(crate) use kernel::Run;
pub(crate) use kernel::{Kernel, Site};
pub use many::sha1_many;
#[doc(hidden)]
pub use many::{sha1_many_backend, sha1_many_with};

/// The initial hash value (in the portable kernel's file, which the SIMD kernels take
/// their constants from).
pub(crate) use soft::IV;

/// The kernel for an explicitly chosen backend, checked.
pub(crate) fn impl_for(backend: Backend) -> Result<Kernel, Error> {
    crate::dispatch::SHA1
        .select(backend)
        .map(|(kernel, _)| kernel)
}

/// Runs the compression function of `backend` over whole blocks: a hook for differential
/// tests against other implementations of the compression function.
#[doc(hidden)]
pub fn compress_with(
    backend: Backend,
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
) -> Result<(), Error> {
    impl_for(backend)?.compress(state, blocks);
    Ok(())
}

/// Writes the final one or two blocks of a message into `out[..n]` and returns `n`: its
/// last `tail.len() < 64` bytes, the `0x80` marker, zeros, and the length in bits
/// (`total_len` bytes, times 8, modulo 2^64). `out` holds two zeroed blocks.
pub(crate) fn pad_into(out: &mut [[u8; 64]], tail: &[u8], total_len: u64) -> usize {
    debug_assert!(tail.len() < 64 && out.len() >= 2);
    out[0][..tail.len()].copy_from_slice(tail);
    out[0][tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    out[n - 1][56..].copy_from_slice(&total_len.wrapping_mul(8).to_be_bytes());
    n
}

/// The digest of a message that follows `prefix_len` bytes already compressed into
/// `state` (0 for a plain hash, 64 after an HMAC key block): whole blocks straight from
/// `data`, then its padded tail. The one-shot path: no buffer, no copy of whole blocks but
/// the last, which goes with the padding into one compression call, so that a message of
/// up to 119 bytes is a single call (docs/design.md, "SHA-1 schedule forms").
#[inline]
pub(crate) fn digest_from(
    kernel: Kernel,
    mut state: [u32; 5],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    // SHA-NI and the ARMv8 SHA-1 instructions: the whole message in one call, the padded
    // tail built in registers.
    if let Some(out) = kernel.one_call::<false>(&mut state, &IV, prefix_len, data) {
        crate::wipe::words(&mut state);
        return out;
    }
    let (blocks, tail) = data.as_chunks::<64>();
    let mut last = [[0u8; 64]; 3];
    let whole = match blocks.split_last() {
        Some((l, head)) => {
            if !head.is_empty() {
                kernel.compress(&mut state, head);
            }
            last[0] = *l;
            1
        }
        None => 0,
    };
    let n = whole
        + pad_into(
            &mut last[whole..],
            tail,
            prefix_len.wrapping_add(data.len() as u64),
        );
    kernel.compress(&mut state, &last[..n]);
    crate::wipe::bytes(last[..n].as_flattened_mut());
    let out = digest_bytes(&state);
    crate::wipe::words(&mut state);
    out
}

/// HMAC's tag: the inner digest of `data` following `prefix_len` bytes already in `inner`
/// (as [`digest_from`]), then the outer digest of it from `outer`. On SHA-NI and the ARMv8
/// SHA-1 instructions one call (the inner digest stays in registers); elsewhere the two
/// digests.
///
/// The states are borrowed, not copied: a copy in the caller's frame would lie above the
/// stack wipe that follows (`Kernel::wipe` zeroes below the caller's stack pointer).
/// Not inlined, so that its copies and wipes are in its own frame, below the caller's.
#[inline(never)]
pub(crate) fn hmac_from(
    kernel: Kernel,
    inner: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    let mut inner = *inner;
    let tag = match kernel.one_call::<true>(&mut inner, outer, prefix_len, data) {
        Some(tag) => tag,
        None => hmac_two_digests(kernel, [&inner, outer], prefix_len, data),
    };
    crate::wipe::words(&mut inner);
    tag
}

/// [`hmac_from`] as two digests (the backends without a fused tag), in a frame of its own
/// (docs/design.md, "Stack and register wipes").
#[inline(never)]
fn hmac_two_digests(
    kernel: Kernel,
    [inner, outer]: [&[u32; 5]; 2],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    let mut digest = digest_apart(kernel, *inner, prefix_len, data);
    let tag = digest_apart(kernel, *outer, 64, &digest);
    crate::wipe::bytes(&mut digest);
    tag
}

/// [`digest_from`] in a frame of its own, for [`hmac_two_digests`] (docs/design.md, "Stack
/// and register wipes").
#[inline(never)]
fn digest_apart(kernel: Kernel, state: [u32; 5], prefix_len: u64, data: &[u8]) -> [u8; 20] {
    digest_from(kernel, state, prefix_len, data)
}

/// Up to 15 bytes as the low bytes of a `u128` (little-endian), the rest zero, from two
/// overlapping loads (of 8, 4 or 1 bytes, by the length, which is public): no byte outside
/// `b`, no array indexed at run time (which the compiler would keep on the stack). Forced
/// inline (as a call, the ARMv8 one-call kernel kept its chaining value on the stack).
#[inline(always)]
pub(crate) fn short_le(b: &[u8]) -> u128 {
    let n = b.len();
    debug_assert!(n < 16);
    if let (Some(lo), Some(hi)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        return u128::from(u64::from_le_bytes(*lo))
            | u128::from(u64::from_le_bytes(*hi)) << (8 * (n - 8));
    }
    if let (Some(lo), Some(hi)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        return u128::from(u32::from_le_bytes(*lo))
            | u128::from(u32::from_le_bytes(*hi)) << (8 * (n - 4));
    }
    match b {
        [] => 0,
        [x] => u128::from(*x),
        [x, y] => u128::from(*x) | u128::from(*y) << 8,
        [x, y, z, ..] => u128::from(*x) | u128::from(*y) << 8 | u128::from(*z) << 16,
    }
}

/// The message bytes of the padded tail of `data` (its last `data.len() % 64` bytes) as
/// four 16-byte registers, zero past the end, for the one-call kernels that build the tail
/// in registers: whole pieces by `load`, the partial one by `end(r)` (the last `r` bytes of
/// `data`, from one load of its last 16, where `data` has at least 16) or `short` (all of a
/// message under 16 bytes, [`short_le`]). No byte outside `data` is read, and nothing is
/// staged through memory, whose narrow stores a wide load could not forward. Forced
/// inline into each kernel entry, with its closures.
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
#[inline(always)]
pub(crate) fn tail_pieces<V: Copy>(
    data: &[u8],
    zero: V,
    load: impl Fn(&[u8; 16]) -> V,
    end: impl Fn(usize) -> V,
    short: impl Fn(u128) -> V,
) -> [V; 4] {
    let (_, tail) = data.as_chunks::<64>();
    let n = tail.len();
    let mut m = [zero; 4];
    for (j, v) in m.iter_mut().enumerate() {
        let start = 16 * j;
        if let Some(c) = tail.get(start..start + 16) {
            *v = load(c.try_into().expect("16 bytes"));
        } else if start < n {
            *v = if data.len() >= 16 {
                end(n - start)
            } else {
                short(short_le(tail))
            };
        }
    }
    m
}

/// Calls `$step!(j, f)` for the 20 four-round steps of a SHA-1 block in order, `f = j / 5`
/// (the round function of the four `sha1rnds4`-style steps; literals, so that the steps
/// unroll with constant indices).
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
macro_rules! twenty {
    ($step:ident) => {
        $step!(0, 0);
        $step!(1, 0);
        $step!(2, 0);
        $step!(3, 0);
        $step!(4, 0);
        $step!(5, 1);
        $step!(6, 1);
        $step!(7, 1);
        $step!(8, 1);
        $step!(9, 1);
        $step!(10, 2);
        $step!(11, 2);
        $step!(12, 2);
        $step!(13, 2);
        $step!(14, 2);
        $step!(15, 3);
        $step!(16, 3);
        $step!(17, 3);
        $step!(18, 3);
        $step!(19, 3);
    };
}
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
pub(crate) use twenty;

/// The digest bytes of a state.
pub(crate) fn digest_bytes(state: &[u32; 5]) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (o, w) in out.as_chunks_mut::<4>().0.iter_mut().zip(state) {
        *o = w.to_be_bytes();
    }
    out
}

/// The SHA-1 hash function, incremental, on one backend.
///
/// ```
/// use simdcrypt::Sha1;
/// let mut h = Sha1::new();
/// h.update(b"ab");
/// h.update(b"c");
/// assert_eq!(h.finalize()[..4], [0xa9, 0x99, 0x3e, 0x36]);
/// ```
#[derive(Clone)]
pub struct Sha1 {
    state: [u32; 5],
    /// Bytes hashed so far, modulo 2^64.
    len: u64,
    buf: [u8; 64],
    buf_len: usize,
    kernel: Kernel,
    backend: Backend,
}

impl Sha1 {
    /// A new hash on the automatic backend.
    #[must_use]
    pub fn new() -> Sha1 {
        let (kernel, backend) = crate::dispatch::SHA1.auto_kernel();
        Sha1::from_parts(kernel, backend, IV, 0)
    }

    /// A new hash on the backend given; `Err` if this CPU (or build) cannot run it, or it
    /// does not implement SHA-1.
    pub fn with_backend(backend: Backend) -> Result<Sha1, Error> {
        Ok(Sha1::from_parts(impl_for(backend)?, backend, IV, 0))
    }

    /// A hash that resumes from a chaining value after `bytes_hashed` bytes (any number,
    /// modulo 2^64), with an empty buffer: a hook for testing the length counter without
    /// hashing gigabytes.
    #[doc(hidden)]
    pub fn with_state(backend: Backend, state: [u32; 5], bytes_hashed: u64) -> Result<Sha1, Error> {
        Ok(Sha1::from_parts(
            impl_for(backend)?,
            backend,
            state,
            bytes_hashed,
        ))
    }

    /// Continues from the chaining value `state` after `len` bytes (whole blocks), with an
    /// empty buffer, in place: a key-derived state goes straight into this hash, with no
    /// copy of it left in a caller's frame by a move.
    pub(crate) fn resume(&mut self, state: &[u32; 5], len: u64) {
        self.state = *state;
        self.len = len;
        self.buf_len = 0;
    }

    pub(crate) fn from_parts(kernel: Kernel, backend: Backend, state: [u32; 5], len: u64) -> Sha1 {
        Sha1 {
            state,
            len,
            buf: [0; 64],
            buf_len: 0,
            kernel,
            backend,
        }
    }

    crate::dispatch::backend_methods! {
        crate::dispatch::SHA1;
        /// The backends this CPU runs for SHA-1, best first.
        available;
        /// Every backend that SHA-1 has, available here or not, best first.
        implemented;
        /// The backend this instance runs on: the one that compresses the message's
        /// long runs of whole blocks (short work on [`Backend::ShaNiAsm`] goes to the
        /// `sha-ni` intrinsics; every other backend runs the whole message itself).
        backend = backend;
    }

    pub(crate) fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Hashes more data; any chunking gives the same digest.
    pub fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        if self.buf_len > 0 {
            let take = (64 - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 64 {
                return;
            }
            self.kernel
                .compress(&mut self.state, core::slice::from_ref(&self.buf));
            self.buf_len = 0;
        }
        // Whole blocks straight from the input, not copied into the buffer (docs/design.md,
        // "SHA-1 schedule forms").
        let (blocks, rest) = data.as_chunks::<64>();
        if !blocks.is_empty() {
            self.kernel.compress(&mut self.state, blocks);
        }
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// HMAC's tag, with this hash as the inner one (the key block already in it) and the
    /// outer starting state `outer`, leaving the state spent (callers reset or drop it).
    pub(crate) fn finish_hmac(&mut self, outer: &[u32; 5]) -> [u8; 20] {
        let buffered = self.buf_len;
        hmac_from(
            self.kernel,
            &self.state,
            outer,
            self.len.wrapping_sub(buffered as u64),
            &self.buf[..buffered],
        )
    }

    /// Pads and returns the digest, leaving the state spent (callers reset or drop it).
    pub(crate) fn finish(&mut self) -> [u8; 20] {
        let buffered = self.buf_len;
        digest_from(
            self.kernel,
            self.state,
            self.len.wrapping_sub(buffered as u64),
            &self.buf[..buffered],
        )
    }

    /// The digest of everything hashed.
    ///
    /// ```
    /// use hex_literal::hex;
    /// let empty = simdcrypt::Sha1::new().finalize();
    /// assert_eq!(empty, hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    /// ```
    #[must_use]
    pub fn finalize(mut self) -> [u8; 20] {
        self.finish()
    }

    /// Starts over, as if new, on the same backend.
    ///
    /// ```
    /// let mut h = simdcrypt::Sha1::new();
    /// h.update(b"discarded");
    /// h.reset();
    /// h.update(b"abc");
    /// assert_eq!(h.finalize(), simdcrypt::sha1(b"abc"));
    /// ```
    pub fn reset(&mut self) {
        self.state = IV;
        self.len = 0;
        crate::wipe::bytes(&mut self.buf);
        self.buf_len = 0;
    }
}

impl Default for Sha1 {
    fn default() -> Self {
        Sha1::new()
    }
}

impl Drop for Sha1 {
    /// The state may be key-derived (inside HMAC): wiped.
    fn drop(&mut self) {
        crate::wipe::words(&mut self.state);
        crate::wipe::bytes(&mut self.buf);
    }
}

crate::debug_shows!(Sha1, backend);

/// The SHA-1 digest of `data`, on the automatic backend.
///
/// ```
/// assert_eq!(simdcrypt::sha1(b"")[..4], [0xda, 0x39, 0xa3, 0xee]);
/// ```
#[must_use]
pub fn sha1(data: &[u8]) -> [u8; 20] {
    let (kernel, _) = crate::dispatch::SHA1.auto_kernel();
    digest_from(kernel, IV, 0, data)
}

/// The SHA-1 digest of `data` on the backend given, one-shot (as [`sha1`] on the automatic
/// backend): a hook for the speed tool's per-backend rows and for differential tests.
#[doc(hidden)]
pub fn digest_with(backend: Backend, data: &[u8]) -> Result<[u8; 20], Error> {
    Ok(digest_from(impl_for(backend)?, IV, 0, data))
}
