//! Many independent messages at once.
//!
//! How the messages go to lanes and one-stream kernels: docs/design.md, "Dispatch and
//! per-CPU tuning". The lane count and its per-lane cost are public (message lengths), never the data.
#![forbid(unsafe_code)]

use super::{IV, Kernel, digest_from, impl_for};
use crate::dispatch::{SHA1, SHA1_MANY};
use crate::tuning::Sha1Many;
use crate::{Backend, Error};

/// The lanes of the SIMD backends: the pools of messages, and when to leave them.
#[cfg(simdcrypt_x86_64)]
mod lanes;
#[cfg(simdcrypt_x86_64)]
pub(crate) use lanes::dc::hash as sha1dc_on_lanes;

/// Hashes on `lanes`' multi-lane kernel (if it has one), finishing stragglers on `single`.
/// Every kernel is named (no wildcard arm): a new one does not compile until it says here
/// how it hashes many messages.
fn hash(lanes: Kernel, single: Kernel, tune: Sha1Many, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    let _ = tune; // (read on x86-64 only)
    match lanes {
        Kernel::Portable => {
            for (m, o) in inputs.iter().zip(out.iter_mut()) {
                *o = digest_from(single, IV, 0, m);
            }
        }
        #[cfg(simdcrypt_x86_64)]
        Kernel::Ssse3(_) | Kernel::Avx2(_) | Kernel::Avx512(_) | Kernel::ShaNi(_) => {
            lanes::hash_on_lanes(lanes, single, tune, inputs, out)
        }
        #[cfg(simdcrypt_asm)]
        Kernel::Avx2Asm(_) | Kernel::ShaNiAsm(_) => {
            lanes::hash_on_lanes(lanes, single, tune, inputs, out)
        }
        // Two at a time: the SHA-1 instructions' chains, two interleaved
        // (`Kernel::compress_pair`).
        #[cfg(simdcrypt_aarch64)]
        Kernel::Armv8(_) => pairs(lanes, single, inputs, out),
    }
}

/// Two messages at a time on `pair`'s two-stream kernel, as long as both have whole
/// blocks left, then each one's rest (its last whole blocks and its padded tail) on
/// `single`'s one-call path; an odd message out on that path alone.
#[cfg(simdcrypt_aarch64)]
fn pairs(pair: Kernel, single: Kernel, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    let mut ins = inputs.chunks_exact(2);
    let mut outs = out.chunks_exact_mut(2);
    for (m, o) in (&mut ins).zip(&mut outs) {
        let (a, _) = m[0].as_chunks::<64>();
        let (b, _) = m[1].as_chunks::<64>();
        let n = a.len().min(b.len());
        let (mut sa, mut sb) = (IV, IV);
        if n > 0 {
            pair.compress_pair((&mut sa, &a[..n]), (&mut sb, &b[..n]));
        }
        let done = 64 * n;
        o[0] = digest_from(single, sa, done as u64, &m[0][done..]);
        o[1] = digest_from(single, sb, done as u64, &m[1][done..]);
    }
    for (m, o) in ins.remainder().iter().zip(outs.into_remainder()) {
        *o = digest_from(single, IV, 0, m);
    }
}

/// The SHA-1 digests of many independent messages (of any, unequal lengths), hashed in
/// parallel lanes: on AVX-512, sixteen lanes in zmm registers while more than eight
/// messages are in flight, then eight in ymm registers; eight AVX2 lanes on CPUs without
/// AVX-512; the last few stragglers finished on the fastest one-stream kernel (SHA-NI
/// where present). SHA-NI alone on CPUs with SHA-NI but no AVX2, for fewer messages than
/// the lanes would keep busy, and for up to sixteen short ones (below a length per CPU):
/// two interleaved streams on AMD, one message after another on Intel.
/// `out[i]` receives the digest of `inputs[i]`.
///
/// `Err(LengthMismatch)` (and `out` untouched) if `inputs` and `out` differ in length.
///
/// ```
/// let msgs: [&[u8]; 3] = [b"", b"abc", &[0u8; 1000]];
/// let mut out = [[0u8; 20]; 3];
/// simdcrypt::sha1_many(&msgs, &mut out)?;
/// assert_eq!(out[1], simdcrypt::sha1(b"abc"));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn sha1_many(inputs: &[&[u8]], out: &mut [[u8; 20]]) -> Result<(), Error> {
    check(inputs, out)?;
    let (lanes, _) = SHA1_MANY.auto_kernel();
    let (single, _) = SHA1.auto_kernel();
    hash(
        lanes,
        single,
        crate::tuning::tuning().sha1_many,
        inputs,
        out,
    );
    Ok(())
}

/// The backend whose multi-lane kernel [`sha1_many`] uses automatically (stragglers go
/// to SHA-1's one-stream choice): for tools that report it.
#[doc(hidden)]
pub fn sha1_many_backend() -> Backend {
    SHA1_MANY.auto()
}

/// [`sha1_many`] on the backend given (`avx512` forces the AVX-512 lanes, `avx2` the eight
/// AVX2 lanes; stragglers go to that backend's one-stream kernel): a hook for tests and
/// benchmarks.
#[doc(hidden)]
pub fn sha1_many_with(
    backend: Backend,
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
) -> Result<(), Error> {
    check(inputs, out)?;
    let kernel = impl_for(backend)?;
    hash(
        kernel,
        kernel,
        crate::tuning::tuning().sha1_many,
        inputs,
        out,
    );
    Ok(())
}

/// `Err(LengthMismatch)` unless there are as many outputs as inputs (`sha1_many`,
/// `sha1dc_many`).
pub(crate) fn check<T>(inputs: &[&[u8]], out: &[T]) -> Result<(), Error> {
    if inputs.len() == out.len() {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            what: "inputs and out counts",
            left: inputs.len(),
            right: out.len(),
        })
    }
}

#[cfg(test)]
mod tests;
