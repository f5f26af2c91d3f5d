//! AES block core: the chosen backend against the portable one and RustCrypto `aes`, the
//! decrypt round trip, and the `cipher` trait impls (`simdcrypt::Aes128/192/256`).
#![no_main]

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use libfuzzer_sys::fuzz_target;
use simdcrypt::{Aes, Backend};
use simdcrypt_fuzz::aes::Input;

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = Aes::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];
    let Ok(aes) = Aes::with_backend(&inp.key, b) else {
        assert!(![16, 24, 32].contains(&inp.key.len()), "valid key rejected");
        return;
    };
    let portable = Aes::with_backend(&inp.key, Backend::Portable).unwrap();
    let mut x = inp.blocks.clone();
    aes.encrypt_blocks(&mut x);
    let mut y = inp.blocks.clone();
    portable.encrypt_blocks(&mut y);
    assert_eq!(x, y, "{b} vs portable");
    let mut z = inp.blocks.clone();
    macro_rules! rc {
        ($t:ty) => {{
            let c = <$t>::new_from_slice(&inp.key).unwrap();
            for blk in z.iter_mut() {
                let blk: &mut aes::Block = blk.into();
                c.encrypt_block(blk);
            }
        }};
    }
    match inp.key.len() {
        16 => rc!(aes::Aes128),
        24 => rc!(aes::Aes192),
        _ => rc!(aes::Aes256),
    }
    assert_eq!(x, z, "{b} vs RustCrypto");

    // The `cipher` trait impls on the same backend: the blocks at once (the backend's
    // parallel path) and one at a time, both directions.
    macro_rules! traits {
        ($t:ty) => {{
            use cipher::{BlockCipherDecrypt, BlockCipherEncrypt};
            let c = <$t>::with_backend(inp.key[..].try_into().unwrap(), b).unwrap();
            let mut w: Vec<cipher::Block<$t>> = inp.blocks.iter().map(|b| (*b).into()).collect();
            c.encrypt_blocks(&mut w);
            let flat: Vec<[u8; 16]> = w.iter().map(|b| (*b).into()).collect();
            assert_eq!(flat, x, "{b} cipher trait encrypt_blocks");
            for (i, blk) in inp.blocks.iter().enumerate() {
                let mut one: cipher::Block<$t> = (*blk).into();
                c.encrypt_block(&mut one);
                assert_eq!(<[u8; 16]>::from(one), x[i], "{b} cipher trait encrypt_block");
                c.decrypt_block(&mut one);
                assert_eq!(<[u8; 16]>::from(one), *blk, "{b} cipher trait decrypt_block");
            }
            c.decrypt_blocks(&mut w);
            let flat: Vec<[u8; 16]> = w.iter().map(|b| (*b).into()).collect();
            assert_eq!(flat, inp.blocks, "{b} cipher trait decrypt_blocks");
        }};
    }
    match inp.key.len() {
        16 => traits!(simdcrypt::Aes128),
        24 => traits!(simdcrypt::Aes192),
        _ => traits!(simdcrypt::Aes256),
    }

    aes.decrypt_blocks(&mut x);
    assert_eq!(x, inp.blocks, "{b} round trip");
});
