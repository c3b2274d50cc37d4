// The small C surface Parlor needs from the system OpenSSL (libssl-dev).
// Swift cannot call OpenSSL's function-like macros, so each one used gets a real function here.
#ifndef PARLOR_CSYSTEMTLS_H
#define PARLOR_CSYSTEMTLS_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// One-time library initialisation; safe to call many times.
int parlor_openssl_init(void);

/// SHA-1 of `len` bytes into `out` (20 bytes). Returns 1 on success.
int parlor_sha1(const void *data, size_t len, unsigned char *out);

/// SHA-256 of `len` bytes into `out` (32 bytes). Returns 1 on success.
int parlor_sha256(const void *data, size_t len, unsigned char *out);

/// HMAC-SHA256 into `out` (32 bytes). Returns 1 on success.
int parlor_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, unsigned char *out);

/// Fills `out` with `len` bytes from OpenSSL's CSPRNG. Returns 1 on success.
int parlor_random_bytes(unsigned char *out, size_t len);

/// Constant-time comparison; 0 when equal.
int parlor_constant_time_compare(const void *a, const void *b, size_t len);

/// Copies the text of the oldest error on this thread's OpenSSL error queue into `buf`, clears the queue,
/// and returns the error code (0 when the queue was empty).
unsigned long parlor_take_error(char *buf, size_t len);

#endif
