//! Writes the seed corpora: `cargo run --example write-seeds -- <out_dir> [target...]`
//! creates `<out_dir>/<target>/<seed name>` for every target (or those named). Every seed
//! is decoded back with the call the fuzz target makes and must equal the value it was
//! written from; any that does not stops the writer with an error.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next().map(PathBuf::from) else {
        eprintln!("usage: write-seeds <out_dir> [target...]");
        return ExitCode::from(2);
    };
    let named: Vec<String> = args.collect();
    let targets: Vec<&str> = if named.is_empty() {
        simdcrypt_fuzz::seeds::TARGETS.to_vec()
    } else {
        named.iter().map(String::as_str).collect()
    };
    for target in targets {
        let seeds = match simdcrypt_fuzz::seeds::for_target(target) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("write-seeds: {e}");
                return ExitCode::FAILURE;
            }
        };
        let dir = out.join(target);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("write-seeds: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let mut bytes = 0;
        for s in &seeds {
            let path = dir.join(&s.name);
            if let Err(e) = std::fs::write(&path, &s.bytes) {
                eprintln!("write-seeds: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            bytes += s.bytes.len();
        }
        let max = seeds.iter().map(|s| s.bytes.len()).max().unwrap_or(0);
        println!(
            "{target}: {} seeds, {bytes} bytes (largest {max}) in {}",
            seeds.len(),
            dir.display()
        );
    }
    ExitCode::SUCCESS
}
