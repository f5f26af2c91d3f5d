//! `speed`: simdcrypt's kernels next to OpenSSL, RustCrypto and the instruction ceilings.
//! See `speed --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(simdcrypt_speed::main_with_args(&args));
}
