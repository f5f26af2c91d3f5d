//! CBC: the chosen backend against the portable one and RustCrypto `cbc`/`cts`: chained
//! calls, PKCS#7 (and corrupted padding against a by-hand check), CS3 stealing (and its
//! refusal under 16 bytes), `encrypt_many` past its 64-stream window and its count and
//! length errors, and rejection with buffers untouched.
#![no_main]

use cbc::cipher::{BlockModeEncrypt, KeyIvInit, block_padding::NoPadding};
use libfuzzer_sys::fuzz_target;
use simdcrypt::{Backend, Cbc, Error};
use simdcrypt_fuzz::cbc::Input;

fn rustcrypto_cbc(key: &[u8], iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
    macro_rules! run {
        ($t:ty) => {
            cbc::Encryptor::<$t>::new_from_slices(key, iv)
                .unwrap()
                .encrypt_padded_vec::<NoPadding>(data)
        };
    }
    match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        _ => run!(aes::Aes256),
    }
}

/// `decrypt_padded` of `ct` against a plain decryption checked by hand: the plaintext
/// without its padding when the last block ends in `k` bytes of `k` (1..=16), else
/// `BadPadding`.
fn check_padded(c: &Cbc, iv: &[u8; 16], ct: &[u8], b: Backend) {
    let mut raw = ct.to_vec();
    c.decrypt(&mut iv.clone(), &mut raw).unwrap();
    let k = usize::from(raw[raw.len() - 1]);
    let valid = (1..=16).contains(&k) && raw[raw.len() - k..].iter().all(|&x| usize::from(x) == k);
    match c.decrypt_padded(iv, ct) {
        Ok(v) => {
            assert!(valid, "{b}: bad padding accepted");
            assert_eq!(v, raw[..raw.len() - k], "{b}: padded plaintext");
        }
        Err(e) => {
            assert!(!valid, "{b}: good padding refused");
            assert_eq!(e, Error::BadPadding, "{b}");
        }
    }
}

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = Cbc::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];
    let key = &inp.key[..[16, 24, 32][usize::from(inp.key_size) % 3]];
    let c = Cbc::with_backend(key, b).unwrap();
    let p = Cbc::with_backend(key, Backend::Portable).unwrap();

    // Whole blocks, split into successive chained calls.
    let whole = &inp.data[..inp.data.len() / 16 * 16];
    let want = rustcrypto_cbc(key, &inp.iv, whole);
    let mut got = whole.to_vec();
    let mut iv = inp.iv;
    let mut rest = &mut got[..];
    for s in inp.splits.iter().chain(std::iter::once(&255)) {
        let n = (usize::from(*s) * 16).min(rest.len());
        let (head, tail) = rest.split_at_mut(n);
        c.encrypt(&mut iv, head).unwrap();
        rest = tail;
    }
    c.encrypt(&mut iv, rest).unwrap();
    assert_eq!(got, want, "{b} chained encrypt");
    let mut back = got.clone();
    c.decrypt(&mut inp.iv.clone(), &mut back).unwrap();
    assert_eq!(back, whole, "{b} decrypt");

    // A length that is not whole blocks is rejected, the buffer untouched.
    if !inp.data.len().is_multiple_of(16) {
        let mut x = inp.data.clone();
        let mut iv2 = inp.iv;
        assert!(c.encrypt(&mut iv2, &mut x).is_err());
        assert!(c.decrypt(&mut iv2, &mut x).is_err());
        assert_eq!(x, inp.data);
        assert_eq!(iv2, inp.iv);
    }

    // PKCS#7 round trip, equal across backends; corrupted padding is one error.
    let ct = c.encrypt_padded(&inp.iv, &inp.data);
    assert_eq!(ct, p.encrypt_padded(&inp.iv, &inp.data), "{b} padded");
    assert_eq!(c.decrypt_padded(&inp.iv, &ct).unwrap(), inp.data);
    // A bit flipped in the last two blocks: what `decrypt_padded` answers must be what a
    // plain decryption and a by-hand PKCS#7 check say (valid padding can survive the flip).
    let mut bad = ct.clone();
    let at = bad.len() - 1 - usize::from(inp.corrupt) % bad.len().min(32);
    bad[at] ^= 1 << ((inp.corrupt >> 8) % 8);
    check_padded(&c, &inp.iv, &bad, b);
    // The data itself as a ciphertext (mostly bad padding), and the length errors.
    if inp.data.len().is_multiple_of(16) && !inp.data.is_empty() {
        check_padded(&c, &inp.iv, &inp.data, b);
    } else if inp.data.is_empty() {
        assert_eq!(
            c.decrypt_padded(&inp.iv, &inp.data),
            Err(Error::DataTooShort { len: 0, min: 16 })
        );
    } else {
        assert_eq!(
            c.decrypt_padded(&inp.iv, &inp.data),
            Err(Error::NotBlockMultiple { len: inp.data.len() })
        );
    }

    // CS3 for every length >= 16, against the portable backend; 17+ against RustCrypto.
    if inp.data.len() >= 16 {
        let mut x = inp.data.clone();
        c.encrypt_cts(&inp.iv, &mut x).unwrap();
        let mut y = inp.data.clone();
        p.encrypt_cts(&inp.iv, &mut y).unwrap();
        assert_eq!(x, y, "{b} cts");
        if inp.data.len() > 16 {
            use cts::{Encrypt, KeyIvInit};
            let mut z = inp.data.clone();
            match key.len() {
                16 => cts::CbcCs3::<aes::Aes128>::new_from_slices(key, &inp.iv)
                    .unwrap()
                    .encrypt(&mut z),
                24 => cts::CbcCs3::<aes::Aes192>::new_from_slices(key, &inp.iv)
                    .unwrap()
                    .encrypt(&mut z),
                _ => cts::CbcCs3::<aes::Aes256>::new_from_slices(key, &inp.iv)
                    .unwrap()
                    .encrypt(&mut z),
            }
            .unwrap();
            assert_eq!(x, z, "{b} cts vs RustCrypto");
        }
        c.decrypt_cts(&inp.iv, &mut x).unwrap();
        assert_eq!(x, inp.data, "{b} cts round trip");
    } else {
        // Under one block: refused, the buffer untouched.
        let want = Err(Error::DataTooShort { len: inp.data.len(), min: 16 });
        let mut x = inp.data.clone();
        assert_eq!(c.encrypt_cts(&inp.iv, &mut x), want);
        assert_eq!(c.decrypt_cts(&inp.iv, &mut x), want);
        assert_eq!(x, inp.data, "{b} short cts touched the buffer");
    }

    // Many streams equal single calls; the given ones repeated past the 64-stream window.
    let given: Vec<Vec<u8>> = inp
        .streams
        .iter()
        .take(20)
        .map(|s| s[..s.len() / 16 * 16].to_vec())
        .collect();
    let mut streams: Vec<Vec<u8>> = (0..1 + usize::from(inp.copies) % 4)
        .flat_map(|_| given.iter().cloned())
        .collect();
    let mut ivs: Vec<[u8; 16]> = (0..streams.len())
        .map(|i| [i as u8 ^ inp.iv[0]; 16])
        .collect();
    let mut want_ivs = ivs.clone();
    let want: Vec<Vec<u8>> = streams
        .iter()
        .zip(want_ivs.iter_mut())
        .map(|(s, iv)| {
            let mut x = s.clone();
            p.encrypt(iv, &mut x).unwrap();
            x
        })
        .collect();
    // Misuse first: refused with every IV and stream untouched.
    let n = streams.len();
    match inp.bad % 3 {
        1 if n > 0 => {
            let (mut ivs2, mut s2) = (ivs[..n - 1].to_vec(), streams.clone());
            let mut refs: Vec<&mut [u8]> = s2.iter_mut().map(|s| &mut s[..]).collect();
            assert_eq!(
                c.encrypt_many(&mut ivs2, &mut refs),
                Err(Error::LengthMismatch { what: "ivs and bufs counts", left: n - 1, right: n })
            );
            assert_eq!((ivs2, s2), (ivs[..n - 1].to_vec(), streams.clone()), "{b} many count");
        }
        2 if n > 0 => {
            let (mut ivs2, mut s2) = (ivs.clone(), streams.clone());
            let k = usize::from(inp.bad / 3) % n;
            s2[k].push(0xee);
            let want_s = s2.clone();
            let mut refs: Vec<&mut [u8]> = s2.iter_mut().map(|s| &mut s[..]).collect();
            assert_eq!(
                c.encrypt_many(&mut ivs2, &mut refs),
                Err(Error::NotBlockMultiple { len: want_s[k].len() })
            );
            assert_eq!((ivs2, s2), (ivs.clone(), want_s), "{b} many ragged");
        }
        _ => {}
    }
    let mut refs: Vec<&mut [u8]> = streams.iter_mut().map(|s| &mut s[..]).collect();
    c.encrypt_many(&mut ivs, &mut refs).unwrap();
    assert_eq!(streams, want, "{b} encrypt_many");
    assert_eq!(ivs, want_ivs, "{b} encrypt_many ivs");
});
