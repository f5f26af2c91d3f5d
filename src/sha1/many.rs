//! Many independent messages at once.
//!
//! ```text
//! lanes = 16 then 8 (AVX-512: one message per 32-bit lane of a zmm register while more
//!             than eight messages are in flight, then of a ymm register; preferred, it
//!             measures fastest) or
//!         8 (AVX2 without AVX-512: one message per 32-bit lane of a ymm register) or
//!         2 (SHA-NI without AVX2: two interleaved sha1rnds4 chains) or 1 (otherwise)
//! each message = its whole blocks, then its 1 or 2 padding blocks
//! loop:
//!     give every idle lane the next message (state = IV)
//!     n = the fewest blocks left in the current segment of any busy lane
//!     compress n blocks in every busy lane at once (idle lanes read a busy lane's blocks,
//!         and their result is dropped)
//!     a lane whose message is done writes its digest and goes idle
//!     no message left to start and at most eight lanes busy on sixteen: move them to
//!         eight lanes
//!     no message left to start and too few lanes busy: finish them on a one-stream kernel
//!         (SHA-NI: two at a time, as two interleaved streams)
//! few short messages (at most 16, all shorter than the CPU's hand-over length in
//! `crate::tuning`, where SHA-NI is the one-stream kernel): no lanes, SHA-NI pairs only
//! ```
//! The lane count and its per-lane cost are public (message lengths), never the data.
#![forbid(unsafe_code)]

#[cfg(simdcrypt_asm)]
use super::shani_asm;
use super::{IV, Impl, Sha1, impl_for};
#[cfg(simdcrypt_x86_64)]
use super::{avx2, avx512, shani};
#[cfg(simdcrypt_x86_64)]
use super::{digest_bytes, pad};
#[cfg(simdcrypt_x86_64)]
use crate::cpu::ShaNiToken;
use crate::dispatch::{SHA1, SHA1_MANY};
use crate::{Backend, Error};

#[cfg(simdcrypt_x86_64)]
/// From this many messages on, the AVX-512 backend starts on sixteen lanes (zmm); it moves
/// to eight (ymm) once no message is left to start and fewer than this many are busy:
/// eight messages run faster on eight ymm lanes than on sixteen half-empty zmm lanes,
/// sixteen faster on sixteen zmm lanes than on eight ymm lanes twice (measured).
const SIXTEEN_FROM: usize = 9;

#[cfg(simdcrypt_x86_64)]
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

#[cfg(simdcrypt_x86_64)]
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

#[cfg(simdcrypt_x86_64)]
/// `N` lanes: each one's message (or idle) and chaining state.
struct Pool<'a, const N: usize> {
    lanes: [Lane<'a>; N],
    states: [[u32; 5]; N],
}

#[cfg(simdcrypt_x86_64)]
impl<const N: usize> Drop for Pool<'_, N> {
    /// The padding blocks (message bytes) and the chaining states: wiped as `Sha1`'s are.
    fn drop(&mut self) {
        for lane in &mut self.lanes {
            crate::wipe::bytes(lane.tail.as_flattened_mut());
        }
        crate::wipe::words(self.states.as_flattened_mut());
    }
}

#[cfg(simdcrypt_x86_64)]
impl<'a, const N: usize> Pool<'a, N> {
    fn new() -> Self {
        Pool {
            lanes: [Lane::IDLE; N],
            states: [IV; N],
        }
    }

    fn busy(&self) -> usize {
        self.lanes.iter().filter(|l| l.slot.is_some()).count()
    }

    /// A pool with up to `N` of `other`'s busy lanes, mid-message (they go idle there).
    fn take_from<const M: usize>(other: &mut Pool<'a, M>) -> Self {
        let mut pool = Pool::new();
        let busy = other.lanes.iter_mut().zip(&other.states);
        let busy = busy.filter(|(l, _)| l.slot.is_some());
        for ((to, to_state), (from, from_state)) in
            pool.lanes.iter_mut().zip(pool.states.iter_mut()).zip(busy)
        {
            *to = *from;
            *to_state = *from_state;
            *from = Lane::IDLE;
        }
        pool
    }

    /// Finishes every busy lane on its own with the one-stream kernel `single`.
    fn finish_each(&mut self, single: Impl, out: &mut [[u8; 20]]) {
        for (lane, state) in self.lanes.iter_mut().zip(self.states.iter_mut()) {
            if let Some(slot) = lane.slot {
                single.compress(state, lane.main);
                single.compress(state, &lane.tail[lane.tail_pos..lane.tail_end]);
                out[slot] = digest_bytes(state);
                *lane = Lane::IDLE;
            }
        }
    }
}

#[cfg(simdcrypt_x86_64)]
/// Runs `inputs[*next..]` through the pool's `N` lanes; `kernel(states, blocks, busy)`
/// compresses `blocks[i]` (all of one length) into `states[i]` for every lane (idle lanes'
/// results are ignored). Returns when every message is done, or once no message is left
/// to start and fewer than `stop_below` lanes are busy (a wide kernel with most lanes idle
/// is slower than a narrower one: the caller finishes them on one).
fn drive<'a, const N: usize>(
    pool: &mut Pool<'a, N>,
    inputs: &[&'a [u8]],
    next: &mut usize,
    out: &mut [[u8; 20]],
    stop_below: usize,
    mut kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
) {
    let Pool { lanes, states } = pool;
    loop {
        for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
            if lane.slot.is_none() && *next < inputs.len() {
                *lane = Lane::start(*next, inputs[*next]);
                *state = IV;
                *next += 1;
            }
        }
        let busy: [bool; N] = core::array::from_fn(|i| lanes[i].slot.is_some());
        let Some(first) = busy.iter().position(|&b| b) else {
            return;
        };
        if *next == inputs.len() && busy.iter().filter(|&&b| b).count() < stop_below {
            return;
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
            kernel(states, blocks, busy);
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

#[cfg(simdcrypt_x86_64)]
/// The two-stream kernel of a SHA-NI backend (two interleaved `sha1rnds4` chains).
#[derive(Clone, Copy)]
enum ShaNiPair {
    Intrinsics(ShaNiToken),
    #[cfg(simdcrypt_asm)]
    Asm(ShaNiToken),
}

#[cfg(simdcrypt_x86_64)]
impl ShaNiPair {
    /// The two-stream kernel of `imp`'s backend, if it has one. Every kernel is named (no
    /// wildcard arm): a new one does not compile until it says here whether it has one.
    fn of(imp: Impl) -> Option<ShaNiPair> {
        match imp {
            Impl::ShaNi(t) => Some(ShaNiPair::Intrinsics(t)),
            #[cfg(simdcrypt_asm)]
            Impl::ShaNiAsm(t) => Some(ShaNiPair::Asm(t)),
            Impl::Portable | Impl::Ssse3(_) | Impl::Avx2(_) | Impl::Avx512(_) => None,
            #[cfg(simdcrypt_asm)]
            Impl::Avx2Asm(_) => None,
        }
    }

    /// Compresses `blocks[i]` into `states[i]` for the busy lanes.
    fn compress(self, states: &mut [[u32; 5]; 2], blocks: [&[[u8; 64]]; 2], busy: [bool; 2]) {
        let [sa, sb] = states;
        match self {
            ShaNiPair::Intrinsics(t) => match busy {
                [true, true] => shani::compress2(t, sa, blocks[0], sb, blocks[1]),
                [true, false] => shani::compress(t, sa, blocks[0]),
                _ => shani::compress(t, sb, blocks[1]),
            },
            #[cfg(simdcrypt_asm)]
            ShaNiPair::Asm(t) => match busy {
                [true, true] => shani_asm::compress2(t, sa, blocks[0], sb, blocks[1]),
                [true, false] => shani_asm::compress(t, sa, blocks[0]),
                _ => shani_asm::compress(t, sb, blocks[1]),
            },
        }
    }
}

#[cfg(simdcrypt_x86_64)]
/// [`drive`] on two interleaved SHA-NI streams.
fn drive_pair<'a>(
    pool: &mut Pool<'a, 2>,
    inputs: &[&'a [u8]],
    next: &mut usize,
    out: &mut [[u8; 20]],
    pair: ShaNiPair,
) {
    drive(pool, inputs, next, out, 0, |s, b, busy| {
        pair.compress(s, b, busy)
    });
}

#[cfg(simdcrypt_x86_64)]
/// Finishes every busy lane of `pool` on the one-stream kernel `single`; where that is
/// SHA-NI, two at a time as two interleaved streams (faster than one stream, measured).
fn finish<const N: usize>(pool: &mut Pool<'_, N>, single: Impl, out: &mut [[u8; 20]]) {
    if let Some(pair) = ShaNiPair::of(single) {
        while pool.busy() >= 2 {
            drive_pair(&mut Pool::take_from(pool), &[], &mut 0, out, pair);
        }
    }
    pool.finish_each(single, out);
}

#[cfg(simdcrypt_x86_64)]
/// [`drive`] from the first message, the last few stragglers finished on `single`.
fn drive_all<const N: usize>(
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
    finish_below: usize,
    single: Impl,
    kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
) {
    let mut pool = Pool::<N>::new();
    drive(&mut pool, inputs, &mut 0, out, finish_below, kernel);
    finish(&mut pool, single, out);
}

#[cfg(simdcrypt_x86_64)]
/// The SHA-NI pair kernel, if `inputs` hash faster on it than on the AVX-512 lanes: few
/// short messages, by this CPU's row of `crate::tuning` (the lanes' per-message set-up,
/// shared by fewer messages, costs more than the pairs' longer chains), and `single` is
/// SHA-NI.
fn pairs_instead(single: Impl, inputs: &[&[u8]]) -> Option<ShaNiPair> {
    let below = hand_over_below(inputs.len(), crate::tuning::sha1_pairs_below());
    if below == 0 || inputs.iter().any(|m| m.len() >= below) {
        return None;
    }
    ShaNiPair::of(single)
}

#[cfg(simdcrypt_x86_64)]
/// The length under which `count` messages hand over to SHA-NI pairs, by the row's
/// `(eight, sixteen)` ([`crate::tuning::Row::sha1_pairs_below`]); 0: never.
fn hand_over_below(count: usize, (eight, sixteen): (usize, usize)) -> usize {
    match count {
        0 => 0,
        n if n < SIXTEEN_FROM => eight,
        n if n <= 16 => sixteen,
        _ => 0,
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
/// Every kernel is named (no wildcard arm): a new one does not compile until it says here
/// how it hashes many messages.
fn run(lanes: Impl, single: Impl, backend: Backend, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    match lanes {
        #[cfg(simdcrypt_x86_64)]
        Impl::Avx2(t) => {
            // Below this many busy lanes one stream is faster than eight AVX2 lanes
            // (measured; SHA-NI is the faster one stream, so it takes over sooner).
            let finish_below = if ShaNiPair::of(single).is_some() {
                5
            } else {
                3
            };
            drive_all::<8>(inputs, out, finish_below, single, |s, b, _| {
                avx2::compress8(t, s, b)
            })
        }
        #[cfg(simdcrypt_x86_64)]
        Impl::Avx512(t) => {
            if let Some(pair) = pairs_instead(single, inputs) {
                return drive_pair(&mut Pool::new(), inputs, &mut 0, out, pair);
            }
            // Below four busy ymm lanes SHA-NI (in pairs) is faster; a single busy lane
            // runs as fast as one AVX-512 stream (measured).
            let finish_below = if ShaNiPair::of(single).is_some() {
                4
            } else {
                2
            };
            let mut next = 0;
            let mut wide = Pool::<16>::new();
            if inputs.len() >= SIXTEEN_FROM {
                drive(
                    &mut wide,
                    inputs,
                    &mut next,
                    out,
                    SIXTEEN_FROM,
                    |s, b, _| avx512::compress16(t, s, b),
                );
            }
            let mut pool = Pool::<8>::take_from(&mut wide);
            drive(
                &mut pool,
                inputs,
                &mut next,
                out,
                finish_below,
                |s, b, _| avx512::compress8(t, s, b),
            );
            finish(&mut pool, single, out);
        }
        #[cfg(simdcrypt_x86_64)]
        Impl::ShaNi(t) => drive_pair(
            &mut Pool::new(),
            inputs,
            &mut 0,
            out,
            ShaNiPair::Intrinsics(t),
        ),
        #[cfg(simdcrypt_asm)]
        Impl::ShaNiAsm(t) => drive_pair(&mut Pool::new(), inputs, &mut 0, out, ShaNiPair::Asm(t)),
        Impl::Portable => sequential(single, backend, inputs, out),
        #[cfg(simdcrypt_x86_64)]
        Impl::Ssse3(_) => sequential(single, backend, inputs, out),
        #[cfg(simdcrypt_asm)]
        Impl::Avx2Asm(_) => sequential(single, backend, inputs, out),
    }
}

/// The SHA-1 digests of many independent messages (of any, unequal lengths), hashed in
/// parallel lanes: on AVX-512, sixteen lanes in zmm registers while more than eight
/// messages are in flight, then eight in ymm registers; eight AVX2 lanes on CPUs without
/// AVX-512; the last few stragglers finished on the fastest one-stream kernel (SHA-NI
/// where present). Two interleaved SHA-NI streams on CPUs with SHA-NI but no AVX2, and
/// for up to eight short messages where the CPU's tuning row says the lanes lose to them
/// (AMD Zen 5: under 384 bytes).
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
    let (single, backend) = SHA1.auto_kernel();
    run(lanes, single, backend, inputs, out);
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
    let imp = impl_for(backend)?;
    run(imp, imp, backend, inputs, out);
    Ok(())
}

fn check(inputs: &[&[u8]], out: &[[u8; 20]]) -> Result<(), Error> {
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

#[cfg(all(test, simdcrypt_x86_64))]
mod tests {
    use super::*;

    #[test]
    fn hand_over_by_count() {
        let rows = (384, 128);
        assert_eq!(hand_over_below(0, rows), 0);
        assert_eq!(hand_over_below(1, rows), 384);
        assert_eq!(hand_over_below(8, rows), 384);
        assert_eq!(hand_over_below(9, rows), 128);
        assert_eq!(hand_over_below(16, rows), 128);
        assert_eq!(hand_over_below(17, rows), 0);
        assert_eq!(hand_over_below(4, (0, 0)), 0);
    }
}
