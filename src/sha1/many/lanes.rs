//! The lanes of the SIMD backends of `sha1_many` (see `super`): a pool of messages per
//! register of lanes, the hand-over to fewer lanes, and to one stream at the end.
#![forbid(unsafe_code)]

use crate::arch::x86_64::{sha1_avx2 as avx2, sha1_avx512 as avx512};
use crate::cpu::Avx512Token;
use crate::sha1::{IV, Kernel, digest_from};
use crate::sha1::{digest_bytes, pad_into};
use crate::tuning::Sha1Many;

/// From this many messages on, the AVX-512 backend starts on sixteen lanes (zmm); it moves
/// to eight (ymm) once no message is left to start and fewer than this many are busy
/// (docs/design.md, "Dispatch and per-CPU tuning").
const SIXTEEN_FROM: usize = 9;

/// One lane's message: whole blocks still to do, then its padding blocks. The lane is
/// 64-byte aligned and its padding blocks 16-byte aligned within it, so that their
/// 16-byte stores and loads never straddle a line (or a page, where the stack puts a pool
/// across one); docs/design.md, "Dispatch and per-CPU tuning", has the layout's figures.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Lane<'a> {
    /// The output slot, or `None` when idle.
    slot: Option<usize>,
    main: &'a [[u8; 64]],
    tail_pos: usize,
    tail_end: usize,
    tail: [[u8; 64]; 2],
}

impl<'a> Lane<'a> {
    const IDLE: Lane<'static> = Lane {
        tail: [[0; 64]; 2],
        slot: None,
        main: &[],
        tail_pos: 0,
        tail_end: 0,
    };

    /// Starts `msg` in this (idle) lane, in place: its padding blocks are written where
    /// they stay.
    fn start(&mut self, slot: usize, msg: &'a [u8]) {
        let (main, rest) = msg.as_chunks::<64>();
        self.tail = [[0; 64]; 2];
        self.tail_end = pad_into(&mut self.tail, rest, msg.len() as u64);
        self.tail_pos = 0;
        self.main = main;
        self.slot = Some(slot);
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

/// `N` lanes: each one's message (or idle) and chaining state.
struct Pool<'a, const N: usize> {
    lanes: [Lane<'a>; N],
    states: [[u32; 5]; N],
    /// Bit `i`: lane `i` has held a message (its padding blocks and state are the ones to
    /// wipe; a few short messages leave most of sixteen lanes unused).
    used: u32,
}

impl<const N: usize> Drop for Pool<'_, N> {
    /// The padding blocks (message bytes) and the chaining states: wiped as `Sha1`'s are.
    fn drop(&mut self) {
        for (i, (lane, state)) in self.lanes.iter_mut().zip(&mut self.states).enumerate() {
            if self.used & (1 << i) != 0 {
                crate::wipe::bytes(lane.tail.as_flattened_mut());
                crate::wipe::words(state);
            }
        }
    }
}

impl<'a, const N: usize> Pool<'a, N> {
    fn new() -> Self {
        Pool {
            lanes: [Lane::IDLE; N],
            states: [IV; N],
            used: 0,
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
        for (i, ((to, to_state), (from, from_state))) in pool
            .lanes
            .iter_mut()
            .zip(pool.states.iter_mut())
            .zip(busy)
            .enumerate()
        {
            *to = *from;
            *to_state = *from_state;
            // (Idle; its padding blocks are wiped with `other`.)
            from.slot = None;
            pool.used |= 1 << i;
        }
        pool
    }

    /// Finishes every busy lane on its own with the one-stream kernel `single`.
    fn finish_each(&mut self, single: Kernel, out: &mut [[u8; 20]]) {
        for (lane, state) in self.lanes.iter_mut().zip(self.states.iter_mut()) {
            if let Some(slot) = lane.slot {
                single.compress(state, lane.main);
                single.compress(state, &lane.tail[lane.tail_pos..lane.tail_end]);
                out[slot] = digest_bytes(state);
                lane.slot = None;
            }
        }
    }
}

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
    kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
) {
    drive_with(pool, inputs, next, stop_below, kernel, |_, slot, state| {
        out[slot] = digest_bytes(state);
    });
}

/// [`drive`], each message's final state handed to `done(lane, slot, state)`.
#[inline(always)]
fn drive_with<'a, const N: usize>(
    pool: &mut Pool<'a, N>,
    inputs: &[&'a [u8]],
    next: &mut usize,
    stop_below: usize,
    mut kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
    mut done: impl FnMut(usize, usize, &[u32; 5]),
) {
    let Pool {
        lanes,
        states,
        used,
    } = pool;
    loop {
        for (i, (lane, state)) in lanes.iter_mut().zip(states.iter_mut()).enumerate() {
            if lane.slot.is_none() && *next < inputs.len() {
                lane.start(*next, inputs[*next]);
                *state = IV;
                *next += 1;
                *used |= 1 << i;
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
        for (i, (lane, state)) in lanes.iter_mut().zip(states.iter()).enumerate() {
            if let Some(slot) = lane.slot {
                lane.advance(n);
                if lane.done() {
                    done(i, slot, state);
                    lane.slot = None;
                }
            }
        }
    }
}

/// A SHA-NI kernel (two interleaved `sha1rnds4` chains at about the time of one), or
/// `None` for the others. Every kernel is named (no wildcard arm): a new one does not
/// compile until it says here whether it has two streams.
fn sha_ni_pair(k: Kernel) -> Option<Kernel> {
    match k {
        Kernel::ShaNi(_) => Some(k),
        #[cfg(simdcrypt_asm)]
        Kernel::ShaNiAsm(_) => Some(k),
        Kernel::Portable | Kernel::Ssse3(_) | Kernel::Avx2(_) | Kernel::Avx512(_) => None,
        #[cfg(simdcrypt_asm)]
        Kernel::Avx2Asm(_) => None,
    }
}

/// Compresses `blocks[i]` into `states[i]` for the busy lanes (equally many blocks each)
/// on the SHA-NI kernel `pair`: two busy lanes as two interleaved streams.
fn compress_busy(
    pair: Kernel,
    states: &mut [[u32; 5]; 2],
    blocks: [&[[u8; 64]]; 2],
    busy: [bool; 2],
) {
    let [sa, sb] = states;
    match busy {
        [true, true] => pair.compress_pair((sa, blocks[0]), (sb, blocks[1])),
        [true, false] => pair.compress(sa, blocks[0]),
        _ => pair.compress(sb, blocks[1]),
    }
}

/// [`drive`] on two interleaved SHA-NI streams: the kernel matched once, not once per
/// step (the intrinsics' arm has the kernel's variant fixed in its loop).
fn drive_pair<'a>(
    pool: &mut Pool<'a, 2>,
    inputs: &[&'a [u8]],
    next: &mut usize,
    out: &mut [[u8; 20]],
    pair: Kernel,
) {
    match pair {
        Kernel::ShaNi(f) => drive(pool, inputs, next, out, 0, |s, b, busy| {
            compress_busy(Kernel::ShaNi(f), s, b, busy)
        }),
        k => drive(pool, inputs, next, out, 0, |s, b, busy| {
            compress_busy(k, s, b, busy)
        }),
    }
}

/// Finishes every busy lane of `pool` on the one-stream kernel `single`; where that is
/// SHA-NI and the CPU's row says pairs beat one stream, two at a time as two interleaved
/// streams.
fn finish<const N: usize>(
    pool: &mut Pool<'_, N>,
    single: Kernel,
    tune: Sha1Many,
    out: &mut [[u8; 20]],
) {
    if let Some(pair) = sha_ni_pair(single).filter(|_| tune.pairs) {
        while pool.busy() >= 2 {
            drive_pair(&mut Pool::take_from(pool), &[], &mut 0, out, pair);
        }
    }
    pool.finish_each(single, out);
}

/// [`drive`] from the first message, the last few stragglers finished on `single`.
fn drive_all<const N: usize>(
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
    finish_below: usize,
    (single, tune): (Kernel, Sha1Many),
    kernel: impl FnMut(&mut [[u32; 5]; N], [&[[u8; 64]]; N], [bool; N]),
) {
    let mut pool = Pool::<N>::new();
    drive(&mut pool, inputs, &mut 0, out, finish_below, kernel);
    finish(&mut pool, single, tune, out);
}

/// Whether `inputs` hash faster without the vector lanes: fewer messages than the lanes'
/// `finish_below` (they would start and stop at once), or, where `single` is SHA-NI, few
/// short ones by this CPU's row of `crate::tuning` (the lanes' per-call set-up, shared by
/// few messages, costs more than SHA-NI's longer chains).
fn one_stream_instead(
    single: Kernel,
    inputs: &[&[u8]],
    finish_below: usize,
    tune: Sha1Many,
) -> bool {
    let below = if sha_ni_pair(single).is_some() {
        one_stream_below(inputs.len(), tune.one_stream_below)
    } else {
        0
    };
    inputs.len() < finish_below || (below > 0 && inputs.iter().all(|m| m.len() < below))
}

/// The length under which `count` messages skip the lanes, by the row's
/// [`Sha1Many::one_stream_below`]; 0: never.
fn one_stream_below(count: usize, [four, eight, sixteen]: [usize; 3]) -> usize {
    match count {
        0 => 0,
        1..=4 => four,
        5..=8 => eight,
        9..=16 => sixteen,
        _ => 0,
    }
}

/// Every message on SHA-NI alone (or `single`, if that is not SHA-NI): as two interleaved
/// streams where the row says pairs, else one after another on the one-shot path.
fn one_stream(single: Kernel, tune: Sha1Many, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    match sha_ni_pair(single).filter(|_| tune.pairs) {
        Some(pair) => drive_pair(&mut Pool::new(), inputs, &mut 0, out, pair),
        None => sequential(single, inputs, out),
    }
}

/// Hashes on `lanes`' multi-lane kernel (if it has one), finishing stragglers on `single`.
/// Every kernel is named (no wildcard arm): a new one does not compile until it says here
/// how it hashes many messages.
pub(super) fn hash_on_lanes(
    lanes: Kernel,
    single: Kernel,
    tune: Sha1Many,
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
) {
    // Below this many busy lanes one stream is faster: SHA-NI, the faster one stream,
    // takes over sooner; a single busy lane runs as fast as one AVX-512 stream
    // (docs/design.md, "Dispatch and per-CPU tuning").
    let [sha_ni, other] = match lanes {
        Kernel::Avx2(_) => [5, 3],
        _ => [4, 2],
    };
    let finish_below = if sha_ni_pair(single).is_some() {
        sha_ni
    } else {
        other
    };
    match lanes {
        Kernel::Avx2(_) | Kernel::Avx512(_)
            if one_stream_instead(single, inputs, finish_below, tune) =>
        {
            one_stream(single, tune, inputs, out)
        }
        Kernel::Avx2(t) => drive_all::<8>(inputs, out, finish_below, (single, tune), |s, b, _| {
            avx2::compress8(t, s, b)
        }),
        Kernel::Avx512(t) => avx512_lanes(t, single, tune, inputs, out, finish_below),
        // SHA-NI without AVX2 (or asked for by name): no lanes.
        Kernel::ShaNi(_) => one_stream(single, tune, inputs, out),
        #[cfg(simdcrypt_asm)]
        Kernel::ShaNiAsm(_) => one_stream(single, tune, inputs, out),
        Kernel::Portable | Kernel::Ssse3(_) => sequential(single, inputs, out),
        #[cfg(simdcrypt_asm)]
        Kernel::Avx2Asm(_) => sequential(single, inputs, out),
    }
}

/// Many messages on sixteen AVX-512 lanes while more than eight are in flight, then on
/// eight, the last `finish_below` on `single`.
fn avx512_lanes(
    t: Avx512Token,
    single: Kernel,
    tune: Sha1Many,
    inputs: &[&[u8]],
    out: &mut [[u8; 20]],
    finish_below: usize,
) {
    let mut next = 0;
    // (Sixteen lanes' pool only where they run: a pool is about 3 KiB to set up.)
    let mut pool = if inputs.len() >= SIXTEEN_FROM {
        let mut wide = Pool::<16>::new();
        drive(
            &mut wide,
            inputs,
            &mut next,
            out,
            SIXTEEN_FROM,
            |s, b, _| avx512::compress16(t, s, b),
        );
        Pool::<8>::take_from(&mut wide)
    } else {
        Pool::<8>::new()
    };
    drive(
        &mut pool,
        inputs,
        &mut next,
        out,
        finish_below,
        |s, b, _| avx512::compress8(t, s, b),
    );
    finish(&mut pool, single, tune, out);
}

/// One message after another on a single-stream kernel, each on the one-shot path of
/// [`crate::sha1()`]: the kernel matched once, each arm a loop with its variant fixed.
fn sequential(kernel: Kernel, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    match kernel {
        Kernel::Ssse3(t) => each(Kernel::Ssse3(t), inputs, out),
        Kernel::Avx2(t) => each(Kernel::Avx2(t), inputs, out),
        #[cfg(simdcrypt_asm)]
        Kernel::Avx2Asm(t) => each(Kernel::Avx2Asm(t), inputs, out),
        k => each(k, inputs, out),
    }
}

/// [`sequential`]'s loop, inlined into each arm.
#[inline(always)]
fn each(kernel: Kernel, inputs: &[&[u8]], out: &mut [[u8; 20]]) {
    for (m, o) in inputs.iter().zip(out.iter_mut()) {
        *o = digest_from(kernel, IV, 0, m);
    }
}

/// `sha1dc_many` on these lanes.
pub(crate) mod dc;

#[cfg(test)]
mod tests;
