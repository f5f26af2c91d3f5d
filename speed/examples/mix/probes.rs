//! The instruction mixes of the XTS kernels, timed as hand-scheduled loops next
//! to the AES alone, so that a kernel's distance from the parallel-AES ceiling splits into
//! what its instruction form allows on this core and what the kernel itself loses.
//!
//! ```text
//! every probe: groups of 8 registers (16 blocks in ymm, 32 in zmm), 10 or 14 rounds,
//!              walking a buffer (64 KiB by default) per run
//! AES alone:   the rounds alone, 12 chains continued from group to group
//! ECB:         load, XOR rk[0], the rounds, store
//! XTS:         load, XOR the tweak and rk[0], the rounds, the last with the tweak ⊕ rk[R]
//!              (w) as its key, store; w stepped by x^(8L) per lane: shift the lane up
//!              L bytes, carry-less multiply its top L bytes by 0x87, XOR both and kf
//!   VEX form (16 registers, the vaes-avx2 kernels): 8 states, 1 key broadcast per
//!     round, 3 constants, 2 temporaries; w in memory (two buffers, read where used);
//!     whitening and step two XORs each; one register's step after each of rounds 1-8
//!   EVEX form (32 registers, vpternlogd): w and the round keys in registers; whitening
//!     one three-way XOR, step one three-way XOR, after the stores (the states' registers
//!     as temporaries)
//! ```
//! The probes compute XTS with arbitrary round keys, not AES: the forms of one width give
//! the same bytes from the same tweaks (a test checks it), so each does the same work.

use std::time::Duration;

use simdcrypt_speed::measure::{Runner, stats, time_slice};

/// One probe: its form, width and round count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// ymm `vaesenc` alone, 12 chains, the round key broadcast into a register each round
    /// (VEX).
    YmmAes,
    /// ymm ECB (VEX).
    YmmEcb,
    /// ymm XTS in the VEX form.
    YmmXtsVex,
    /// ymm XTS in the EVEX form (AVX-512 VL).
    YmmXtsEvex,
    /// zmm `vaesenc` alone, 12 chains, the keys in registers.
    ZmmAes,
    /// zmm ECB.
    ZmmEcb,
    /// zmm XTS (EVEX).
    ZmmXts,
}

impl Form {
    /// Every probe, in display order.
    pub const ALL: [Form; 7] = [
        Form::YmmAes,
        Form::YmmEcb,
        Form::YmmXtsVex,
        Form::YmmXtsEvex,
        Form::ZmmAes,
        Form::ZmmEcb,
        Form::ZmmXts,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Form::YmmAes => "ymm AES alone",
            Form::YmmEcb => "ymm ECB",
            Form::YmmXtsVex => "ymm XTS, VEX form",
            Form::YmmXtsEvex => "ymm XTS, EVEX form",
            Form::ZmmAes => "zmm AES alone",
            Form::ZmmEcb => "zmm ECB",
            Form::ZmmXts => "zmm XTS",
        }
    }

    /// The AES-alone probe of the same width.
    pub fn base(self) -> Form {
        match self {
            Form::YmmAes | Form::YmmEcb | Form::YmmXtsVex | Form::YmmXtsEvex => Form::YmmAes,
            _ => Form::ZmmAes,
        }
    }

    /// Bytes of one group (of 12 registers for the AES alone, 8 for the others).
    pub fn group_bytes(self) -> usize {
        let regs = if self == self.base() { 12 } else { 8 };
        regs * match self.base() {
            Form::YmmAes => 32,
            _ => 64,
        }
    }
}

/// The probes' round keys and constants (each constant in every lane of a zmm register).
#[repr(C, align(64))]
struct Consts {
    /// Round keys 0..=14.
    rk: [[u8; 16]; 15],
    /// rk[0] ⊕ rk[R], in every lane.
    k0r: [[u8; 16]; 4],
    /// f(rk[R]) ⊕ rk[R] for the width's step, in every lane.
    kf: [[u8; 16]; 4],
    /// 0x87, in every lane.
    poly: [[u8; 16]; 4],
}

/// A probe ready to run: its buffers and the tweaks it continues from.
pub struct Probe {
    form: Form,
    rounds: usize,
    consts: Box<Consts>,
    /// The running tweaks (w form), block `i` of a group at `16 i` (register `j`, lane
    /// `l` is block `L j + l`); the VEX form's second buffer follows its first 256 bytes.
    w: Box<[u8; 1024]>,
    src: Vec<u8>,
    dst: Vec<u8>,
}

/// `t · x^n` in GF(2^128) (XTS's little-endian convention, `n < 128`).
fn mul_x(t: u128, n: u32) -> u128 {
    (0..n).fold(t, |t, _| (t << 1) ^ if t >> 127 == 1 { 0x87 } else { 0 })
}

impl Probe {
    /// The probe for `form` with `rounds` (10 or 14) rounds over `size` bytes (rounded
    /// down to an even number of groups, at least two), if this CPU has its instructions.
    pub fn new(form: Form, rounds: usize, size: usize) -> Option<Probe> {
        assert!(rounds == 10 || rounds == 14, "10 or 14 rounds");
        // The instructions' proof: `process_one` executes the form only where this found them.
        match form {
            Form::YmmAes | Form::YmmEcb | Form::YmmXtsVex => {
                simdcrypt::cpu::VaesAvx2Token::get()?;
            }
            _ => {
                simdcrypt::cpu::VaesAvx512Token::get()?;
            }
        }
        let lanes: u32 = if form.base() == Form::YmmAes { 2 } else { 4 };
        let rk: [[u8; 16]; 15] = core::array::from_fn(|i| {
            core::array::from_fn(|b| {
                (i as u8).wrapping_mul(29) ^ (b as u8).wrapping_mul(101) ^ 0x5c
            })
        });
        let kr = u128::from_le_bytes(rk[rounds]);
        let k0r = (u128::from_le_bytes(rk[0]) ^ kr).to_le_bytes();
        let kf = (mul_x(kr, 8 * lanes) ^ kr).to_le_bytes();
        let consts = Box::new(Consts {
            rk,
            k0r: [k0r; 4],
            kf: [kf; 4],
            poly: [0x87u128.to_le_bytes(); 4],
        });
        let t0 = 0x0f1e_2d3c_4b5a_6978_8796_a5b4_c3d2_e1f0_u128;
        let mut w = Box::new([0u8; 1024]);
        for (i, b) in w.chunks_exact_mut(16).take(8 * lanes as usize).enumerate() {
            b.copy_from_slice(&(mul_x(t0, i as u32) ^ kr).to_le_bytes());
        }
        // An even number of groups: the VEX form's two tweak buffers swap each group.
        let bytes = (size / (2 * form.group_bytes())).max(1) * 2 * form.group_bytes();
        let src = (0..bytes).map(|i| (i * 7 + 3) as u8).collect();
        Some(Probe {
            form,
            rounds,
            consts,
            w,
            src,
            dst: vec![0; bytes],
        })
    }

    /// Bytes per run.
    pub fn bytes(&self) -> usize {
        self.src.len()
    }

    /// The running tweaks (w form) of one group's blocks.
    #[cfg(test)]
    fn tweaks(&self) -> &[u8] {
        &self.w[..self.form.group_bytes()]
    }
}

impl Runner for Probe {
    fn process_one(&mut self) {
        let (c, w) = (&*self.consts, self.w.as_mut_ptr());
        let (s, d) = (self.src.as_ptr(), self.dst.as_mut_ptr());
        let r14 = self.rounds == 14;
        let n = self.src.len() / self.form.group_bytes();
        let loops: [x86::Loop; 2] = match self.form {
            Form::YmmAes => [x86::ymm_aes_10, x86::ymm_aes_14],
            Form::YmmEcb => [x86::ymm_ecb_10, x86::ymm_ecb_14],
            Form::YmmXtsVex => [x86::ymm_xts_vex_10, x86::ymm_xts_vex_14],
            Form::YmmXtsEvex => [x86::ymm_xts_evex_10, x86::ymm_xts_evex_14],
            Form::ZmmAes => [x86::zmm_aes_10, x86::zmm_aes_14],
            Form::ZmmEcb => [x86::zmm_ecb_10, x86::zmm_ecb_14],
            Form::ZmmXts => [x86::zmm_xts_10, x86::zmm_xts_14],
        };
        // SAFETY (every form): the token was checked for the form's instructions when
        // the probe was made; `s` and `d` hold `n` groups of the form's width, `w`
        // its tweaks (two buffers of 256 bytes for the VEX form), `c` the keys and
        // constants, as each loop's contract asks.
        unsafe { loops[usize::from(r14)](c, w, s, d, n) }
    }

    fn output(&self) -> &[u8] {
        &self.dst
    }
}

/// One of simdcrypt's XTS backends encrypting one unit of the probes' size in place.
struct Kernel {
    xts: simdcrypt::Xts,
    buf: Vec<u8>,
}

impl Runner for Kernel {
    fn process_one(&mut self) {
        let n = self.buf.len();
        self.xts
            .encrypt_sectors(&mut self.buf, n, 7)
            .expect("a valid unit");
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// The backends whose loops the probes' forms are, each with its width's AES probe.
const KERNELS: [(simdcrypt::Backend, Form); 3] = [
    (simdcrypt::Backend::VaesAvx2, Form::YmmAes),
    (simdcrypt::Backend::VaesAvx2Asm, Form::YmmAes),
    (simdcrypt::Backend::VaesAvx512, Form::ZmmAes),
];

/// Every probe this CPU can run and the XTS backends of the same forms, over
/// `size`-byte runs, AES-128 and AES-256, `rounds` interleaved rounds of `slice` each;
/// prints GB/s and each row's fraction of its width's AES alone and of the faster width's.
pub fn mix_main(rounds: u64, slice: Duration, size: usize) -> i32 {
    println!(
        "instruction mixes of the XTS kernels, groups of 8 registers, {} KiB a run, medians \
         of {rounds} interleaved rounds ({})",
        size >> 10,
        simdcrypt_speed::cpuinfo::cpu_model()
    );
    for aes_rounds in [10, 14] {
        let mut rows: Vec<(String, Form, Box<dyn Runner>, usize)> = Vec::new();
        for f in Form::ALL {
            if let Some(p) = Probe::new(f, aes_rounds, size) {
                let bytes = p.bytes();
                rows.push((f.name().to_string(), f.base(), Box::new(p), bytes));
            }
        }
        if rows.is_empty() {
            println!("no probe runs on this CPU (VAES and AVX2 are needed)");
            return 0;
        }
        let key: Vec<u8> = (0..if aes_rounds == 10 { 32 } else { 64 })
            .map(|i| i as u8)
            .collect();
        for (b, base) in KERNELS {
            if let Ok(xts) = simdcrypt::Xts::with_backend(&key, b) {
                let buf = vec![0x17u8; size];
                rows.push((
                    format!("simdcrypt {b}"),
                    base,
                    Box::new(Kernel { xts, buf }),
                    size,
                ));
            }
        }
        let mut samples = vec![Vec::new(); rows.len()];
        for _ in 0..rounds {
            for (row, s) in rows.iter_mut().zip(samples.iter_mut()) {
                s.push(time_slice(&mut *row.2, row.3 as f64, slice));
            }
        }
        let med: Vec<f64> = samples.iter().map(|s| stats(s).0).collect();
        let of = |f: Form| rows.iter().position(|r| r.0 == f.name()).map(|i| med[i]);
        let best_aes = [of(Form::YmmAes), of(Form::ZmmAes)]
            .into_iter()
            .flatten()
            .fold(0.0, f64::max);
        println!();
        println!(
            "AES-{:<3} {:<26} {:>8} {:>14} {:>12}",
            if aes_rounds == 10 { 128 } else { 256 },
            "",
            "GB/s",
            "/ width's AES",
            "/ best AES"
        );
        for (row, m) in rows.iter().zip(&med) {
            let base = of(row.1).unwrap_or(f64::NAN);
            println!(
                "        {:<26} {:>8.2} {:>14.3} {:>12.3}",
                row.0,
                m / 1e9,
                m / base,
                m / best_aes
            );
        }
    }
    0
}

mod x86 {
    //! The probes' loops, one `asm!` block each, with `.irp` lists for the registers and
    //! rounds (the assembler expands them; nothing is left to the compiler's scheduling).

    use core::arch::asm;

    use super::Consts;

    /// A probe's loop, `(consts, w, src, dst, groups)`: each form uses the arguments its
    /// contract names.
    pub(super) type Loop = unsafe fn(&Consts, *mut u8, *const u8, *mut u8, usize);

    /// `asm!` with a probe's templates and operands, clobbering the vector registers the
    /// width has (16 for ymm, as AVX2 has; 32 for zmm): the loops use most of them.
    macro_rules! probe_asm {
        (ymm, $($args:tt)*) => {
            probe_asm!(@ $($args)*)
        };
        (zmm, $($args:tt)*) => {
            probe_asm!(@ $($args)*
                out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
                out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
                out("zmm24") _, out("zmm25") _, out("zmm26") _, out("zmm27") _,
                out("zmm28") _, out("zmm29") _, out("zmm30") _, out("zmm31") _,
            )
        };
        (@ $($args:tt)*) => {
            asm!(
                $($args)*
                out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                options(nostack),
            )
        };
    }

    /// Template: rounds `$rounds` (an `.irp` list) of the ymm states `$states`, each round's
    /// key broadcast into ymm15 from memory.
    macro_rules! ymm_rounds {
        ($rounds:literal, $states:literal) => {
            concat!(
                ".irp r,",
                $rounds,
                "\n",
                "vbroadcasti128 ymm15, [{rk} + 16*\\r]\n",
                ".irp j,",
                $states,
                "\n",
                "vaesenc ymm\\j, ymm\\j, ymm15\n",
                ".endr\n",
                ".endr",
            )
        };
    }

    /// Template: the last round of the ymm states 0-7 (after `$pre`, for each), keyed by
    /// `$key`, each stored to its 32 bytes at `d`.
    macro_rules! ymm_last_round_store {
        ($pre:literal, $key:literal) => {
            concat!(
                ".irp j,0,1,2,3,4,5,6,7\n",
                $pre,
                "\n",
                "vaesenclast ymm\\j, ymm\\j, ",
                $key,
                "\n",
                "vmovdqu [{d} + 32*\\j], ymm\\j\n",
                ".endr",
            )
        };
    }

    /// Template: the keys of rounds 1.. into the `$v` registers of `$keys` (an `.irp` list).
    macro_rules! evex_keys {
        ($v:literal, $keys:literal) => {
            concat!(
                ".set rnd, 1\n",
                ".irp k,",
                $keys,
                "\n",
                "vbroadcasti32x4 ",
                $v,
                "\\k, [{rk} + 16*rnd]\n",
                ".set rnd, rnd+1\n",
                ".endr",
            )
        };
    }

    /// Template: the `$v` states `$states` through the rounds keyed by the registers `$keys`.
    macro_rules! evex_rounds {
        ($v:literal, $keys:literal, $states:literal) => {
            concat!(
                ".irp k,", $keys, "\n", ".irp j,", $states, "\n", "vaesenc ", $v, "\\j, ", $v,
                "\\j, ", $v, "\\k\n", ".endr\n", ".endr",
            )
        };
    }

    /// Template: the last round of the 8 states `$v`0-7, keyed by register `$v$key` (`2\j`:
    /// state j's tweak), each stored to its blocks (`$lanes` a register) at `d`.
    macro_rules! last_round_store {
        ($v:literal, $lanes:literal, $key:literal) => {
            concat!(
                ".irp j,0,1,2,3,4,5,6,7\n",
                "vaesenclast ",
                $v,
                "\\j, ",
                $v,
                "\\j, ",
                $v,
                $key,
                "\n",
                "vmovdqu64 [{d} + 16*",
                $lanes,
                "*\\j], ",
                $v,
                "\\j\n",
                ".endr",
            )
        };
    }

    /// Template: on to the next group (`$scale` times `$lanes` bytes) while `n` lasts.
    macro_rules! next_group {
        ($scale:literal, $lanes:literal) => {
            concat!(
                "add {s}, ",
                $scale,
                "*",
                $lanes,
                "\n",
                "add {d}, ",
                $scale,
                "*",
                $lanes,
                "\n",
                "dec {n}\n",
                "jnz 2b",
            )
        };
    }

    /// Defines the probe loop `$name` (a [`Loop`], its arguments named as given, `_` where
    /// unused): `probe_asm!` of the width and the body.
    macro_rules! probe_loop {
        (
            $(#[$doc:meta])*
            $name:ident($c:ident, $w:tt, $s:tt, $d:ident, $n:ident): $width:ident, $($body:tt)*
        ) => {
            $(#[$doc])*
            #[inline(never)]
            pub(super) unsafe fn $name($c: &Consts, $w: *mut u8, $s: *const u8, $d: *mut u8, $n: usize) {
                // SAFETY: the function's contract, which its caller keeps.
                unsafe { probe_asm!($width, $($body)*) }
            }
        };
    }

    /// Defines `$name(c, dst)`: ymm AES alone.
    macro_rules! ymm_aes {
        ($name:ident, $rounds:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES and AVX2; `d` writable for 32 bytes (the first state, written once:
                /// the loop reads only `c`).
                $name(c, _, _, d, n): ymm,
                "2:",
                ymm_rounds!($rounds, "0,1,2,3,4,5,6,7,8,9,10,11"),
                "dec {n}",
                "jnz 2b",
                "vmovdqu [{d}], ymm0",
                rk = in(reg) c.rk.as_ptr(),
                d = in(reg) d,
                n = inout(reg) n => _,
            );
        };
    }
    ymm_aes!(ymm_aes_10, "1,2,3,4,5,6,7,8,9,10");
    ymm_aes!(ymm_aes_14, "1,2,3,4,5,6,7,8,9,10,11,12,13,14");

    /// Defines `$name(c, src, dst)`: ymm ECB.
    macro_rules! ymm_ecb {
        ($name:ident, $rounds:literal, $last:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES and AVX2; `s` readable and `d` writable for `n` groups of 256
                /// bytes.
                $name(c, _, s, d, n): ymm,
                "vbroadcasti128 ymm14, [{rk}]",
                "2:",
                ".irp j,0,1,2,3,4,5,6,7",
                "vpxor ymm\\j, ymm14, [{s} + 32*\\j]",
                ".endr",
                ymm_rounds!($rounds, "0,1,2,3,4,5,6,7"),
                concat!("vbroadcasti128 ymm15, [{rk} + 16*", $last, "]"),
                ymm_last_round_store!("", "ymm15"),
                next_group!("32", "8"),
                rk = in(reg) c.rk.as_ptr(),
                s = inout(reg) s => _,
                d = inout(reg) d => _,
                n = inout(reg) n => _,
            );
        };
    }
    ymm_ecb!(ymm_ecb_10, "1,2,3,4,5,6,7,8,9", "10");
    ymm_ecb!(ymm_ecb_14, "1,2,3,4,5,6,7,8,9,10,11,12,13", "14");

    /// Defines `$name(c, w, src, dst)`: ymm XTS in the VEX form.
    macro_rules! ymm_xts_vex {
        ($name:ident, $rest:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES, VPCLMULQDQ and AVX2; `w` two buffers of 256 bytes (the current
                /// tweaks first), readable and writable (`cur` and `nxt` swap each group and
                /// are back where they started after the even number `n` of groups); `s`
                /// readable and `d` writable for `n` groups of 256 bytes.
                $name(c, w, s, d, n): ymm,
                "vbroadcasti128 ymm12, [{k0r}]",
                "vbroadcasti128 ymm13, [{kf}]",
                "vbroadcasti128 ymm14, [{poly}]",
                "lea {nxt}, [{cur} + 256]",
                "2:",
                ".irp j,0,1,2,3,4,5,6,7",
                "vpxor ymm\\j, ymm12, [{s} + 32*\\j]",
                "vpxor ymm\\j, ymm\\j, [{cur} + 32*\\j]",
                ".endr",
                ".irp r,1,2,3,4,5,6,7,8",
                "vbroadcasti128 ymm15, [{rk} + 16*\\r]",
                ".irp j,0,1,2,3,4,5,6,7",
                "vaesenc ymm\\j, ymm\\j, ymm15",
                ".endr",
                "vmovdqu ymm8, [{cur} + 32*(\\r-1)]",
                "vpsrldq ymm9, ymm8, 14",
                "vpclmulqdq ymm9, ymm9, ymm14, 0",
                "vpslldq ymm8, ymm8, 2",
                "vpxor ymm8, ymm8, ymm9",
                "vpxor ymm8, ymm8, ymm13",
                "vmovdqu [{nxt} + 32*(\\r-1)], ymm8",
                ".endr",
                ymm_rounds!($rest, "0,1,2,3,4,5,6,7"),
                ymm_last_round_store!("vmovdqu ymm8, [{cur} + 32*\\j]", "ymm8"),
                "xchg {cur}, {nxt}",
                next_group!("32", "8"),
                rk = in(reg) c.rk.as_ptr(),
                k0r = in(reg) c.k0r.as_ptr(),
                kf = in(reg) c.kf.as_ptr(),
                poly = in(reg) c.poly.as_ptr(),
                cur = inout(reg) w => _,
                nxt = out(reg) _,
                s = inout(reg) s => _,
                d = inout(reg) d => _,
                n = inout(reg) n => _,
            );
        };
    }
    ymm_xts_vex!(ymm_xts_vex_10, "9");
    ymm_xts_vex!(ymm_xts_vex_14, "9,10,11,12,13");

    /// Defines `$name(c, w, src, dst)`: XTS (or, without `w`, ECB or AES alone) in the
    /// EVEX form on `$v` registers of `$lanes` blocks: states 0-7, w 20-27, the keys of
    /// rounds 1.. in `$keys`, k0r in 8, kf in 9, 0x87 in 31.
    macro_rules! evex {
        (xts $name:ident, $v:literal, $lanes:literal, $keys:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES, VPCLMULQDQ and AVX-512 F/VL; `w` 8 registers of the width, readable
                /// and writable; `s` readable and `d` writable for `n` groups.
                $name(c, w, s, d, n): zmm,
                evex_keys!($v, $keys),
                concat!("vbroadcasti32x4 ", $v, "8, [{k0r}]"),
                concat!("vbroadcasti32x4 ", $v, "9, [{kf}]"),
                concat!("vbroadcasti32x4 ", $v, "31, [{poly}]"),
                ".irp j,0,1,2,3,4,5,6,7",
                concat!("vmovdqu64 ", $v, "2\\j, [{w} + 16*", $lanes, "*\\j]"),
                ".endr",
                "2:",
                ".irp j,0,1,2,3,4,5,6,7",
                concat!("vmovdqu64 ", $v, "\\j, [{s} + 16*", $lanes, "*\\j]"),
                concat!("vpternlogd ", $v, "\\j, ", $v, "2\\j, ", $v, "8, 0x96"),
                ".endr",
                evex_rounds!($v, $keys, "0,1,2,3,4,5,6,7"),
                last_round_store!($v, $lanes, "2\\j"),
                ".irp j,0,1,2,3,4,5,6,7",
                concat!("vpsrldq ", $v, "\\j, ", $v, "2\\j, 16-", $lanes),
                concat!("vpclmulqdq ", $v, "\\j, ", $v, "\\j, ", $v, "31, 0"),
                concat!("vpslldq ", $v, "2\\j, ", $v, "2\\j, ", $lanes),
                concat!("vpternlogd ", $v, "2\\j, ", $v, "\\j, ", $v, "9, 0x96"),
                ".endr",
                next_group!("128", $lanes),
                ".irp j,0,1,2,3,4,5,6,7",
                concat!("vmovdqu64 [{w} + 16*", $lanes, "*\\j], ", $v, "2\\j"),
                ".endr",
                "vzeroupper",
                rk = in(reg) c.rk.as_ptr(),
                k0r = in(reg) c.k0r.as_ptr(),
                kf = in(reg) c.kf.as_ptr(),
                poly = in(reg) c.poly.as_ptr(),
                w = in(reg) w,
                s = inout(reg) s => _,
                d = inout(reg) d => _,
                n = inout(reg) n => _,
            );
        };
        (ecb $name:ident, $v:literal, $lanes:literal, $keys:literal, $last:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES and AVX-512 F/VL; `s` readable and `d` writable for `n` groups.
                $name(c, _, s, d, n): zmm,
                evex_keys!($v, $keys),
                concat!("vbroadcasti32x4 ", $v, "8, [{rk}]"),
                concat!("vbroadcasti32x4 ", $v, "9, [{rk} + 16*", $last, "]"),
                "2:",
                ".irp j,0,1,2,3,4,5,6,7",
                concat!("vpxorq ", $v, "\\j, ", $v, "8, [{s} + 16*", $lanes, "*\\j]"),
                ".endr",
                evex_rounds!($v, $keys, "0,1,2,3,4,5,6,7"),
                last_round_store!($v, $lanes, "9"),
                next_group!("128", $lanes),
                "vzeroupper",
                rk = in(reg) c.rk.as_ptr(),
                s = inout(reg) s => _,
                d = inout(reg) d => _,
                n = inout(reg) n => _,
            );
        };
        (aes $name:ident, $v:literal, $keys:literal) => {
            probe_loop!(
                /// # Safety
                /// VAES and AVX-512 F/VL; `d` writable for 64 bytes (the first state, written
                /// once).
                $name(c, _, _, d, n): zmm,
                evex_keys!($v, $keys),
                "2:",
                evex_rounds!($v, $keys, "0,1,2,3,4,5,6,7,8,9,10,11"),
                "dec {n}",
                "jnz 2b",
                concat!("vmovdqu64 [{d}], ", $v, "0"),
                "vzeroupper",
                rk = in(reg) c.rk.as_ptr(),
                d = in(reg) d,
                n = inout(reg) n => _,
            );
        };
    }
    // The keys of rounds 1..R-1: registers 10-19, then 28-30 (20-27 hold w, 31 the 0x87).
    evex!(xts ymm_xts_evex_10, "ymm", "2", "10,11,12,13,14,15,16,17,18");
    evex!(xts ymm_xts_evex_14, "ymm", "2", "10,11,12,13,14,15,16,17,18,19,28,29,30");
    evex!(xts zmm_xts_10, "zmm", "4", "10,11,12,13,14,15,16,17,18");
    evex!(xts zmm_xts_14, "zmm", "4", "10,11,12,13,14,15,16,17,18,19,28,29,30");
    evex!(ecb zmm_ecb_10, "zmm", "4", "10,11,12,13,14,15,16,17,18", "10");
    evex!(ecb zmm_ecb_14, "zmm", "4", "10,11,12,13,14,15,16,17,18,19,28,29,30", "14");
    // (The AES alone: states 0-11, the keys from 12.)
    evex!(aes zmm_aes_10, "zmm", "12,13,14,15,16,17,18,19,20,21");
    evex!(aes zmm_aes_14, "zmm", "12,13,14,15,16,17,18,19,20,21,22,23,24,25");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(form: Form, rounds: usize) -> Option<Probe> {
        let p = Probe::new(form, rounds, 4096);
        if p.is_none() {
            eprintln!(
                "skipped: this CPU lacks the instructions of {}",
                form.name()
            );
        }
        p
    }

    /// The tweak step is multiplication by x^(8L) (with kf, in the w form): after one run
    /// the tweaks are the first ones times x^(8 L) per group run.
    #[test]
    fn the_xts_probes_step_their_tweaks_by_the_group() {
        for form in [Form::YmmXtsVex, Form::YmmXtsEvex, Form::ZmmXts] {
            for rounds in [10, 14] {
                let Some(mut p) = probe(form, rounds) else {
                    continue;
                };
                let lanes = (form.group_bytes() / 128) as u32;
                let kr = u128::from_le_bytes(p.consts.rk[rounds]);
                let before = p.tweaks().to_vec();
                p.process_one();
                let after = p.tweaks().to_vec();
                for (b, a) in before.chunks(16).zip(after.chunks(16)) {
                    let t = u128::from_le_bytes(b.try_into().unwrap()) ^ kr;
                    let groups = (p.bytes() / form.group_bytes()) as u32;
                    let want = mul_x(t, 8 * lanes * groups) ^ kr;
                    assert_eq!(u128::from_le_bytes(a.try_into().unwrap()), want, "{form:?}");
                }
            }
        }
    }

    /// The VEX and EVEX forms of ymm XTS compute the same bytes; zmm XTS the same bytes
    /// over twice the blocks (its tweaks continue those of the ymm group before).
    #[test]
    fn the_xts_forms_agree() {
        for rounds in [10, 14] {
            let (Some(mut vex), Some(mut evex), Some(mut zmm)) = (
                probe(Form::YmmXtsVex, rounds),
                probe(Form::YmmXtsEvex, rounds),
                probe(Form::ZmmXts, rounds),
            ) else {
                continue;
            };
            vex.process_one();
            evex.process_one();
            zmm.process_one();
            assert_ne!(vex.output(), &vec![0u8; vex.output().len()][..]);
            assert_eq!(vex.output(), evex.output(), "VEX and EVEX, {rounds} rounds");
            // zmm's blocks: the same source bytes; 32 blocks a group, tweaks T_0 x^i.
            let n = vex.output().len();
            assert_eq!(&zmm.src[..n], &vex.src[..n]);
            assert_eq!(
                &zmm.output()[..n],
                vex.output(),
                "zmm and ymm, {rounds} rounds"
            );
        }
    }

    /// ECB and the AES-alone loops run and write.
    #[test]
    fn the_other_probes_run() {
        for form in [Form::YmmAes, Form::YmmEcb, Form::ZmmAes, Form::ZmmEcb] {
            let Some(mut p) = probe(form, 10) else {
                continue;
            };
            p.process_one();
            assert!(p.output().iter().any(|&b| b != 0), "{form:?}");
        }
        let (Some(mut y), Some(mut z)) = (probe(Form::YmmEcb, 14), probe(Form::ZmmEcb, 14)) else {
            return;
        };
        y.process_one();
        z.process_one();
        assert_eq!(y.output(), &z.output()[..y.output().len()]);
    }
}
