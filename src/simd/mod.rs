//! SIMD vector types, one per register width, that the kernels are written over.

#[cfg(simdcrypt_x86_64)]
pub(crate) mod u32x;
