//! The AES block, the key schedule's layout and where a kernel call reads and writes,
//! shared by the modes and the vector layer (a leaf: it imports nothing).

/// The 16-byte AES block.
pub type Block = [u8; 16];

/// Expanded AES round keys, backend-neutral: expanded by `crate::aes` (`KeySchedule::init`),
/// zeroized on drop there. 16-byte aligned wherever the value lies (its size a multiple of
/// 16 too, so the second of two in one struct is as well): a round key that straddles a
/// cache line costs every kernel a split load per use, and the compiler may place it at any
/// offset of a struct that holds it (docs/design.md, "Key setup and constants").
#[derive(Clone)]
#[repr(align(16))]
pub(crate) struct KeySchedule {
    /// 10, 12 or 14.
    pub(crate) rounds: usize,
    /// Encryption round keys `0..=rounds`.
    pub(crate) enc: [Block; 15],
    /// Equivalent-inverse-cipher round keys: `dec[0] = enc[rounds]`,
    /// `dec[i] = InvMixColumns(enc[rounds - i])` for `0 < i < rounds`, `dec[rounds] = enc[0]`.
    pub(crate) dec: [Block; 15],
}

impl KeySchedule {
    /// No key yet (`rounds` 0): what `KeySchedule::init` fills in place.
    pub(crate) const EMPTY: KeySchedule = KeySchedule {
        rounds: 0,
        enc: [[0; 16]; 15],
        dec: [[0; 16]; 15],
    };
}

/// Where a kernel call reads and writes: the same bytes, or disjoint ranges. (Two pointers,
/// passed in registers.)
#[derive(Clone, Copy)]
pub(crate) struct InOut {
    pub(crate) src: *const u8,
    pub(crate) dst: *mut u8,
}

/// Multiplies an XTS tweak by x in GF(2^128) (little-endian bit order), in constant time.
#[inline]
pub(crate) fn mul_x(t: u128) -> u128 {
    (t << 1) ^ (0u128.wrapping_sub(t >> 127) & 0x87)
}
