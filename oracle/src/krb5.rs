//! MIT krb5's crypto library (libk5crypto) through the C shim `shim/krb5_shim.c`: the
//! reference for the Kerberos enctypes `aes128-cts-hmac-sha1-96` (17) and
//! `aes256-cts-hmac-sha1-96` (18) and their checksums.
//!
//! Where the build found no MIT krb5 (`libkrb5-dev`), [`available`] is false and every
//! function returns `None`.

// Without MIT krb5 the wrappers compile to `None`: their arguments and helpers go unused.
#![cfg_attr(not(oracle_krb5), allow(unused_variables, unused_mut, dead_code))]

/// The enctype numbers (RFC 3962).
pub const AES128_CTS_HMAC_SHA1_96: i32 = 17;
/// The enctype numbers (RFC 3962).
pub const AES256_CTS_HMAC_SHA1_96: i32 = 18;
/// The checksum type of enctype 17.
pub const HMAC_SHA1_96_AES128: i32 = 15;
/// The checksum type of enctype 18.
pub const HMAC_SHA1_96_AES256: i32 = 16;

/// The arguments every shim call over one key and one input shares (`struct simdcrypt_krb5_in`
/// in the shim). It borrows `key` and the input for as long as it lives.
#[repr(C)]
struct In<'a> {
    enctype: i32,
    key: *const u8,
    keylen: usize,
    usage: i32,
    data: *const u8,
    len: usize,
    _borrow: core::marker::PhantomData<&'a [u8]>,
}

impl<'a> In<'a> {
    fn new(enctype: i32, key: &'a [u8], usage: u32, data: &'a [u8]) -> In<'a> {
        In {
            enctype,
            key: key.as_ptr(),
            keylen: key.len(),
            usage: usage as i32,
            data: data.as_ptr(),
            len: data.len(),
            _borrow: core::marker::PhantomData,
        }
    }
}

#[cfg(oracle_krb5)]
mod ffi {
    use super::In;

    unsafe extern "C" {
        pub fn simdcrypt_krb5_encrypt(args: &In, out: *mut u8, outlen: *mut usize) -> i32;
        pub fn simdcrypt_krb5_decrypt(args: &In, out: *mut u8, outlen: *mut usize) -> i32;
        pub fn simdcrypt_krb5_make_checksum(
            cksumtype: i32,
            args: &In,
            out: *mut u8,
            outlen: *mut usize,
        ) -> i32;
        pub fn simdcrypt_krb5_verify_checksum(
            cksumtype: i32,
            args: &In,
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
fn with_buf(cap: usize, f: impl FnOnce(*mut u8, &mut usize) -> i32) -> Option<Vec<u8>> {
    let mut out = vec![0u8; cap];
    let mut len = cap;
    if f(out.as_mut_ptr(), &mut len) != 0 || len > cap {
        return None;
    }
    out.truncate(len);
    Some(out)
}

/// `with_buf($cap, |$out, $outlen| $call)` where MIT krb5 is linked, else `None` (and
/// `$call`, which names the shim, is not compiled).
macro_rules! shim {
    ($cap:expr, |$out:ident, $outlen:ident| $call:expr) => {{
        #[cfg(oracle_krb5)]
        let r = with_buf($cap, |$out, $outlen| $call);
        #[cfg(not(oracle_krb5))]
        let r = None;
        r
    }};
}

/// `krb5_c_encrypt` (MIT picks a random confounder).
pub fn encrypt(enctype: i32, key: &[u8], usage: u32, pt: &[u8]) -> Option<Vec<u8>> {
    let args = In::new(enctype, key, usage, pt);
    // SAFETY: every pointer in `args` is valid for its length; `out` has `outlen` writable
    // bytes and the shim writes no more (it checks the length MIT needs first).
    shim!(pt.len() + 64, |out, outlen| unsafe {
        ffi::simdcrypt_krb5_encrypt(&args, out, outlen)
    })
}

/// `krb5_c_decrypt`: the plaintext without the confounder, or `None` if MIT rejects it.
pub fn decrypt(enctype: i32, key: &[u8], usage: u32, ct: &[u8]) -> Option<Vec<u8>> {
    let args = In::new(enctype, key, usage, ct);
    // SAFETY: as in `encrypt`; the plaintext is never longer than the ciphertext.
    shim!(ct.len(), |out, outlen| unsafe {
        ffi::simdcrypt_krb5_decrypt(&args, out, outlen)
    })
}

/// `krb5_c_make_checksum` with the enctype's checksum type.
pub fn make_checksum(enctype: i32, key: &[u8], usage: u32, msg: &[u8]) -> Option<Vec<u8>> {
    let args = In::new(enctype, key, usage, msg);
    // SAFETY: as in `encrypt`; the shim checks the checksum fits in `outlen`.
    shim!(64, |out, outlen| unsafe {
        ffi::simdcrypt_krb5_make_checksum(cksumtype(enctype), &args, out, outlen)
    })
}

/// `krb5_c_verify_checksum`: `Some(valid)`, or `None` if MIT returned an error.
pub fn verify_checksum(
    enctype: i32,
    key: &[u8],
    usage: u32,
    msg: &[u8],
    cksum: &[u8],
) -> Option<bool> {
    let args = In::new(enctype, key, usage, msg);
    let mut valid = 0i32;
    // SAFETY: as in `encrypt`; `valid` is a writable int.
    #[cfg(oracle_krb5)]
    let r = unsafe {
        let ck = cksumtype(enctype);
        ffi::simdcrypt_krb5_verify_checksum(ck, &args, cksum.as_ptr(), cksum.len(), &mut valid)
    };
    #[cfg(not(oracle_krb5))]
    let r = -1;
    (r == 0).then_some(valid == 1)
}

/// `krb5_c_string_to_key_with_params` with the iteration count as the parameter.
pub fn string_to_key(enctype: i32, pw: &[u8], salt: &[u8], iterations: u32) -> Option<Vec<u8>> {
    // SAFETY: as in `encrypt`; the shim checks the key fits in `outlen`.
    shim!(64, |out, outlen| unsafe {
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

fn cksumtype(enctype: i32) -> i32 {
    if enctype == AES128_CTS_HMAC_SHA1_96 {
        HMAC_SHA1_96_AES128
    } else {
        HMAC_SHA1_96_AES256
    }
}
