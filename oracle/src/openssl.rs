//! OpenSSL's libcrypto through the C shim in `shim/`: the differential oracle for the tests
//! and the peer for the speed tool.
//!
//! Where the build found no OpenSSL, [`available`] is false, [`Cipher::new`] and
//! [`Sha1::try_new`] return `None`, and [`version`] is `None`.

use core::ffi::{c_char, c_void};

#[cfg(oracle_openssl)]
mod ffi {
    use core::ffi::{c_char, c_void};
    unsafe extern "C" {
        pub fn simdcrypt_ossl_cipher_new(
            kind: i32,
            key: *const u8,
            keylen: usize,
            enc: i32,
        ) -> *mut c_void;
        pub fn simdcrypt_ossl_cipher_free(ctx: *mut c_void);
        pub fn simdcrypt_ossl_cipher_rekey(ctx: *mut c_void, key: *const u8) -> i32;
        pub fn simdcrypt_ossl_cipher_run(
            ctx: *mut c_void,
            iv: *mut u8,
            input: *const u8,
            out: *mut u8,
            len: usize,
        ) -> i32;
        pub fn simdcrypt_ossl_md_new() -> *mut c_void;
        pub fn simdcrypt_ossl_md_free(ctx: *mut c_void);
        pub fn simdcrypt_ossl_sha1(
            ctx: *mut c_void,
            data: *const u8,
            len: usize,
            out: *mut u8,
        ) -> i32;
        pub fn simdcrypt_ossl_hmac_sha1(
            key: *const u8,
            keylen: usize,
            data: *const u8,
            len: usize,
            out: *mut u8,
        ) -> i32;
        pub fn simdcrypt_ossl_hmac_new(key: *const u8, keylen: usize) -> *mut c_void;
        pub fn simdcrypt_ossl_hmac_free(ctx: *mut c_void);
        pub fn simdcrypt_ossl_hmac_run(
            ctx: *mut c_void,
            data: *const u8,
            len: usize,
            out: *mut u8,
        ) -> i32;
        pub fn simdcrypt_ossl_version() -> *const c_char;
    }
}

/// Without OpenSSL: every constructor fails, so no other function is reached.
#[cfg(not(oracle_openssl))]
#[allow(clippy::missing_safety_doc)]
mod ffi {
    use core::ffi::{c_char, c_void};
    use core::ptr::null_mut;
    pub unsafe fn simdcrypt_ossl_cipher_new(_: i32, _: *const u8, _: usize, _: i32) -> *mut c_void {
        null_mut()
    }
    pub unsafe fn simdcrypt_ossl_cipher_free(_: *mut c_void) {}
    pub unsafe fn simdcrypt_ossl_cipher_rekey(_: *mut c_void, _: *const u8) -> i32 {
        0
    }
    pub unsafe fn simdcrypt_ossl_cipher_run(
        _: *mut c_void,
        _: *mut u8,
        _: *const u8,
        _: *mut u8,
        _: usize,
    ) -> i32 {
        0
    }
    pub unsafe fn simdcrypt_ossl_md_new() -> *mut c_void {
        null_mut()
    }
    pub unsafe fn simdcrypt_ossl_md_free(_: *mut c_void) {}
    pub unsafe fn simdcrypt_ossl_sha1(_: *mut c_void, _: *const u8, _: usize, _: *mut u8) -> i32 {
        0
    }
    pub unsafe fn simdcrypt_ossl_hmac_sha1(
        _: *const u8,
        _: usize,
        _: *const u8,
        _: usize,
        _: *mut u8,
    ) -> i32 {
        0
    }
    pub unsafe fn simdcrypt_ossl_hmac_new(_: *const u8, _: usize) -> *mut c_void {
        null_mut()
    }
    pub unsafe fn simdcrypt_ossl_hmac_free(_: *mut c_void) {}
    pub unsafe fn simdcrypt_ossl_hmac_run(
        _: *mut c_void,
        _: *const u8,
        _: usize,
        _: *mut u8,
    ) -> i32 {
        0
    }
    pub unsafe fn simdcrypt_ossl_version() -> *const c_char {
        core::ptr::null()
    }
}

use ffi::*;

/// Whether this build links OpenSSL.
pub fn available() -> bool {
    cfg!(oracle_openssl)
}

/// The version of the libcrypto linked in (`OpenSSL_version(OPENSSL_VERSION)`), e.g.
/// `OpenSSL 3.0.19 27 Jan 2026`; `None` without OpenSSL.
pub fn version() -> Option<String> {
    // SAFETY: takes nothing; returns a static NUL-terminated string or null (checked).
    let p: *const c_char = unsafe { simdcrypt_ossl_version() };
    if p.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated, static for the life of the process.
    Some(
        unsafe { core::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// Declares `$name`, the owner of a shim context (`ctx`, with `$field`s beside it), which
/// `$free` frees once on drop.
macro_rules! owned_ctx {
    ($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty),* }, $free:ident) => {
        $(#[$doc])*
        pub struct $name {
            ctx: *mut c_void,
            $($field: $ty,)*
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: `ctx` came from the matching `_new` shim call and is freed once.
                unsafe { $free(self.ctx) }
            }
        }
    };
}

/// The 20 bytes that `run` writes to the pointer it is given; `what` names the call in
/// the panic if it fails (returns other than 1).
fn out20(what: &str, run: impl FnOnce(*mut u8) -> i32) -> [u8; 20] {
    let mut out = [0u8; 20];
    assert_eq!(run(out.as_mut_ptr()), 1, "OpenSSL {what} failed");
    out
}

/// Which OpenSSL cipher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// AES-128-XTS (32-byte key) or AES-256-XTS (64-byte key).
    Xts,
    /// AES-CBC without padding (16-, 24- or 32-byte key).
    Cbc,
    /// AES-ECB without padding (16-, 24- or 32-byte key).
    Ecb,
}

owned_ctx!(
    /// A keyed OpenSSL cipher context, reused across calls.
    Cipher { key_len: usize },
    simdcrypt_ossl_cipher_free
);

impl Cipher {
    /// `None` if OpenSSL rejects the key (wrong length, or XTS with equal halves), or
    /// without OpenSSL.
    pub fn new(kind: Kind, key: &[u8], encrypt: bool) -> Option<Cipher> {
        let k = match kind {
            Kind::Xts => 0,
            Kind::Cbc => 1,
            Kind::Ecb => 2,
        };
        // SAFETY: `key` is valid for `key.len()` bytes; the shim copies it.
        let ctx =
            unsafe { simdcrypt_ossl_cipher_new(k, key.as_ptr(), key.len(), i32::from(encrypt)) };
        (!ctx.is_null()).then_some(Cipher {
            ctx,
            key_len: key.len(),
        })
    }

    /// Keys an encrypting context again (`EVP_EncryptInit_ex` with the key alone: the key
    /// schedule). `false` if OpenSSL refuses the key.
    ///
    /// # Panics
    /// If `key` is not as long as the key the context was made with.
    pub fn rekey(&mut self, key: &[u8]) -> bool {
        assert_eq!(key.len(), self.key_len, "a key of the context's length");
        // SAFETY: the context is live; `key` is valid for the cipher's key length (checked).
        unsafe { simdcrypt_ossl_cipher_rekey(self.ctx, key.as_ptr()) == 1 }
    }

    /// Processes `input` into `out` (equal lengths) under `iv` (the XTS tweak or the CBC
    /// IV, updated to the last ciphertext block for CBC). `false` if OpenSSL fails.
    pub fn run(&mut self, iv: &mut [u8; 16], input: &[u8], out: &mut [u8]) -> bool {
        assert_eq!(input.len(), out.len());
        // SAFETY: the context is live; `iv` is 16 bytes; `input` and `out` are valid for
        // `len` bytes each and do not overlap (distinct borrows).
        unsafe {
            simdcrypt_ossl_cipher_run(
                self.ctx,
                iv.as_mut_ptr(),
                input.as_ptr(),
                out.as_mut_ptr(),
                input.len(),
            ) == 1
        }
    }
}

owned_ctx!(
    /// A reusable OpenSSL SHA-1 context.
    Sha1 {},
    simdcrypt_ossl_md_free
);

impl Sha1 {
    /// A context; `None` without OpenSSL (or if `EVP_MD_CTX_new` fails).
    pub fn try_new() -> Option<Sha1> {
        // SAFETY: no arguments; a null result is checked.
        let ctx = unsafe { simdcrypt_ossl_md_new() };
        (!ctx.is_null()).then_some(Sha1 { ctx })
    }

    /// A context.
    ///
    /// # Panics
    /// Without OpenSSL (see [`available`]).
    pub fn new() -> Sha1 {
        Sha1::try_new().expect("OpenSSL SHA-1 context: OpenSSL not built in or out of memory")
    }

    /// SHA-1 of `data`.
    pub fn digest(&mut self, data: &[u8]) -> [u8; 20] {
        // SAFETY: the context is live; `data` is valid for its length; `out` is 20 bytes.
        out20("SHA-1", |out| unsafe {
            simdcrypt_ossl_sha1(self.ctx, data.as_ptr(), data.len(), out)
        })
    }
}

impl Default for Sha1 {
    fn default() -> Self {
        Sha1::new()
    }
}

owned_ctx!(
    /// HMAC-SHA1 under a key set up once (OpenSSL keeps its inner and outer states).
    HmacKey {},
    simdcrypt_ossl_hmac_free
);

impl HmacKey {
    /// `None` without OpenSSL (or if OpenSSL fails to set the key up).
    pub fn new(key: &[u8]) -> Option<HmacKey> {
        // SAFETY: `key` is valid for its length; the shim copies what it keeps.
        let ctx = unsafe { simdcrypt_ossl_hmac_new(key.as_ptr(), key.len()) };
        (!ctx.is_null()).then_some(HmacKey { ctx })
    }

    /// The HMAC-SHA1 of `data`.
    pub fn mac(&mut self, data: &[u8]) -> [u8; 20] {
        // SAFETY: the context is live; `data` is valid for its length; `out` is 20 bytes.
        out20("HMAC-SHA1", |out| unsafe {
            simdcrypt_ossl_hmac_run(self.ctx, data.as_ptr(), data.len(), out)
        })
    }
}

/// HMAC-SHA1 of `data` under `key`.
///
/// # Panics
/// Without OpenSSL (see [`available`]).
pub fn hmac_sha1(key: &[u8], data: &[u8]) -> [u8; 20] {
    // SAFETY: `key` and `data` are valid for their lengths; `out` is 20 bytes.
    out20("HMAC-SHA1", |out| unsafe {
        simdcrypt_ossl_hmac_sha1(key.as_ptr(), key.len(), data.as_ptr(), data.len(), out)
    })
}
