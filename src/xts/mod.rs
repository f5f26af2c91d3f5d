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
//! Layout: this module validates every argument before it writes anything, encrypts the
//! tweaks with Key2 in batches (one AES block-kernel call per batch of sectors), then runs
//! the unit kernels. Every SIMD backend file (`aesni`, `vaes_avx2`, `vaes_avx512`) has
//! the same entries: `encrypt_unit` / `decrypt_unit` (one data unit, taking the
//! already-encrypted initial tweak) and `encrypt_units` / `decrypt_units` (consecutive
//! units, round keys loaded once, and for units of whole kernel groups one continuous
//! stream in which the next unit's tweaks are computed between the current rounds). So
//! backends are interchangeable: adding one is a variant of `Kernel` and its match arms
//! (a kernel with only the single-unit entries gets one call per unit). The portable
//! backend (`soft`) has the single-unit shape on safe slices.
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
use crate::aes::Kernel as AesKernel;
use crate::aes::{Block, KeySchedule};
use crate::block::InOut;
use crate::cpu::AesNiToken;
#[cfg(simdcrypt_asm)]
use crate::cpu::VaesAvx2Token;
use crate::dispatch;
use crate::tuning::FreshTweaks;

#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::xts_block as block;
#[cfg(any(simdcrypt_x86_64, simdcrypt_neon_check))]
mod kernel;
pub(crate) mod soft;
mod tweaks;
mod unit;
#[cfg(simdcrypt_x86_64)]
use unit::BLOCK;
use unit::{MANY, ONE, SHORT, UnitKeys};

/// The unit kernels on each width: `units` ([`kernel::units`], one function and frame per
/// `PATH`) and `tweaks` ([`kernel::tweaks`], a multi-unit call's raw tweaks encrypted in
/// place).
#[cfg(simdcrypt_x86_64)]
mod width {
    use super::{UnitKeys, kernel};
    use crate::aes::{Block, KeySchedule};
    use crate::block::InOut;
    use crate::tuning::FreshTweaks;

    crate::arch::x86_64::simd::aes::width_entries! {
        widths: [
            /// 128-bit registers with AES-NI: 8 blocks in flight, tweak step x^8.
            aesni: Xmm, AesNiToken, "aes,pclmulqdq,ssse3,sse4.1";
            /// 256-bit registers with VAES and VPCLMULQDQ: 8 ymm of 2 blocks, 16 blocks in
            /// flight, tweak step x^16.
            vaes_avx2: Ymm, VaesAvx2Token, "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1";
            /// 512-bit registers with VAES and VPCLMULQDQ: 8 zmm of 4 blocks, 32 blocks in
            /// flight, tweak step x^32, three-way XORs in one `vpternlogq`.
            vaes_avx512: Zmm, VaesAvx512Token,
                "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3,sse4.1";
        ]
        {
            /// [`kernel::units`] on this width.
            ///
            /// # Safety
            /// As [`kernel::units`].
            unsafe fn units<const DEC: bool, const PATH: u8>(
                t: Token,
                keys: UnitKeys<'_>,
                tweaks: &[Block],
                io: InOut,
                len: usize,
                fresh: FreshTweaks,
            ) => kernel::units<V, DEC, PATH>;
            /// [`kernel::tweaks`] on this width.
            fn tweaks(t: Token, k2: &KeySchedule, tw: &mut [Block]) => kernel::tweaks<V>;
        }
    }
}
#[cfg(simdcrypt_x86_64)]
use width::{aesni, vaes_avx2, vaes_avx512};

pub use tweaks::Tweaks;

/// The longest data unit IEEE 1619 allows: 2^20 blocks.
///
/// ```
/// use simdcrypt::{Error, Xts, xts::{MAX_UNIT, MIN_UNIT}};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// xts.encrypt_sectors(&mut [], MAX_UNIT, 0)?; // zero sectors of the longest size
/// assert_eq!(
///     xts.encrypt_sectors(&mut [], MAX_UNIT + 16, 0),
///     Err(Error::InvalidSectorSize { sector_size: MAX_UNIT + 16, min: MIN_UNIT, max: MAX_UNIT })
/// );
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub const MAX_UNIT: usize = 1 << 24;
/// The shortest data unit: one block.
///
/// ```
/// use simdcrypt::{Error, Xts, xts::MIN_UNIT};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// xts.encrypt_sector(&mut [0u8; MIN_UNIT], 0)?;
/// let mut short = [0u8; MIN_UNIT - 1];
/// let err = xts.encrypt_sector(&mut short, 0);
/// assert_eq!(err, Err(Error::DataUnitTooShort { len: MIN_UNIT - 1, min: MIN_UNIT }));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub const MIN_UNIT: usize = 16;

/// How many sectors' tweaks are encrypted per tweak-kernel call (`Kernel::encrypt_tweaks`).
const TWEAK_BATCH: usize = 64;
/// The tweak batch of calls with at most this many sectors.
const SMALL_BATCH: usize = 8;

/// A unit kernel family with the token that proves the CPU runs it: a row of the dispatch
/// table (`crate::xts::TABLE`) makes one. The intrinsics kernels are the AES kernel
/// handle ([`AesKernel`], as ECB, CBC and the stitched kernel hold it), whose width
/// this module's unit entries ([`width`]) are generated for; the assembly twin is the
/// one XTS-only kernel. A new AES width is a variant of [`AesKernel`] and its arms in
/// [`Kernel::encrypt_tweaks`], [`Kernel::group_bytes`] and [`Kernel::units_raw`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel {
    Aes(AesKernel),
    #[cfg(simdcrypt_asm)]
    VaesAvx2Asm(VaesAvx2Token),
}

impl Kernel {
    /// Encrypts a single tweak in place for a kernel whose unit entries do not (the
    /// assembly twin; the portable kernel): one AES-NI block (lower latency than a wide
    /// kernel's entry), else the portable AES. It names those two block kernels only, so
    /// that a program using XTS links no other. (A multi-unit call's tweaks:
    /// [`Kernel::encrypt_tweaks`].)
    fn encrypt_tweak(self, k2: &KeySchedule, t: &mut Block) {
        let one = core::slice::from_mut(t);
        #[cfg(simdcrypt_x86_64)]
        if let Some(tok) = self.aesni() {
            // (For the assembly twin, which wipes its own frame: its `burn_stack` covers
            // this call.)
            crate::aes::width::aesni::blocks::<false, true>(tok, k2, one);
            return;
        }
        crate::aes::soft::encrypt_blocks(k2, one);
    }

    /// Zeroes the stack that the last tweak encryption and unit kernel calls used, where
    /// their compiled code left round keys and tweaks (spilled vectors, key arrays): in
    /// bytes, the deepest each backend's kernels wrote below `Xts::run_unchecked` over the
    /// builds optimised for speed (docs/design.md, "Stack and register wipes").
    /// `path`: the kernel entry that ran ([`MANY`], [`ONE`] or [`SHORT`], each with a
    /// frame of its own).
    #[inline(always)]
    fn burn_stack(self, path: u8) {
        use crate::wipe::{depth, stack};
        match (self, path) {
            (Kernel::Aes(AesKernel::Portable), _) => {
                stack::<{ depth([3808, 3936, 3936, 3920, 4208, 6800]) }>()
            }
            // (Registers only, but the calls to it write return addresses and saved registers.)
            #[cfg(simdcrypt_x86_64)]
            (_, BLOCK) => stack::<{ depth([272, 256, 256, 272, 320, 2512]) }>(),
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::AesNi(_)), SHORT) => {
                stack::<{ depth([272, 624, 624, 848, 1040, 10448]) }>()
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::AesNi(_)), ONE) => {
                stack::<{ depth([512, 912, 1360, 1456, 1696, 10496]) }>()
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::AesNi(_)), _) => {
                stack::<{ depth([848, 1104, 1456, 1584, 1600, 9360]) }>()
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx2(t)), SHORT) => {
                crate::wipe::stack_avx::<{ depth([400, 752, 1136, 1360, 1600, 15984]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx2(t)), ONE) => {
                crate::wipe::stack_avx::<{ depth([976, 1520, 2672, 2672, 2784, 17776]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx2(t)), _) => {
                crate::wipe::stack_avx::<{ depth([1408, 1824, 3056, 2784, 3040, 16096]) }>(t)
            }
            #[cfg(simdcrypt_asm)]
            (Kernel::VaesAvx2Asm(t), _) => {
                crate::wipe::stack_avx::<{ depth([672, 672, 672, 672, 736, 3712]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx512(t)), SHORT) => {
                crate::wipe::stack_avx512::<{ depth([320, 784, 2256, 2256, 2656, 28848]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx512(t)), ONE) => {
                crate::wipe::stack_avx512::<{ depth([352, 2496, 3456, 3536, 2736, 32496]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::Aes(AesKernel::VaesAvx512(t)), _) => {
                crate::wipe::stack_avx512::<{ depth([1024, 3184, 3888, 3872, 3648, 28992]) }>(t)
            }
        }
    }

    /// AES-NI, where the kernel's token implies it (every SIMD kernel): what keys it.
    fn aesni(self) -> Option<AesNiToken> {
        match self {
            Kernel::Aes(k) => k.aesni(),
            #[cfg(simdcrypt_asm)]
            Kernel::VaesAvx2Asm(t) => Some(t.aesni()),
        }
    }

    /// Whether the kernel's single-unit entries take the raw tweak and `k2` and encrypt
    /// the tweak themselves (the intrinsics kernels; not the assembly twin, nor the
    /// portable code, which never comes this way).
    fn encrypts_tweak(self) -> bool {
        match self {
            Kernel::Aes(k) => !matches!(k, AesKernel::Portable),
            #[cfg(simdcrypt_asm)]
            Kernel::VaesAvx2Asm(_) => false,
        }
    }

    /// A multi-unit call's raw tweaks encrypted in place with `k2`: on the kernel's own
    /// register width, each read as two 8-byte halves (`kernel::tweaks`); the portable
    /// AES for the portable backend.
    #[inline]
    fn encrypt_tweaks(self, k2: &KeySchedule, tw: &mut [Block]) {
        #[cfg(simdcrypt_x86_64)]
        macro_rules! r {
            ($m:ident, $t:expr) => {
                $m::tweaks($t, k2, tw)
            };
        }
        match self {
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::AesNi(t)) => r!(aesni, t),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::VaesAvx2(t)) => r!(vaes_avx2, t),
            #[cfg(simdcrypt_asm)]
            Kernel::VaesAvx2Asm(t) => r!(vaes_avx2, t),
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::VaesAvx512(t)) => r!(vaes_avx512, t),
            Kernel::Aes(AesKernel::Portable) => crate::aes::soft::encrypt_blocks(k2, tw),
        }
    }

    /// The bytes of one group of the kernel (8 registers): a single unit of at most this
    /// runs in the kernel's short entry.
    fn group_bytes(self) -> usize {
        match self {
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::AesNi(_)) => 128,
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::VaesAvx2(_)) => 256,
            #[cfg(simdcrypt_x86_64)]
            Kernel::Aes(AesKernel::VaesAvx512(_)) => 512,
            // (No short entry.)
            _ => 0,
        }
    }

    /// Consecutive data units of `len` bytes, unit `i` under the encrypted tweak
    /// `tweaks[i]`, in the direction `DEC` (decryption when true). With `k2`, `tweaks` is
    /// one raw tweak, which the kernel encrypts with it. A kernel with only single-unit
    /// entries (the assembly twin) gets one call per unit.
    ///
    /// # Safety
    /// `src` readable and `dst` writable for `tweaks.len() * len` bytes; `src == dst` or
    /// the two ranges do not overlap; `MIN_UNIT <= len <= MAX_UNIT`; `k2` only with one
    /// unit (`PATH` not [`MANY`]) and
    /// [`Kernel::encrypts_tweak`].
    #[inline]
    unsafe fn units_raw<const DEC: bool, const PATH: u8>(
        self,
        keys: UnitKeys<'_>,
        tweaks: &[Block],
        io: InOut,
        len: usize,
        fresh: FreshTweaks,
    ) {
        let (UnitKeys { k1, k2 }, InOut { src, dst }) = (keys, io);
        // SAFETY (every arm): the caller upholds the pointer and length contract, which is
        // the kernels' contract (unit `i` of the assembly's loop is the `i`-th `len` bytes
        // of the ranges); each token proves its kernel's CPU features. Portable: `copy`
        // allows equal or disjoint ranges, after which `dst` alone is the exclusive slice.
        unsafe {
            match self {
                #[cfg(simdcrypt_x86_64)]
                Kernel::Aes(AesKernel::AesNi(t)) => {
                    aesni::units::<DEC, PATH>(t, keys, tweaks, io, len, fresh)
                }
                #[cfg(simdcrypt_x86_64)]
                Kernel::Aes(AesKernel::VaesAvx2(t)) => {
                    vaes_avx2::units::<DEC, PATH>(t, keys, tweaks, io, len, fresh)
                }
                #[cfg(simdcrypt_asm)]
                Kernel::VaesAvx2Asm(t) => {
                    debug_assert!(k2.is_none(), "the assembly takes encrypted tweaks");
                    for (i, t0) in tweaks.iter().enumerate() {
                        let (s, d) = (src.add(i * len), dst.add(i * len));
                        if DEC {
                            crate::arch::x86_64::xts_vaes_avx2_asm::decrypt_unit(
                                t, k1, t0, s, d, len,
                            )
                        } else {
                            crate::arch::x86_64::xts_vaes_avx2_asm::encrypt_unit(
                                t, k1, t0, s, d, len,
                            )
                        }
                    }
                }
                #[cfg(simdcrypt_x86_64)]
                Kernel::Aes(AesKernel::VaesAvx512(t)) => {
                    vaes_avx512::units::<DEC, PATH>(t, keys, tweaks, io, len, fresh)
                }
                Kernel::Aes(AesKernel::Portable) => {
                    let _ = fresh;
                    // (`run_unchecked` takes the portable backend down its safe path; this
                    // arm keeps the match total and correct.)
                    debug_assert!(k2.is_none(), "the portable arm takes encrypted tweaks");
                    let n = tweaks.len() * len;
                    core::ptr::copy(src, dst, n);
                    let buf = core::slice::from_raw_parts_mut(dst, n);
                    for (t0, unit) in tweaks.iter().zip(buf.chunks_exact_mut(len)) {
                        if DEC {
                            soft::decrypt_unit(k1, t0, unit);
                        } else {
                            soft::encrypt_unit(k1, t0, unit);
                        }
                    }
                }
            }
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
    /// A counter per data unit ([`Tweaks`], width already checked); sector numbers rising
    /// by one (little-endian, IEEE 1619) are `Tweaks::new(first)`.
    Seq(Tweaks),
    /// One raw 16-byte tweak (single data unit).
    Raw(&'a Block),
}

/// The public methods come in pairs that differ only in the direction: each pair is
/// written once, its docs first, then its arguments and the call that both make, with
/// `false` (encrypt) or `true` (decrypt) as the call's `DEC`.
macro_rules! directions {
    ($(
        $(#[$e:meta])* $enc:ident,
        $(#[$d:meta])* $dec:ident,
        ($($arg:ident: $ty:ty),*) $f:ident($($call:tt)*);
    )*) => {$(
        $(#[$e])*
        pub fn $enc(&self, $($arg: $ty),*) -> Result<(), Error> {
            self.$f::<false>($($call)*)
        }

        $(#[$d])*
        pub fn $dec(&self, $($arg: $ty),*) -> Result<(), Error> {
            self.$f::<true>($($call)*)
        }
    )*};
}

/// XTS-AES-128 or XTS-AES-256, keyed, on one backend.
///
/// Both AES key schedules are zeroized on drop; `Debug` prints no key material.
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
    kernel: Kernel,
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
        Xts::build(key, crate::xts::TABLE.auto_kernel(), false)
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
        Xts::build(key, crate::xts::TABLE.select(backend)?, false)
    }

    /// As [`Xts::new`], but a key whose two halves are equal is accepted, for reading data
    /// written by software that did not check (IEEE 1619 vector 1 is such a key).
    ///
    /// IEEE 1619-2018 and NIST SP 800-38E require Key1 != Key2 (with equal halves the mask
    /// of each unit is the encryption of its tweak under the data key itself, so the two
    /// AES uses are no longer independent). So an `Xts` keyed with equal halves **decrypts
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
        Xts::build(key, crate::xts::TABLE.auto_kernel(), true)
    }

    /// As [`Xts::new_allow_equal_halves`], on the backend given; `Err` if this CPU cannot
    /// run it.
    ///
    /// ```
    /// use simdcrypt::{Error, Xts};
    /// for b in Xts::available_backends() {
    ///     let xts = Xts::with_backend_allow_equal_halves(&[7u8; 64], b)?;
    ///     assert_eq!(xts.encrypt_sectors(&mut [0u8; 32], 16, 0), Err(Error::XtsDuplicateKeyHalves));
    /// }
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn with_backend_allow_equal_halves(key: &[u8], backend: Backend) -> Result<Xts, Error> {
        Xts::build(key, crate::xts::TABLE.select(backend)?, true)
    }

    /// Whether this `Xts` refuses to encrypt: keyed by [`Xts::new_allow_equal_halves`] with
    /// equal halves.
    ///
    /// ```
    /// use simdcrypt::Xts;
    /// assert!(!Xts::new(&[[1u8; 32], [2u8; 32]].concat())?.decrypt_only());
    /// assert!(Xts::new_allow_equal_halves(&[3u8; 64])?.decrypt_only());
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[must_use]
    pub fn decrypt_only(&self) -> bool {
        self.decrypt_only
    }

    #[inline(always)]
    fn build(
        key: &[u8],
        (kernel, backend): (Kernel, Backend),
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
        crate::aes::burn_keying(kernel.aesni().is_some(), true);
        // SAFETY: `key_into` wrote every field.
        Ok(unsafe { xts.assume_init() })
    }

    /// Keys `out` with `Key1 = a`, `Key2 = b` on `kernel`, the schedules expanded where
    /// they stay (no copy of the round keys in this frame); the caller wipes the
    /// expansion's frames after (`crate::aes::burn_keying`).
    #[inline(never)]
    fn key_into(
        out: &mut core::mem::MaybeUninit<Xts>,
        a: &[u8],
        b: &[u8],
        rounds: usize,
        kernel: Kernel,
        backend: Backend,
        decrypt_only: bool,
    ) {
        let aesni = kernel.aesni();
        let p = out.as_mut_ptr();
        // SAFETY: `p` is `out`'s, valid for writes; each field is written once (the
        // schedules whole, by `init`), so all of `out` is initialised after.
        unsafe {
            core::ptr::addr_of_mut!((*p).kernel).write(kernel);
            core::ptr::addr_of_mut!((*p).fresh).write(crate::tuning::tuning().fresh_tweaks);
            core::ptr::addr_of_mut!((*p).backend).write(backend);
            core::ptr::addr_of_mut!((*p).decrypt_only).write(decrypt_only);
            KeySchedule::init(core::ptr::addr_of_mut!((*p).k1), a, rounds, aesni);
            KeySchedule::init(core::ptr::addr_of_mut!((*p).k2), b, rounds, aesni);
        }
    }

    dispatch::backend_methods! {
        crate::xts::TABLE;
        /// The backends this CPU runs for XTS, best first.
        ///
        /// ```
        /// use simdcrypt::{Backend, Xts};
        /// let all: Vec<Backend> = Xts::available_backends().collect();
        /// assert!(all.iter().all(|b| b.is_available()));
        /// assert_eq!(all.last(), Some(&Backend::Portable));
        /// ```
        available;
        /// The backend this instance runs on.
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// assert!(Xts::available_backends().any(|b| b == xts.backend()));
        /// println!("XTS runs on {}", xts.backend());
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        backend = backend;
        /// Every backend that XTS has, available here or not, best first.
        implemented;
    }

    /// The whole key's length in bytes (32 or 64).
    ///
    /// ```
    /// use simdcrypt::Xts;
    /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
    /// assert_eq!(xts.key_len(), 64); // XTS-AES-256
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
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
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut sector = *b"a data unit need not be a multiple of 16 bytes";
        /// xts.encrypt_sector(&mut sector, 42)?;
        /// xts.decrypt_sector(&mut sector, 42)?;
        /// assert_eq!(&sector, b"a data unit need not be a multiple of 16 bytes");
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        decrypt_sector,
        (buf: &mut [u8], sector: u128) run(None, buf, Unit::Whole, Tweak::Seq(Tweaks::new(sector)));

        /// Encrypts one data unit from `src` into `dst` (equal lengths); `src` is not touched.
        ///
        /// ```
        /// use simdcrypt::{Error, Xts};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let (src, mut dst, mut inplace) = ([3u8; 64], [0u8; 64], [3u8; 64]);
        /// xts.encrypt_sector_to(&src, &mut dst, 7)?;
        /// xts.encrypt_sector(&mut inplace, 7)?;
        /// assert_eq!(dst, inplace);
        /// let err = xts.encrypt_sector_to(&src, &mut [0u8; 48], 7);
        /// assert_eq!(
        ///     err,
        ///     Err(Error::LengthMismatch { what: "src and dst lengths", left: 64, right: 48 })
        /// );
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        encrypt_sector_to,
        /// Decrypts one data unit from `src` into `dst` (equal lengths).
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let (mut ct, mut pt) = ([0u8; 40], [0u8; 40]);
        /// xts.encrypt_sector_to(&[8u8; 40], &mut ct, 1)?;
        /// xts.decrypt_sector_to(&ct, &mut pt, 1)?;
        /// assert_eq!(pt, [8u8; 40]);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        decrypt_sector_to,
        (src: &[u8], dst: &mut [u8], sector: u128) run_split(Some(src), dst, Unit::Whole, sector as u64, (sector >> 64) as u64);

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
        /// Decrypts one data unit in place under a raw 16-byte tweak.
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let tweak = [0xa5u8; 16];
        /// let mut buf = [1u8; 20];
        /// xts.encrypt_with_tweak(&mut buf, &tweak)?;
        /// xts.decrypt_with_tweak(&mut buf, &tweak)?;
        /// assert_eq!(buf, [1u8; 20]);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
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
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut disk = vec![9u8; 8 * 4096];
        /// xts.encrypt_sectors(&mut disk, 4096, u128::MAX - 3)?; // sector numbers wrap
        /// xts.decrypt_sectors(&mut disk, 4096, u128::MAX - 3)?;
        /// assert!(disk.iter().all(|&b| b == 9));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        decrypt_sectors,
        (buf: &mut [u8], sector_size: usize, first_sector: u128) run_split(None, buf, Unit::Sectors(sector_size), first_sector as u64, (first_sector >> 64) as u64);

        /// Encrypts consecutive data units from `src` into `dst` (equal lengths).
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let src = vec![4u8; 3 * 512];
        /// let (mut dst, mut inplace) = (vec![0u8; 3 * 512], src.clone());
        /// xts.encrypt_sectors_to(&src, &mut dst, 512, 5)?;
        /// xts.encrypt_sectors(&mut inplace, 512, 5)?;
        /// assert_eq!(dst, inplace);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        encrypt_sectors_to,
        /// Decrypts consecutive data units from `src` into `dst` (equal lengths).
        ///
        /// ```
        /// use simdcrypt::Xts;
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let (mut ct, mut pt) = (vec![0u8; 2 * 520], vec![0u8; 2 * 520]);
        /// xts.encrypt_sectors_to(&[4u8; 2 * 520], &mut ct, 520, 5)?;
        /// xts.decrypt_sectors_to(&ct, &mut pt, 520, 5)?;
        /// assert!(pt.iter().all(|&b| b == 4));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[inline]
        decrypt_sectors_to,
        (src: &[u8], dst: &mut [u8], sector_size: usize, first_sector: u128) run_split(Some(src), dst, Unit::Sectors(sector_size), first_sector as u64, (first_sector >> 64) as u64);

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
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let geli = Tweaks::plain64(1 << 20).step(4096); // byte offsets of 4096-byte sectors
        /// let mut disk = vec![9u8; 8 * 4096];
        /// xts.encrypt_sectors_with(&mut disk, 4096, geli)?;
        /// xts.decrypt_sectors_with(&mut disk, 4096, geli)?;
        /// assert!(disk.iter().all(|&b| b == 9));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        decrypt_sectors_with,
        (buf: &mut [u8], sector_size: usize, tweaks: Tweaks) run(None, buf, Unit::Sectors(sector_size), Tweak::Seq(tweaks));

        /// Encrypts consecutive data units from `src` into `dst` (equal lengths; see
        /// [`Xts::encrypt_sectors_with`]).
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let t = Tweaks::plain64be(77);
        /// let src = vec![4u8; 3 * 512];
        /// let (mut dst, mut inplace) = (vec![0u8; 3 * 512], src.clone());
        /// xts.encrypt_sectors_with_to(&src, &mut dst, 512, t)?;
        /// xts.encrypt_sectors_with(&mut inplace, 512, t)?;
        /// assert_eq!(dst, inplace);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        encrypt_sectors_with_to,
        /// Decrypts consecutive data units from `src` into `dst` (equal lengths; see
        /// [`Xts::encrypt_sectors_with`]).
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let t = Tweaks::plain64(8).step(8);
        /// let (mut ct, mut pt) = (vec![0u8; 2 * 4096], vec![0u8; 2 * 4096]);
        /// xts.encrypt_sectors_with_to(&[4u8; 2 * 4096], &mut ct, 4096, t)?;
        /// xts.decrypt_sectors_with_to(&ct, &mut pt, 4096, t)?;
        /// assert!(pt.iter().all(|&b| b == 4));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
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
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut area = vec![7u8; 3 * 4096 + 4000];
        /// xts.encrypt_area(&mut area, 4096, Tweaks::plain64(0).step(8))?;
        /// xts.decrypt_area(&mut area, 4096, Tweaks::plain64(0).step(8))?;
        /// assert!(area.iter().all(|&b| b == 7));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        decrypt_area,
        (buf: &mut [u8], sector_size: usize, tweaks: Tweaks) area(buf, sector_size, tweaks);
    }

    /// Checks a call's arguments; nothing is written before this returns `Ok`. The unit
    /// length is `dst`'s for a one-unit call, `sector_size` for a multi-sector one; each
    /// form reports its own argument.
    fn validate(src: Option<&[u8]>, dst: &[u8], unit: Unit) -> Result<usize, Error> {
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
                Ok(len)
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
                Ok(sector_size)
            }
        }
    }

    /// `Err` for an encryption on a decrypt-only `Xts` ([`Xts::new_allow_equal_halves`])
    /// or a tweak width that is not 32, 64 or 128; checked before the lengths.
    fn check_call<const DEC: bool>(&self, tweak: Tweak<'_>) -> Result<(), Error> {
        if !DEC && self.decrypt_only {
            return Err(Error::XtsDuplicateKeyHalves);
        }
        if let Tweak::Seq(t) = tweak {
            t.check()?;
        }
        Ok(())
    }

    fn run<const DEC: bool>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: Unit,
        tweak: Tweak<'_>,
    ) -> Result<(), Error> {
        self.check_call::<DEC>(tweak)?;
        let unit = Self::validate(src, dst, unit)?;
        self.run_unchecked::<DEC>(src, dst, unit, tweak);
        Ok(())
    }

    /// [`Xts::run`] under sequential sector numbers from `lo + 2^64 hi`.
    /// The public methods whose `u128` sector number comes after four other arguments get
    /// it on the stack, written by the caller as two 8-byte stores; read there as one
    /// 16-byte value, the load cannot be forwarded from those stores and waits until they
    /// reach the cache, behind everything before them (84% of `encrypt_sectors`' own
    /// samples, about 5% of a 4 KiB call of 512-byte sectors, Intel family 6 model 167).
    /// Those methods are inlined into the caller and pass the two halves here, as 8-byte
    /// values, which forward.
    #[inline(never)]
    fn run_split<const DEC: bool>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: Unit,
        lo: u64,
        hi: u64,
    ) -> Result<(), Error> {
        let first = u128::from(hi) << 64 | u128::from(lo);
        self.run::<DEC>(src, dst, unit, Tweak::Seq(Tweaks::new(first)))
    }

    /// `encrypt_area` / `decrypt_area`: whole units, then a shorter last one.
    fn area<const DEC: bool>(
        &self,
        buf: &mut [u8],
        sector_size: usize,
        tweaks: Tweaks,
    ) -> Result<(), Error> {
        let tweak = Tweak::Seq(tweaks);
        self.check_call::<DEC>(tweak)?;
        let whole = if sector_size == 0 {
            0
        } else {
            buf.len() - buf.len() % sector_size
        };
        Self::validate(None, &buf[..whole], Unit::Sectors(sector_size))?;
        let rest = buf.len() - whole;
        if rest != 0 && rest < MIN_UNIT {
            return Err(Error::DataTooShort {
                len: rest,
                min: MIN_UNIT,
            });
        }
        let (head, tail) = buf.split_at_mut(whole);
        self.run_unchecked::<DEC>(None, head, sector_size, tweak);
        if rest != 0 {
            // `rest < sector_size <= MAX_UNIT` and `rest >= MIN_UNIT`: a valid unit.
            let t = tweaks.nth((whole / sector_size) as u128);
            self.run_unchecked::<DEC>(None, tail, rest, Tweak::Raw(&t));
        }
        Ok(())
    }

    /// The work, after validation: `dst.len()` is a whole number of `unit`s, `unit` is in
    /// range, `src` (if any) has `dst`'s length.
    fn run_unchecked<const DEC: bool>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: usize,
        tweak: Tweak<'_>,
    ) {
        let sectors = dst.len() / unit;
        if sectors == 1 && !matches!(self.kernel, Kernel::Aes(AesKernel::Portable)) {
            // One unit (the common single-sector call): no batch array; the tweak is
            // encrypted in the kernel (its latency is on the critical path, and there it
            // overlaps the kernel's set-up), or, for the assembly, through the lightest
            // block kernel before it.
            let mut t = match tweak {
                Tweak::Seq(t) => t.nth(0),
                Tweak::Raw(t) => *t,
            };
            let k2 = if self.kernel.encrypts_tweak() {
                Some(&self.k2)
            } else {
                // Stored again whole (from two 8-byte loads, which forward from the two
                // 8-byte stores `nth` made), so that the block kernel's 16-byte load
                // forwards too ([`kernel::load_tweak`]).
                #[cfg(simdcrypt_x86_64)]
                {
                    let whole = block::load_tweak(&t);
                    crate::arch::x86_64::aes_ni::store(&mut t, whole);
                }
                self.kernel.encrypt_tweak(&self.k2, &mut t);
                None
            };
            let dp = dst.as_mut_ptr();
            let sp = src.map_or(dp.cast_const(), <[u8]>::as_ptr);
            // SAFETY: one unit of `unit == dst.len()` bytes (checked by `validate`); the
            // source is `dst` itself (in place) or a shared borrow of the same length
            // distinct from the exclusive `dst` (no overlap).
            #[cfg(simdcrypt_x86_64)]
            if let (16, Some(tok)) = (unit, self.kernel.aesni()) {
                // One block: two serial AES-NI blocks, no vector set-up.
                let (k1, t0) = (&self.k1, &t);
                // SAFETY: as said above, for the unit's 16 bytes; both keys have
                // `k1.rounds` rounds.
                unsafe { block::one_block::<DEC>(tok, k1, k2, t0, sp, dp) }
                wipe(core::slice::from_mut(&mut t));
                self.kernel.burn_stack(BLOCK);
                return;
            }
            let one = core::slice::from_ref(&t);
            let short = unit <= self.kernel.group_bytes();
            let (keys, io) = (UnitKeys { k1: &self.k1, k2 }, InOut { src: sp, dst: dp });
            // SAFETY: as said above; `short` says the unit is at most a group.
            unsafe {
                if short {
                    self.kernel
                        .units_raw::<DEC, SHORT>(keys, one, io, unit, self.fresh);
                } else {
                    self.kernel
                        .units_raw::<DEC, ONE>(keys, one, io, unit, self.fresh);
                }
            }
            wipe(core::slice::from_mut(&mut t));
            self.kernel.burn_stack(if short { SHORT } else { ONE });
            return;
        }
        // A call of a few sectors zeroes (and later wipes) a small tweak array, not the
        // full batch's kilobyte.
        if sectors <= SMALL_BATCH {
            self.run_batches::<DEC, SMALL_BATCH>(src, dst, unit, tweak, sectors);
        } else {
            self.run_batches::<DEC, TWEAK_BATCH>(src, dst, unit, tweak, sectors);
        }
    }

    /// [`Xts::run_unchecked`]'s multi-unit work: the tweaks encrypted `B` at a time into a
    /// local array, then the kernel over those sectors.
    #[inline(always)]
    fn run_batches<const DEC: bool, const B: usize>(
        &self,
        src: Option<&[u8]>,
        dst: &mut [u8],
        unit: usize,
        tweak: Tweak<'_>,
        sectors: usize,
    ) {
        let mut tw = [[0u8; 16]; B];
        let mut done = 0usize;
        let mut used = 0usize;
        while done < sectors {
            let n = (sectors - done).min(B);
            match tweak {
                Tweak::Seq(t) => t.fill(done, &mut tw[..n]),
                Tweak::Raw(t) => tw[0] = *t,
            }
            self.kernel.encrypt_tweaks(&self.k2, &mut tw[..n]);
            let range = done * unit..(done + n) * unit;
            match self.kernel {
                Kernel::Aes(AesKernel::Portable) => {
                    let d = &mut dst[range.clone()];
                    if let Some(s) = src {
                        d.copy_from_slice(&s[range]);
                    }
                    for (t, chunk) in tw[..n].iter().zip(d.chunks_exact_mut(unit)) {
                        if DEC {
                            soft::decrypt_unit(&self.k1, t, chunk);
                        } else {
                            soft::encrypt_unit(&self.k1, t, chunk);
                        }
                    }
                }
                #[cfg(simdcrypt_x86_64)]
                kernel => {
                    let d = &mut dst[range.clone()];
                    let dp = d.as_mut_ptr();
                    let sp = match src {
                        Some(s) => s[range].as_ptr(),
                        None => dp.cast_const(),
                    };
                    // SAFETY: this batch is `n` sectors of `unit` bytes: `d` (n * unit
                    // bytes) and the source range of the same length (checked by
                    // `validate`); the source is either `d` itself (in place: equal
                    // pointers) or a shared borrow distinct from the exclusive `d` (no
                    // overlap); `unit` is in range.
                    unsafe {
                        kernel.units_raw::<DEC, MANY>(
                            UnitKeys {
                                k1: &self.k1,
                                k2: None,
                            },
                            &tw[..n],
                            InOut { src: sp, dst: dp },
                            unit,
                            self.fresh,
                        )
                    };
                }
            }
            done += n;
            used = used.max(n);
        }
        wipe(&mut tw[..used]);
        self.kernel.burn_stack(MANY);
    }
}

#[cfg(feature = "rayon")]
impl Xts {
    /// Below this many bytes a parallel call stays on the calling thread: waking a pool
    /// thread from outside the pool takes tens of microseconds, as long as one thread
    /// takes for hundreds of KiB (docs/design.md, "Key setup and constants").
    ///
    /// ```
    /// use simdcrypt::Xts;
    /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
    /// // Below the threshold: one thread, same result.
    /// let mut small = vec![0u8; Xts::PAR_THRESHOLD / 2];
    /// let mut serial = small.clone();
    /// xts.par_encrypt_sectors(&mut small, 4096, 0)?;
    /// xts.encrypt_sectors(&mut serial, 4096, 0)?;
    /// assert_eq!(small, serial);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
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
        ///
        /// ```
        /// use simdcrypt::{Error, Xts};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let mut disk = vec![5u8; 2 * Xts::PAR_THRESHOLD];
        /// xts.par_encrypt_sectors(&mut disk, 512, 0)?;
        /// xts.par_decrypt_sectors(&mut disk, 512, 0)?;
        /// assert!(disk.iter().all(|&b| b == 5));
        /// let err = xts.par_decrypt_sectors(&mut disk, 8, 0);
        /// assert_eq!(err, Err(Error::InvalidSectorSize { sector_size: 8, min: 16, max: 1 << 24 }));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        par_decrypt_sectors,
        (buf: &mut [u8], sector_size: usize, first_sector: u128) par_run(buf, sector_size, Tweaks::new(first_sector));

        /// [`Xts::encrypt_sectors_with`] spread over rayon's threads (see
        /// [`Xts::par_encrypt_sectors`]). Same result, same errors.
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let t = Tweaks::plain64(u64::MAX - 100).step(8); // wraps in the middle
        /// let mut disk = vec![0u8; 2 * Xts::PAR_THRESHOLD];
        /// let mut serial = disk.clone();
        /// xts.par_encrypt_sectors_with(&mut disk, 4096, t)?;
        /// xts.encrypt_sectors_with(&mut serial, 4096, t)?;
        /// assert!(disk == serial);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        par_encrypt_sectors_with,
        /// [`Xts::decrypt_sectors_with`] spread over rayon's threads (see
        /// [`Xts::par_encrypt_sectors`]).
        ///
        /// ```
        /// use simdcrypt::{Xts, xts::Tweaks};
        /// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
        /// let t = Tweaks::plain(7).step(4096);
        /// let mut disk = vec![5u8; 2 * Xts::PAR_THRESHOLD];
        /// xts.par_encrypt_sectors_with(&mut disk, 4096, t)?;
        /// xts.par_decrypt_sectors_with(&mut disk, 4096, t)?;
        /// assert!(disk.iter().all(|&b| b == 5));
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
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

        self.check_call::<DEC>(Tweak::Seq(tweaks))?;
        Self::validate(None, buf, Unit::Sectors(sector_size))?;
        let threads = rayon::current_num_threads().max(1);
        if buf.len() < Self::PAR_THRESHOLD || threads == 1 {
            self.run_unchecked::<DEC>(None, buf, sector_size, Tweak::Seq(tweaks));
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
                self.run_unchecked::<DEC>(None, chunk, sector_size, Tweak::Seq(t));
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

/// XTS's unit kernel and tweak encryption on the AArch64 check vector (`crate::neon`):
/// one unit of `data` in place, each path, under `ks` as both keys.
#[cfg(simdcrypt_neon_check)]
pub(crate) fn neon_check(t: crate::arch::aarch64::NeonAesToken, ks: &KeySchedule, data: &mut [u8]) {
    use crate::arch::aarch64::Neon;
    let len = data.len();
    if !(MIN_UNIT..=MAX_UNIT).contains(&len) || ks.rounds != 14 {
        return;
    }
    let tweak = [[7u8; 16]];
    let io = InOut {
        src: data.as_ptr(),
        dst: data.as_mut_ptr(),
    };
    let (raw, encrypted) = (
        UnitKeys {
            k1: ks,
            k2: Some(ks),
        },
        UnitKeys { k1: ks, k2: None },
    );
    let fresh = FreshTweaks::Shifts;
    // SAFETY: one unit of `len` bytes in place (a valid length), both keys `ks`, the
    // raw tweak with `k2` on the single-unit paths only, a short unit on `SHORT` only.
    unsafe {
        kernel::units::<Neon, false, ONE>(t, raw, &tweak, io, len, fresh);
        kernel::units::<Neon, true, MANY>(t, encrypted, &tweak, io, len, fresh);
        if len <= 128 {
            kernel::units::<Neon, false, SHORT>(t, raw, &tweak, io, len, fresh);
        }
    }
    let mut tw = [[0u8; 16]; 4];
    kernel::tweaks::<Neon>(t, ks, &mut tw);
}

/// XTS data units, widest first (docs/design.md, "Dispatch and per-CPU tuning"). The assembly has no
/// multi-unit entry, so it loses on small sectors: the intrinsics kernel goes first where
/// AVX-512 is missing, and the assembly twin (slower on sectors on AMD Zen 3 too,
/// `crate::tuning`) is selected explicitly only.
pub(crate) static TABLE: crate::dispatch::Table<Kernel> = crate::dispatch::table!(
    Kernel, "XTS", portable: Kernel::Aes(AesKernel::Portable), [
    #[cfg(simdcrypt_x86_64)]
    VaesAvx512 => |t| Kernel::Aes(AesKernel::VaesAvx512(t)),
    #[cfg(simdcrypt_x86_64)]
    VaesAvx2 => |t| Kernel::Aes(AesKernel::VaesAvx2(t)),
    #[cfg(simdcrypt_asm)]
    VaesAvx2Asm(explicit) => Kernel::VaesAvx2Asm,
    #[cfg(simdcrypt_x86_64)]
    AesNi => |t| Kernel::Aes(AesKernel::AesNi(t)),
]);

#[cfg(test)]
mod tests;
