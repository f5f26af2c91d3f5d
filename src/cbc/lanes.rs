//! `Cbc::encrypt_many`'s streams and the driver that runs a lane kernel over them (each
//! step a `kernel::Lanes` job on the width handle): up to `L` streams at a time, refilled
//! as they end.

use crate::aes::Block;

/// One stream of `Cbc::encrypt_many` while a kernel runs (this one or a SIMD one): its
/// chaining value and the blocks still to encrypt (at least as many as the kernel's step
/// count).
#[derive(Default)]
pub(crate) struct Lane<'a> {
    pub(crate) iv: Block,
    pub(crate) data: &'a mut [Block],
}

/// How many streams [`many`] juggles at once (it refills lanes from these).
const WINDOW: usize = 64;

/// Drives a lane kernel over many streams (validated: block multiples, equal counts).
///
/// Up to `L` unfinished streams run together for as many steps (blocks) as the shortest of
/// them has left; then finished streams drop out and waiting ones take their lanes.
pub(crate) fn many<const L: usize>(
    ivs: &mut [Block],
    bufs: &mut [&mut [u8]],
    mut kernel: impl FnMut(&mut [Lane<'_>], usize),
) {
    for (ivw, bufw) in ivs.chunks_mut(WINDOW).zip(bufs.chunks_mut(WINDOW)) {
        let mut pos = [0usize; WINDOW];
        loop {
            let mut lanes: [Lane<'_>; L] = core::array::from_fn(|_| Lane::default());
            let mut which = [0usize; L];
            let mut n = 0;
            let mut steps = usize::MAX;
            for (i, (b, &p)) in bufw.iter_mut().zip(pos.iter()).enumerate() {
                if n == L {
                    break;
                }
                let rest = &mut b.as_chunks_mut::<16>().0[p..];
                if rest.is_empty() {
                    continue;
                }
                steps = steps.min(rest.len());
                lanes[n] = Lane {
                    iv: ivw[i],
                    data: rest,
                };
                which[n] = i;
                n += 1;
            }
            if n == 0 {
                break;
            }
            kernel(&mut lanes[..n], steps);
            for (lane, &i) in lanes[..n].iter().zip(&which) {
                ivw[i] = lane.iv;
                pos[i] += steps;
            }
        }
    }
}
