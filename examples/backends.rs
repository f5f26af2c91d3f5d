//! Prints what this CPU offers and the backend each algorithm picks automatically.
//!
//! `cargo run --release --example backends`, optionally with `SIMDCRYPT_BACKEND=aesni`.

use simdcrypt::{Aes, Backend, Cbc, Sha1, Xts, cpu};

fn list(it: impl Iterator<Item = Backend>) -> String {
    it.map(|b| b.name()).collect::<Vec<_>>().join(", ")
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
    println!(
        "{:<8} {:<14} {}",
        "AES",
        aes.backend().name(),
        list(Aes::available_backends())
    );
    let xts = Xts::new(&[[1u8; 16], [2u8; 16]].concat()).expect("a valid XTS key");
    println!(
        "{:<8} {:<14} {}",
        "AES-XTS",
        xts.backend().name(),
        list(Xts::available_backends())
    );
    let cbc = Cbc::new(&key).expect("a 16-byte key is valid");
    println!(
        "{:<8} {:<14} {}",
        "AES-CBC",
        cbc.backend().name(),
        list(Cbc::available_backends())
    );
    println!(
        "{:<8} {:<14} {}",
        "SHA-1",
        Sha1::new().backend().name(),
        list(Sha1::available_backends())
    );
}
