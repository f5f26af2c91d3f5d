//! XTS: the chosen backend against the portable one and RustCrypto `xts-mode`; single and
//! multi-sector, in place and out of place, encrypt and decrypt; rejected inputs leave the
//! buffer untouched.
#![no_main]

use aes::cipher::KeyInit;
use libfuzzer_sys::fuzz_target;
use simdcrypt::{Backend, Xts};
use simdcrypt_fuzz::xts::Input;

fn rustcrypto(key: &[u8], buf: &mut [u8], tweak: &[u8; 16], decrypt: bool) {
    let (k1, k2) = key.split_at(key.len() / 2);
    macro_rules! run {
        ($t:ty) => {{
            let x = xts_mode::Xts128::new(
                <$t>::new_from_slice(k1).unwrap(),
                <$t>::new_from_slice(k2).unwrap(),
            );
            if decrypt {
                x.decrypt_sector(buf, (*tweak).into())
            } else {
                x.encrypt_sector(buf, (*tweak).into())
            }
        }};
    }
    if key.len() == 32 {
        run!(aes::Aes128)
    } else {
        run!(aes::Aes256)
    }
}

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = Xts::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];
    let key = &inp.key[..if inp.wide_key { 64 } else { 32 }];
    let Ok(x) = Xts::with_backend(key, b) else {
        let (k1, k2) = key.split_at(key.len() / 2);
        assert_eq!(k1, k2, "a valid key was rejected");
        return;
    };
    let p = Xts::with_backend(key, Backend::Portable).unwrap();

    if !inp.multi {
        // One data unit of 16..=8192 bytes with the raw tweak.
        let len = 16 + usize::from(inp.unit_len) % (8192 - 15);
        let mut src = inp.data.clone();
        src.resize(len, 0xa5);
        let mut got = src.clone();
        let mut want = src.clone();
        if inp.decrypt {
            x.decrypt_with_tweak(&mut got, &inp.tweak).unwrap();
            p.decrypt_with_tweak(&mut want, &inp.tweak).unwrap();
        } else {
            x.encrypt_with_tweak(&mut got, &inp.tweak).unwrap();
            p.encrypt_with_tweak(&mut want, &inp.tweak).unwrap();
        }
        assert_eq!(got, want, "{b} vs portable, len {len}");
        // xts-mode handles ciphertext stealing but panics on tails it does not support;
        // compare where it accepts the length.
        let mut rc = src.clone();
        rustcrypto(key, &mut rc, &inp.tweak, inp.decrypt);
        assert_eq!(got, rc, "{b} vs xts-mode, len {len}");
        // Round trip.
        if inp.decrypt {
            x.encrypt_with_tweak(&mut got, &inp.tweak).unwrap();
        } else {
            x.decrypt_with_tweak(&mut got, &inp.tweak).unwrap();
        }
        assert_eq!(got, src, "{b} round trip");
    } else {
        // Several sectors, numbered from `sector`, in place or out of place.
        let size = 16 + usize::from(inp.sector_size) % 1024;
        let n = (inp.data.len() / size).min(16);
        let src = &inp.data[..n * size];
        let mut got = src.to_vec();
        if inp.out_of_place {
            let r = if inp.decrypt {
                x.decrypt_sectors_to(src, &mut got, size, inp.sector)
            } else {
                x.encrypt_sectors_to(src, &mut got, size, inp.sector)
            };
            r.unwrap();
        } else if inp.decrypt {
            x.decrypt_sectors(&mut got, size, inp.sector).unwrap();
        } else {
            x.encrypt_sectors(&mut got, size, inp.sector).unwrap();
        }
        for (i, (g, s)) in got.chunks(size).zip(src.chunks(size)).enumerate() {
            let mut one = s.to_vec();
            let num = inp.sector.wrapping_add(i as u128);
            if inp.decrypt {
                p.decrypt_sector(&mut one, num).unwrap();
            } else {
                p.encrypt_sector(&mut one, num).unwrap();
            }
            assert_eq!(g, &one[..], "{b} sector {i} of {n}, size {size}");
        }
        // A buffer that is not whole sectors is refused and left untouched.
        if !inp.data.len().is_multiple_of(size) {
            let mut whole = inp.data.clone();
            assert!(x.encrypt_sectors(&mut whole, size, 0).is_err());
            assert_eq!(whole, inp.data);
        }
    }
    // Too short a unit is refused, untouched.
    if inp.data.len() < 16 {
        let mut short = inp.data.clone();
        assert!(x.encrypt_sector(&mut short, inp.sector).is_err());
        assert_eq!(short, inp.data);
    }
});
