/* A small C shim over OpenSSL's EVP interface: the differential oracle for tests and the
 * peer for benchmarks. Built by the oracle crate's build.rs where OpenSSL is found. Every function
 * returns 1 on success and 0 on failure. */
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>

/* kind: 0 = AES-XTS (key 32 or 64 bytes), 1 = AES-CBC without padding (16, 24, 32),
 * 2 = the stitched AES-CBC-HMAC-SHA1 (16, 32; NULL where this OpenSSL or CPU lacks it) as
 * `openssl speed -evp` runs it: CBC encryption with SHA-1 of the plaintext beside it, the
 * MAC never output, so the output is the CBC ciphertext. */
static const EVP_CIPHER *simdcrypt_cipher(int kind, size_t keylen) {
    if (kind == 0) {
        if (keylen == 32) return EVP_aes_128_xts();
        if (keylen == 64) return EVP_aes_256_xts();
    } else if (kind == 1) {
        if (keylen == 16) return EVP_aes_128_cbc();
        if (keylen == 24) return EVP_aes_192_cbc();
        if (keylen == 32) return EVP_aes_256_cbc();
    } else if (kind == 2) {
        if (keylen == 16) return EVP_aes_128_cbc_hmac_sha1();
        if (keylen == 32) return EVP_aes_256_cbc_hmac_sha1();
    }
    return NULL;
}

/* A keyed context for repeated calls (benchmarks reuse one, as `openssl speed -evp` does). */
void *simdcrypt_ossl_cipher_new(int kind, const uint8_t *key, size_t keylen, int enc) {
    const EVP_CIPHER *c = simdcrypt_cipher(kind, keylen);
    EVP_CIPHER_CTX *ctx;
    if (c == NULL) return NULL;
    ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_CipherInit_ex(ctx, c, NULL, key, NULL, enc) != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return NULL;
    }
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return ctx;
}

void simdcrypt_ossl_cipher_free(void *ctx) { EVP_CIPHER_CTX_free((EVP_CIPHER_CTX *)ctx); }

/* One message under a fresh IV/tweak (16 bytes). For CBC, `iv` is updated to the last
 * ciphertext block, as a chained call would. */
int simdcrypt_ossl_cipher_run(void *vctx, uint8_t *iv, const uint8_t *in, uint8_t *out,
                              size_t len) {
    EVP_CIPHER_CTX *ctx = (EVP_CIPHER_CTX *)vctx;
    int outl = 0;
    if (len > 0x7fffffff) return 0;
    if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, -1) != 1) return 0;
    if (EVP_CipherUpdate(ctx, out, &outl, in, (int)len) != 1) return 0;
    if ((size_t)outl != len) return 0;
    if (EVP_CIPHER_CTX_get_mode(ctx) == EVP_CIPH_CBC_MODE && len >= 16) {
        size_t i;
        const uint8_t *last = EVP_CIPHER_CTX_is_encrypting(ctx) ? out + len - 16 : NULL;
        if (last == NULL) {
            /* Decrypting: the chaining value is the last ciphertext block, the input. */
            last = in + len - 16;
        }
        for (i = 0; i < 16; i++) iv[i] = last[i];
    }
    return 1;
}

void *simdcrypt_ossl_md_new(void) { return EVP_MD_CTX_new(); }

void simdcrypt_ossl_md_free(void *ctx) { EVP_MD_CTX_free((EVP_MD_CTX *)ctx); }

/* SHA-1 of one message, on a reused context. */
int simdcrypt_ossl_sha1(void *vctx, const uint8_t *data, size_t len, uint8_t out[20]) {
    EVP_MD_CTX *ctx = (EVP_MD_CTX *)vctx;
    unsigned int n = 0;
    if (EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) != 1) return 0;
    if (EVP_DigestUpdate(ctx, data, len) != 1) return 0;
    if (EVP_DigestFinal_ex(ctx, out, &n) != 1) return 0;
    return n == 20;
}

/* HMAC-SHA1, one shot. */
int simdcrypt_ossl_hmac_sha1(const uint8_t *key, size_t keylen, const uint8_t *data,
                             size_t len, uint8_t out[20]) {
    unsigned int n = 0;
    if (keylen > 0x7fffffff) return 0;
    if (HMAC(EVP_sha1(), key, (int)keylen, data, len, out, &n) == NULL) return 0;
    return n == 20;
}

/* The version of the libcrypto linked in, e.g. "OpenSSL 3.0.19 27 Jan 2026". */
const char *simdcrypt_ossl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
