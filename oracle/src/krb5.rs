//! MIT krb5's crypto library (libk5crypto) through the C shim `shim/krb5_shim.c`: the
//! reference for the Kerberos enctypes `aes128-cts-hmac-sha1-96` (17) and
//! `aes256-cts-hmac-sha1-96` (18) and their checksums.
//!
//! Where the build found no MIT krb5 (`libkrb5-dev`), [`available`] is false and every
//! function returns `None`.

/// The enctype numbers (RFC 3962).
pub const AES128_CTS_HMAC_SHA1_96: i32 = 17;
/// The enctype numbers (RFC 3962).
pub const AES256_CTS_HMAC_SHA1_96: i32 = 18;
/// The checksum type of enctype 17.
pub const HMAC_SHA1_96_AES128: i32 = 15;
/// The checksum type of enctype 18.
pub const HMAC_SHA1_96_AES256: i32 = 16;

#[cfg(oracle_krb5)]
mod ffi {
    unsafe extern "C" {
        pub fn simdcrypt_krb5_encrypt(
            enctype: i32,
            key: *const u8,
            keylen: usize,
            usage: i32,
            pt: *const u8,
            ptlen: usize,
            out: *mut u8,
            outlen: *mut usize,
        ) -> i32;
        pub fn simdcrypt_krb5_decrypt(
            enctype: i32,
            key: *const u8,
            keylen: usize,
            usage: i32,
            ct: *const u8,
            ctlen: usize,
            out: *mut u8,
            outlen: *mut usize,
        ) -> i32;
        pub fn simdcrypt_krb5_make_checksum(
            cksumtype: i32,
            enctype: i32,
            key: *const u8,
            keylen: usize,
            usage: i32,
            msg: *const u8,
            len: usize,
            out: *mut u8,
            outlen: *mut usize,
        ) -> i32;
        pub fn simdcrypt_krb5_verify_checksum(
            cksumtype: i32,
            enctype: i32,
            key: *const u8,
            keylen: usize,
            usage: i32,
            msg: *const u8,
            len: usize,
            ck: *const u8,
            cklen: usize,
            valid: *mut i32,
        ) -> i32;
        pub fn simdcrypt_krb5_string_to_key(
            enctype: i32,
            pw: *const u8,
            pwlen: usize,
            salt: *const u8,
            saltlen: usize,
            iterations: u32,
            out: *mut u8,
            outlen: *mut usize,
        ) -> i32;
    }
}

/// Whether this build links MIT krb5.
pub fn available() -> bool {
    cfg!(oracle_krb5)
}

/// Runs a shim call that writes at most `cap` bytes into a buffer; `None` on any error.
#[cfg_attr(not(oracle_krb5), allow(dead_code))]
fn with_buf(cap: usize, f: impl FnOnce(*mut u8, &mut usize) -> i32) -> Option<Vec<u8>> {
    let mut out = vec![0u8; cap];
    let mut len = cap;
    if f(out.as_mut_ptr(), &mut len) != 0 || len > cap {
        return None;
    }
    out.truncate(len);
    Some(out)
}

/// `krb5_c_encrypt` (MIT picks a random confounder).
pub fn encrypt(enctype: i32, key: &[u8], usage: u32, pt: &[u8]) -> Option<Vec<u8>> {
    #[cfg(oracle_krb5)]
    {
        // SAFETY: every pointer is valid for its length; `out` has `outlen` writable
        // bytes and the shim writes no more (it checks the length MIT needs first).
        with_buf(pt.len() + 64, |out, outlen| unsafe {
            ffi::simdcrypt_krb5_encrypt(
                enctype,
                key.as_ptr(),
                key.len(),
                usage as i32,
                pt.as_ptr(),
                pt.len(),
                out,
                outlen,
            )
        })
    }
    #[cfg(not(oracle_krb5))]
    {
        let _ = (enctype, key, usage, pt);
        None
    }
}

/// `krb5_c_decrypt`: the plaintext without the confounder, or `None` if MIT rejects it.
pub fn decrypt(enctype: i32, key: &[u8], usage: u32, ct: &[u8]) -> Option<Vec<u8>> {
    #[cfg(oracle_krb5)]
    {
        // SAFETY: as in `encrypt`; the plaintext is never longer than the ciphertext.
        with_buf(ct.len(), |out, outlen| unsafe {
            ffi::simdcrypt_krb5_decrypt(
                enctype,
                key.as_ptr(),
                key.len(),
                usage as i32,
                ct.as_ptr(),
                ct.len(),
                out,
                outlen,
            )
        })
    }
    #[cfg(not(oracle_krb5))]
    {
        let _ = (enctype, key, usage, ct);
        None
    }
}

/// `krb5_c_make_checksum` with the enctype's checksum type.
pub fn make_checksum(enctype: i32, key: &[u8], usage: u32, msg: &[u8]) -> Option<Vec<u8>> {
    #[cfg(oracle_krb5)]
    {
        let ck = cksumtype(enctype);
        // SAFETY: as in `encrypt`; the shim checks the checksum fits in `outlen`.
        with_buf(64, |out, outlen| unsafe {
            ffi::simdcrypt_krb5_make_checksum(
                ck,
                enctype,
                key.as_ptr(),
                key.len(),
                usage as i32,
                msg.as_ptr(),
                msg.len(),
                out,
                outlen,
            )
        })
    }
    #[cfg(not(oracle_krb5))]
    {
        let _ = (enctype, key, usage, msg);
        None
    }
}

/// `krb5_c_verify_checksum`: `Some(valid)`, or `None` if MIT returned an error.
pub fn verify_checksum(
    enctype: i32,
    key: &[u8],
    usage: u32,
    msg: &[u8],
    cksum: &[u8],
) -> Option<bool> {
    #[cfg(oracle_krb5)]
    {
        let mut valid = 0i32;
        // SAFETY: every pointer is valid for its length; `valid` is a writable int.
        let r = unsafe {
            ffi::simdcrypt_krb5_verify_checksum(
                cksumtype(enctype),
                enctype,
                key.as_ptr(),
                key.len(),
                usage as i32,
                msg.as_ptr(),
                msg.len(),
                cksum.as_ptr(),
                cksum.len(),
                &mut valid,
            )
        };
        (r == 0).then_some(valid == 1)
    }
    #[cfg(not(oracle_krb5))]
    {
        let _ = (enctype, key, usage, msg, cksum);
        None
    }
}

/// `krb5_c_string_to_key_with_params` with the iteration count as the parameter.
pub fn string_to_key(enctype: i32, pw: &[u8], salt: &[u8], iterations: u32) -> Option<Vec<u8>> {
    #[cfg(oracle_krb5)]
    {
        // SAFETY: as in `encrypt`; the shim checks the key fits in `outlen`.
        with_buf(64, |out, outlen| unsafe {
            ffi::simdcrypt_krb5_string_to_key(
                enctype,
                pw.as_ptr(),
                pw.len(),
                salt.as_ptr(),
                salt.len(),
                iterations,
                out,
                outlen,
            )
        })
    }
    #[cfg(not(oracle_krb5))]
    {
        let _ = (enctype, pw, salt, iterations);
        None
    }
}

#[cfg_attr(not(oracle_krb5), allow(dead_code))]
fn cksumtype(enctype: i32) -> i32 {
    if enctype == AES128_CTS_HMAC_SHA1_96 {
        HMAC_SHA1_96_AES128
    } else {
        HMAC_SHA1_96_AES256
    }
}
