//! AES block core: the chosen backend against the portable one and RustCrypto `aes`, and
//! the decrypt round trip.
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
    aes.decrypt_blocks(&mut x);
    assert_eq!(x, inp.blocks, "{b} round trip");
});
