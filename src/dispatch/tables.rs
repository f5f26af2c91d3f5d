//! Every algorithm's backends, best first, each with the kernel its row makes: the one
//! place that says which backend each algorithm tries first. A CPU's row of the tuning
//! table (`crate::tuning`) reorders them where it measured another order; the README's
//! backends table mirrors these rows (`readme_table_mirrors_this_one`).

use crate::aes::Width;
#[cfg(all(simdcrypt_x86_64, feature = "sha1"))]
use crate::arch::x86_64::sha_ni::Form;
use crate::dispatch::{Table, table};

/// The rows of the algorithms that run on the AES width handle alone (ECB and CBC), each
/// table with its own name and automatic choice: the 256-bit kernel first, then 512-bit,
/// then AES-NI.
macro_rules! width_rows {
    ($algorithm:literal) => {
        table!(Width, $algorithm, portable: Width::Portable, [
            #[cfg(simdcrypt_x86_64)] {
                VaesAvx2 => Width::Ymm,
                VaesAvx512 => Width::zmm,
                AesNi => Width::Xmm,
            }
            #[cfg(simdcrypt_aarch64)] {
                Armv8Aes => Width::Neon,
            }
        ])
    };
}

/// AES blocks (ECB): the 256-bit kernel first, zmm first where `crate::tuning` says so
/// (docs/design.md, "Dispatch and per-CPU tuning").
pub(crate) static AES: Table<Width> = width_rows!("AES");

/// CBC: as ECB (single-stream encryption is the same AES-NI chain on every row).
#[cfg(feature = "cbc")]
pub(crate) static CBC: Table<Width> = width_rows!("CBC");

/// XTS data units, widest first; the assembly twin is selected explicitly only
/// (docs/design.md, "Dispatch and per-CPU tuning").
#[cfg(feature = "xts")]
pub(crate) static XTS: Table<crate::xts::XtsKernel> = {
    use crate::xts::XtsKernel::{self, Aes as On};
    table!(XtsKernel, "XTS", portable: On(Width::Portable), [
        #[cfg(simdcrypt_x86_64)] {
            VaesAvx512 => |t| On(Width::zmm(t)),
            VaesAvx2 => |t| On(Width::Ymm(t)),
        }
        #[cfg(simdcrypt_asm)] {
            VaesAvx2Asm(explicit) => |t| XtsKernel::Asm(crate::arch::XtsAsm(t)),
        }
        #[cfg(simdcrypt_x86_64)] {
            AesNi => |t| On(Width::Xmm(t)),
        }
        #[cfg(simdcrypt_aarch64)] {
            Armv8Aes => |t| On(Width::Neon(t)),
        }
    ])
};

/// One SHA-1 stream, fastest first as measured (docs/design.md, "Dispatch and per-CPU
/// tuning").
#[cfg(feature = "sha1")]
pub(crate) static SHA1: Table<crate::sha1::Kernel> = {
    use crate::sha1::Kernel;
    table!(Kernel, "SHA-1", portable: Kernel::Portable, [
        #[cfg(simdcrypt_asm)] {
            ShaNiAsm => |t| Kernel::ShaNiAsm(Form::new(t)),
        }
        #[cfg(simdcrypt_x86_64)] {
            ShaNi => |t| Kernel::ShaNi(Form::new(t)),
        }
        #[cfg(simdcrypt_asm)] {
            Avx2Asm => Kernel::Avx2Asm,
        }
        #[cfg(simdcrypt_x86_64)] {
            Avx512 => Kernel::Avx512,
            Avx2 => Kernel::Avx2,
            Ssse3 => Kernel::Ssse3,
        }
        #[cfg(simdcrypt_aarch64)] {
            Armv8Sha1 => Kernel::Armv8,
        }
    ])
};

/// The multi-lane kernels of `sha1_many` (stragglers go to [`SHA1`]'s choice), fastest
/// first as measured (docs/design.md, "Dispatch and per-CPU tuning").
#[cfg(feature = "sha1")]
pub(crate) static SHA1_MANY: Table<crate::sha1::Kernel> = {
    use crate::sha1::Kernel;
    table!(Kernel, "SHA-1", portable: Kernel::Portable, [
        #[cfg(simdcrypt_x86_64)] {
            Avx512 => Kernel::Avx512,
            Avx2 => Kernel::Avx2,
        }
        #[cfg(simdcrypt_asm)] {
            ShaNiAsm => |t| Kernel::ShaNiAsm(Form::new(t)),
        }
        #[cfg(simdcrypt_x86_64)] {
            ShaNi => |t| Kernel::ShaNi(Form::new(t)),
            Ssse3 => Kernel::Ssse3,
        }
        #[cfg(simdcrypt_aarch64)] {
            Armv8Sha1 => Kernel::Armv8,
        }
    ])
};

/// SHA-1 with collision detection: SHA-NI with the filter between its rounds first (on
/// Emerald Rapids, 6/207, 1.15-2.0x the assembly's compression behind the vector filter),
/// then the portable schedule and filter ahead of each SIMD backend's plain compression
/// (in SHA-1's order), or all portable.
#[cfg(feature = "sha1")]
pub(crate) static SHA1DC: Table<crate::sha1::dc::DcKernel> = {
    use crate::sha1::dc::DcKernel;
    #[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
    use crate::sha1::dc::soft::Filter;
    table!(DcKernel, "SHA-1 with collision detection", portable: DcKernel::Portable, [
        #[cfg(simdcrypt_x86_64)] {
            ShaNi => |t| DcKernel::ShaNi(Form::new(t)),
        }
        #[cfg(simdcrypt_asm)] {
            ShaNiAsm => |t| DcKernel::Filtered(crate::sha1::Kernel::ShaNiAsm(Form::new(t)), Filter::widest()),
        }
        #[cfg(simdcrypt_asm)] {
            Avx2Asm => |t| DcKernel::Filtered(crate::sha1::Kernel::Avx2Asm(t), Filter::Avx2(t)),
        }
        #[cfg(simdcrypt_x86_64)] {
            Avx512 => |t| DcKernel::Filtered(crate::sha1::Kernel::Avx512(t), Filter::Avx512(t)),
            Avx2 => |t| DcKernel::Filtered(crate::sha1::Kernel::Avx2(t), Filter::Avx2(t)),
            Ssse3 => |t| DcKernel::Filtered(crate::sha1::Kernel::Ssse3(t), Filter::Portable),
        }
        #[cfg(simdcrypt_aarch64)] {
            Armv8Sha1 => |t| DcKernel::Filtered(crate::sha1::Kernel::Armv8(t), Filter::Portable),
        }
    ])
};

/// CBC with HMAC-SHA1: the stitched kernel, then CBC and SHA-1 one after the other on the
/// CBC backends (SHA-1 on its own automatic backend; all-portable for `portable`).
#[cfg(all(feature = "cbc", feature = "sha1"))]
pub(crate) static CBC_HMAC: Table<crate::cbc_hmac::Pass> = {
    use crate::cbc_hmac::Pass;
    table!(Pass, "CBC-HMAC-SHA1", portable: Pass::Sequential, [
        #[cfg(simdcrypt_x86_64)] {
            AesNiShaNi => |t| Pass::Stitched(crate::arch::Stitched::new(t)),
            VaesAvx2 => |_: crate::cpu::VaesAvx2Token| Pass::Sequential,
            AesNi => |_: crate::cpu::AesNiToken| Pass::Sequential,
        }
        #[cfg(simdcrypt_aarch64)] {
            Armv8AesSha1 => |t| Pass::Stitched(crate::arch::Stitched::new(t)),
            Armv8Aes => |_: crate::cpu::Armv8AesToken| Pass::Sequential,
        }
    ])
};
