//! `sha1dc_many` on eight lanes: one message per 32-bit lane of a ymm register, as
//! `sha1_many` runs them, with collision detection's filter on the same lanes.
//!
//! ```text
//! per step of n blocks in every busy lane, block j of every lane at once:
//!     the filter's masks and the compression, on the same message words
//!     a mask non-zero in a busy lane: the kernel returns with the states before block j;
//!         each lane whose mask is non-zero: its recompression test; then on from j + 1
//!     a lane whose test flags a block: its message hashed again on the one-stream
//!         detecting kernel when it is done (an attack input: the Collision comes from there)
//! the stragglers: each one's rest on the one-stream detecting kernel
//! ```
#![forbid(unsafe_code)]

use core::cell::Cell;

use super::{Pool, drive_with, sha_ni_pair};
use crate::arch::x86_64::sha1dc_lanes::Lanes8;
use crate::sha1::Kernel;
use crate::sha1::dc::soft::flagged;
use crate::sha1::dc::{Collision, DcKernel, digest_on};
use crate::sha1::digest_bytes;

/// Hashes `inputs` with detection on eight lanes where `lanes` has them (AVX2, AVX-512),
/// the stragglers on `single`; `false` (and `out` untouched) where it has none or the
/// messages are too few to fill them.
pub(crate) fn hash(
    lanes: Kernel,
    single: DcKernel,
    inputs: &[&[u8]],
    out: &mut [Result<[u8; 20], Collision>],
) -> bool {
    // The hand-over to one stream of `sha1_many`'s eight AVX2 lanes.
    let finish_below = if sha_ni_pair(single.plain()).is_some() {
        5
    } else {
        3
    };
    let kernel = match lanes {
        Kernel::Avx2(t) => Lanes8::Avx2(t),
        Kernel::Avx512(t) => Lanes8::Avx512(t),
        _ => return false,
    };
    if inputs.len() < finish_below {
        return false;
    }
    run(kernel, single, finish_below, inputs, out);
    true
}

/// [`hash`] on the eight lanes of `kernel`.
fn run(
    kernel: Lanes8,
    single: DcKernel,
    finish_below: usize,
    inputs: &[&[u8]],
    out: &mut [Result<[u8; 20], Collision>],
) {
    // Bit `l`: lane `l`'s message has a flagged block.
    let collided = Cell::new(0u32);
    let mut pool = Pool::<8>::new();
    drive_with(
        &mut pool,
        inputs,
        &mut 0,
        finish_below,
        |states, blocks, busy| filtered(kernel, states, blocks, busy, &collided),
        |lane, slot, state| {
            let c = collided.get();
            out[slot] = if c & 1 << lane == 0 {
                Ok(digest_bytes(state))
            } else {
                collided.set(c & !(1 << lane));
                digest_on(single, inputs[slot])
            };
        },
    );
    for (l, (lane, state)) in pool.lanes.iter_mut().zip(&mut pool.states).enumerate() {
        if let Some(slot) = lane.slot {
            let clean = collided.get() & 1 << l == 0
                && single.compress(state, lane.main).is_none()
                && (single.compress(state, &lane.tail[lane.tail_pos..lane.tail_end])).is_none();
            out[slot] = if clean {
                Ok(digest_bytes(state))
            } else {
                digest_on(single, inputs[slot])
            };
            lane.slot = None;
        }
    }
}

/// One step of the lanes: `blocks[l]` (all of one length) into `states[l]` with the
/// filter and, for the blocks it does not clear in busy lanes, the recompression tests;
/// a lane with a flagged block gets its bit in `collided`.
fn filtered(
    kernel: Lanes8,
    states: &mut [[u32; 5]; 8],
    mut blocks: [&[[u8; 64]]; 8],
    busy: [bool; 8],
    collided: &Cell<u32>,
) {
    let busy = (0..8).filter(|&l| busy[l]).fold(0u32, |b, l| b | 1 << l);
    while let Some(hit) = kernel.compress(states, blocks, busy) {
        for l in (0..8).filter(|&l| busy >> l & 1 == 1 && hit.masks[l] != 0) {
            if flagged(&hit.before[l], &states[l], &blocks[l][hit.at], hit.masks[l]).is_some() {
                collided.set(collided.get() | 1 << l);
            }
        }
        blocks = core::array::from_fn(|l| &blocks[l][hit.at + 1..]);
    }
}
