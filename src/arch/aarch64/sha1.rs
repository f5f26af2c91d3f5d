//! SHA-1 on the ARMv8 Cryptography Extension (`SHA1C`, `SHA1P`, `SHA1M`, `SHA1H`,
//! `SHA1SU0`, `SHA1SU1`), as `crate::sha1::Kernel::Simd` holds it.

use core::arch::aarch64::*;

use crate::cpu::Armv8Sha1Token;
use crate::wipe::{depth, stack};

/// A SIMD SHA-1 kernel with its token.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sha1 {
    /// The SHA-1 instructions.
    Ce(Armv8Sha1Token),
}

impl Sha1 {
    /// `crate::sha1::Kernel::burn` for these kernels: after a keyed compression, or
    /// (`one_shot`) below the one-shot HMAC's work function.
    #[inline(always)]
    pub(crate) fn burn(self, one_shot: bool) {
        match one_shot {
            false => stack::<{ depth([512, 512, 512, 512, 512, 4096]) }>(),
            true => stack::<{ depth([512, 512, 512, 512, 512, 4096]) }>(),
        }
    }

    /// The kernel for a run of `blocks` blocks: this one.
    #[inline(always)]
    pub(crate) fn for_run(self, blocks: usize) -> Sha1 {
        let _ = blocks;
        self
    }

    /// Two independent streams of equally many blocks: `false` (nothing done).
    #[inline]
    pub(crate) fn compress_pair(
        self,
        (a, blocks_a): (&mut [u32; 5], &[[u8; 64]]),
        (b, blocks_b): (&mut [u32; 5], &[[u8; 64]]),
    ) -> bool {
        let _ = (a, blocks_a, b, blocks_b);
        false
    }

    /// Compresses whole blocks into the state.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            Sha1::Ce(t) => compress(t, state, blocks),
        }
    }

    /// The digest or HMAC tag in one call: `None` (the caller's general path runs).
    #[inline(always)]
    pub(crate) fn one_call<const HMAC: bool>(
        self,
        inner: &mut [u32; 5],
        outer: &[u32; 5],
        prefix_len: u64,
        data: &[u8],
    ) -> Option<[u8; 20]> {
        let _ = (inner, outer, prefix_len, data);
        None
    }
}

/// Compresses `blocks` into `state`.
pub(crate) fn compress(t: Armv8Sha1Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has the SHA-1 instructions.
    unsafe { compress_ce(t, state, blocks) }
}

/// Four rounds of `$op` (`vsha1cq_u32`, `vsha1pq_u32` or `vsha1mq_u32`) on `abcd` with `e`
/// and the schedule words `wk` (`W + K`).
macro_rules! rounds4 {
    ($op:ident, $abcd:ident, $e:expr, $wk:expr) => {
        $abcd = $op($abcd, $e, $wk)
    };
}

/// The kernel entry of [`compress`]: a frame of its own, which the caller's wipe covers.
#[inline(never)]
#[target_feature(enable = "sha2")]
fn compress_ce(_t: Armv8Sha1Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];
    // SAFETY (the loads): each is 16 bytes within `state` or a block.
    let mut abcd = unsafe { vld1q_u32(state.as_ptr()) };
    let mut e0 = state[4];
    let k = [
        vdupq_n_u32(K[0]),
        vdupq_n_u32(K[1]),
        vdupq_n_u32(K[2]),
        vdupq_n_u32(K[3]),
    ];
    for b in blocks {
        let (abcd0, e_start) = (abcd, e0);
        // SAFETY: four 16-byte loads within the 64-byte block.
        let mut w: [uint32x4_t; 4] = unsafe {
            core::array::from_fn(|i| {
                vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(b.as_ptr().add(16 * i))))
            })
        };
        let mut e = e0;
        for g in 0..20 {
            let wk = vaddq_u32(w[g % 4], k[g / 5]);
            let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            match g / 5 {
                0 => rounds4!(vsha1cq_u32, abcd, e, wk),
                2 => rounds4!(vsha1mq_u32, abcd, e, wk),
                _ => rounds4!(vsha1pq_u32, abcd, e, wk),
            }
            e = e_next;
            if g < 16 {
                // W[g+4] from W[g], W[g+1], W[g+2], W[g+3].
                let next = vsha1su1q_u32(
                    vsha1su0q_u32(w[g % 4], w[(g + 1) % 4], w[(g + 2) % 4]),
                    w[(g + 3) % 4],
                );
                w[g % 4] = next;
            }
        }
        abcd = vaddq_u32(abcd, abcd0);
        e0 = e_start.wrapping_add(e);
        crate::wipe::blocks(&mut [[0u8; 16]]);
    }
    // SAFETY: 16 bytes within `state`.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e0;
}
