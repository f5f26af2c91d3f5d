//! What a unit-kernel call is, shared by this module and the kernels (a leaf of the
//! module: it imports no sibling): its keys and its paths.

use crate::block::KeySchedule;

/// The keys of a unit kernel call: Key1's schedule, and Key2's where the kernel encrypts
/// the one raw tweak itself. (Two pointers, passed in registers, as `InOut`.)
#[derive(Clone, Copy)]
pub(crate) struct UnitKeys<'a> {
    pub(crate) k1: &'a KeySchedule,
    pub(crate) k2: Option<&'a KeySchedule>,
}

/// The paths of the unit kernels (`kernel::units`), each compiled into an entry (and a
/// stack frame) of its own, so that the stack wiped after a call is only as deep as its
/// path needs: any number of units (with the fused multi-unit stream), one unit, or one
/// unit of at most a group (a 512-byte unit on zmm: the single-sector case). (Through the
/// multi-unit entry, a single unit would wipe that entry's deeper frame: docs/design.md.)
pub(crate) const MANY: u8 = 0;
pub(crate) const ONE: u8 = 1;
pub(crate) const SHORT: u8 = 2;
/// A single unit of one block (`kernel::one_block`).
#[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
pub(crate) const BLOCK: u8 = 3;
