//! SHA-1 with collision detection (git's SHA-1, "sha1dc"): the digest of plain SHA-1 on
//! every input, and a [`Collision`] for an input that carries a block of a known
//! collision attack (SHAttered, SHA-mbles and every attack on the 32 disturbance vectors
//! of Stevens and Shumow, USENIX Security 2017).
//!
//! Use [`Sha1Dc`] where SHA-1 names content that others supply: git object ids, content
//! addressing, checking signatures over SHA-1. Plain [`Sha1`](crate::Sha1) stays right for
//! HMAC-SHA1 (which collisions do not break), and for formats that need SHA-1's exact value
//! whatever the input.
//!
//! ```text
//! per 64-byte block B with expanded message W[0..80], from chaining value H:
//!     H' = compress(H, B)
//!     mask = the disturbance vectors whose unavoidable bit conditions W meets
//!     for each DV in mask: recompress B ^ dm(DV) from the state saved at the DV's step
//!         (58 or 65) backwards to a chaining value G and forwards to G + state80;
//!         equal to H' => B is half of a colliding block pair: flagged
//! flagged (safe-hash mode): H' = compress(compress(H', B), B)
//! ```
//!
//! A flagged input gives `Err(Collision)`, which holds the plain SHA-1 digest
//! ([`Collision::digest`]) and the digest of the authors' safe-hash mode
//! ([`Collision::safe_digest`]: each flagged block compressed three times, the digest
//! git's collision-detecting SHA-1 computes before it refuses the object). Every other
//! input gives `Ok` with the plain SHA-1 digest.
//!
//! ```
//! use simdcrypt::sha1::{Sha1Dc, sha1, sha1dc};
//! assert_eq!(sha1dc(b"abc"), Ok(sha1(b"abc")));
//! let mut h = Sha1Dc::new();
//! h.update(b"blob 3\0");
//! h.update(b"abc");
//! let id = h.finalize()?;
//! assert_eq!(id[..4], [0xf2, 0xba, 0x8f, 0x84]); // `git hash-object` of "abc"
//! # Ok::<(), simdcrypt::sha1::Collision>(())
//! ```

use core::fmt;

use super::{Kernel, digest_bytes, pad_into};
use crate::dispatch::SHA1DC;
use crate::{Backend, Error};

pub(crate) mod data;
pub(crate) mod soft;

/// A collision-detecting compression kernel: the backend that runs the schedule, filter
/// and recompressions, and the plain SHA-1 kernel that compresses the extra rounds of a
/// flagged block and, after one, the plain digest beside the safe one. Every SHA-1
/// backend has one: the portable filter ahead of its plain compression.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DcKernel {
    /// Portable Rust.
    Portable,
    /// The portable schedule and filter ahead of a SIMD backend's plain compression
    /// kernel, which compresses the runs of blocks between flagged ones
    /// ([`soft::compress_filtered`]).
    #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
    Filtered(Kernel, soft::Filter),
    /// SHA-NI with the filter on the schedule its rounds compute, block by block
    /// (`arch::x86_64::sha1dc_shani`).
    #[cfg(simdcrypt_x86_64)]
    ShaNi(crate::arch::x86_64::sha_ni::Form),
}

impl DcKernel {
    /// Compresses `blocks` into `state` with detection, up to the first flagged block: its
    /// index and the number of the DV whose test flagged it (that block compressed once,
    /// the ones after it not), or `None` with every block compressed.
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) -> Option<(usize, u8)> {
        match self {
            DcKernel::Portable => soft::compress(state, blocks),
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            DcKernel::Filtered(k, f) => soft::compress_filtered(k, f, state, blocks),
            #[cfg(simdcrypt_x86_64)]
            DcKernel::ShaNi(form) => {
                crate::arch::x86_64::sha1dc_shani::compress(form, state, blocks)
            }
        }
    }

    /// The plain SHA-1 kernel of the same backend.
    pub(crate) fn plain(self) -> Kernel {
        match self {
            DcKernel::Portable => Kernel::Portable,
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            DcKernel::Filtered(k, _) => k,
            #[cfg(simdcrypt_x86_64)]
            DcKernel::ShaNi(form) => Kernel::ShaNi(form),
        }
    }
}

/// The two chaining values of a collision-detecting hash: the safe-hash one, on which
/// detection runs (as in the authors' default mode), and, once a block was flagged, the
/// plain SHA-1 one.
#[derive(Clone, Copy, Debug)]
struct Chain {
    state: [u32; 5],
    /// `Some` from the first flagged block on: plain SHA-1's chaining value, and the
    /// number of the DV that flagged that block.
    plain: Option<([u32; 5], u8)>,
    kernel: DcKernel,
}

impl Chain {
    fn new(kernel: DcKernel) -> Chain {
        Chain {
            state: super::IV,
            plain: None,
            kernel,
        }
    }

    /// Compresses whole blocks.
    fn blocks(&mut self, mut blocks: &[[u8; 64]]) {
        let plain = self.kernel.plain();
        if let Some((p, _)) = &mut self.plain {
            plain.compress(p, blocks);
        }
        while !blocks.is_empty() {
            let Some((i, dv)) = self.kernel.compress(&mut self.state, blocks) else {
                return;
            };
            let rest = &blocks[i + 1..];
            if self.plain.is_none() {
                // Up to this block the two chains are one, and it was compressed once.
                let mut p = self.state;
                plain.compress(&mut p, rest);
                self.plain = Some((p, dv));
            }
            // Safe-hash mode: the flagged block twice more.
            plain.compress(&mut self.state, &[blocks[i], blocks[i]]);
            blocks = rest;
        }
    }

    /// Pads the message (`tail`, its last `tail.len() < 64` bytes, of `total_len` bytes in
    /// all), compresses the last blocks and gives the result.
    fn finish(mut self, tail: &[u8], total_len: u64) -> Result<[u8; 20], Collision> {
        let mut last = [[0u8; 64]; 2];
        let n = pad_into(&mut last, tail, total_len);
        self.blocks(&last[..n]);
        let safe = digest_bytes(&self.state);
        match self.plain {
            None => Ok(safe),
            Some((p, dv)) => Err(Collision {
                digest: digest_bytes(&p),
                safe_digest: safe,
                dv,
            }),
        }
    }
}

/// A detected collision attack: an input with a block that the recompression test of one
/// of the disturbance vectors flags.
///
/// ```
/// use simdcrypt::sha1::sha1dc;
/// // Random data is not an attack.
/// assert!(sha1dc(&[0x5a; 1000]).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Collision {
    digest: [u8; 20],
    safe_digest: [u8; 20],
    /// The number of the disturbance vector whose test flagged the first flagged block.
    dv: u8,
}

impl Collision {
    /// The plain SHA-1 digest of the input (the one that its colliding partner shares).
    #[must_use]
    pub fn digest(&self) -> [u8; 20] {
        self.digest
    }

    /// The digest of the authors' safe-hash mode: each flagged block compressed three
    /// times, so that the colliding pair no longer collides.
    #[must_use]
    pub fn safe_digest(&self) -> [u8; 20] {
        self.safe_digest
    }
}

impl fmt::Display for Collision {
    /// Names the attack's disturbance vector (of the first block flagged) and the
    /// input's SHA-1: "SHA-1 collision attack detected (disturbance vector II(52,0),
    /// SHA-1 38762cf7...)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dv = &data::DVS[usize::from(self.dv)];
        let family = match dv.family {
            data::Family::I => "I",
            data::Family::II => "II",
        };
        write!(
            f,
            "SHA-1 collision attack detected (disturbance vector {family}({},{}), SHA-1 ",
            dv.k, dv.b
        )?;
        for b in self.digest {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// `core::error::Error`, as for [`Error`].
impl core::error::Error for Collision {}

/// SHA-1 with collision detection, incremental, on one backend.
///
/// ```
/// use simdcrypt::{Sha1Dc, sha1};
/// let data: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
/// let mut h = Sha1Dc::new();
/// for chunk in data.chunks(37) {
///     h.update(chunk);
/// }
/// assert_eq!(h.finalize(), Ok(sha1(&data)));
/// ```
#[derive(Clone)]
pub struct Sha1Dc {
    chain: Chain,
    /// Bytes hashed so far, modulo 2^64.
    len: u64,
    buf: [u8; 64],
    buf_len: usize,
    backend: Backend,
}

impl Sha1Dc {
    /// A new hash on the automatic backend.
    #[must_use]
    pub fn new() -> Sha1Dc {
        let (kernel, backend) = SHA1DC.auto_kernel();
        Sha1Dc::from_parts(kernel, backend)
    }

    /// A new hash on the backend given; `Err` if this CPU (or build) cannot run it, or it
    /// does not implement SHA-1 (the AES backends).
    ///
    /// ```
    /// use simdcrypt::{Backend, Error, Sha1Dc};
    /// for b in Sha1Dc::available_backends() {
    ///     let mut h = Sha1Dc::with_backend(b)?;
    ///     h.update(b"abc");
    ///     assert_eq!(h.finalize(), Ok(simdcrypt::sha1(b"abc")));
    /// }
    /// let err = Sha1Dc::with_backend(Backend::AesNi).unwrap_err();
    /// assert!(matches!(err, Error::BackendNotForAlgorithm { .. }));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "backend aesni does not implement SHA-1 with collision detection"
    /// );
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn with_backend(backend: Backend) -> Result<Sha1Dc, Error> {
        let (kernel, backend) = SHA1DC.select(backend)?;
        Ok(Sha1Dc::from_parts(kernel, backend))
    }

    fn from_parts(kernel: DcKernel, backend: Backend) -> Sha1Dc {
        Sha1Dc {
            chain: Chain::new(kernel),
            len: 0,
            buf: [0; 64],
            buf_len: 0,
            backend,
        }
    }

    crate::dispatch::backend_methods! {
        SHA1DC;
        /// The backends this CPU runs for SHA-1 with collision detection, best first.
        ///
        /// ```
        /// use simdcrypt::{Backend, Sha1Dc};
        /// assert_eq!(Sha1Dc::available_backends().last(), Some(Backend::Portable));
        /// ```
        available;
        /// Every backend that SHA-1 with collision detection has, available here or not,
        /// best first.
        implemented;
        /// The backend this instance runs on.
        ///
        /// ```
        /// use simdcrypt::{Backend, Sha1Dc};
        /// assert!(Sha1Dc::available_backends().any(|b| b == Sha1Dc::new().backend()));
        /// ```
        backend = backend;
    }

    /// Hashes more data; any chunking gives the same result.
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
            self.chain.blocks(core::slice::from_ref(&self.buf));
            self.buf_len = 0;
        }
        let (blocks, rest) = data.as_chunks::<64>();
        if !blocks.is_empty() {
            self.chain.blocks(blocks);
        }
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// The plain SHA-1 digest of everything hashed, or the [`Collision`] found in it.
    ///
    /// ```
    /// use hex_literal::hex;
    /// let empty = simdcrypt::Sha1Dc::new().finalize();
    /// assert_eq!(empty, Ok(hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709")));
    /// ```
    pub fn finalize(self) -> Result<[u8; 20], Collision> {
        self.chain.finish(&self.buf[..self.buf_len], self.len)
    }
}

impl Default for Sha1Dc {
    fn default() -> Self {
        Sha1Dc::new()
    }
}

crate::debug_shows!(Sha1Dc, backend);

/// The SHA-1 digest of `data` with collision detection, on the automatic backend: `Ok`
/// with the plain SHA-1 digest, or the [`Collision`] found.
///
/// ```
/// assert_eq!(simdcrypt::sha1dc(b""), Ok(simdcrypt::sha1(b"")));
/// ```
pub fn sha1dc(data: &[u8]) -> Result<[u8; 20], Collision> {
    let (kernel, _) = SHA1DC.auto_kernel();
    digest_on(kernel, data)
}

/// The most whole blocks of a message that [`digest_on`] copies beside its padded blocks
/// for one call of a filtered kernel.
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
const SHORT: usize = 14;

/// [`digest_on`] of a short message (`blocks`, at most [`SHORT`], and its padded `last`
/// ones) on a filtered kernel, in one call; `None` if a block was flagged.
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
#[inline(never)]
fn short_filtered(kernel: DcKernel, blocks: &[[u8; 64]], last: &[[u8; 64]]) -> Option<[u8; 20]> {
    let mut all = [[0u8; 64]; SHORT + 2];
    let n = blocks.len() + last.len();
    all[..blocks.len()].copy_from_slice(blocks);
    all[blocks.len()..n].copy_from_slice(last);
    let mut state = super::IV;
    kernel
        .compress(&mut state, &all[..n])
        .is_none()
        .then(|| digest_bytes(&state))
}

/// [`sha1dc`] on the kernel given: whole blocks straight from `data`, then the tail.
pub(crate) fn digest_on(kernel: DcKernel, data: &[u8]) -> Result<[u8; 20], Collision> {
    let (blocks, tail) = data.as_chunks::<64>();
    // The whole blocks and the padded ones in one call, so that the filter sees them
    // together (on SHA-NI one block's filter runs after the rounds, not two; the lane
    // filters fill one group, not two); an input with a flagged block (an attack) is
    // hashed again below, which gives both digests.
    #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
    {
        let mut last = [[0u8; 64]; 2];
        let n = pad_into(&mut last, tail, data.len() as u64);
        #[cfg(simdcrypt_x86_64)]
        if let DcKernel::ShaNi(form) = kernel {
            let mut state = super::IV;
            let parts = [blocks, &last[..n]];
            if crate::arch::x86_64::sha1dc_shani::compress_parts(form, &mut state, parts).is_none()
            {
                return Ok(digest_bytes(&state));
            }
        }
        if let DcKernel::Filtered(..) = kernel
            && blocks.len() <= SHORT
            && let Some(digest) = short_filtered(kernel, blocks, &last[..n])
        {
            return Ok(digest);
        }
    }
    let mut chain = Chain::new(kernel);
    chain.blocks(blocks);
    chain.finish(tail, data.len() as u64)
}

/// [`sha1dc`] on the backend given: a hook for the speed tool and differential tests.
#[doc(hidden)]
pub fn sha1dc_with(backend: Backend, data: &[u8]) -> Result<Result<[u8; 20], Collision>, Error> {
    let (kernel, _) = SHA1DC.select(backend)?;
    Ok(digest_on(kernel, data))
}

/// [`sha1dc`] of many independent messages: `out[i]` receives the result of `inputs[i]`.
/// As [`sha1_many`](crate::sha1_many) hashes them, on eight AVX2 (or AVX-512) lanes where
/// the CPU has them, the filter on the same lanes, the last few on the one-stream
/// backend; elsewhere one after another.
///
/// `Err(LengthMismatch)` (and `out` untouched) if `inputs` and `out` differ in length.
///
/// ```
/// let msgs: [&[u8]; 3] = [b"", b"abc", &[0u8; 1000]];
/// let mut out = [Ok([0u8; 20]); 3];
/// simdcrypt::sha1dc_many(&msgs, &mut out)?;
/// assert_eq!(out[1], Ok(simdcrypt::sha1(b"abc")));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn sha1dc_many(inputs: &[&[u8]], out: &mut [Result<[u8; 20], Collision>]) -> Result<(), Error> {
    super::many::check(inputs, out)?;
    let (kernel, _) = SHA1DC.auto_kernel();
    #[cfg(simdcrypt_x86_64)]
    let (lanes, _) = crate::dispatch::SHA1_MANY.auto_kernel();
    #[cfg(not(simdcrypt_x86_64))]
    let lanes = kernel.plain();
    many_on(lanes, kernel, inputs, out);
    Ok(())
}

/// [`sha1dc_many`] on the backend given (`avx2` and `avx512` on their lanes, the rest one
/// after another on the backend's one-stream kernel): a hook for tests and the speed tool.
#[doc(hidden)]
pub fn sha1dc_many_with(
    backend: Backend,
    inputs: &[&[u8]],
    out: &mut [Result<[u8; 20], Collision>],
) -> Result<(), Error> {
    super::many::check(inputs, out)?;
    let (kernel, _) = SHA1DC.select(backend)?;
    many_on(kernel.plain(), kernel, inputs, out);
    Ok(())
}

/// The messages on `lanes`' lanes where it has them, else one after another on `kernel`.
fn many_on(
    lanes: Kernel,
    kernel: DcKernel,
    inputs: &[&[u8]],
    out: &mut [Result<[u8; 20], Collision>],
) {
    #[cfg(simdcrypt_x86_64)]
    if super::many::sha1dc_on_lanes(lanes, kernel, inputs, out) {
        return;
    }
    let _ = lanes;
    for (m, o) in inputs.iter().zip(out.iter_mut()) {
        *o = digest_on(kernel, m);
    }
}

#[cfg(test)]
mod tests;
