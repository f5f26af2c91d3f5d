//! Many independent messages at once.
//!
//! ```text
//! lanes = 8 (AVX2: one message per 32-bit lane; preferred, it measures fastest) or
//!         2 (SHA-NI without AVX2: two interleaved sha1rnds4 chains) or 1 (otherwise)
//! each message = its whole blocks, then its 1 or 2 padding blocks
//! loop:
//!     give every idle lane the next message (state = IV)
//!     n = the fewest blocks left in the current segment of any busy lane
//!     compress n blocks in every busy lane at once (idle lanes read a busy lane's blocks,
//!         and their result is dropped)
//!     a lane whose message is done writes its digest and goes idle
//!     no message left to start and too few lanes busy: finish each on a one-stream kernel
//! ```
//! The lane count and its per-lane cost are public (message lengths), never the data.
#![forbid(unsafe_code)]

#[cfg(target_arch = "x86_64")]
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
use super::shani_asm;
use super::{DISPATCH, IV, Impl, Sha1, digest_bytes, impl_for, pad};
use super::{avx2, avx512, shani};
use crate::backend::Dispatch;
use crate::{Backend, Error};

/// The multi-lane kernels, fastest first as measured on this machine (Intel Emerald
/// Rapids, 8 messages of 4 KiB): eight AVX2 lanes 2.6 B/ns, two interleaved SHA-NI
/// streams 1.7 B/ns, one SHA-NI stream 1.45 B/ns (`sha1rnds4` latency is only 1.34 times
/// its reciprocal throughput here, so a second stream gains little).
static MANY: Dispatch = Dispatch::new(
    "SHA-1",
    &[
        Backend::Avx512,
        Backend::Avx2,
        Backend::ShaNiAsm,
        Backend::ShaNi,
        Backend::Ssse3,
        Backend::Portable,
    ],
);

/// From this many messages on, the AVX-512 backend runs sixteen lanes (zmm) instead of
/// eight (ymm).
const SIXTEEN_FROM: usize = 9;

/// One lane's message: whole blocks still to do, then its padding blocks.
#[derive(Clone, Copy)]
struct Lane<'a> {
    /// The output slot, or `None` when idle.
    slot: Option<usize>,
    main: &'a [[u8; 64]],
    tail: [[u8; 64]; 2],
    tail_pos: usize,
    tail_end: usize,
}

impl<'a> Lane<'a> {
    const IDLE: Lane<'static> = Lane {
        slot: None,
        main: &[],
        tail: [[0; 64]; 2],
        tail_pos: 0,
        tail_end: 0,
    };

    fn start(slot: usize, msg: &'a [u8]) -> Lane<'a> {
        let (main, rest) = msg.as_chunks::<64>();
        let (tail, n) = pad(rest, msg.len() as u64);
        Lane {
            slot: Some(slot),
            main,
            tail,
            tail_pos: 0,
            tail_end: n,
        }
    }

    /// The blocks of the current segment.
    fn current(&self) -> &[[u8; 64]] {
        if self.main.is_empty() {
            &self.tail[self.tail_pos..self.tail_end]
        } else {
            self.main
        }
    }

    fn advance(&mut self, n: usize) {
        if self.main.is_empty() {
            self.tail_pos += n;
        } else {
            self.main = &self.main[n..];
        }
    }

    fn done(&self) -> bool {
        self.main.is_empty() && self.tail_pos == self.tail_end
    }
}

/// Runs `inputs` through `N` lanes; `kernel(states, blocks, busy)` compresses
/// `blocks[i]` (all of one length) into `states[i]` for every lane (idle lanes' results
/// are ignored). Once no message is left to start and fewer than `finish_below` lanes are
/// busy, each busy lane is finished on its own with `single` instead (a wide kernel with
/// most lanes idle is slower than a one-stream kernel).
fn drive<const N: usize>(
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
    finish_below: usize,
    single: Impl,
    mut kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
) {
    let mut lanes = [Lane::IDLE; N];
    let mut states = [IV; N];
    let mut next = 0;
    loop {
        for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
            if lane.slot.is_none() && next < inputs.len() {
                *lane = Lane::start(next, inputs[next]);
                *state = IV;
                next += 1;
            }
        }
        let busy: [bool; N] = core::array::from_fn(|i| lanes[i].slot.is_some());
        let Some(first) = busy.iter().position(|&b| b) else {
            break;
        };
        if next == inputs.len() && busy.iter().filter(|&&b| b).count() < finish_below {
            for (lane, state) in lanes.iter().zip(states.iter_mut()) {
                if let Some(slot) = lane.slot {
                    single.compress(state, lane.main);
                    single.compress(state, &lane.tail[lane.tail_pos..lane.tail_end]);
                    out[slot] = digest_bytes(state);
                }
            }
            break;
        }
        let n = lanes
            .iter()
            .filter(|l| l.slot.is_some())
            .map(|l| l.current().len())
            .min()
            .unwrap_or(0);
        {
            let blocks: [&[[u8; 64]]; N] = core::array::from_fn(|i| {
                let l = if busy[i] { &lanes[i] } else { &lanes[first] };
                &l.current()[..n]
            });
            kernel(&mut states, blocks, busy);
        }
        for (lane, state) in lanes.iter_mut().zip(states.iter()) {
            if let Some(slot) = lane.slot {
                lane.advance(n);
                if lane.done() {
                    out[slot] = digest_bytes(state);
                    *lane = Lane::IDLE;
                }
            }
        }
    }
}

/// One message after another on a single-stream kernel.
fn sequential(imp: Impl, backend: Backend, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    for (m, o) in inputs.iter().zip(out.iter_mut()) {
        let mut h = Sha1::from_parts(imp, backend, IV, 0);
        h.update(m);
        *o = h.finalize();
    }
}

/// Hashes on `lanes`' multi-lane kernel (if it has one), finishing stragglers on `single`.
fn run(lanes: Impl, single: Impl, backend: Backend, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    match lanes {
        #[cfg(target_arch = "x86_64")]
        Impl::ShaNi(t) => drive::<2>(inputs, out, 0, single, |s, b, busy| {
            let [sa, sb] = s;
            match busy {
                [true, true] => shani::compress2(t, sa, b[0], sb, b[1]),
                [true, false] => shani::compress(t, sa, b[0]),
                _ => shani::compress(t, sb, b[1]),
            }
        }),
        #[cfg(target_arch = "x86_64")]
        Impl::Avx2(t) => {
            // Measured here: eight AVX2 lanes run 3.5x one AVX2 stream and 1.8x one SHA-NI
            // stream, so below 3 (resp. 5) busy lanes one stream is faster.
            let finish_below = if single.is_sha_ni() { 5 } else { 3 };
            drive::<8>(inputs, out, finish_below, single, |s, b, _| {
                avx2::compress8(t, s, b)
            })
        }
        #[cfg(target_arch = "x86_64")]
        Impl::Avx512(t) => {
            if inputs.len() >= SIXTEEN_FROM {
                drive::<16>(inputs, out, 0, single, |s, b, _| {
                    avx512::compress16(t, s, b)
                })
            } else {
                drive::<8>(inputs, out, 0, single, |s, b, _| avx512::compress8(t, s, b))
            }
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        Impl::ShaNiAsm(t) => drive::<2>(inputs, out, 0, single, |s, b, busy| {
            let [sa, sb] = s;
            match busy {
                [true, true] => shani_asm::compress2(t, sa, b[0], sb, b[1]),
                [true, false] => shani_asm::compress(t, sa, b[0]),
                _ => shani_asm::compress(t, sb, b[1]),
            }
        }),
        _ => sequential(single, backend, inputs, out),
    }
}

/// The SHA-1 digests of many independent messages (of any, unequal lengths), hashed in
/// parallel lanes: eight AVX2 lanes (the last few stragglers finished on the fastest
/// one-stream kernel, SHA-NI where present), or two interleaved SHA-NI streams on CPUs
/// with SHA-NI but no AVX2. `out[i]` receives the digest of `inputs[i]`.
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
    let lanes = Impl::new(MANY.auto()).unwrap_or(Impl::Portable);
    let backend = DISPATCH.auto();
    let single = Impl::new(backend).unwrap_or(Impl::Portable);
    run(lanes, single, backend, inputs, out);
    Ok(())
}

/// The backend whose multi-lane kernel [`sha1_many`] uses automatically (stragglers go
/// to SHA-1's one-stream choice): for tools that report it.
#[doc(hidden)]
pub fn sha1_many_backend() -> Backend {
    MANY.auto()
}

/// [`sha1_many`] on the backend given (`avx2` forces the eight AVX2 lanes): a hook for
/// tests and benchmarks.
#[doc(hidden)]
pub fn sha1_many_with(
    backend: Backend,
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
) -> Result<(), Error> {
    check(inputs, out)?;
    let imp = impl_for(backend)?;
    run(imp, imp, backend, inputs, out);
    Ok(())
}

fn check(inputs: &[&[u8]], out: &[[u8; 20]]) -> Result<(), Error> {
    if inputs.len() == out.len() {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            left: inputs.len(),
            right: out.len(),
        })
    }
}
