//! `CbcHmacSha1` (stitched on `aesni-sha-ni`) against the sequential portable composition,
//! and the Kerberos AES enctypes: `decrypt` of arbitrary bytes never panics and agrees with
//! the portable backend; encrypt/decrypt round trips; altered ciphertexts and tags are
//! rejected, the buffer wiped (no unauthenticated plaintext left behind); invalid lengths
//! rejected with the buffer untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::krb5::{Aes128CtsHmacSha196, Aes256CtsHmacSha196, UsageKeys};
use simdcrypt::{Backend, CbcHmacSha1, Error};
use simdcrypt_fuzz::krb5::Input;

fn usage_keys(inp: &Input, b: Backend) -> UsageKeys {
    if inp.wide {
        Aes256CtsHmacSha196::new(&inp.key)
            .unwrap()
            .usage_keys_with_backend(inp.usage, b)
            .unwrap()
    } else {
        Aes128CtsHmacSha196::new(&inp.key[..16])
            .unwrap()
            .usage_keys_with_backend(inp.usage, b)
            .unwrap()
    }
}

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = CbcHmacSha1::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];
    let key = if inp.wide {
        &inp.key[..]
    } else {
        &inp.key[..16]
    };
    let c = CbcHmacSha1::with_backend(key, &inp.mac_key, b).unwrap();
    let p = CbcHmacSha1::with_backend(key, &inp.mac_key, Backend::Portable).unwrap();
    let data = &inp.data;

    // Stitched (or this backend's composition) against the portable sequential one.
    if data.len() >= 16 {
        let mut x = data.clone();
        let tag = c.seal_cts(&inp.iv, &mut x).unwrap();
        let mut y = data.clone();
        assert_eq!(
            tag,
            p.seal_cts(&inp.iv, &mut y).unwrap(),
            "{b} seal_cts tag"
        );
        assert_eq!(x, y, "{b} seal_cts");
        // `open_cts` takes all 20 bytes and nothing shorter or longer; the truncated form
        // the stated length, 10 to 20. Refused lengths leave the buffer untouched.
        let n = usize::from(inp.tag_len % 24);
        let mut t = tag.to_vec();
        t.resize(n, 0);
        let mut z = x.clone();
        let r = c.open_cts(&inp.iv, &mut z, &t);
        if n == 20 {
            r.unwrap();
            assert_eq!(&z, data, "{b} open_cts");
        } else {
            assert_eq!(
                r,
                Err(Error::InvalidTagLength {
                    len: n,
                    expected: 20
                })
            );
            assert_eq!(z, x, "{b} rejected tag length: buffer touched");
        }
        let mut z = x.clone();
        let r = c.open_cts_truncated(&inp.iv, &mut z, &t, n);
        if (10..=20).contains(&n) {
            r.unwrap();
            assert_eq!(&z, data, "{b} open_cts_truncated {n}");
        } else {
            assert_eq!(r, Err(Error::InvalidTruncatedTagLength { tag_len: n }));
            assert_eq!(z, x, "{b} rejected tag_len: buffer touched");
        }
        // One flipped ciphertext bit: a mismatch, the buffer wiped.
        let bit = usize::from(inp.flip) % (8 * x.len());
        let mut bad = x.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(c.open_cts(&inp.iv, &mut bad, &tag), Err(Error::TagMismatch));
        assert!(
            bad.iter().all(|&v| v == 0),
            "{b} plaintext left after a mismatch"
        );
    } else {
        let mut x = data.clone();
        let err = Error::DataTooShort {
            len: data.len(),
            min: 16,
        };
        assert_eq!(c.seal_cts(&inp.iv, &mut x), Err(err));
        assert_eq!(c.open_cts(&inp.iv, &mut x, &[0u8; 20]), Err(err));
        assert_eq!(&x, data);
    }
    let whole = &data[..data.len() / 16 * 16];
    let mut x = whole.to_vec();
    let tag = c.seal(&inp.iv, &mut x).unwrap();
    let mut y = whole.to_vec();
    assert_eq!(tag, p.seal(&inp.iv, &mut y).unwrap(), "{b} seal tag");
    assert_eq!(x, y, "{b} seal");
    c.open(&inp.iv, &mut x, &tag).unwrap();
    assert_eq!(x, whole);

    // Kerberos: decrypt of arbitrary bytes agrees with the portable backend, never panics.
    let k = usage_keys(&inp, b);
    let kp = usage_keys(&inp, Backend::Portable);
    let got = k.decrypt(data);
    assert_eq!(got, kp.decrypt(data), "{b} krb5 decrypt");
    if data.len() < 28 {
        assert_eq!(
            got,
            Err(Error::DataTooShort {
                len: data.len(),
                min: 28
            })
        );
    }
    // Encrypt round trip, equal to portable; a flipped bit is rejected.
    let ct = k.encrypt(&inp.confounder, data);
    assert_eq!(ct, kp.encrypt(&inp.confounder, data), "{b} krb5 encrypt");
    assert_eq!(k.decrypt(&ct).unwrap(), *data);
    let bit = usize::from(inp.flip) % (8 * ct.len());
    let mut bad = ct.clone();
    bad[bit / 8] ^= 1 << (bit % 8);
    assert_eq!(k.decrypt(&bad), Err(Error::TagMismatch));
    let cks = k.checksum(data);
    assert_eq!(cks, kp.checksum(data));
    k.verify_checksum(data, &cks).unwrap();
});
