//! XTS-AES (IEEE 1619-2018, NIST SP 800-38E): the tweakable block-cipher mode of disk
//! sectors, with ciphertext stealing for data units that are not a multiple of 16 bytes.
//!
//! ```text
//! key = Key1 ‖ Key2 (two AES-128 or two AES-256 keys; Key1 != Key2)
//! T_0 = AES-Enc(Key2, tweak)            tweak = sector number, 16 bytes little-endian
//! T_j = T_{j-1} · x  in GF(2^128) mod x^128 + x^7 + x^2 + x + 1 (little-endian bits)
//! C_j = AES-Enc(Key1, P_j ⊕ T_j) ⊕ T_j   for every full block j
//! last partial block (ciphertext stealing, m = full blocks, r = trailing bytes):
//!     CC = AES-Enc(Key1, P_{m-1} ⊕ T_{m-1}) ⊕ T_{m-1}
//!     C_m = CC[..r];  C_{m-1} = AES-Enc(Key1, (P_m ‖ CC[r..]) ⊕ T_m) ⊕ T_m
//! decryption: the same with AES-Dec(Key1, ·), and for a partial tail the last two tweaks
//! used in swapped order (T_m first, then T_{m-1}).
//! ```
//!
//! The tweaks of a multi-unit call follow [`Tweaks`]: the sector number `first + i` by
//! default, or a disk format's convention (dm-crypt `plain`/`plain64`/`plain64be` and
//! 4096-byte sectors counted in 512-byte units, GELI byte offsets, VeraCrypt data units).
//!
//! ```
//! use simdcrypt::xts::{MIN_UNIT, Xts};
//! let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat())?;
//! let mut unit = [0u8; MIN_UNIT + 5]; // ciphertext stealing for the last 5 bytes
//! xts.encrypt_sector(&mut unit, 0)?;
//! xts.decrypt_sector(&mut unit, 0)?;
//! assert_eq!(unit, [0u8; MIN_UNIT + 5]);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use core::fmt;

use crate::Backend;
use crate::Error;
use crate::aes::Width;
use crate::aes::{Block, KeySchedule};
use crate::dispatch;
use crate::tuning::FreshTweaks;

pub(crate) mod kernel;
pub(crate) mod soft;
mod tweaks;

pub use tweaks::Tweaks;

/// The longest data unit IEEE 1619 allows: 2^20 blocks.
pub const MAX_UNIT: usize = 1 << 24;
/// The shortest data unit: one block.
pub const MIN_UNIT: usize = 16;

/// How many sectors' tweaks are encrypted per tweak-kernel call (`kernel::EncryptTweaks`).
const TWEAK_BATCH: usize = 64;
/// The tweak batch of calls with at most this many sectors.
const SMALL_BATCH: usize = 8;

/// An XTS kernel with the token that proves the CPU runs it: a row of the dispatch table
/// (`crate::dispatch::XTS`) makes one. The intrinsics kernels are the AES width handle
/// ([`Width`], as ECB, CBC and the stitched kernel hold it), which runs this module's
/// jobs ([`kernel`]) on its width; the assembly twin is the one XTS-only kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) enum XtsKernel {
    Aes(Width),
    #[cfg(all(simdcrypt_asm, feature = "xts"))]
    Asm(crate::arch::XtsAsm),
}

impl XtsKernel {
    /// The AES width handle of its AES work besides the units: the key expansion, and a
    /// multi-unit call's tweaks.
    fn aes(self) -> Width {
        match self {
            XtsKernel::Aes(k) => k,
            #[cfg(all(simdcrypt_asm, feature = "xts"))]
            XtsKernel::Asm(a) => a.aes(),
        }
    }
}

/// A call's data-unit length: its whole buffer, or the `sector_size` argument.
#[derive(Clone, Copy)]
enum Unit {
    /// One data unit, the whole buffer (`encrypt_sector`, `encrypt_with_tweak`, ...).
    Whole,
    /// Consecutive units of the size given (`encrypt_sectors`, ...).
    Sectors(usize),
}

/// Where a call's tweaks come from.
#[derive(Clone, Copy)]
enum Tweak<'a> {
    /// Sector numbers rising by one from `lo + 2^64 hi` (little-endian, IEEE 1619:
    /// `Tweaks::new`), as two halves (docs/design.md, "XTS kernel shape").
    Sector(u64, u64),
    /// A counter per data unit ([`Tweaks`], width already checked).
    Seq(Tweaks),
    /// One raw 16-byte tweak (single data unit).
    Raw(&'a Block),
}

/// The public methods come in pairs that differ only in the direction: each pair is
/// written once, its docs first, then its arguments and either `run(..)` (the call's
/// source, destination, unit and tweak: checked, then [`Xts::crypt_units`] with the tweak
/// batch that fits the sector count) or the method both make, with `false` (encrypt) or
/// `true` (decrypt) as the call's `DEC`.
macro_rules! directions {
    (@call $s:ident, $dec:literal, run($src:expr, $dst:expr, $unit:expr, $tweak:expr)) => {{
        let (src, dst, tweak): (Option<&[u8]>, &mut [u8], Tweak<'_>) = ($src, $dst, $tweak);
        let (unit, sectors) = Self::check::<$dec>($s.decrypt_only, src, dst, $unit, &tweak)?;
        if sectors <= SMALL_BATCH {
            $s.crypt_units::<$dec, SMALL_BATCH>(src, dst, unit, sectors, &tweak);
        } else {
            $s.crypt_units::<$dec, TWEAK_BATCH>(src, dst, unit, sectors, &tweak);
        }
        Ok(())
    }};
    (@call $s:ident, $dec:literal, $f:ident($($call:tt)*)) => {
        $s.$f::<$dec>($($call)*)
    };
    ($(
        $(#[$e:meta])* $enc:ident,
        $(#[$d:meta])* $dec:ident,
        ($($arg:ident: $ty:ty),*) $f:ident($($call:tt)*);
    )*) => {$(
        $(#[$e])*
        pub fn $enc(&self, $($arg: $ty),*) -> Result<(), Error> {
            directions!(@call self, false, $f($($call)*))
        }

        $(#[$d])*
        pub fn $dec(&self, $($arg: $ty),*) -> Result<(), Error> {
            directions!(@call self, true, $f($($call)*))
        }
    )*};
}

/// XTS-AES-128 or XTS-AES-256, keyed, on one backend.
///
/// Every `decrypt_*` method is the inverse of its `encrypt_*` twin: the same arguments,
/// the same errors (but [`Error::XtsDuplicateKeyHalves`], which only encryption returns),
/// nothing written on `Err`. Both AES key schedules are zeroized on drop; `Debug` prints
/// no key material.
///
/// ```
/// use simdcrypt::Xts;
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let mut disk = vec![0u8; 8 * 512];
/// xts.encrypt_sectors(&mut disk, 512, 1000)?;
/// let mut one = vec![0u8; 512];
/// xts.encrypt_sector(&mut one, 1003)?;
/// assert_eq!(&disk[3 * 512..4 * 512], &one[..]);
/// xts.decrypt_sectors(&mut disk, 512, 1000)?;
/// assert!(disk.iter().all(|&b| b == 0));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Xts {
    k1: KeySchedule,
    k2: KeySchedule,
    kernel: XtsKernel,
    /// How multi-unit calls make a unit's first tweaks (per CPU: [`crate::tuning`]).
    fresh: FreshTweaks,
    backend: Backend,
    /// Keyed by [`Xts::new_allow_equal_halves`] with Key1 == Key2: decryption only.
    decrypt_only: bool,
}

impl Xts {
    /// Keys XTS-AES-128 (32-byte key) or XTS-AES-256 (64-byte key), `Key1 ‖ Key2`, on the
    /// automatic backend. `Err` for another length or for equal halves.
    ///
    /// ```
    /// use simdcrypt::{Error, Xts};
    /// assert_eq!(Xts::new(&[[1u8; 16], [2u8; 16]].concat())?.key_len(), 32);
    /// assert_eq!(Xts::new(&[5u8; 64]).unwrap_err(), Error::XtsDuplicateKeyHalves);
    /// assert!(matches!(Xts::new(&[1u8; 48]), Err(Error::InvalidKeyLength { len: 48, .. })));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn new(key: &[u8]) -> Result<Xts, Error> {
        Xts::build(key, crate::dispatch::XTS.auto_kernel(), false)
    }

    /// As [`Xts::new`], on the backend given; `Err` if this CPU cannot run it.
    ///
    /// ```
    /// use simdcrypt::{Backend, Error, Xts};
    /// let key = [[1u8; 32], [2u8; 32]].concat();
    /// let mut want = [6u8; 100];
    /// Xts::with_backend(&key, Backend::Portable)?.encrypt_sector(&mut want, 9)?;
    /// for b in Xts::available_backends() {
    ///     let mut buf = [6u8; 100];
    ///     Xts::with_backend(&key, b)?.encrypt_sector(&mut buf, 9)?;
    ///     assert_eq!(buf, want);
    /// }
    /// let not_xts = Xts::with_backend(&key, Backend::Avx2);
    /// assert!(matches!(not_xts, Err(Error::BackendNotForAlgorithm { .. })));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Xts, Error> {
        Xts::build(key, crate::dispatch::XTS.select(backend)?, false)
    }

    /// As [`Xts::new`], but a key whose two halves are equal is accepted, for reading data
    /// written by software that did not check (IEEE 1619 vector 1 is such a key).
    ///
    /// IEEE 1619-2018 and NIST SP 800-38E require Key1 != Key2 (with equal halves the mask
    /// of each unit is the encryption of its tweak under the data key itself, so the two
    /// AES uses are not independent). So an `Xts` keyed with equal halves **decrypts
    /// only**: every encryption call on it returns
    /// [`Error::XtsDuplicateKeyHalves`] and leaves the buffers untouched, as OpenSSL
    /// outside FIPS mode refuses such a key for encryption only. With distinct halves the
    /// result is the same as [`Xts::new`]'s, encryption included. See
    /// [`Xts::decrypt_only`].
    ///
    /// ```
    /// use hex_literal::hex;
    /// use simdcrypt::{Error, Xts};
    /// // IEEE 1619 annex B, vector 1: Key1 = Key2 = 0, tweak 0, 32 zero bytes.
    /// let xts = Xts::new_allow_equal_halves(&[0u8; 32])?;
    /// assert!(xts.decrypt_only());
    /// let mut buf = hex!("917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e");
    /// xts.decrypt_sector(&mut buf, 0)?;
    /// assert_eq!(buf, [0u8; 32]);
    /// // Encryption is refused, the buffer untouched.
    /// assert_eq!(xts.encrypt_sector(&mut buf, 0), Err(Error::XtsDuplicateKeyHalves));
    /// assert_eq!(buf, [0u8; 32]);
    /// // Distinct halves: an ordinary Xts.
    /// assert!(!Xts::new_allow_equal_halves(&[[1u8; 16], [2u8; 16]].concat())?.decrypt_only());
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn new_allow_equal_halves(key: &[u8]) -> Result<Xts, Error> {
        Xts::build(key, crate::dispatch::XTS.auto_kernel(), true)
    }

    /// As [`Xts::new_allow_equal_halves`], on the backend given; `Err` if this CPU cannot
    /// run it.
    #[inline(always)]
    pub fn with_backend_allow_equal_halves(key: &[u8], backend: Backend) -> Result<Xts, Error> {
        Xts::build(key, crate::dispatch::XTS.select(backend)?, true)
    }

    /// Whether this `Xts` refuses to encrypt: keyed by [`Xts::new_allow_equal_halves`] with
    /// equal halves.
    #[must_use]
    pub fn decrypt_only(&self) -> bool {
        self.decrypt_only
    }

    #[inline(always)]
    fn build(
        key: &[u8],
        (kernel, backend): (XtsKernel, Backend),
        allow_equal: bool,
    ) -> Result<Xts, Error> {
        if key.len() != 32 && key.len() != 64 {
            return Err(Error::InvalidKeyLength {
                len: key.len(),
                expected: "32 or 64 bytes",
            });
        }
        let (a, b) = key.split_at(key.len() / 2);
        // Constant time: every byte is compared whatever the earlier ones were.
        let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
        // Whether the halves are equal is public (the key is refused); `declassify` is the
        // one place allowed to branch on it.
        let equal = !crate::ct::declassify(u32::from(diff));
        if equal && !allow_equal {
            return Err(Error::XtsDuplicateKeyHalves);
        }
        let rounds = KeySchedule::rounds_for(a)?;
        let mut xts = core::mem::MaybeUninit::uninit();
        Xts::key_into(&mut xts, a, b, rounds, kernel, backend, equal);
        crate::aes::wipe_keying(kernel.aes(), true);
        // SAFETY: `key_into` wrote every field.
        Ok(unsafe { xts.assume_init() })
    }

    /// Keys `out` with `Key1 = a`, `Key2 = b` on `kernel`, the schedules expanded where
    /// they stay (no copy of the round keys in this frame); the caller wipes the
    /// expansion's frames after (`crate::aes::wipe_keying`).
    #[inline(never)]
    fn key_into(
        out: &mut core::mem::MaybeUninit<Xts>,
        a: &[u8],
        b: &[u8],
        rounds: usize,
        kernel: XtsKernel,
        backend: Backend,
        decrypt_only: bool,
    ) {
        let aes = kernel.aes();
        let p = out.as_mut_ptr();
        // SAFETY: `p` is `out`'s, valid for writes; each field is written once (the
        // schedules whole, by `init`), so all of `out` is initialised after.
        unsafe {
            core::ptr::addr_of_mut!((*p).kernel).write(kernel);
            core::ptr::addr_of_mut!((*p).fresh).write(crate::tuning::tuning().fresh_tweaks);
            core::ptr::addr_of_mut!((*p).backend).write(backend);
            core::ptr::addr_of_mut!((*p).decrypt_only).write(decrypt_only);
            KeySchedule::init(core::ptr::addr_of_mut!((*p).k1), a, rounds, aes);
            KeySchedule::init(core::ptr::addr_of_mut!((*p).k2), b, rounds, aes);
        }
    }

    dispatch::backend_methods! {
        crate::dispatch::XTS;
        /// The backends this CPU runs for XTS, best first.
        available;
        /// The backend this instance runs on.
        backend = backend;
        /// Every backend that XTS has, available here or not, best first.
        implemented;
    }

    /// The whole key's length in bytes (32 or 64).
    #[must_use]
    pub fn key_len(&self) -> usize {
        (self.k1.rounds - 6) * 8
    }

    directions! {
        /// Encrypts one data unit (16 to 2^24 bytes) in place; the tweak is `sector` as 16
        /// bytes little-endian (IEEE 1619, Linux `plain64`).
        ///
        /// ```
        /// use hex_literal::hex;
        /// // IEEE 1619 annex B, vector 2 (XTS-AES-128).
        /// let xts = simdcrypt::Xts::new(&[[0x11u8; 16], [0x22u8; 16]].concat())?;
        /// let mut buf = [0x44u8; 32];
        /// xts.encrypt_sector(&mut buf, 0x33_3333_3333)?;
        /// let ct = hex!("c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0");
        /// assert_eq!(buf, ct);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        encrypt_sector,
        /// Decrypts one data unit in place (see [`Xts::encrypt_sector`]).
        decrypt_sector,
        (buf: &mut [u8], sector: u128) run(None, buf, Unit::Whole, Tweak::Sector(sector as u64, (sector >> 64) as u64));

        /// Encrypts one data unit from `src` into `dst` (equal lengths); `src` is not touched.
        #[inline]
        encrypt_sector_to,
        /// Decrypts one data unit from `src` into `dst` (see [`Xts::encrypt_sector_to`]).
        #[inline]
        decrypt_sector_to,
        (src: &[u8], dst: &mut [u8], sector: u128) run(Some(src), dst, Unit::Whole, Tweak::Sector(sector as u64, (sector >> 64) as u64));

        /// Encrypts one data unit in place under a raw 16-byte tweak.
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        /// xts.encrypt_with_tweak(&mut a, &77u128.to_le_bytes())?;
        /// xts.encrypt_sector(&mut b, 77)?; // a sector number is its little-endian tweak
        /// assert_eq!(a, b);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        encrypt_with_tweak,
        /// Decrypts one data unit in place under a raw 16-byte tweak (see
        /// [`Xts::encrypt_with_tweak`]).
        decrypt_with_tweak,
        (buf: &mut [u8], tweak: &[u8; 16]) run(None, buf, Unit::Whole, Tweak::Raw(tweak));

        /// Encrypts `buf.len() / sector_size` consecutive data units in place, the first with
        /// sector number `first_sector`, the next with `first_sector + 1` (wrapping), and so on:
        /// [`Xts::encrypt_sectors_with`] with [`Tweaks::new`]`(first_sector)`.
        ///
        /// `Err` (and `buf` untouched) unless `16 <= sector_size <= 2^24` and `buf` is a whole
        /// number of sectors. An empty `buf` is zero sectors.
        ///
        /// ```
        /// use simdcrypt::{Error, Xts};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut disk = vec![0u8; 4 * 512];
        /// xts.encrypt_sectors(&mut disk, 512, 10)?;
        /// let mut third = [0u8; 512];
        /// xts.encrypt_sector(&mut third, 12)?;
        /// assert_eq!(disk[1024..1536], third);
        /// let mut ragged = vec![0u8; 1000];
        /// let err = xts.encrypt_sectors(&mut ragged, 512, 0);
        /// assert_eq!(err, Err(Error::NotWholeSectors { len: 1000, sector_size: 512 }));
        /// assert!(ragged.iter().all(|&b| b == 0)); // untouched
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        encrypt_sectors,
        /// Decrypts consecutive data units in place (see [`Xts::encrypt_sectors`]).
        #[inline]
        decrypt_sectors,
        (buf: &mut [u8], sector_size: usize, first_sector: u128) run(None, buf, Unit::Sectors(sector_size), Tweak::Sector(first_sector as u64, (first_sector >> 64) as u64));

        /// Encrypts consecutive data units from `src` into `dst` (equal lengths), as
        /// [`Xts::encrypt_sectors`] does in place.
        #[inline]
        encrypt_sectors_to,
        /// Decrypts consecutive data units from `src` into `dst` (see
        /// [`Xts::encrypt_sectors_to`]).
        #[inline]
        decrypt_sectors_to,
        (src: &[u8], dst: &mut [u8], sector_size: usize, first_sector: u128) run(Some(src), dst, Unit::Sectors(sector_size), Tweak::Sector(first_sector as u64, (first_sector >> 64) as u64));

        /// Encrypts `buf.len() / sector_size` consecutive data units in place, unit `i` under
        /// the tweak `tweaks` gives it: the disk formats' conventions (dm-crypt `plain`,
        /// `plain64`, `plain64be` and 4096-byte sectors counted in 512-byte units, GELI's byte
        /// offsets, VeraCrypt's 512-byte data units; see [`Tweaks`]) in one pipelined call,
        /// as fast as [`Xts::encrypt_sectors`], which is this with [`Tweaks::new`].
        ///
        /// `Err` (and `buf` untouched) as [`Xts::encrypt_sectors`], for a tweak width that
        /// is not 32, 64 or 128 ([`Error::InvalidWrapBits`]), and for a step that is 0
        /// modulo 2^width ([`Error::ZeroTweakStep`]).
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// // dm-crypt `plain`: a 32-bit counter that wraps in the middle of this call.
        /// let mut disk = vec![0u8; 4 * 512];
        /// xts.encrypt_sectors_with(&mut disk, 512, Tweaks::plain(u32::MAX - 1))?;
        /// let mut fourth = [0u8; 512];
        /// xts.encrypt_sector(&mut fourth, 1)?; // u32::MAX - 1 + 3 wraps to 1
        /// assert_eq!(disk[3 * 512..], fourth);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        encrypt_sectors_with,
        /// Decrypts consecutive data units in place (see [`Xts::encrypt_sectors_with`]).
        decrypt_sectors_with,
        (buf: &mut [u8], sector_size: usize, tweaks: Tweaks) run(None, buf, Unit::Sectors(sector_size), Tweak::Seq(tweaks));

        /// Encrypts consecutive data units from `src` into `dst` (equal lengths; see
        /// [`Xts::encrypt_sectors_with`]).
        encrypt_sectors_with_to,
        /// Decrypts consecutive data units from `src` into `dst` (equal lengths; see
        /// [`Xts::encrypt_sectors_with`]).
        decrypt_sectors_with_to,
        (src: &[u8], dst: &mut [u8], sector_size: usize, tweaks: Tweaks) run(Some(src), dst, Unit::Sectors(sector_size), Tweak::Seq(tweaks));

        /// Encrypts an area in place: consecutive data units of `sector_size` bytes, unit `i`
        /// under `tweaks`' tweak `i`, of which the last may be shorter (at least 16 bytes,
        /// ciphertext stealing for a partial block), as RustCrypto `xts-mode`'s `encrypt_area`
        /// does with `get_tweak_default`. An empty area is nothing to do.
        ///
        /// `Err` (and `buf` untouched) unless `16 <= sector_size <= 2^24` and the short last
        /// unit, if any, has at least 16 bytes ([`Error::DataTooShort`] with its length), or
        /// for a tweak width that is not 32, 64 or 128.
        ///
        /// ```
        /// use simdcrypt::{Error, Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut area = vec![0u8; 2 * 512 + 100]; // two sectors and 100 bytes
        /// xts.encrypt_area(&mut area, 512, Tweaks::new(40))?;
        /// let mut last = [0u8; 100];
        /// xts.encrypt_sector(&mut last, 42)?;
        /// assert_eq!(area[1024..], last);
        /// let mut ragged = vec![0u8; 512 + 10];
        /// let err = xts.encrypt_area(&mut ragged, 512, Tweaks::new(0));
        /// assert_eq!(err, Err(Error::DataTooShort { len: 10, min: 16 }));
        /// assert!(ragged.iter().all(|&b| b == 0)); // untouched
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        encrypt_area,
        /// Decrypts an area in place (see [`Xts::encrypt_area`]).
        decrypt_area,
        (buf: &mut [u8], sector_size: usize, tweaks: Tweaks) area(buf, sector_size, tweaks);
    }

    /// Checks a call's arguments; nothing is written before this returns `Ok`. The unit
    /// length is `dst`'s for a one-unit call, `sector_size` for a multi-sector one; each
    /// form reports its own argument.
    fn validate(src: Option<&[u8]>, dst: &[u8], unit: Unit) -> Result<(usize, usize), Error> {
        if let Some(s) = src
            && s.len() != dst.len()
        {
            return Err(Error::LengthMismatch {
                what: "src and dst lengths",
                left: s.len(),
                right: dst.len(),
            });
        }
        match unit {
            Unit::Whole => {
                let len = dst.len();
                if len < MIN_UNIT {
                    return Err(Error::DataUnitTooShort { len, min: MIN_UNIT });
                }
                if len > MAX_UNIT {
                    return Err(Error::DataUnitTooLong { len, max: MAX_UNIT });
                }
                Ok((len, 1))
            }
            Unit::Sectors(sector_size) => {
                if !(MIN_UNIT..=MAX_UNIT).contains(&sector_size) {
                    return Err(Error::InvalidSectorSize {
                        sector_size,
                        min: MIN_UNIT,
                        max: MAX_UNIT,
                    });
                }
                if !dst.len().is_multiple_of(sector_size) {
                    return Err(Error::NotWholeSectors {
                        len: dst.len(),
                        sector_size,
                    });
                }
                Ok((sector_size, dst.len() / sector_size))
            }
        }
    }

    /// `Err` for an encryption on a decrypt-only `Xts` ([`Xts::new_allow_equal_halves`])
    /// or a tweak counter that [`Tweaks`] refuses, then for the lengths
    /// ([`Xts::validate`]), then for more units than the tweak step's period
    /// ([`Error::TweakStepRepeats`]); nothing is written. Returns the unit length and the number of
    /// units (one division, here, for the whole call).
    #[inline(always)]
    fn check<const DEC: bool>(
        decrypt_only: bool,
        src: Option<&[u8]>,
        dst: &[u8],
        unit: Unit,
        tweak: &Tweak<'_>,
    ) -> Result<(usize, usize), Error> {
        if !DEC && decrypt_only {
            return Err(Error::XtsDuplicateKeyHalves);
        }
        if let Tweak::Seq(t) = tweak {
            t.check()?;
        }
        let (len, units) = Self::validate(src, dst, unit)?;
        if let Tweak::Seq(t) = tweak {
            t.check_units(units)?;
        }
        Ok((len, units))
    }

    /// `encrypt_area` / `decrypt_area`: whole units, then a shorter last one.
    fn area<const DEC: bool>(
        &self,
        buf: &mut [u8],
        sector_size: usize,
        tweaks: Tweaks,
    ) -> Result<(), Error> {
        let tweak = Tweak::Seq(tweaks);
        let whole = if sector_size == 0 {
            0
        } else {
            buf.len() - buf.len() % sector_size
        };
        let unit = Unit::Sectors(sector_size);
        Self::check::<DEC>(self.decrypt_only, None, &buf[..whole], unit, &tweak)?;
        let rest = buf.len() - whole;
        if rest != 0 && rest < MIN_UNIT {
            return Err(Error::DataTooShort {
                len: rest,
                min: MIN_UNIT,
            });
        }
        if rest != 0 {
            // The shorter last unit takes the next tweak: one unit more for the period.
            tweaks.check_units(whole / sector_size + 1)?;
        }
        let (head, tail) = buf.split_at_mut(whole);
        self.run_any::<DEC>(None, head, sector_size, &tweak);
        if rest != 0 {
            // `rest < sector_size <= MAX_UNIT` and `rest >= MIN_UNIT`: a valid unit.
            let t = tweaks.nth((whole / sector_size) as u128);
            self.crypt_units::<DEC, SMALL_BATCH>(None, tail, rest, 1, &Tweak::Raw(&t));
        }
        Ok(())
    }

    /// [`Xts::crypt_units`] with the tweak batch that fits the sector count.
    fn run_any<const DEC: bool>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: usize,
        tweak: &Tweak<'_>,
    ) {
        let sectors = dst.len() / unit;
        if sectors <= SMALL_BATCH {
            self.crypt_units::<DEC, SMALL_BATCH>(src, dst, unit, sectors, tweak);
        } else {
            self.crypt_units::<DEC, TWEAK_BATCH>(src, dst, unit, sectors, tweak);
        }
    }

    /// The work, after [`Xts::check`]: `dst.len()` is a whole number of `unit`s, `unit` is
    /// in range, `src` (if any) has `dst`'s length. One unit runs with no batch array, its
    /// tweak encrypted in the kernel; more run in batches of `B` units: their tweaks
    /// encrypted with Key2 in one call into a local array, then the units.
    fn crypt_units<const DEC: bool, const B: usize>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: usize,
        sectors: usize,
        tweak: &Tweak<'_>,
    ) {
        debug_assert_eq!(sectors * unit, dst.len());
        let (k1, k2) = (&self.k1, &self.k2);
        if sectors == 1 {
            let mut t = match *tweak {
                Tweak::Sector(lo, hi) => (u128::from(hi) << 64 | u128::from(lo)).to_le_bytes(),
                Tweak::Seq(ref t) => t.nth(0),
                Tweak::Raw(t) => *t,
            };
            // SAFETY (each arm): one unit of `unit == dst.len()` bytes, in range (checked);
            // `src` (if any) has its length; both keys have one round count.
            match self.kernel {
                #[cfg(all(simdcrypt_asm, feature = "xts"))]
                XtsKernel::Asm(a) if unit != MIN_UNIT => {
                    unsafe { a.unit::<DEC>(k1, k2, &t, src, dst) };
                    a.wipe();
                }
                // (A unit of one block runs as two serial blocks on every kernel.)
                k => {
                    let one = unsafe { kernel::One::<DEC>::new(k1, k2, &t, src, dst) };
                    if unit == MIN_UNIT {
                        k.aes().run_job(kernel::OneBlock(one));
                    } else {
                        k.aes().run_job(one);
                    }
                }
            }
            wipe(core::slice::from_mut(&mut t));
            return;
        }
        let seq = match *tweak {
            Tweak::Sector(lo, hi) => Tweaks::new(u128::from(hi) << 64 | u128::from(lo)),
            Tweak::Seq(t) => t,
            // (One unit only: the tweak itself, below.)
            Tweak::Raw(_) => Tweaks::new(0),
        };
        let mut tw = [[0u8; 16]; B];
        let (mut done, mut used) = (0, 0);
        while done < sectors {
            let n = (sectors - done).min(B);
            match *tweak {
                Tweak::Raw(t) => tw[0] = *t,
                _ => seq.fill(done, &mut tw[..n]),
            }
            let range = done * unit..(done + n) * unit;
            let (s, d) = (src.map(|s| &s[range.clone()]), &mut dst[range]);
            let tweaks = &mut tw[..n];
            // SAFETY (each arm): `n` units of `unit` bytes, in range; `s` (if any) has `d`'s
            // length.
            match self.kernel {
                XtsKernel::Aes(k) => {
                    k.run_job(kernel::EncryptTweaks(k2, tweaks));
                    let fresh = self.fresh;
                    k.run_job(unsafe { kernel::Units::<DEC>::new(k1, tweaks, s, d, unit, fresh) });
                }
                #[cfg(all(simdcrypt_asm, feature = "xts"))]
                XtsKernel::Asm(a) => {
                    a.aes().run_job(kernel::EncryptTweaks(k2, tweaks));
                    unsafe { a.units::<DEC>(k1, tweaks, s, d, unit) };
                    a.wipe();
                }
            }
            done += n;
            used = used.max(n);
        }
        wipe(&mut tw[..used]);
    }
}

#[cfg(feature = "rayon")]
impl Xts {
    /// Below this many bytes a parallel call stays on the calling thread: waking a pool
    /// thread from outside the pool takes tens of microseconds, as long as one thread
    /// takes for hundreds of KiB (docs/design.md, "Key setup and constants").
    pub const PAR_THRESHOLD: usize = 1 << 20;

    directions! {
        /// [`Xts::encrypt_sectors`] spread over rayon's threads at sector boundaries; on the
        /// calling thread below [`Xts::PAR_THRESHOLD`] bytes. Same result, same errors.
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut disk = vec![0u8; 2 * Xts::PAR_THRESHOLD];
        /// let mut serial = disk.clone();
        /// xts.par_encrypt_sectors(&mut disk, 4096, 100)?;
        /// xts.encrypt_sectors(&mut serial, 4096, 100)?;
        /// assert!(disk == serial);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        par_encrypt_sectors,
        /// [`Xts::decrypt_sectors`] spread over rayon's threads (see
        /// [`Xts::par_encrypt_sectors`]).
        par_decrypt_sectors,
        (buf: &mut [u8], sector_size: usize, first_sector: u128) par_run(buf, sector_size, Tweaks::new(first_sector));

        /// [`Xts::encrypt_sectors_with`] spread over rayon's threads (see
        /// [`Xts::par_encrypt_sectors`]). Same result, same errors.
        par_encrypt_sectors_with,
        /// [`Xts::decrypt_sectors_with`] spread over rayon's threads (see
        /// [`Xts::par_encrypt_sectors`]).
        par_decrypt_sectors_with,
        (buf: &mut [u8], sector_size: usize, tweaks: Tweaks) par_run(buf, sector_size, tweaks);
    }

    fn par_run<const DEC: bool>(
        &self,
        buf: &mut [u8],
        sector_size: usize,
        tweaks: Tweaks,
    ) -> Result<(), Error> {
        use rayon::prelude::*;

        let unit = Unit::Sectors(sector_size);
        Self::check::<DEC>(self.decrypt_only, None, buf, unit, &Tweak::Seq(tweaks))?;
        let threads = rayon::current_num_threads().max(1);
        if buf.len() < Self::PAR_THRESHOLD || threads == 1 {
            self.run_any::<DEC>(None, buf, sector_size, &Tweak::Seq(tweaks));
            return Ok(());
        }
        let sectors = buf.len() / sector_size;
        // A few chunks per thread (for balance), each at least half the threshold.
        let min_sectors = (Self::PAR_THRESHOLD / 2).div_ceil(sector_size).max(1);
        let per = sectors.div_ceil(threads * 4).max(min_sectors);
        buf.par_chunks_mut(per * sector_size)
            .enumerate()
            .for_each(|(i, chunk)| {
                let t = tweaks.advance((i * per) as u128);
                self.run_any::<DEC>(None, chunk, sector_size, &Tweak::Seq(t));
            });
        Ok(())
    }
}

impl fmt::Debug for Xts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Xts")
            // The whole key's length in bytes, as `key_len()` and `new` count it (two AES
            // keys of half that length each).
            .field("key_len", &self.key_len())
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

use crate::wipe::blocks as wipe;

#[cfg(test)]
mod tests;
