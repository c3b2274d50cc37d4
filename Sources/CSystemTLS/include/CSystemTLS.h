// The small C surface Parlor needs from the system OpenSSL (libssl-dev).
// Swift cannot call OpenSSL's function-like macros, so each one used gets a real function here.
#ifndef PARLOR_CSYSTEMTLS_H
#define PARLOR_CSYSTEMTLS_H

#include <stdint.h>
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

/// Four random bytes from this thread's store of `RAND_bytes` output (refilled 1 KiB at a time): masking
/// keys, one per frame a client sends. 0 when the CSPRNG failed.
int parlor_random_u32_pooled(uint32_t *out);

/// Constant-time comparison; 0 when equal.
int parlor_constant_time_compare(const void *a, const void *b, size_t len);

/// Copies the text of the oldest error on this thread's OpenSSL error queue into `buf`, clears the queue,
/// and returns the error code (0 when the queue was empty).
unsigned long parlor_take_error(char *buf, size_t len);

// MARK: TLS (the SystemTLS channel handler)

#include <openssl/pem.h>
#include <openssl/tls1.h>

/// The TLS 1.2 cipher list Parlor offers and accepts: ECDHE key exchange with AEAD ciphers only
/// (no CBC, no static-RSA key exchange, no SHA-1 MACs). TLS 1.3 keeps OpenSSL's default suites.
#define PARLOR_TLS12_CIPHERS \
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:" \
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:" \
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

/// The key-exchange groups Parlor offers and accepts.
#define PARLOR_TLS_GROUPS "X25519:P-256:P-384"

/// Applies Parlor's protocol policy to a fresh context: TLS 1.2–1.3 only, PARLOR_TLS12_CIPHERS,
/// PARLOR_TLS_GROUPS, security level 2, no compression, no renegotiation, no session resumption
/// (no tickets, no session cache), never prompt for a PEM pass phrase. A server context also prefers
/// its own cipher order (while letting a client that prefers ChaCha20 have it) and requests no client
/// certificate. Returns 1 on success, 0 on failure (the reason is on OpenSSL's error queue).
int parlor_tls_ctx_apply_policy(SSL_CTX *ctx, int is_server);

/// Installs the server's ALPN callback: selects "http/1.1" when the client offers it; when the client
/// offers ALPN without "http/1.1" the handshake fails with a no_application_protocol alert
/// (SSL_TLSEXT_ERR_ALERT_FATAL, RFC 7301 §3.2). A client that offers no ALPN at all is accepted.
void parlor_tls_ctx_set_server_alpn_http11(SSL_CTX *ctx);

/// Makes a client context offer "http/1.1" by ALPN. Returns 1 on success.
int parlor_tls_ctx_set_client_alpn_http11(SSL_CTX *ctx);

/// Loads a PEM private key from `path` into `ctx` and checks it against the certificate already loaded.
/// Returns 1 on success, 0 when the file cannot be read or holds no (unencrypted) PEM private key,
/// -1 when the key does not match the certificate.
int parlor_tls_ctx_load_private_key(SSL_CTX *ctx, const char *path);

/// Creates the two memory BIOs (network → OpenSSL, OpenSSL → network), hands both to `ssl`
/// (SSL_free frees them) and returns them through `read_bio` / `write_bio`. Returns 1 on success.
int parlor_tls_ssl_attach_memory_bios(SSL *ssl, BIO **read_bio, BIO **write_bio);

/// Sends `host_name` as SNI (SSL_set_tlsext_host_name). Returns 1 on success.
int parlor_tls_ssl_set_sni(SSL *ssl, const char *host_name);

/// Makes certificate verification check that the peer's certificate names `host_name` (DNS SAN),
/// without partial wildcards. Returns 1 on success.
int parlor_tls_ssl_verify_host(SSL *ssl, const char *host_name);

/// Makes certificate verification check that the peer's certificate names the IP address `ip`
/// (IPv4 or IPv6 text, IP SAN). Returns 1 on success.
int parlor_tls_ssl_verify_ip(SSL *ssl, const char *ip);

/// The server name the client asked for by SNI (server), or the one sent (client); NULL when none.
const char *parlor_tls_ssl_server_name(const SSL *ssl);

/// Bytes waiting to be read from a memory BIO (BIO_pending).
size_t parlor_tls_bio_pending(BIO *bio);

/// Appends the text of every error on this thread's OpenSSL error queue to `buf` (NUL-terminated,
/// "; "-separated, truncated to `len`), clears the queue and returns the number of errors found.
int parlor_tls_take_errors(char *buf, size_t len);

// MARK: Signatures (JWS: the server's verification of external sign-in tokens)

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

/// What a public key is, as far as JWS algorithms care (parlor_pkey_kind).
#define PARLOR_PKEY_OTHER 0
#define PARLOR_PKEY_RSA 1
#define PARLOR_PKEY_EC_P256 2
#define PARLOR_PKEY_EC_P384 3
#define PARLOR_PKEY_ED25519 4

/// The signature schemes JWS names (RFC 7518 §3, RFC 8037 §3.1).
#define PARLOR_SIG_RSA_PKCS1_SHA256 1
#define PARLOR_SIG_RSA_PKCS1_SHA384 2
#define PARLOR_SIG_RSA_PKCS1_SHA512 3
#define PARLOR_SIG_RSA_PSS_SHA256 4
#define PARLOR_SIG_ECDSA_P256_SHA256 5
#define PARLOR_SIG_ECDSA_P384_SHA384 6
#define PARLOR_SIG_ED25519 7

/// An RSA public key from its modulus and public exponent (big-endian, as a JWK's `n` and `e`), through
/// EVP_PKEY_fromdata. NULL when OpenSSL refuses them.
EVP_PKEY *parlor_pkey_rsa_public(const unsigned char *n, size_t n_len, const unsigned char *e, size_t e_len);

/// An EC public key on P-256 (`bits` 256) or P-384 (384) from its affine coordinates (a JWK's `x`
/// and `y`, each exactly the field's size), through EVP_PKEY_fromdata; the point is checked to be on
/// the curve. NULL otherwise.
EVP_PKEY *parlor_pkey_ec_public(int bits, const unsigned char *x, size_t x_len, const unsigned char *y, size_t y_len);

/// An Ed25519 public key from its 32 bytes (an OKP JWK's `x`). NULL otherwise.
EVP_PKEY *parlor_pkey_ed25519_public(const unsigned char *x, size_t x_len);

/// The public key of a PEM `PUBLIC KEY` (SubjectPublicKeyInfo) or of a PEM `CERTIFICATE`. NULL when
/// the text holds neither.
EVP_PKEY *parlor_pkey_from_pem(const char *pem, size_t len);

/// PARLOR_PKEY_* for `key`.
int parlor_pkey_kind(const EVP_PKEY *key);

/// The key's size in bits (an RSA modulus's).
int parlor_pkey_bits(const EVP_PKEY *key);

void parlor_pkey_free(EVP_PKEY *key);

/// Checks `sig` over `msg` with `key` under `scheme` (PARLOR_SIG_*), by EVP_DigestVerify. An ECDSA
/// signature is JWS's raw r||s (64 or 96 bytes), turned into DER through ECDSA_SIG first; RSA-PSS uses
/// MGF1 with the same hash and a salt as long as the hash. Returns 1 when valid, 0 when not, -1 when
/// the key's type does not fit the scheme (nothing is checked then).
int parlor_signature_verify(EVP_PKEY *key, int scheme, const unsigned char *msg, size_t msg_len,
                            const unsigned char *sig, size_t sig_len);

/// Checks an HMAC (`bits`: 256, 384 or 512 for SHA-256/384/512) over `msg` with `key`: computed by
/// OpenSSL and compared in constant time (CRYPTO_memcmp). Returns 1 when it matches, 0 otherwise.
int parlor_hmac_verify(int bits, const void *key, size_t key_len, const unsigned char *msg, size_t msg_len,
                       const unsigned char *mac, size_t mac_len);

#endif
