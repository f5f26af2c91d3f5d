//! The AES block cipher (FIPS-197): key expansion and multi-block encryption and
//! decryption on every backend.
//!
//! The key schedule is backend-neutral: the encryption round keys and
//! the round keys of the *equivalent inverse cipher* (FIPS-197 §5.3.5, the form `aesdec`
//! uses), as bytes. Every backend reads it as it is; it is computed once, in constant time,
//! with AES-NI (SubWord by `aesenclast`, `aesimc`) on the x86-64 backends and by portable
//! bitsliced code otherwise, and zeroized on drop.
//!
//! ```
//! use simdcrypt::aes::{Aes, Block};
//! let aes = Aes::new(&[0u8; 16])?;
//! let mut blocks: [Block; 2] = [[0u8; 16]; 2];
//! aes.encrypt_blocks(&mut blocks);
//! assert_eq!(blocks[0][..4], [0x66, 0xe9, 0x4b, 0xd4]);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use core::fmt;

use crate::Backend;
use crate::Error;
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::aes_ni;
use crate::cpu::AesNiToken;
#[cfg(simdcrypt_x86_64)]
use crate::cpu::{VaesAvx2Token, VaesAvx512Token};
use crate::dispatch;

#[cfg(any(simdcrypt_x86_64, simdcrypt_neon_check))]
pub(crate) mod kernel;
pub(crate) mod soft;

/// The block kernel ([`kernel`]) on each width.
#[cfg(simdcrypt_x86_64)]
pub(crate) mod width {
    use super::{Block, KeySchedule, kernel};

    crate::arch::x86_64::simd::aes::width_entries! {
        widths: [
            /// 128-bit registers with AES-NI: 8 blocks in flight.
            aesni: Xmm, AesNiToken, "aes";
            /// 256-bit registers with VAES: 8 ymm of two blocks, 16 blocks in flight.
            vaes_avx2: Ymm, VaesAvx2Token, "avx2,vaes,aes";
            /// 512-bit registers with VAES: 8 zmm of four blocks, 32 blocks in flight.
            vaes_avx512: Zmm, VaesAvx512Token, "avx512f,avx512bw,avx512vl,avx2,vaes,aes";
        ]
        {
            /// ECB in place; `SHORT`: fewer than 8 registers of blocks ([`super::Kernel::short`]).
            fn blocks<const DEC: bool, const SHORT: bool>(t: Token, ks: &KeySchedule, b: &mut [Block])
                => kernel::blocks<V, DEC, SHORT>;
        }
    }
}

pub use crate::block::Block;
use crate::ct::NoNiche;

/// Expanded AES round keys (in the leaf module [`crate::block`], which the vector layer
/// reads them from); expanded here, zeroized on drop.
pub(crate) use crate::block::KeySchedule;

impl KeySchedule {
    /// Expands a 16-, 24- or 32-byte key, with AES-NI where the CPU has it.
    #[cfg(test)]
    pub(crate) fn new(key: &[u8]) -> Result<KeySchedule, Error> {
        KeySchedule::with(key, AesNiToken::get())
    }

    /// Expands a 16-, 24- or 32-byte key: with AES-NI given its token, else portably.
    #[cfg(test)]
    pub(crate) fn with(key: &[u8], aesni: Option<AesNiToken>) -> Result<KeySchedule, Error> {
        let mut ks = core::mem::MaybeUninit::uninit();
        // SAFETY: `init` writes all of `ks`, which is valid for writes.
        unsafe {
            KeySchedule::init(ks.as_mut_ptr(), key, KeySchedule::rounds_for(key)?, aesni);
            Ok(ks.assume_init())
        }
    }

    /// The round count of a key: 10, 12 or 14 for 16, 24 or 32 bytes.
    pub(crate) fn rounds_for(key: &[u8]) -> Result<usize, Error> {
        match key.len() {
            16 => Ok(10),
            24 => Ok(12),
            32 => Ok(14),
            len => Err(Error::InvalidKeyLength {
                len,
                expected: "16, 24 or 32 bytes",
            }),
        }
    }

    /// Expands `key` of `rounds` ([`KeySchedule::rounds_for`]) into `*ks`, writing all of
    /// it: with AES-NI given its token (the kernel writes every slot, so nothing is zeroed
    /// first), else portably ([`soft::expand`], into a zeroed schedule). Both are constant
    /// time (no table lookups). The caller zeroes the stack after it ([`burn_keying`]).
    ///
    /// # Safety
    /// `ks` is valid for writes of a `KeySchedule` (it need not be initialised; a schedule
    /// there is overwritten, not dropped).
    #[inline]
    #[cfg_attr(not(simdcrypt_x86_64), allow(clippy::needless_pass_by_value))]
    pub(crate) unsafe fn init(
        ks: *mut KeySchedule,
        key: &[u8],
        rounds: usize,
        aesni: Option<AesNiToken>,
    ) {
        debug_assert_eq!(KeySchedule::rounds_for(key), Ok(rounds));
        match aesni {
            #[cfg(simdcrypt_x86_64)]
            // SAFETY: the caller's contract.
            Some(t) => unsafe { aes_ni::expand(t, key, rounds, ks) },
            _ => {
                // SAFETY: the caller's contract: `ks` is valid for writes, and once written
                // it is a valid schedule to borrow.
                let ks = unsafe {
                    ks.write(KeySchedule::EMPTY);
                    &mut *ks
                };
                ks.rounds = rounds;
                soft::expand(key, ks);
            }
        }
    }
}

/// Zeroes the stack after a keying function (`Aes::key_into`, `Xts::key_into`:
/// `#[inline(never)]`, each called right before, expanding in place into the caller's
/// value): the frames of the keying function and of the expansion below it (the AES-NI
/// kernel's shallow, the portable one's deeper), in bytes by build
/// (`crate::wipe::depth`; the "key set-up" calls of the leak tests measure them).
/// `aesni`: the schedules were expanded with AES-NI; `two`: two were (XTS).
#[inline(always)]
pub(crate) fn burn_keying(aesni: bool, two: bool) {
    use crate::wipe::{depth, stack};
    match (aesni, two) {
        (true, false) => stack::<{ depth([272, 256, 256, 272, 272, 6000]) }>(),
        (true, true) => stack::<{ depth([272, 304, 304, 304, 432, 5856]) }>(),
        (false, false) => stack::<{ depth([592, 592, 544, 592, 736, 3648]) }>(),
        (false, true) => stack::<{ depth([704, 784, 768, 800, 912, 3712]) }>(),
    }
}

impl Drop for KeySchedule {
    fn drop(&mut self) {
        // The slots past `rounds` never held a key: expansion writes `0..=rounds`.
        let n = self.rounds.min(14) + 1;
        crate::wipe::blocks(&mut self.enc[..n]);
        crate::wipe::blocks(&mut self.dec[..n]);
    }
}

crate::debug_shows!(KeySchedule, rounds);

/// An AES kernel family with the token that proves the CPU runs it: a row of the dispatch
/// table (`crate::aes::TABLE`) makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel {
    Portable,
    #[cfg(simdcrypt_x86_64)]
    AesNi(AesNiToken),
    #[cfg(simdcrypt_x86_64)]
    VaesAvx2(VaesAvx2Token),
    #[cfg(simdcrypt_x86_64)]
    VaesAvx512(VaesAvx512Token),
}

impl Kernel {
    /// The AES-NI token this kernel's token implies (`None` for the portable kernel): what
    /// keys it ([`KeySchedule::init`]).
    #[inline(always)]
    pub(crate) fn aesni(self) -> Option<AesNiToken> {
        match self {
            Kernel::Portable => None,
            #[cfg(simdcrypt_x86_64)]
            Kernel::AesNi(t) => Some(t),
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx2(t) => Some(t.aesni()),
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx512(t) => Some(t.vaes_avx2().aesni()),
        }
    }

    /// Zeroes the stack the last block-kernel call used, where its compiled code left
    /// round keys (broadcast to vectors, spilled): in bytes, the deepest each site's kernels
    /// wrote below it over the builds optimised for speed (docs/design.md, "Stack and
    /// register wipes"). `short`: the call ran a short entry
    /// ([`Kernel::short`]), whose frames are shallower, and so is the wipe (the wipe's cost
    /// grows with its depth: docs/design.md, "Stack and register wipes").
    #[inline(always)]
    pub(crate) fn burn_stack(self, short: bool) {
        use crate::wipe::{depth, stack};
        match (self, short) {
            (Kernel::Portable, _) => stack::<{ depth([1488, 1632, 1664, 1520, 1952, 3456]) }>(),
            #[cfg(simdcrypt_x86_64)]
            (Kernel::AesNi(_), true) => stack::<{ depth([272, 256, 256, 272, 272, 2592]) }>(),
            #[cfg(simdcrypt_x86_64)]
            (Kernel::AesNi(_), false) => stack::<{ depth([272, 256, 256, 272, 320, 3360]) }>(),
            #[cfg(simdcrypt_x86_64)]
            (Kernel::VaesAvx2(t), true) => {
                crate::wipe::stack_avx::<{ depth([272, 256, 256, 304, 496, 3600]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::VaesAvx2(t), false) => {
                crate::wipe::stack_avx::<{ depth([272, 272, 272, 480, 656, 4960]) }>(t)
            }
            #[cfg(simdcrypt_x86_64)]
            (Kernel::VaesAvx512(t), _) => {
                crate::wipe::stack_avx512::<{ depth([272, 304, 1264, 1776, 3152, 11664]) }>(t)
            }
        }
    }

    /// Whether `n` blocks run a short entry: fewer than 8 registers of blocks (8 on AES-NI,
    /// 16 on VAES-AVX2), with no group loop and the round keys read where used. VAES-AVX-512
    /// has none: [`Aes`] hands its calls under the CPU's `crate::tuning::Tuning::zmm_from` (at
    /// least 16 blocks) to VAES-AVX2 ([`Aes::kernel_for`]).
    #[inline(always)]
    #[cfg_attr(not(simdcrypt_x86_64), allow(unused_variables))]
    pub(crate) fn short(self, n: usize) -> bool {
        match self {
            #[cfg(simdcrypt_x86_64)]
            Kernel::AesNi(_) => n < 8,
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx2(_) => n < 16,
            _ => false,
        }
    }

    /// Encrypts (`DEC` false) or decrypts each block in place (ECB).
    #[inline]
    pub(crate) fn blocks<const DEC: bool>(self, ks: &KeySchedule, blocks: &mut [Block]) {
        #[cfg(simdcrypt_x86_64)]
        let short = self.short(blocks.len());
        match self {
            Kernel::Portable if DEC => soft::decrypt_blocks(ks, blocks),
            Kernel::Portable => soft::encrypt_blocks(ks, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::AesNi(t) if short => width::aesni::blocks::<DEC, true>(t, ks, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::AesNi(t) => width::aesni::blocks::<DEC, false>(t, ks, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx2(t) if short => width::vaes_avx2::blocks::<DEC, true>(t, ks, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx2(t) => width::vaes_avx2::blocks::<DEC, false>(t, ks, blocks),
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx512(t) => width::vaes_avx512::blocks::<DEC, false>(t, ks, blocks),
        }
    }
}

/// The AES block cipher, keyed, on one backend.
///
/// For building modes this crate does not have. Its round keys are zeroized on drop, and
/// `Debug` prints no key material.
///
/// ```
/// use simdcrypt::Aes;
/// let aes = Aes::new(&[0u8; 16])?;
/// let mut blocks = [[0u8; 16]; 3];
/// aes.encrypt_blocks(&mut blocks);
/// assert_eq!(blocks[2][..4], [0x66, 0xe9, 0x4b, 0xd4]);
/// aes.decrypt_blocks(&mut blocks);
/// assert_eq!(blocks, [[0u8; 16]; 3]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Aes {
    pub(crate) ks: KeySchedule,
    /// The kernel and backend, without their enums' niche ([`NoNiche`]).
    pub(crate) on: NoNiche<(Kernel, Backend)>,
    /// `crate::tuning::Tuning::zmm_from`, read once.
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    pub(crate) zmm_from: usize,
}

impl Aes {
    /// Keys AES-128, -192 or -256 (a 16-, 24- or 32-byte key) on the automatic backend.
    ///
    /// ```
    /// use simdcrypt::{Aes, Error};
    /// let aes = Aes::new(&[0u8; 24])?;
    /// assert_eq!(aes.key_len(), 24);
    /// assert!(matches!(
    ///     Aes::new(&[0u8; 20]),
    ///     Err(Error::InvalidKeyLength { len: 20, .. })
    /// ));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn new(key: &[u8]) -> Result<Aes, Error> {
        // SAFETY: `T` is `Aes`.
        unsafe { Aes::keyed_as(key, crate::aes::TABLE.auto_kernel()) }
    }

    /// Keys AES on the backend given; `Err` if this CPU cannot run it.
    ///
    /// ```
    /// use simdcrypt::{Aes, Backend, Error};
    /// for b in Aes::available_backends() {
    ///     let mut block = [0u8; 16];
    ///     Aes::with_backend(&[0u8; 16], b)?.encrypt_block(&mut block);
    ///     assert_eq!(block[..4], [0x66, 0xe9, 0x4b, 0xd4]);
    /// }
    /// let not_aes = Aes::with_backend(&[0u8; 16], Backend::ShaNi);
    /// assert!(matches!(not_aes, Err(Error::BackendNotForAlgorithm { .. })));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Aes, Error> {
        // SAFETY: `T` is `Aes`.
        unsafe { Aes::keyed_as(key, crate::aes::TABLE.select(backend)?) }
    }

    /// Keys AES on a kernel the dispatch table gave (`new`: the cached automatic choice,
    /// without looking the backend up again), as a `T` that is an `Aes` and nothing else
    /// (`Aes`, `Cbc`): the one keying path of the block-cipher modes.
    ///
    /// # Safety
    /// `T` is `Aes` or `#[repr(transparent)]` over it.
    #[inline(always)]
    pub(crate) unsafe fn keyed_as<T>(
        key: &[u8],
        (kernel, backend): (Kernel, Backend),
    ) -> Result<T, Error> {
        let rounds = KeySchedule::rounds_for(key)?;
        let mut out = core::mem::MaybeUninit::<T>::uninit();
        // SAFETY: `T` has `Aes`'s layout (the caller's contract), so the pointer is valid
        // for writes of an `Aes`.
        unsafe { Aes::key_into(out.as_mut_ptr().cast(), key, rounds, kernel, backend) };
        burn_keying(kernel.aesni().is_some(), false);
        // SAFETY: `key_into` wrote every field of the `Aes` that `T` is.
        Ok(unsafe { out.assume_init() })
    }

    /// Keys `*out` on `kernel`, the schedule expanded where it stays (no copy of the round
    /// keys in this frame); the caller wipes the expansion's frames after
    /// ([`burn_keying`]).
    ///
    /// # Safety
    /// `out` is valid for writes of an `Aes` (it need not be initialised).
    #[inline(never)]
    unsafe fn key_into(out: *mut Aes, key: &[u8], rounds: usize, kernel: Kernel, backend: Backend) {
        // SAFETY: `out` is valid for writes (the caller's contract); each field is written
        // once (the schedule whole, by `init`), so all of `*out` is initialised after.
        unsafe {
            core::ptr::addr_of_mut!((*out).on).write(NoNiche::new((kernel, backend)));
            core::ptr::addr_of_mut!((*out).zmm_from).write(crate::tuning::tuning().zmm_from);
            KeySchedule::init(
                core::ptr::addr_of_mut!((*out).ks),
                key,
                rounds,
                kernel.aesni(),
            );
        }
    }

    dispatch::backend_methods! {
        crate::aes::TABLE;
        /// The backends this CPU runs for AES, best first.
        ///
        /// ```
        /// use simdcrypt::{Aes, Backend};
        /// let all: Vec<Backend> = Aes::available_backends().collect();
        /// assert!(all.iter().all(|b| b.is_available()));
        /// assert_eq!(all.last(), Some(&Backend::Portable)); // runs everywhere, slowest
        /// ```
        available;

        /// The backend this instance runs on.
        ///
        /// ```
        /// use simdcrypt::{Aes, Backend};
        /// let auto = Aes::new(&[0u8; 16])?;
        /// assert!(Aes::available_backends().any(|b| b == auto.backend()));
        /// let soft = Aes::with_backend(&[0u8; 16], Backend::Portable)?;
        /// assert_eq!(soft.backend(), Backend::Portable);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        backend = keyed_backend();

        /// Every backend that AES has, available here or not, best first.
        implemented;
    }

    /// The backend keyed.
    #[inline(always)]
    pub(crate) fn keyed_backend(&self) -> Backend {
        self.on.get().1
    }

    /// The kernel keyed.
    #[inline(always)]
    pub(crate) fn kernel(&self) -> Kernel {
        self.on.get().0
    }

    /// The key length in bytes (16, 24 or 32).
    ///
    /// ```
    /// for len in [16, 24, 32] {
    ///     assert_eq!(simdcrypt::Aes::new(&[0u8; 32][..len])?.key_len(), len);
    /// }
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[must_use]
    pub fn key_len(&self) -> usize {
        (self.ks.rounds - 6) * 4
    }

    /// The kernel a call of `n` blocks runs: VAES-AVX-512 hands calls under the CPU's
    /// `crate::tuning::Tuning::zmm_from` to VAES-AVX2 (its short entry below 16 blocks, its group
    /// loop from there): on short calls the ymm kernel's 8 registers of 2 blocks keep more
    /// chains in flight than zmm's 4 of 4 (docs/design.md, "Dispatch and per-CPU tuning").
    #[inline(always)]
    #[cfg_attr(not(simdcrypt_x86_64), allow(unused_variables))]
    fn kernel_for(&self, n: usize) -> Kernel {
        match self.kernel() {
            #[cfg(simdcrypt_x86_64)]
            Kernel::VaesAvx512(t) if n < self.zmm_from => Kernel::VaesAvx2(t.vaes_avx2()),
            k => k,
        }
    }

    /// Encrypts every block in place, independently (ECB).
    ///
    /// ```
    /// use hex_literal::hex;
    /// // FIPS-197 appendix C.1 (AES-128).
    /// let aes = simdcrypt::Aes::new(&hex!("000102030405060708090a0b0c0d0e0f"))?;
    /// let mut blocks = [hex!("00112233445566778899aabbccddeeff"); 5];
    /// aes.encrypt_blocks(&mut blocks);
    /// assert_eq!(blocks, [hex!("69c4e0d86a7b0430d8cdb78070b4c55a"); 5]);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let k = self.kernel_for(blocks.len());
        k.blocks::<false>(&self.ks, blocks);
        k.burn_stack(k.short(blocks.len()));
    }

    /// Decrypts every block in place, independently (ECB).
    ///
    /// ```
    /// let aes = simdcrypt::Aes::new(&[9u8; 32])?;
    /// let plain: Vec<[u8; 16]> = (0..40u8).map(|i| [i; 16]).collect();
    /// let mut blocks = plain.clone();
    /// aes.encrypt_blocks(&mut blocks);
    /// assert_ne!(blocks, plain);
    /// aes.decrypt_blocks(&mut blocks);
    /// assert_eq!(blocks, plain);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
        let k = self.kernel_for(blocks.len());
        k.blocks::<true>(&self.ks, blocks);
        k.burn_stack(k.short(blocks.len()));
    }

    /// Encrypts one block in place.
    ///
    /// ```
    /// use hex_literal::hex;
    /// // FIPS-197 appendix C.2 (AES-192).
    /// let aes = simdcrypt::Aes::new(&hex!("000102030405060708090a0b0c0d0e0f1011121314151617"))?;
    /// let mut block = hex!("00112233445566778899aabbccddeeff");
    /// aes.encrypt_block(&mut block);
    /// assert_eq!(block, hex!("dda97ca4864cdfe06eaf70a0ec0d7191"));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn encrypt_block(&self, block: &mut Block) {
        self.encrypt_blocks(core::slice::from_mut(block));
    }

    /// Decrypts one block in place.
    ///
    /// ```
    /// use hex_literal::hex;
    /// // FIPS-197 appendix C.3 (AES-256).
    /// let key = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    /// let aes = simdcrypt::Aes::new(&key)?;
    /// let mut block = hex!("8ea2b7ca516745bfeafc49904b496089");
    /// aes.decrypt_block(&mut block);
    /// assert_eq!(block, hex!("00112233445566778899aabbccddeeff"));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn decrypt_block(&self, block: &mut Block) {
        self.decrypt_blocks(core::slice::from_mut(block));
    }
}

impl fmt::Debug for Aes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Aes")
            .field("key_bits", &(self.key_len() * 8))
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

/// AES blocks (ECB). VAES on zmm moves no more bytes per cycle than on ymm (measured on
/// Emerald Rapids; docs/design.md, "Dispatch and per-CPU tuning"), so the 256-bit kernel goes first
/// (zmm first where `crate::tuning` says so: Zen 5, whose zmm AES moves twice the bytes).
pub(crate) static TABLE: crate::dispatch::Table<Kernel> = crate::dispatch::table!(
    Kernel, "AES", portable: Kernel::Portable, [
    #[cfg(simdcrypt_x86_64)]
    VaesAvx2 => Kernel::VaesAvx2,
    #[cfg(simdcrypt_x86_64)]
    VaesAvx512 => Kernel::VaesAvx512,
    #[cfg(simdcrypt_x86_64)]
    AesNi => Kernel::AesNi,
]);

#[cfg(test)]
mod tests;
