//! One hot loop, run a given number of times, for counting the instructions it executes
//! per block under an instruction-counting emulator (`.ci/insn-count`: qemu-user's
//! execution trace). Each row runs simdcrypt's automatic backend or RustCrypto's crate
//! (`aes`, `xts-mode`, `cbc`, `sha1`, which on AArch64 take their ARMv8 code) on the same
//! data; the counter subtracts a run of one repetition from a run of many, so set-up and
//! process start cancel out.
//!
//! ```text
//! insn_count <row> <bytes> <reps>
//! rows: ecb xts cbc-dec cbc-enc sha1, each as simdcrypt-<row> or rustcrypto-<row>
//! ```

use std::hint::black_box;

use aes::cipher::{BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit};
use sha1::Digest;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, row, bytes, reps] = &args[..] else {
        eprintln!(
            "usage: insn_count <simdcrypt|rustcrypto>-<ecb|xts|cbc-dec|cbc-enc|sha1> <bytes> <reps>"
        );
        std::process::exit(2);
    };
    let (bytes, reps): (usize, usize) = (bytes.parse().unwrap(), reps.parse().unwrap());
    let key: [u8; 32] = core::array::from_fn(|i| i as u8 * 7 + 1);
    let mut data = vec![0x5au8; bytes];
    let iv = [3u8; 16];
    match row.as_str() {
        "simdcrypt-ecb" => {
            let aes = simdcrypt::Aes::new(&key[..16]).unwrap();
            let blocks = data.as_chunks_mut::<16>().0;
            for _ in 0..reps {
                aes.encrypt_blocks(black_box(&mut *blocks));
            }
        }
        "rustcrypto-ecb" => {
            let aes = aes::Aes128::new(&key[..16].try_into().unwrap());
            let blocks: &mut [aes::Block] = aes::Block::slice_as_chunks_mut(&mut data).0;
            for _ in 0..reps {
                aes.encrypt_blocks(black_box(&mut *blocks));
            }
        }
        "simdcrypt-xts" => {
            let xts = simdcrypt::Xts::new(&key).unwrap();
            for _ in 0..reps {
                xts.encrypt_sector(black_box(&mut data), 1).unwrap();
            }
        }
        "rustcrypto-xts" => {
            let c1 = aes::Aes128::new(&key[..16].try_into().unwrap());
            let c2 = aes::Aes128::new(&key[16..].try_into().unwrap());
            let xts = xts_mode::Xts128::new(c1, c2);
            for _ in 0..reps {
                xts.encrypt_sector(black_box(&mut data), xts_mode::get_tweak_default(1));
            }
        }
        "simdcrypt-cbc-dec" | "simdcrypt-cbc-enc" => {
            let cbc = simdcrypt::Cbc::new(&key[..16]).unwrap();
            for _ in 0..reps {
                let mut v = iv;
                if row.ends_with("dec") {
                    cbc.decrypt(&mut v, black_box(&mut data)).unwrap();
                } else {
                    cbc.encrypt(&mut v, black_box(&mut data)).unwrap();
                }
            }
        }
        "rustcrypto-cbc-dec" | "rustcrypto-cbc-enc" => {
            let (key, iv) = (key[..16].try_into().unwrap(), iv.into());
            for _ in 0..reps {
                let blocks: &mut [aes::Block] = aes::Block::slice_as_chunks_mut(&mut data).0;
                if row.ends_with("dec") {
                    cbc::Decryptor::<aes::Aes128>::new(&key, &iv).decrypt_blocks(black_box(blocks));
                } else {
                    cbc::Encryptor::<aes::Aes128>::new(&key, &iv).encrypt_blocks(black_box(blocks));
                }
            }
        }
        "simdcrypt-sha1" => {
            for _ in 0..reps {
                black_box(simdcrypt::sha1(black_box(&data)));
            }
        }
        "rustcrypto-sha1" => {
            for _ in 0..reps {
                black_box(sha1::Sha1::digest(black_box(&data)));
            }
        }
        _ => {
            eprintln!("unknown row {row}");
            std::process::exit(2);
        }
    }
    black_box(&data);
}
