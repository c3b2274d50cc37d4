#include "CSystemTLS.h"
#include <string.h>

int parlor_openssl_init(void) {
    return OPENSSL_init_ssl(OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

int parlor_sha1(const void *data, size_t len, unsigned char *out) {
    unsigned int out_len = 0;
    return EVP_Digest(data, len, out, &out_len, EVP_sha1(), NULL) == 1 && out_len == 20;
}

int parlor_sha256(const void *data, size_t len, unsigned char *out) {
    unsigned int out_len = 0;
    return EVP_Digest(data, len, out, &out_len, EVP_sha256(), NULL) == 1 && out_len == 32;
}

int parlor_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, unsigned char *out) {
    unsigned int out_len = 0;
    if (key_len > INT32_MAX) return 0;
    unsigned char *r = HMAC(EVP_sha256(), key, (int)key_len, data, len, out, &out_len);
    return r != NULL && out_len == 32;
}

int parlor_random_bytes(unsigned char *out, size_t len) {
    if (len > INT32_MAX) return 0;
    return RAND_bytes(out, (int)len) == 1;
}

int parlor_constant_time_compare(const void *a, const void *b, size_t len) {
    return CRYPTO_memcmp(a, b, len);
}

unsigned long parlor_take_error(char *buf, size_t len) {
    unsigned long first = ERR_get_error();
    if (first != 0 && buf != NULL && len > 0) {
        ERR_error_string_n(first, buf, len);
    } else if (buf != NULL && len > 0) {
        buf[0] = 0;
    }
    ERR_clear_error();
    return first;
}
