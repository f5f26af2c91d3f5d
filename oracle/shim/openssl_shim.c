/* A small C shim over OpenSSL's EVP interface: the differential oracle for tests and the
 * peer for benchmarks. Built by the oracle crate's build.rs where OpenSSL is found. Every function
 * returns 1 on success and 0 on failure. */
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif

/* kind: 0 = AES-XTS (key 32 or 64 bytes), 1 = AES-CBC without padding (16, 24, 32),
 * 2 = AES-ECB without padding (16, 24, 32). */
static const EVP_CIPHER *simdcrypt_cipher(int kind, size_t keylen) {
    if (kind == 0) {
        if (keylen == 32) return EVP_aes_128_xts();
        if (keylen == 64) return EVP_aes_256_xts();
    } else if (kind == 1) {
        if (keylen == 16) return EVP_aes_128_cbc();
        if (keylen == 24) return EVP_aes_192_cbc();
        if (keylen == 32) return EVP_aes_256_cbc();
    } else if (kind == 2) {
        if (keylen == 16) return EVP_aes_128_ecb();
        if (keylen == 24) return EVP_aes_192_ecb();
        if (keylen == 32) return EVP_aes_256_ecb();
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

/* Keys an encrypting context again with a key of its cipher's length: the key schedule,
 * as EVP_EncryptInit_ex makes it (the key-setup benchmarks). */
int simdcrypt_ossl_cipher_rekey(void *vctx, const uint8_t *key) {
    return EVP_EncryptInit_ex((EVP_CIPHER_CTX *)vctx, NULL, NULL, key, NULL) == 1;
}

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

/* HMAC-SHA1 under a key set up once (`hmac_new`), one message per `hmac_run`: the key's
 * inner and outer states are kept, as simdcrypt's `HmacSha1Key` and `CbcHmacSha1` keep
 * theirs. EVP_MAC from OpenSSL 3 (re-initialised with no key, which reuses it), HMAC_CTX
 * before. */
void *simdcrypt_ossl_hmac_new(const uint8_t *key, size_t keylen) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *ctx;
    OSSL_PARAM params[2];
    if (mac == NULL) return NULL;
    ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac); /* the context holds its own reference */
    if (ctx == NULL) return NULL;
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA1", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(ctx, key, keylen, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
#else
    HMAC_CTX *ctx = HMAC_CTX_new();
    if (ctx == NULL || keylen > 0x7fffffff) return NULL;
    if (HMAC_Init_ex(ctx, key, (int)keylen, EVP_sha1(), NULL) != 1) {
        HMAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
#endif
}

void simdcrypt_ossl_hmac_free(void *ctx) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_MAC_CTX_free((EVP_MAC_CTX *)ctx);
#else
    HMAC_CTX_free((HMAC_CTX *)ctx);
#endif
}

int simdcrypt_ossl_hmac_run(void *vctx, const uint8_t *data, size_t len, uint8_t out[20]) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_MAC_CTX *ctx = (EVP_MAC_CTX *)vctx;
    size_t n = 0;
    if (EVP_MAC_init(ctx, NULL, 0, NULL) != 1) return 0;
    if (EVP_MAC_update(ctx, data, len) != 1) return 0;
    if (EVP_MAC_final(ctx, out, &n, 20) != 1) return 0;
    return n == 20;
#else
    HMAC_CTX *ctx = (HMAC_CTX *)vctx;
    unsigned int n = 0;
    if (HMAC_Init_ex(ctx, NULL, 0, NULL, NULL) != 1) return 0;
    if (HMAC_Update(ctx, data, len) != 1) return 0;
    if (HMAC_Final(ctx, out, &n) != 1) return 0;
    return n == 20;
#endif
}

/* The version of the libcrypto linked in, e.g. "OpenSSL 3.0.19 27 Jan 2026". */
const char *simdcrypt_ossl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
