//! The AES block cipher (FIPS-197): key expansion and multi-block encryption and
//! decryption on every backend.
//!
//! The key schedule is backend-neutral: the encryption round keys and
//! the round keys of the *equivalent inverse cipher* (FIPS-197 §5.3.5, the form `aesdec`
//! uses), as bytes. Every backend reads it as it is; it is computed once, in constant time,
//! with AES-NI (SubWord by `aesenclast`, `aesimc`) on the x86-64 backends, with the ARMv8
//! AES instructions (SubWord by `AESE`, `AESIMC`) on AArch64's, and by portable bitsliced
//! code otherwise, and zeroized on drop.

use core::fmt;

use crate::Backend;
use crate::Error;
#[cfg(simdcrypt_aarch64)]
use crate::arch::aarch64::{self, aes::Neon};
use crate::cpu::AesNiToken;
#[cfg(simdcrypt_aarch64)]
use crate::cpu::Armv8AesToken;
use crate::dispatch;
use crate::vector::{AesVec, Job, Site};
#[cfg(simdcrypt_x86_64)]
use crate::{
    arch::x86_64::{
        aes_ni,
        simd::aes::{Xmm, Ymm, Zmm},
    },
    cpu::{VaesAvx2Token, VaesAvx512Token},
};

pub(crate) mod kernel;
pub(crate) mod soft;

pub use crate::block::Block;
use crate::ct::NoNiche;

/// Expanded AES round keys (in the leaf module [`crate::block`], which the vector layer
/// reads them from); expanded here, zeroized on drop.
pub(crate) use crate::block::KeySchedule;

impl KeySchedule {
    /// Expands a 16-, 24- or 32-byte key, with the automatic backend's instructions.
    #[cfg(test)]
    pub(crate) fn new(key: &[u8]) -> Result<KeySchedule, Error> {
        KeySchedule::with(key, dispatch::AES.auto_kernel().0)
    }

    /// Expands a 16-, 24- or 32-byte key as `kernel` does (its instructions, or portably).
    #[cfg(test)]
    pub(crate) fn with(key: &[u8], kernel: Width) -> Result<KeySchedule, Error> {
        let mut ks = core::mem::MaybeUninit::uninit();
        // SAFETY: `init` writes all of `ks`, which is valid for writes.
        unsafe {
            KeySchedule::init(ks.as_mut_ptr(), key, KeySchedule::rounds_for(key)?, kernel);
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
    /// it: with AES-NI where the kernel's token implies it (the expansion writes every
    /// slot, so nothing is zeroed first), else portably ([`soft::expand`], into a zeroed schedule). Both are constant
    /// time (no table lookups). The caller zeroes the stack after it ([`wipe_keying`]).
    ///
    /// # Safety
    /// `ks` is valid for writes of a `KeySchedule` (it need not be initialised; a schedule
    /// there is overwritten, not dropped).
    #[inline]
    pub(crate) unsafe fn init(ks: *mut KeySchedule, key: &[u8], rounds: usize, kernel: Width) {
        debug_assert_eq!(KeySchedule::rounds_for(key), Ok(rounds));
        match (kernel, kernel.aesni()) {
            #[cfg(simdcrypt_x86_64)]
            // SAFETY: the caller's contract.
            (_, Some(t)) => unsafe { aes_ni::expand(t, key, rounds, ks) },
            #[cfg(simdcrypt_aarch64)]
            // SAFETY: the caller's contract.
            (Width::Neon(t), _) => unsafe { aarch64::aes::expand(t, key, rounds, ks) },
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
/// `kernel`: what expanded them (AES-NI where its token implies it); `two`: two were
/// (XTS).
#[inline(always)]
pub(crate) fn wipe_keying(kernel: Width, two: bool) {
    use crate::wipe::{depth, stack};
    match (kernel.hardware_keying(), two) {
        (true, false) => stack::<{ depth([272, 256, 256, 272, 336, 6000]) }>(),
        (true, true) => stack::<{ depth([272, 304, 304, 304, 432, 5920]) }>(),
        (false, false) => stack::<{ depth([592, 592, 560, 592, 736, 3648]) }>(),
        (false, true) => stack::<{ depth([704, 784, 768, 800, 912, 3776]) }>(),
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

/// The width handle: the register width an AES backend runs on, with the token that
/// proves the CPU has it (a row of the dispatch table makes one). Every AES call of ECB,
/// CBC and XTS dispatches here, in [`Width::run_job`]'s one match; the modes hand it a
/// [`Job`] written once over the vector type and name no width. A new width or ISA is its
/// vector type (`crate::vector::AesVec`) and a variant here.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Width {
    /// Bitsliced portable AES.
    Portable,
    /// AES-NI on 128-bit registers (`Xmm`).
    #[cfg(simdcrypt_x86_64)]
    Xmm(AesNiToken),
    /// VAES on 256-bit registers (`Ymm`).
    #[cfg(simdcrypt_x86_64)]
    Ymm(VaesAvx2Token),
    /// VAES on 512-bit registers (`Zmm`), with the CPU's `crate::tuning::Tuning::zmm_from`
    /// (read once, at keying), under which calls that hand over run on `Ymm`.
    #[cfg(simdcrypt_x86_64)]
    Zmm(VaesAvx512Token, u32),
    /// The ARMv8 Cryptography Extension on the 128-bit NEON registers (`Neon`).
    #[cfg(simdcrypt_aarch64)]
    Neon(Armv8AesToken),
}

impl Width {
    /// The 512-bit kernel with this CPU's `zmm_from`: what the dispatch table's row makes.
    #[cfg(simdcrypt_x86_64)]
    #[inline]
    pub(crate) fn zmm(t: VaesAvx512Token) -> Width {
        Width::Zmm(t, crate::tuning::tuning().zmm_from as u32)
    }

    /// The AES-NI token this kernel's token implies (`None` for the portable kernel): what
    /// keys it ([`KeySchedule::init`]) and runs single blocks.
    #[inline(always)]
    pub(crate) fn aesni(self) -> Option<AesNiToken> {
        match self {
            Width::Portable => None,
            #[cfg(simdcrypt_aarch64)]
            Width::Neon(_) => None,
            #[cfg(simdcrypt_x86_64)]
            Width::Xmm(t) => Some(t),
            #[cfg(simdcrypt_x86_64)]
            Width::Ymm(t) => Some(t.aesni()),
            #[cfg(simdcrypt_x86_64)]
            Width::Zmm(t, _) => Some(t.vaes_avx2().aesni()),
        }
    }

    /// Whether this kernel's instructions expand its keys ([`KeySchedule::init`]): AES-NI,
    /// or the ARMv8 AES instructions; the portable kernel's are expanded portably.
    #[inline(always)]
    pub(crate) fn hardware_keying(self) -> bool {
        match self {
            Width::Portable => false,
            #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
            _ => true,
        }
    }

    /// Runs `job` on this kernel's width, its short form under a group of blocks
    /// ([`AesVec::GROUP`]), then the wipe of its site ([`AesVec::wipe`]). A job takes at
    /// most [`Job::MAX_LANES`] blocks per register, and VAES-AVX-512 hands a call under
    /// its `zmm_from` to VAES-AVX2 where the job says so ([`Job::HANDS_OVER`]).
    #[inline(always)]
    pub(crate) fn run_job<J: Job>(self, mut job: J) {
        #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
        macro_rules! on {
            ($v:ty, $t:expr) => {{
                let short = J::HAS_SHORT && job.blocks() < <$v>::GROUP;
                // SAFETY: the token proves the CPU has the entry's features.
                unsafe {
                    if short {
                        <$v>::enter::<J, true>($t, &mut job)
                    } else {
                        <$v>::enter::<J, false>($t, &mut job)
                    }
                }
                <$v>::wipe($t, J::SITE, short);
            }};
        }
        match self {
            Width::Portable => {
                job.portable();
                soft::wipe(J::SITE);
            }
            #[cfg(simdcrypt_aarch64)]
            Width::Neon(t) => on!(Neon, t),
            #[cfg(simdcrypt_x86_64)]
            Width::Xmm(t) => on!(Xmm, t),
            #[cfg(simdcrypt_x86_64)]
            Width::Ymm(t) => {
                if J::MAX_LANES < 2 {
                    on!(Xmm, t.aesni())
                } else {
                    on!(Ymm, t)
                }
            }
            #[cfg(simdcrypt_x86_64)]
            Width::Zmm(t, from) => {
                if J::MAX_LANES < 2 {
                    on!(Xmm, t.vaes_avx2().aesni())
                } else if J::MAX_LANES < 4 || (J::HANDS_OVER && job.blocks() < from as usize) {
                    on!(Ymm, t.vaes_avx2())
                } else {
                    on!(Zmm, t)
                }
            }
        }
    }
}

#[cfg(test)]
impl Width {
    /// ECB on this kernel (for the tests' reference computations: the leak tests and the
    /// assembly twins').
    #[cfg_attr(not(any(feature = "std", simdcrypt_asm)), allow(dead_code))]
    pub(crate) fn blocks<const DEC: bool>(self, ks: &KeySchedule, blocks: &mut [Block]) {
        self.run_job(Ecb::<DEC>(ks, blocks));
    }
}

/// ECB over blocks in place (`DEC`: decryption): [`kernel::blocks`].
struct Ecb<'a, const DEC: bool>(&'a KeySchedule, &'a mut [Block]);

impl<const DEC: bool> Job for Ecb<'_, DEC> {
    const SITE: Site = Site::Ecb;
    const HANDS_OVER: bool = true;

    fn blocks(&self) -> usize {
        self.1.len()
    }

    fn portable(&mut self) {
        if DEC {
            soft::decrypt_blocks(self.0, self.1);
        } else {
            soft::encrypt_blocks(self.0, self.1);
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, t: V::Token) {
        kernel::blocks::<V, DEC, SHORT>(t, self.0, self.1);
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
    pub(crate) on: NoNiche<(Width, Backend)>,
}

impl Aes {
    /// Keys AES-128, -192 or -256 (a 16-, 24- or 32-byte key) on the automatic backend.
    #[inline(always)]
    pub fn new(key: &[u8]) -> Result<Aes, Error> {
        // SAFETY: `T` is `Aes`.
        unsafe { Aes::keyed_as(key, crate::dispatch::AES.auto_kernel()) }
    }

    /// Keys AES on the backend given; `Err` if this CPU cannot run it.
    #[inline(always)]
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Aes, Error> {
        // SAFETY: `T` is `Aes`.
        unsafe { Aes::keyed_as(key, crate::dispatch::AES.select(backend)?) }
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
        (kernel, backend): (Width, Backend),
    ) -> Result<T, Error> {
        let rounds = KeySchedule::rounds_for(key)?;
        let mut out = core::mem::MaybeUninit::<T>::uninit();
        // SAFETY: `T` has `Aes`'s layout (the caller's contract), so the pointer is valid
        // for writes of an `Aes`.
        unsafe { Aes::key_into(out.as_mut_ptr().cast(), key, rounds, kernel, backend) };
        wipe_keying(kernel, false);
        // SAFETY: `key_into` wrote every field of the `Aes` that `T` is.
        Ok(unsafe { out.assume_init() })
    }

    /// Keys `*out` on `kernel`, the schedule expanded where it stays (no copy of the round
    /// keys in this frame); the caller wipes the expansion's frames after
    /// ([`wipe_keying`]).
    ///
    /// # Safety
    /// `out` is valid for writes of an `Aes` (it need not be initialised).
    #[inline(never)]
    unsafe fn key_into(out: *mut Aes, key: &[u8], rounds: usize, kernel: Width, backend: Backend) {
        // SAFETY: `out` is valid for writes (the caller's contract); each field is written
        // once (the schedule whole, by `init`), so all of `*out` is initialised after.
        unsafe {
            core::ptr::addr_of_mut!((*out).on).write(NoNiche::new((kernel, backend)));
            KeySchedule::init(core::ptr::addr_of_mut!((*out).ks), key, rounds, kernel);
        }
    }

    dispatch::backend_methods! {
        crate::dispatch::AES;
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
    pub(crate) fn kernel(&self) -> Width {
        self.on.get().0
    }

    /// The key length in bytes (16, 24 or 32).
    #[must_use]
    pub fn key_len(&self) -> usize {
        (self.ks.rounds - 6) * 4
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
        self.kernel().run_job(Ecb::<false>(&self.ks, blocks));
    }

    /// Decrypts every block in place, independently (ECB).
    #[inline]
    pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
        self.kernel().run_job(Ecb::<true>(&self.ks, blocks));
    }

    /// Encrypts one block in place.
    #[inline]
    pub fn encrypt_block(&self, block: &mut Block) {
        self.encrypt_blocks(core::slice::from_mut(block));
    }

    /// Decrypts one block in place.
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

#[cfg(test)]
mod tests;
