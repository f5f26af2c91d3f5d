//! RustCrypto `cipher` 0.5 traits for AES (feature `cipher`), so simdcrypt's kernels drop
//! into any RustCrypto mode (`ctr`, `cbc`, `xts-mode`, ...).
//!
//! The parallel backend hands modes 16 blocks at a time, so the wide kernels stay busy.

use cipher::array::Array;
use cipher::consts::{U16, U24, U32};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InOutBuf, Key, KeyInit, KeySizeUser, ParBlocks, ParBlocksSizeUser,
};

use crate::Aes;

struct Enc<'a>(&'a Aes);
struct Dec<'a>(&'a Aes);

/// The backend in one direction: `$ty(&Aes)` implementing `$tr` by `Aes::$f`, the
/// methods `$one`, `$par` and `$tail` each on the blocks copied into the output.
macro_rules! backend {
    ($ty:ident: $tr:ident { $one:ident, $par:ident, $tail:ident } => $f:ident) => {
        impl BlockSizeUser for $ty<'_> {
            type BlockSize = U16;
        }

        impl ParBlocksSizeUser for $ty<'_> {
            type ParBlocksSize = U16;
        }

        impl $tr for $ty<'_> {
            #[inline]
            fn $one(&self, block: InOut<'_, '_, Block<Self>>) {
                let out = block.into_out_with_copied_in();
                self.0
                    .$f(Array::cast_slice_to_core_mut(core::slice::from_mut(out)));
            }

            #[inline]
            fn $par(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.0.$f(Array::cast_slice_to_core_mut(out.as_mut_slice()));
            }

            #[inline]
            fn $tail(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.0.$f(Array::cast_slice_to_core_mut(out));
            }
        }
    };
}
backend!(Enc: BlockCipherEncBackend {
    encrypt_block, encrypt_par_blocks, encrypt_tail_blocks
} => encrypt_blocks);
backend!(Dec: BlockCipherDecBackend {
    decrypt_block, decrypt_par_blocks, decrypt_tail_blocks
} => decrypt_blocks);

macro_rules! aes_type {
    ($name:ident, $key:ty, $bits:literal) => {
        #[doc = concat!("AES-", $bits, " for RustCrypto's `cipher` 0.5 traits, on the automatic backend.")]
        ///
        /// ```
        /// use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
        /// let key = Default::default();
        #[doc = concat!("let aes = simdcrypt::", stringify!($name), "::new(&key);")]
        /// let mut block = Default::default();
        /// aes.encrypt_block(&mut block);
        /// let mut same = [0u8; 16];
        /// simdcrypt::Aes::new(&key)?.encrypt_block(&mut same);
        /// assert_eq!(block[..], same);
        /// aes.decrypt_block(&mut block);
        /// assert_eq!(block[..], [0u8; 16]);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        #[derive(Clone)]
        pub struct $name(Aes);

        impl $name {
            /// The underlying [`Aes`] (to see or choose its backend).
            #[must_use]
            pub fn inner(&self) -> &Aes {
                &self.0
            }

            /// Keys the cipher on a chosen backend; `Err` if this CPU cannot run it.
            pub fn with_backend(
                key: &Key<Self>,
                backend: crate::Backend,
            ) -> Result<Self, crate::Error> {
                Aes::with_backend(key, backend).map($name)
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                match Aes::new(key) {
                    Ok(a) => $name(a),
                    // The key length is fixed by the type, so `Aes::new` accepts it.
                    Err(_) => unreachable!("AES key of a valid length rejected"),
                }
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = U16;
        }

        impl BlockCipherEncrypt for $name {
            fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
                f.call(&Enc(&self.0));
            }

            fn encrypt_blocks(&self, blocks: &mut [Block<Self>]) {
                self.0.encrypt_blocks(Array::cast_slice_to_core_mut(blocks));
            }
        }

        impl BlockCipherDecrypt for $name {
            fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
                f.call(&Dec(&self.0));
            }

            fn decrypt_blocks(&self, blocks: &mut [Block<Self>]) {
                self.0.decrypt_blocks(Array::cast_slice_to_core_mut(blocks));
            }
        }

        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!("AES-", $bits))
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(&self.0, f)
            }
        }
    };
}

aes_type!(Aes128, U16, "128");
aes_type!(Aes192, U24, "192");
aes_type!(Aes256, U32, "256");
