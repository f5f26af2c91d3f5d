//! Unit tests of `src/krb5.rs` (left out of the package).

use super::*;

#[test]
fn nfold_rfc3961_appendix_a1() {
    // The appendix's 11 cases, one a line: the fold's width in bits, the input (to the
    // last space), then the n-fold in hex.
    const CASES: &str = "\
64 012345 be072631276b1955
56 password 78a07b6caf85fa
64 Rough Consensus, and Running Code bb6ed30870b7f0e0
168 password 59e4a8ca7c0385c3c37b3f6d2000247cb6e6bd5b3e
192 MASSACHVSETTS INSTITVTE OF TECHNOLOGY db3b0d8f0b061e603282b308a50841229ad798fab9540c1b
168 Q 518a54a215a8452a518a54a215a8452a518a54a215
168 ba fb25d531ae8974499f52fd92ea9857c4ba24cf297e
64 kerberos 6b65726265726f73
128 kerberos 6b65726265726f737b9b5b2b93132b93
168 kerberos 8372c236344e5f1550cd0747e15d62ca7a5a3bcea4
256 kerberos 6b65726265726f737b9b5b2b93132b935c9bdcdad95c9899c4cae4dee6d6cae4
";
    assert_eq!(CASES.lines().count(), 11);
    for case in CASES.lines() {
        let (bits, rest) = case.split_once(' ').expect("bits");
        let (input, want) = rest.rsplit_once(' ').expect("input and fold");
        let bits: usize = bits.parse().expect("a number of bits");
        assert_eq!(want.len() * 4, bits, "{case}");
        let mut out = [0u8; 32];
        nfold(input.as_bytes(), &mut out[..bits / 8]);
        let got: std::string::String = out[..bits / 8]
            .iter()
            .map(|b| std::format!("{b:02x}"))
            .collect();
        assert_eq!(got, want, "{bits}-fold({input:?})");
    }
}

/// The rotation of short inputs adds what picking bits one at a time adds.
#[test]
fn nfold_rotations_match_bits() {
    let mut rng = simdcrypt_testkit::Rng(3961);
    for k in 1..=16 {
        for n in [1, 5, 8, 16, 21, 32] {
            let input = rng.bytes(k);
            let mut fast = [0u8; 32];
            nfold(&input, &mut fast[..n]);
            let mut acc = [0u32; 32];
            add_bitwise(&input, k / gcd(k, n) * n, &mut acc[..n]);
            // The same end-around carry as `nfold`'s.
            end_around_carry(&mut acc[..n]);
            let slow: std::vec::Vec<u8> = acc[..n].iter().map(|&a| a as u8).collect();
            assert_eq!(fast[..n], slow[..], "{k} bytes to {n}");
        }
    }
}

/// The two-compression loop against RustCrypto's `pbkdf2` for one and two output
/// blocks, short and long (hashed) passwords, few and several iterations.
#[test]
fn pbkdf2_matches_rustcrypto() {
    let mut rng = simdcrypt_testkit::Rng(8018);
    for (pw_len, salt_len, iters, out_len) in [
        (8, 20, 1, 16),
        (65, 3, 2, 32),
        (20, 0, 7, 40),
        (100, 64, 3, 20),
        (1, 200, 33, 32),
    ] {
        let (pw, salt) = (rng.bytes(pw_len), rng.bytes(salt_len));
        let mut ours = [0u8; 40];
        crate::sha1::hmac::pbkdf2(&pw, &salt, iters, &mut ours[..out_len]);
        let mut want = [0u8; 40];
        pbkdf2::pbkdf2_hmac::<sha1::Sha1>(&pw, &salt, iters, &mut want[..out_len]);
        assert_eq!(ours, want, "{pw_len} {salt_len} {iters} {out_len}");
    }
}

#[test]
fn pbkdf2_rfc3962_appendix_b() {
    let mut out = [0u8; 32];
    pbkdf2_hmac_sha1(b"password", b"ATHENA.MIT.EDUraeburn", 2, &mut out);
    assert_eq!(
        out,
        hex_literal::hex!("01dbee7f4a9e243e988b62c73cda935da05378b93244ec8f48a99e61ad799d86")
    );
    pbkdf2_hmac_sha1(
        &[b'X'; 65],
        b"pass phrase exceeds block size",
        1200,
        &mut out,
    );
    assert_eq!(
        out,
        hex_literal::hex!("9ccad6d468770cd51b10e6a68721be611a8b4d282601db3b36be9246915ec82a")
    );
}
