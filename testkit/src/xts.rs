//! XTS tweak conventions spelled out independently of the library's `Tweaks`, for
//! `tests/xts_tweaks.rs` and `oracle/tests/xts_tweaks.rs`.

/// A tweak convention, spelled out independently of the library's `Tweaks`: the counter
/// of unit `i` is `first + i * step`, reduced modulo 2^`bits`, laid out little-endian or,
/// with `be`, big-endian. (The library's `Tweaks` of it is `c.tweaks()`, from
/// [`xts_helpers!`](crate::xts_helpers).)
#[derive(Clone, Copy, Debug)]
pub struct Conv {
    pub first: u128,
    pub step: u128,
    pub bits: u32,
    pub be: bool,
}

impl Conv {
    /// The raw tweak of unit `i`: the counter reduced modulo 2^bits by a remainder on a
    /// wide product (no shift-and-mask), then laid out byte by byte.
    pub fn tweak(&self, i: u128) -> [u8; 16] {
        // (first + i * step) mod 2^128, as two 64-bit halves with explicit carries.
        let mul = |a: u128, b: u128| -> u128 {
            let (a0, a1) = (a as u64 as u128, a >> 64);
            let (b0, b1) = (b as u64 as u128, b >> 64);
            let lo = a0 * b0;
            let mid = (a0 * b1).wrapping_add(a1 * b0);
            lo.wrapping_add(mid << 64)
        };
        let c = self.first.wrapping_add(mul(i, self.step));
        let c = match self.bits {
            32 => c % (1u128 << 32),
            64 => c % (1u128 << 64),
            _ => c,
        };
        let mut out = [0u8; 16];
        for (k, b) in out.iter_mut().enumerate() {
            let shift = if self.be { 8 * (15 - k) } else { 8 * k };
            *b = (c >> shift) as u8;
        }
        out
    }
}

/// The conventions under test: every width and byte order, steps of 1, 8, the sector
/// size, odd and huge, starts just before a wrap (so that one call crosses it) and at 0.
/// (A step that is 0 modulo 2^bits is refused: `tests/xts_tweaks.rs` checks that.)
pub fn conventions() -> Vec<Conv> {
    let mut v = Vec::new();
    for bits in [32u32, 64, 128] {
        let top = if bits == 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        for be in [false, true] {
            for step in [1u128, 8, 4096, 3, 0, u64::MAX as u128, u128::MAX, 1 << 64] {
                if step & top == 0 {
                    continue;
                }
                // Wraps after 2 units with step 1 (and sooner with larger steps).
                v.push(Conv {
                    first: top - 1,
                    step,
                    bits,
                    be,
                });
            }
            v.push(Conv {
                first: 0,
                step: 8,
                bits,
                be,
            });
            // A start above the width: reduced like the rest.
            v.push(Conv {
                first: (7u128 << 100) | 0x1234_5678_9abc_def0,
                step: 1,
                bits,
                be,
            });
        }
    }
    v
}

/// (sector size, count): counts that cross the 64-unit tweak batch, units that are and
/// are not whole kernel groups, with and without a partial block.
pub const SHAPES: [(usize, usize); 5] = [(16, 70), (17, 3), (512, 66), (520, 2), (4096, 3)];
