//! Prints what this CPU offers and the backend each algorithm picks automatically.
//!
//! `cargo run --release --example backends`, optionally with `SIMDCRYPT_BACKEND=aesni`.

use simdcrypt::{Aes, Backend, Cbc, Sha1, Xts, cpu};

/// One table row: the algorithm, its automatic backend, and every available one.
fn row(algo: &str, automatic: Backend, available: impl Iterator<Item = Backend>) {
    let list = available.map(|b| b.name()).collect::<Vec<_>>().join(", ");
    println!("{algo:<8} {:<14} {list}", automatic.name());
}

fn main() {
    println!("detected CPU features: {}", cpu::detected());
    if let Some(sig) = cpu::signature() {
        println!(
            "CPU: {:?} family {} model {} stepping {}; tuning table row: {}",
            sig.vendor,
            sig.family,
            sig.model,
            sig.stepping,
            simdcrypt::tuning_row().unwrap_or("none (the default orders)")
        );
    }
    println!(
        "automatic choice may use: {}",
        simdcrypt::automatic_features()
    );
    if let Some(p) = simdcrypt::backend_env_problem() {
        println!("SIMDCRYPT_BACKEND problem: {p}");
    }
    println!();
    println!("{:<8} {:<14} available (best first)", "algo", "automatic");
    let key = [0u8; 16];
    let aes = Aes::new(&key).expect("a 16-byte key is valid");
    row("AES", aes.backend(), Aes::available_backends());
    let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat()).expect("a valid XTS key");
    row("AES-XTS", xts.backend(), Xts::available_backends());
    let cbc = Cbc::new(&key).expect("a 16-byte key is valid");
    row("AES-CBC", cbc.backend(), Cbc::available_backends());
    row("SHA-1", Sha1::new().backend(), Sha1::available_backends());
}
