//! The XTS kernels' instruction forms, timed as hand-scheduled `asm!` loops (x86-64 with
//! VAES): how far a kernel is from what its form allows on this core, as against what the
//! kernel itself loses. See speed/README.md.
//!
//! ```sh
//! cargo run --release -p simdcrypt-speed --example mix -- [--size 64k] [--rounds 11] [--seconds 0.05]
//! ```

#[cfg(target_arch = "x86_64")]
mod probes;

use clap::Parser;

/// The probes' options.
#[derive(Parser, Debug)]
#[command(
    name = "mix",
    about = "The XTS kernels' instruction forms (VEX and EVEX on ymm, zmm) as hand-scheduled \
loops next to the AES alone, ECB and the backends (x86-64 with VAES)"
)]
struct Args {
    /// Interleaved rounds (the figures are their medians).
    #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// Seconds of CPU time per probe per round.
    #[arg(long, value_name = "S", default_value_t = 0.05, value_parser = simdcrypt_speed::cli::parse_seconds)]
    seconds: f64,
    /// Bytes a run walks through: a multiple of 512 from 1k to 16m (`k` = 1024).
    #[arg(long, default_value = "64k", value_parser = parse_probe_size)]
    size: usize,
}

/// Whole zmm groups (512 bytes), at least two, and one XTS unit at most (16 MiB).
fn parse_probe_size(s: &str) -> Result<usize, String> {
    let n = simdcrypt_speed::cli::parse_size(s)?;
    if !(1024..=16 << 20).contains(&n) || !n.is_multiple_of(512) {
        return Err(format!("{n} is not a multiple of 512 from 1k to 16m"));
    }
    Ok(n)
}

fn main() {
    let args = Args::parse();
    #[cfg(target_arch = "x86_64")]
    std::process::exit(probes::mix_main(
        args.rounds,
        std::time::Duration::from_secs_f64(args.seconds),
        args.size,
    ));
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = args;
        eprintln!("mix: the probes are x86-64 assembly; nothing to run here");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_options() {
        let a = Args::try_parse_from(["mix", "--rounds", "3", "--size", "16k"]).unwrap();
        assert_eq!((a.rounds, a.size, a.seconds), (3, 16384, 0.05));
        assert!(Args::try_parse_from(["mix", "--rounds", "0"]).is_err());
        for bad in [["--seconds", "-1"], ["--seconds", "nan"]] {
            assert!(Args::try_parse_from(["mix", bad[0], bad[1]]).is_err());
        }
        for bad in ["512", "1000", "32m"] {
            assert!(
                Args::try_parse_from(["mix", "--size", bad]).is_err(),
                "{bad}"
            );
        }
    }
}
