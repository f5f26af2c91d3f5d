/*
 * MIT krb5's RFC 3961 crypto API (libk5crypto) for simdcrypt's differential tests: the
 * Kerberos enctypes aes128-cts-hmac-sha1-96 (17) and aes256-cts-hmac-sha1-96 (18) and their
 * checksums. Every function returns 0 on success and a krb5 error code (or -1 for a too
 * small output buffer) otherwise. The crypto calls take a NULL context, as MIT's own
 * crypto tests do, so nothing here is shared between threads.
 */
#include <krb5.h>
#include <stdint.h>
#include <string.h>

/* The arguments of a call over one key and one input (`In` on the Rust side). */
struct simdcrypt_krb5_in {
    int32_t enctype;
    const uint8_t *key;
    size_t keylen;
    int32_t usage;
    const uint8_t *data;
    size_t len;
};

static krb5_keyblock keyblock(const struct simdcrypt_krb5_in *in)
{
    krb5_keyblock kb = { .magic = KV5M_KEYBLOCK,
                         .enctype = in->enctype,
                         .length = (unsigned int)in->keylen,
                         .contents = (krb5_octet *)in->key };
    return kb;
}

static krb5_data data(const uint8_t *p, size_t len)
{
    krb5_data d = { .magic = KV5M_DATA, .length = (unsigned int)len, .data = (char *)p };
    return d;
}

static krb5_enc_data enc_data(int enctype, krb5_data ciphertext)
{
    krb5_enc_data enc = { .magic = KV5M_ENC_DATA, .enctype = enctype, .ciphertext = ciphertext };
    return enc;
}

/* `len` bytes of `src` to `out` if they fit in `*outlen` (then set to `len`), else -1. */
static int copy_out(const void *src, size_t len, uint8_t *out, size_t *outlen)
{
    if (len > *outlen)
        return -1;
    memcpy(out, src, len);
    *outlen = len;
    return 0;
}

int simdcrypt_krb5_encrypt(const struct simdcrypt_krb5_in *in, uint8_t *out, size_t *outlen)
{
    krb5_keyblock kb = keyblock(in);
    krb5_data plain = data(in->data, in->len);
    krb5_enc_data enc;
    size_t need = 0;
    krb5_error_code ret = krb5_c_encrypt_length(NULL, in->enctype, in->len, &need);
    if (ret)
        return ret;
    if (need > *outlen)
        return -1;
    enc = enc_data(in->enctype, data(out, need));
    ret = krb5_c_encrypt(NULL, &kb, in->usage, NULL, &plain, &enc);
    if (ret)
        return ret;
    *outlen = enc.ciphertext.length;
    return 0;
}

int simdcrypt_krb5_decrypt(const struct simdcrypt_krb5_in *in, uint8_t *out, size_t *outlen)
{
    krb5_keyblock kb = keyblock(in);
    krb5_enc_data enc = enc_data(in->enctype, data(in->data, in->len));
    krb5_data plain = data(out, *outlen);
    krb5_error_code ret;
    if (*outlen < in->len)
        return -1;
    ret = krb5_c_decrypt(NULL, &kb, in->usage, NULL, &enc, &plain);
    if (ret)
        return ret;
    *outlen = plain.length;
    return 0;
}

int simdcrypt_krb5_make_checksum(int cksumtype, const struct simdcrypt_krb5_in *in, uint8_t *out,
                                 size_t *outlen)
{
    krb5_keyblock kb = keyblock(in);
    krb5_data input = data(in->data, in->len);
    krb5_checksum cksum;
    krb5_error_code ret;
    memset(&cksum, 0, sizeof(cksum));
    ret = krb5_c_make_checksum(NULL, cksumtype, &kb, in->usage, &input, &cksum);
    if (ret)
        return ret;
    ret = copy_out(cksum.contents, cksum.length, out, outlen);
    krb5_free_checksum_contents(NULL, &cksum);
    return ret;
}

/* *valid is 1 if the checksum `ck` verifies, 0 if not. */
int simdcrypt_krb5_verify_checksum(int cksumtype, const struct simdcrypt_krb5_in *in,
                                   const uint8_t *ck, size_t cklen, int *valid)
{
    krb5_keyblock kb = keyblock(in);
    krb5_data input = data(in->data, in->len);
    krb5_checksum cksum = { .magic = KV5M_CHECKSUM,
                            .checksum_type = cksumtype,
                            .length = (unsigned int)cklen,
                            .contents = (krb5_octet *)ck };
    krb5_boolean ok = 0;
    krb5_error_code ret = krb5_c_verify_checksum(NULL, &kb, in->usage, &input, &cksum, &ok);
    *valid = ok ? 1 : 0;
    return ret;
}

int simdcrypt_krb5_string_to_key(int enctype, const uint8_t *pw, size_t pwlen,
                                 const uint8_t *salt, size_t saltlen, uint32_t iterations,
                                 uint8_t *out, size_t *outlen)
{
    krb5_data p = data(pw, pwlen), s = data(salt, saltlen), params;
    uint8_t be[4] = { (uint8_t)(iterations >> 24), (uint8_t)(iterations >> 16),
                      (uint8_t)(iterations >> 8), (uint8_t)iterations };
    krb5_keyblock kb;
    krb5_error_code ret;
    params = data(be, 4);
    memset(&kb, 0, sizeof(kb));
    ret = krb5_c_string_to_key_with_params(NULL, enctype, &p, &s, &params, &kb);
    if (ret)
        return ret;
    ret = copy_out(kb.contents, kb.length, out, outlen);
    krb5_free_keyblock_contents(NULL, &kb);
    return ret;
}
