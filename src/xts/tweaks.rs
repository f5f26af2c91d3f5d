//! How the tweak of each data unit of a multi-unit call is derived: a counter with a start,
//! a step, a width at which it wraps, and a byte order.
//!
//! ```text
//! counter_i = (first + i · step) mod 2^bits        bits ∈ {32, 64, 128}
//! tweak_i   = counter_i as 16 bytes, little-endian (default) or big-endian
//! ```
#![forbid(unsafe_code)]

use crate::Error;
use crate::aes::Block;

/// How the 16-byte tweak of data unit `i` of a multi-unit call is derived from `i`.
///
/// Unit `i` (counting from 0 at the start of the buffer) gets the counter
/// `(first + i · step) mod 2^bits`, written as a 128-bit number in little-endian byte order
/// (the default: IEEE 1619's data-unit sequence number, dm-crypt's `plain64`) or in
/// big-endian byte order ([`Tweaks::big_endian`]: dm-crypt's `plain64be`, whose 64-bit
/// counter so fills the last 8 bytes). `first` is reduced modulo `2^bits` as well, so
/// [`Tweaks::plain`] and a larger start behave as dm-crypt's `plain`, which takes the low
/// 32 bits of the sector number.
///
/// [`Tweaks::new`]`(first)` is [`Xts::encrypt_sectors`](crate::Xts::encrypt_sectors)'s own
/// convention (step 1, 128 bits, little-endian). A width other than 32, 64 or 128
/// ([`Error::InvalidWrapBits`]), a step that is 0 modulo 2^bits
/// ([`Error::ZeroTweakStep`]: every unit would get the same tweak) and a call of more
/// units than the step's period ([`Error::TweakStepRepeats`], see [`Tweaks::step`]) are
/// refused by the call that uses the value, which then writes nothing.
///
/// The counter wraps around at 2^bits, inside a call as across calls: dm-crypt's `plain`
/// wraps at 2^32 on disks of more than 2^32 sectors. A step with `z` trailing zero bits
/// (8 at 32 bits, say: `z` = 3) comes back to the first tweak after its period of
/// 2^(bits - z) units, as the format itself does across calls; inside one call no two
/// units get one tweak, so a call of more units than the period is refused.
///
/// The presets below are the disk formats' conventions (docs/guide.md, "XTS for disk
/// formats", cites each format's reference code); each example is the one line the format
/// needs, checked here against [`Xts::encrypt_with_tweak`](crate::Xts::encrypt_with_tweak)
/// on the tweak bytes the format writes.
///
/// **LUKS2 / dm-crypt, 512-byte sectors** (`aes-xts-plain64`: the sector number, 64-bit
/// little-endian, zero-padded). `s` is the sector number counted from the start of the
/// data segment (plus dm-crypt's `iv_offset`, 0 for LUKS):
///
/// ```
/// use simdcrypt::{Xts, xts::Tweaks};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let s = 2048u64;
/// let mut buf = vec![0u8; 4 * 512];
/// xts.encrypt_sectors_with(&mut buf, 512, Tweaks::plain64(s))?;
/// let mut third = vec![0u8; 512];
/// let mut iv = [0u8; 16];
/// iv[..8].copy_from_slice(&(s + 2).to_le_bytes());
/// xts.encrypt_with_tweak(&mut third, &iv)?;
/// assert_eq!(buf[2 * 512..3 * 512], third[..]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// **LUKS2 / dm-crypt, 4096-byte sectors** (`cryptsetup luksFormat --sector-size 4096`).
/// dm-crypt counts the IV in 512-byte units unless the target has `iv_large_sectors`,
/// which LUKS2 does not set, so the tweak goes up by 8 per sector. `s512` is the 512-byte
/// sector number of the first sector:
///
/// ```
/// use simdcrypt::{Xts, xts::Tweaks};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let s512 = 8 * 1000u64;
/// let mut buf = vec![0u8; 3 * 4096];
/// xts.encrypt_sectors_with(&mut buf, 4096, Tweaks::plain64(s512).step(8))?;
/// let mut second = vec![0u8; 4096];
/// let mut iv = [0u8; 16];
/// iv[..8].copy_from_slice(&(s512 + 8).to_le_bytes());
/// xts.encrypt_with_tweak(&mut second, &iv)?;
/// assert_eq!(buf[4096..2 * 4096], second[..]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// **dm-crypt with `iv_large_sectors`, 4096-byte sectors** (`cryptsetup open --type plain
/// --sector-size 4096 --iv-large-sectors`): the IV counts 4096-byte sectors, step 1.
/// `s4k` is the 4096-byte sector number:
///
/// ```
/// use simdcrypt::{Xts, xts::Tweaks};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let s4k = 1000u64;
/// let mut buf = vec![0u8; 3 * 4096];
/// xts.encrypt_sectors_with(&mut buf, 4096, Tweaks::plain64(s4k))?;
/// let mut second = vec![0u8; 4096];
/// xts.encrypt_with_tweak(&mut second, &u128::from(s4k + 1).to_le_bytes())?;
/// assert_eq!(buf[4096..2 * 4096], second[..]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// **FreeBSD GELI** (the byte offset, which goes up by the sector size per sector, as
/// 64-bit little-endian in the first 8 bytes). `offset` is the byte offset of the first
/// sector in the GELI provider. (GELI changes the data key every 2^20 sectors: a call must
/// not cross such a boundary.)
///
/// ```
/// use simdcrypt::{Xts, xts::Tweaks};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let (sector_size, offset) = (4096usize, 10 * 4096u64);
/// let mut buf = vec![0u8; 3 * sector_size];
/// xts.encrypt_sectors_with(&mut buf, sector_size, Tweaks::plain64(offset).step(4096))?;
/// let mut third = vec![0u8; sector_size];
/// let mut iv = [0u8; 16];
/// iv[..8].copy_from_slice(&(offset + 2 * 4096).to_le_bytes());
/// xts.encrypt_with_tweak(&mut third, &iv)?;
/// assert_eq!(buf[2 * sector_size..], third[..]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// **VeraCrypt** (512-byte data units numbered from the start of the volume, header area
/// included, as a 64-bit little-endian number, whatever the sector size). `offset` is the
/// byte offset of the data from the start of the volume (131072 for the first byte of a
/// standard volume's data area):
///
/// ```
/// use simdcrypt::{Xts, xts::Tweaks};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let offset = 131072u64;
/// let mut buf = vec![0u8; 4096]; // one 4096-byte device sector: eight data units
/// xts.encrypt_sectors_with(&mut buf, 512, Tweaks::plain64(offset / 512))?;
/// let mut last = vec![0u8; 512];
/// xts.encrypt_with_tweak(&mut last, &u128::from(offset / 512 + 7).to_le_bytes())?;
/// assert_eq!(buf[7 * 512..], last[..]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tweaks {
    first: u128,
    step: u128,
    bits: u32,
    big_endian: bool,
}

impl Tweaks {
    /// Unit `i` gets the 128-bit little-endian counter `first + i` (wrapping): the
    /// convention of [`Xts::encrypt_sectors`](crate::Xts::encrypt_sectors).
    #[must_use]
    pub const fn new(first: u128) -> Tweaks {
        Tweaks {
            first,
            step: 1,
            bits: 128,
            big_endian: false,
        }
    }

    /// dm-crypt `plain`: a 32-bit little-endian counter that wraps at 2^32
    /// (`crypt_iv_plain_gen`: the low 32 bits of the sector number).
    ///
    /// ```
    /// use simdcrypt::xts::Tweaks;
    /// let t = Tweaks::plain(u32::MAX);
    /// assert_eq!(t.tweak(0)?, u128::from(u32::MAX).to_le_bytes());
    /// assert_eq!(t.tweak(1)?, [0u8; 16]); // wrapped
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[must_use]
    pub const fn plain(first: u32) -> Tweaks {
        Tweaks::new(first as u128).wrap_bits(32)
    }

    /// dm-crypt `plain64` (LUKS's `aes-xts-plain64`, GELI, VeraCrypt): a 64-bit
    /// little-endian counter that wraps at 2^64.
    #[must_use]
    pub const fn plain64(first: u64) -> Tweaks {
        Tweaks::new(first as u128).wrap_bits(64)
    }

    /// dm-crypt `plain64be` (`crypt_iv_plain64be_gen`): the 64-bit counter big-endian in
    /// the last 8 bytes of the tweak, the first 8 zero.
    #[must_use]
    pub const fn plain64be(first: u64) -> Tweaks {
        Tweaks::plain64(first).big_endian()
    }

    /// The counter goes up by `step` per unit (wrapping at the width): 8 for dm-crypt's
    /// 4096-byte sectors counted in 512-byte units, the sector size for GELI's byte
    /// offsets. A step that is 0 modulo 2^bits would give every unit the same tweak: the
    /// call that uses the value refuses it ([`Error::ZeroTweakStep`]).
    ///
    /// A step with `z` trailing zero bits modulo 2^bits has a period of 2^(bits - z)
    /// units: unit `i` and unit `i + 2^(bits - z)` get one tweak. A call of more units than
    /// the period is refused ([`Error::TweakStepRepeats`]) and writes nothing; exactly the
    /// period is accepted. An odd step has the whole 2^bits as its period, which at 64 and
    /// 128 bits no buffer reaches.
    ///
    /// ```
    /// use simdcrypt::{Error, Xts, xts::Tweaks};
    /// assert_eq!(Tweaks::plain64(16).step(8).tweak(2)?, 32u128.to_le_bytes());
    /// let same = Tweaks::plain(5).step(1 << 32); // 0 modulo 2^32
    /// assert_eq!(same.tweak(1), Err(Error::ZeroTweakStep { bits: 32 }));
    /// // 2^31 at 32 bits: a period of 2 units (units 0 and 2 would share a tweak).
    /// let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat())?;
    /// let mut two = [5u8; 2 * 16];
    /// xts.encrypt_sectors_with(&mut two, 16, Tweaks::plain(0).step(1 << 31))?;
    /// let mut three = [5u8; 3 * 16];
    /// let err = xts.encrypt_sectors_with(&mut three, 16, Tweaks::plain(0).step(1 << 31));
    /// assert_eq!(err, Err(Error::TweakStepRepeats { bits: 32, period_bits: 1, units: 3 }));
    /// assert_eq!(three, [5u8; 3 * 16]); // untouched
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[must_use]
    pub const fn step(self, step: u128) -> Tweaks {
        Tweaks { step, ..self }
    }

    /// The counter is taken modulo `2^bits`: 32 (dm-crypt `plain`), 64 (`plain64`) or 128
    /// (the default). Another width is refused, with [`Error::InvalidWrapBits`], by the
    /// call that uses this value (and by [`Tweaks::tweak`]).
    ///
    /// ```
    /// use simdcrypt::{Error, Xts, xts::Tweaks};
    /// let t = Tweaks::new(u128::from(u64::MAX)).wrap_bits(64);
    /// assert_eq!(t.tweak(1)?, [0u8; 16]);
    /// let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat())?;
    /// let mut buf = [5u8; 64];
    /// let err = xts.encrypt_sectors_with(&mut buf, 32, Tweaks::new(0).wrap_bits(48));
    /// assert_eq!(err, Err(Error::InvalidWrapBits { bits: 48 }));
    /// assert_eq!(buf, [5u8; 64]); // untouched
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[must_use]
    pub const fn wrap_bits(self, bits: u32) -> Tweaks {
        Tweaks { bits, ..self }
    }

    /// The tweak block is the counter as a 128-bit big-endian number (so a 64-bit counter
    /// fills the last 8 bytes), instead of little-endian.
    #[must_use]
    pub const fn big_endian(self) -> Tweaks {
        Tweaks {
            big_endian: true,
            ..self
        }
    }

    /// The raw 16-byte tweak of unit `unit` (before its encryption with Key2), as given to
    /// [`Xts::encrypt_with_tweak`](crate::Xts::encrypt_with_tweak) for a single unit.
    /// `Err` for a width other than 32, 64 or 128, and for a step that is 0 modulo
    /// 2^bits.
    ///
    /// ```
    /// use simdcrypt::{Xts, xts::Tweaks};
    /// let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat())?;
    /// let t = Tweaks::plain64be(100).step(8);
    /// let mut all = vec![0u8; 3 * 4096];
    /// xts.encrypt_sectors_with(&mut all, 4096, t)?;
    /// let mut one = vec![0u8; 4096];
    /// xts.encrypt_with_tweak(&mut one, &t.tweak(2)?)?;
    /// assert_eq!(all[2 * 4096..], one[..]);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn tweak(&self, unit: u128) -> Result<[u8; 16], Error> {
        self.check()?;
        Ok(self.nth(unit))
    }

    /// `Err` unless the width is 32, 64 or 128 and the step is not 0 modulo 2^bits.
    pub(crate) fn check(&self) -> Result<(), Error> {
        match self.bits {
            32 | 64 | 128 if self.step & self.mask() == 0 => {
                Err(Error::ZeroTweakStep { bits: self.bits })
            }
            32 | 64 | 128 => Ok(()),
            bits => Err(Error::InvalidWrapBits { bits }),
        }
    }

    /// After [`Tweaks::check`]: `Err` ([`Error::TweakStepRepeats`]) if a call of `units`
    /// units would give two of them one tweak, i.e. if `units` is more than the step's
    /// period, 2^(bits - trailing zeros of the step modulo 2^bits).
    pub(crate) fn check_units(&self, units: usize) -> Result<(), Error> {
        let period_bits = self.bits - (self.step & self.mask()).trailing_zeros();
        if period_bits < 128 && units as u128 > 1u128 << period_bits {
            return Err(Error::TweakStepRepeats {
                bits: self.bits,
                period_bits,
                units,
            });
        }
        Ok(())
    }

    /// `2^bits - 1` (all ones for 128; an unchecked width gives a harmless mask).
    #[inline]
    fn mask(&self) -> u128 {
        u128::MAX
            .checked_shr(128u32.saturating_sub(self.bits))
            .unwrap_or(0)
    }

    /// The same derivation starting `units` units later.
    #[inline]
    pub(crate) fn advance(self, units: u128) -> Tweaks {
        Tweaks {
            first: self.first.wrapping_add(self.step.wrapping_mul(units)),
            ..self
        }
    }

    /// The raw tweak of unit `unit` (width already checked).
    #[inline]
    pub(crate) fn nth(&self, unit: u128) -> Block {
        let c = self.advance(unit).first & self.mask();
        if self.big_endian {
            c.to_be_bytes()
        } else {
            c.to_le_bytes()
        }
    }

    /// The raw tweaks of units `start..start + out.len()`: one add, one AND and one store
    /// per unit (the byte order is chosen once per call, not per unit).
    #[inline]
    pub(crate) fn fill(&self, start: usize, out: &mut [Block]) {
        let mask = self.mask();
        let step = self.step;
        let mut c = self.advance(start as u128).first;
        if self.big_endian {
            for t in out {
                *t = (c & mask).to_be_bytes();
                c = c.wrapping_add(step);
            }
        } else {
            for t in out {
                *t = (c & mask).to_le_bytes();
                c = c.wrapping_add(step);
            }
        }
    }
}

#[cfg(test)]
mod tests;
