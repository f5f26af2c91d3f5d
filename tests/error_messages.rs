//! Every error a public function returns names the argument at fault and the value given.
//! Each algorithm's errors are checked where the build has it.

#[cfg(feature = "cbc")]
use simdcrypt::Cbc;
#[cfg(all(feature = "cbc", feature = "sha1"))]
use simdcrypt::CbcHmacSha1;
#[cfg(feature = "xts")]
use simdcrypt::Xts;
use simdcrypt::{Aes, Backend, BackendName, Error};
#[cfg(feature = "sha1")]
use simdcrypt::{HmacSha1, Sha1};

fn msg<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    r.unwrap_err().to_string()
}

#[cfg(feature = "xts")]
#[test]
fn xts_errors_name_the_argument() {
    let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat()).unwrap();
    assert_eq!(
        msg(xts.encrypt_sector(&mut [0u8; 5], 0)),
        "data unit of 5 bytes is too short (at least 16 needed)"
    );
    assert_eq!(
        msg(xts.decrypt_with_tweak(&mut [], &[0; 16])),
        "data unit of 0 bytes is too short (at least 16 needed)"
    );
    for bad in [0, 8, 15, (1 << 24) + 1] {
        assert_eq!(
            msg(xts.encrypt_sectors(&mut [0u8; 64], bad, 0)),
            format!("sector_size of {bad} bytes is out of range (16 to 16777216 accepted)")
        );
    }
    assert_eq!(
        msg(xts.encrypt_sectors(&mut [0u8; 100], 64, 0)),
        "buffer of 100 bytes is not a whole number of 64-byte sectors"
    );
    assert_eq!(
        msg(xts.encrypt_sector_to(&[0u8; 32], &mut [0u8; 48], 0)),
        "src and dst lengths differ: 32 and 48"
    );
    let mut big = vec![0u8; (1 << 24) + 1];
    assert_eq!(
        msg(xts.encrypt_sector(&mut big, 0)),
        "data unit of 16777217 bytes is too long (at most 16777216 allowed)"
    );
    let same = simdcrypt::xts::Tweaks::plain64(3).step(1 << 64);
    assert_eq!(
        msg(xts.encrypt_sectors_with(&mut [0u8; 64], 32, same)),
        "tweak step is 0 modulo 2^64 (the counter's width): every data unit would get the \
         same tweak"
    );
    let repeats = simdcrypt::xts::Tweaks::plain(0).step(1 << 31);
    assert_eq!(
        msg(xts.encrypt_sectors_with(&mut [0u8; 48], 16, repeats)),
        "tweak step repeats after 2^1 data units of a 32-bit counter: a call of 3 units would \
         give two units the same tweak"
    );
    assert_eq!(
        msg(Xts::new(&[1u8; 48])),
        "key of 48 bytes has an invalid length (expected 32 or 64 bytes)"
    );
    assert_eq!(
        msg(Xts::new(&[1u8; 32])),
        "XTS key halves are equal (Key1 == Key2 is forbidden by SP 800-38E)"
    );
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_errors_name_the_argument() {
    let cbc = Cbc::new(&[7u8; 16]).unwrap();
    assert_eq!(
        msg(cbc.encrypt(&mut [0; 16], &mut [0u8; 20])),
        "data of 20 bytes is not a whole number of 16-byte blocks"
    );
    assert_eq!(
        msg(cbc.encrypt_cts(&[0; 16], &mut [0u8; 5])),
        "data of 5 bytes is too short (at least 16 needed)"
    );
    #[cfg(feature = "alloc")]
    {
        assert_eq!(
            msg(cbc.decrypt_padded(&[0; 16], &[])),
            "data of 0 bytes is too short (at least 16 needed)"
        );
        assert_eq!(msg(cbc.decrypt_padded(&[0; 16], &[0u8; 16])), "bad padding");
    }
    assert_eq!(
        msg(cbc.encrypt_many(&mut [[0; 16]; 2], &mut [&mut [0u8; 16][..]])),
        "ivs and bufs counts differ: 2 and 1"
    );
    assert_eq!(
        msg(Cbc::new(&[0u8; 17])),
        "key of 17 bytes has an invalid length (expected 16, 24 or 32 bytes)"
    );
}

#[cfg(feature = "sha1")]
#[test]
fn sha1_and_hmac_errors_name_the_argument() {
    assert_eq!(
        msg(simdcrypt::sha1_many(&[b"a", b"b"], &mut [[0; 20]; 3])),
        "inputs and out counts differ: 2 and 3"
    );
    let mac = HmacSha1::new(b"k");
    assert_eq!(
        msg(mac.clone().verify(&[0u8; 19])),
        "tag of 19 bytes has an invalid length (expected 20 bytes)"
    );
    assert_eq!(
        msg(mac.clone().verify_truncated(&[0u8; 10], 12)),
        "tag of 10 bytes has an invalid length (expected 12 bytes)"
    );
    assert_eq!(
        msg(mac.clone().verify_truncated(&[0u8; 9], 9)),
        "tag_len of 9 bytes is out of range (10 to 20 accepted)"
    );
    #[cfg(feature = "cbc")]
    {
        let c = CbcHmacSha1::new(&[7u8; 16], b"k").unwrap();
        assert_eq!(
            msg(c.open(&[0; 16], &mut [0u8; 32], &[0u8; 12])),
            "tag of 12 bytes has an invalid length (expected 20 bytes)"
        );
        assert_eq!(
            msg(c.open_cts_truncated(&[0; 16], &mut [0u8; 32], &[0u8; 21], 21)),
            "tag_len of 21 bytes is out of range (10 to 20 accepted)"
        );
    }
    assert_eq!(msg(mac.verify(&[0u8; 20])), "authentication tag mismatch");
}

#[test]
fn backend_errors_name_the_backend() {
    #[cfg(feature = "sha1")]
    assert_eq!(
        msg(Sha1::with_backend(Backend::AesNi)),
        "backend aesni does not implement SHA-1"
    );
    assert_eq!(
        msg(Aes::with_backend(&[0; 16], Backend::ShaNi)),
        "backend sha-ni does not implement AES"
    );
    let unknown = msg("vaes".parse::<Backend>());
    assert!(
        unknown.starts_with("unknown backend name \"vaes\" (known: portable, aesni,"),
        "{unknown}"
    );
    // A long name is kept in part, and says so.
    let long = "y".repeat(100);
    let err = long.parse::<Backend>().unwrap_err();
    assert_eq!(
        err,
        Error::UnknownBackendName {
            name: BackendName::new(&long)
        }
    );
    assert!(
        err.to_string()
            .starts_with(&format!("unknown backend name \"{}\"…", "y".repeat(32))),
        "{err}"
    );
    // Cut at a character boundary.
    let n = BackendName::new(&"é".repeat(20));
    assert_eq!(
        (n.as_str(), n.is_truncated()),
        ("é".repeat(16).as_str(), true)
    );
    #[cfg(feature = "xts")]
    for b in Xts::implemented_backends() {
        if !b.is_available() {
            assert_eq!(
                msg(Xts::with_backend(&[[1u8; 32], [2u8; 32]].concat(), *b)),
                format!("backend {b} is not available on this CPU or in this build")
            );
        }
    }
}
