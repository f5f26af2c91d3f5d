//! Declassification: the few places where a value computed from secrets is public by
//! design (padding valid or not, a MAC tag matching or not, XTS key halves equal or not).
//!
//! Everything before the final answer is computed with masks, without branches. The
//! answer then passes through [`declassify`], the one function allowed to branch on a
//! secret-derived value. The valgrind secret-independence check (`examples/ct_check.rs`)
//! suppresses reports from this function by name and from nowhere else, so a secret
//! branch anywhere else still fails it.

/// Turns a secret-derived mask (0 or non-zero) into a public `bool`: `mask != 0`.
#[inline(never)]
pub(crate) fn declassify(mask: u32) -> bool {
    #[cfg(simdcrypt_x86_64)]
    {
        let out: u8;
        // SAFETY: pure register arithmetic and local jumps; no memory, no stack. The branch
        // is deliberate: it makes the result a constant that memcheck sees as defined.
        unsafe {
            core::arch::asm!(
                "test {m:e}, {m:e}",
                "jz 2f",
                "mov {o}, 1",
                "jmp 3f",
                "2:",
                "mov {o}, 0",
                "3:",
                m = in(reg) mask,
                o = out(reg_byte) out,
                options(pure, nomem, nostack),
            );
        }
        out != 0
    }
    #[cfg(not(simdcrypt_x86_64))]
    {
        core::hint::black_box(mask) != 0
    }
}

/// Turns a secret-derived value below 2^`BITS` into a public one, a bit at a time through
/// [`declassify`]: for a value the result reveals anyway, such as the length of a checked
/// padding (which the plaintext's length gives away).
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) fn declassify_bits<const BITS: u32>(v: u32) -> u32 {
    (0..BITS).fold(0, |acc, i| acc | (u32::from(declassify(v & (1 << i))) << i))
}

#[cfg(test)]
mod tests;

/// A `Copy` value stored without the niche its type has (an enum's unused discriminant
/// values), so that `Option` and `Result` of a keyed struct that holds one get a tag field
/// of their own and the value is built where it goes (docs/design.md, "Key setup and
/// constants").
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct NoNiche<T: Copy>(core::mem::MaybeUninit<T>);

impl<T: Copy> NoNiche<T> {
    #[inline(always)]
    pub(crate) const fn new(value: T) -> Self {
        NoNiche(core::mem::MaybeUninit::new(value))
    }

    #[inline(always)]
    pub(crate) fn get(self) -> T {
        // SAFETY: `new`, the only constructor, initialised it.
        unsafe { self.0.assume_init() }
    }
}
