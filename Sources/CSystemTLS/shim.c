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

/* Each thread's store of CSPRNG output for masking keys: one RAND_bytes call per 256 keys instead of
   one per frame (a client masks every frame it sends). Bytes handed out are wiped from the store. */
static _Thread_local unsigned char parlor_key_pool[1024];
static _Thread_local size_t parlor_key_pool_left = 0;

int parlor_random_u32_pooled(uint32_t *out) {
    if (parlor_key_pool_left < sizeof *out) {
        if (RAND_bytes(parlor_key_pool, (int)sizeof parlor_key_pool) != 1) return 0;
        parlor_key_pool_left = sizeof parlor_key_pool;
    }
    parlor_key_pool_left -= sizeof *out;
    memcpy(out, parlor_key_pool + parlor_key_pool_left, sizeof *out);
    OPENSSL_cleanse(parlor_key_pool + parlor_key_pool_left, sizeof *out);
    return 1;
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

// MARK: TLS

static int parlor_no_pass_phrase(char *buf, int size, int rwflag, void *userdata) {
    (void)buf; (void)size; (void)rwflag; (void)userdata;
    return 0; // encrypted PEM files are refused rather than prompting on the terminal
}

int parlor_tls_ctx_apply_policy(SSL_CTX *ctx, int is_server) {
    if (ctx == NULL) return 0;
    if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) return 0;
    if (SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) != 1) return 0;
    if (SSL_CTX_set_cipher_list(ctx, PARLOR_TLS12_CIPHERS) != 1) return 0;
    if (SSL_CTX_set1_groups_list(ctx, PARLOR_TLS_GROUPS) != 1) return 0;
    SSL_CTX_set_security_level(ctx, 2);

    uint64_t options = SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET;
    if (is_server) {
        options |= SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_PRIORITIZE_CHACHA;
    }
    SSL_CTX_set_options(ctx, options);
    // No resumption: no TLS 1.3 tickets, no TLS 1.2 tickets (SSL_OP_NO_TICKET), no session-id cache.
    if (SSL_CTX_set_num_tickets(ctx, 0) != 1) return 0;
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    // Idle connections give their 16 KiB record buffers back.
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_default_passwd_cb(ctx, parlor_no_pass_phrase);
    if (is_server) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    }
    return 1;
}

static const unsigned char parlor_alpn_http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

static int parlor_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                              const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    unsigned char *selected = NULL;
    unsigned char selected_len = 0;
    int status = SSL_select_next_proto(&selected, &selected_len, parlor_alpn_http11,
                                       sizeof(parlor_alpn_http11), in, inlen);
    if (status != OPENSSL_NPN_NEGOTIATED || selected == NULL) {
        // RFC 7301 §3.2 and OpenSSL's documentation: no overlap → fatal no_application_protocol alert.
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = selected;
    *outlen = selected_len;
    return SSL_TLSEXT_ERR_OK;
}

void parlor_tls_ctx_set_server_alpn_http11(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, parlor_alpn_select, NULL);
}

int parlor_tls_ctx_set_client_alpn_http11(SSL_CTX *ctx) {
    // Note the reversed convention: SSL_CTX_set_alpn_protos returns 0 on success.
    return SSL_CTX_set_alpn_protos(ctx, parlor_alpn_http11, sizeof(parlor_alpn_http11)) == 0;
}

int parlor_tls_ctx_load_private_key(SSL_CTX *ctx, const char *path) {
    BIO *file = BIO_new_file(path, "r");
    if (file == NULL) return 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(file, NULL, parlor_no_pass_phrase, NULL);
    BIO_free(file);
    if (key == NULL) return 0;
    int ok = SSL_CTX_use_PrivateKey(ctx, key) == 1 && SSL_CTX_check_private_key(ctx) == 1;
    EVP_PKEY_free(key);
    return ok ? 1 : -1;
}

int parlor_tls_ssl_attach_memory_bios(SSL *ssl, BIO **read_bio, BIO **write_bio) {
    BIO *r = BIO_new(BIO_s_mem());
    BIO *w = BIO_new(BIO_s_mem());
    if (r == NULL || w == NULL) {
        BIO_free(r);
        BIO_free(w);
        return 0;
    }
    // An empty memory BIO reports "retry" (not EOF): the TCP connection's end is the handler's business.
    BIO_set_mem_eof_return(r, -1);
    BIO_set_mem_eof_return(w, -1);
    SSL_set_bio(ssl, r, w);
    *read_bio = r;
    *write_bio = w;
    return 1;
}

int parlor_tls_ssl_set_sni(SSL *ssl, const char *host_name) {
    return SSL_set_tlsext_host_name(ssl, host_name) == 1;
}

int parlor_tls_ssl_verify_host(SSL *ssl, const char *host_name) {
    SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return SSL_set1_host(ssl, host_name) == 1;
}

int parlor_tls_ssl_verify_ip(SSL *ssl, const char *ip) {
    return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), ip) == 1;
}

const char *parlor_tls_ssl_server_name(const SSL *ssl) {
    return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
}

size_t parlor_tls_bio_pending(BIO *bio) {
    return BIO_ctrl_pending(bio);
}

int parlor_tls_take_errors(char *buf, size_t len) {
    int count = 0;
    size_t used = 0;
    if (buf != NULL && len > 0) buf[0] = 0;
    unsigned long code;
    while ((code = ERR_get_error()) != 0) {
        count++;
        if (buf == NULL || len == 0 || used + 1 >= len) continue;
        if (used > 0 && used + 3 < len) {
            memcpy(buf + used, "; ", 2);
            used += 2;
            buf[used] = 0;
        }
        ERR_error_string_n(code, buf + used, len - used);
        used += strlen(buf + used);
    }
    return count;
}

// MARK: Signatures

static EVP_PKEY *parlor_pkey_from_params(const char *type, OSSL_PARAM *params) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 || EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    if (key != NULL) {
        // fromdata takes what it is given; a public key that fails its own checks is refused here.
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        int ok = check != NULL && EVP_PKEY_public_check(check) == 1;
        EVP_PKEY_CTX_free(check);
        if (!ok) {
            EVP_PKEY_free(key);
            key = NULL;
        }
    }
    ERR_clear_error();
    return key;
}

EVP_PKEY *parlor_pkey_rsa_public(const unsigned char *n, size_t n_len, const unsigned char *e, size_t e_len) {
    if (n_len == 0 || e_len == 0 || n_len > 2048 || e_len > 8) return NULL;
    EVP_PKEY *key = NULL;
    BIGNUM *bn_n = BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *bn_e = BN_bin2bn(e, (int)e_len, NULL);
    OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    if (bn_n != NULL && bn_e != NULL && build != NULL
        && OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_N, bn_n) == 1
        && OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_E, bn_e) == 1
        && (params = OSSL_PARAM_BLD_to_param(build)) != NULL) {
        key = parlor_pkey_from_params("RSA", params);
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(build);
    BN_free(bn_n);
    BN_free(bn_e);
    ERR_clear_error();
    return key;
}

EVP_PKEY *parlor_pkey_ec_public(int bits, const unsigned char *x, size_t x_len, const unsigned char *y, size_t y_len) {
    size_t size;
    const char *group;
    switch (bits) {
    case 256: size = 32; group = "P-256"; break;
    case 384: size = 48; group = "P-384"; break;
    default: return NULL;
    }
    if (x_len != size || y_len != size) return NULL;
    unsigned char point[1 + 2 * 48];
    point[0] = 0x04; // uncompressed: 04 || x || y (SEC 1 §2.3.3)
    memcpy(point + 1, x, size);
    memcpy(point + 1 + size, y, size);
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * size),
        OSSL_PARAM_construct_end(),
    };
    return parlor_pkey_from_params("EC", params);
}

EVP_PKEY *parlor_pkey_ed25519_public(const unsigned char *x, size_t x_len) {
    if (x_len != 32) return NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)x, x_len),
        OSSL_PARAM_construct_end(),
    };
    return parlor_pkey_from_params("ED25519", params);
}

EVP_PKEY *parlor_pkey_from_pem(const char *pem, size_t len) {
    if (len == 0 || len > 64 * 1024) return NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (bio == NULL) return NULL;
    EVP_PKEY *key = PEM_read_bio_PUBKEY(bio, NULL, parlor_no_pass_phrase, NULL);
    if (key == NULL) {
        // A certificate (Firebase's x509 endpoint serves its keys so): its subject's public key.
        BIO_reset(bio);
        X509 *certificate = PEM_read_bio_X509(bio, NULL, parlor_no_pass_phrase, NULL);
        if (certificate != NULL) {
            key = X509_get_pubkey(certificate);
            X509_free(certificate);
        }
    }
    BIO_free(bio);
    ERR_clear_error();
    return key;
}

int parlor_pkey_kind(const EVP_PKEY *key) {
    if (key == NULL) return PARLOR_PKEY_OTHER;
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA:
        return PARLOR_PKEY_RSA;
    case EVP_PKEY_ED25519:
        return PARLOR_PKEY_ED25519;
    case EVP_PKEY_EC: {
        char group[64] = {0};
        size_t group_len = 0;
        int ok = EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group), &group_len);
        ERR_clear_error();
        if (ok != 1) return PARLOR_PKEY_OTHER;
        if (strcmp(group, "prime256v1") == 0 || strcmp(group, "P-256") == 0) return PARLOR_PKEY_EC_P256;
        if (strcmp(group, "secp384r1") == 0 || strcmp(group, "P-384") == 0) return PARLOR_PKEY_EC_P384;
        return PARLOR_PKEY_OTHER;
    }
    default:
        return PARLOR_PKEY_OTHER;
    }
}

int parlor_pkey_bits(const EVP_PKEY *key) {
    return key == NULL ? 0 : EVP_PKEY_get_bits(key);
}

void parlor_pkey_free(EVP_PKEY *key) {
    EVP_PKEY_free(key);
}

/// JWS's r||s as the DER ECDSA-Sig-Value EVP_DigestVerify reads; the caller frees *der.
static int parlor_ecdsa_raw_to_der(const unsigned char *sig, size_t sig_len, size_t half, unsigned char **der, size_t *der_len) {
    if (sig_len != 2 * half) return 0;
    ECDSA_SIG *value = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(sig, (int)half, NULL);
    BIGNUM *s = BN_bin2bn(sig + half, (int)half, NULL);
    if (value == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(value, r, s) != 1) {
        ECDSA_SIG_free(value);
        BN_free(r);
        BN_free(s);
        return 0;
    }
    unsigned char *out = NULL;
    int length = i2d_ECDSA_SIG(value, &out);
    ECDSA_SIG_free(value); // frees r and s, which it owns now
    if (length <= 0) return 0;
    *der = out;
    *der_len = (size_t)length;
    return 1;
}

int parlor_signature_verify(EVP_PKEY *key, int scheme, const unsigned char *msg, size_t msg_len,
                            const unsigned char *sig, size_t sig_len) {
    const EVP_MD *digest = NULL;
    int kind = PARLOR_PKEY_RSA;
    size_t ecdsa_half = 0;
    switch (scheme) {
    case PARLOR_SIG_RSA_PKCS1_SHA256: digest = EVP_sha256(); break;
    case PARLOR_SIG_RSA_PKCS1_SHA384: digest = EVP_sha384(); break;
    case PARLOR_SIG_RSA_PKCS1_SHA512: digest = EVP_sha512(); break;
    case PARLOR_SIG_RSA_PSS_SHA256: digest = EVP_sha256(); break;
    case PARLOR_SIG_ECDSA_P256_SHA256: digest = EVP_sha256(); kind = PARLOR_PKEY_EC_P256; ecdsa_half = 32; break;
    case PARLOR_SIG_ECDSA_P384_SHA384: digest = EVP_sha384(); kind = PARLOR_PKEY_EC_P384; ecdsa_half = 48; break;
    case PARLOR_SIG_ED25519: digest = NULL; kind = PARLOR_PKEY_ED25519; break;
    default: return -1;
    }
    if (parlor_pkey_kind(key) != kind) return -1;

    unsigned char *der = NULL;
    size_t der_len = 0;
    if (ecdsa_half > 0) {
        if (!parlor_ecdsa_raw_to_der(sig, sig_len, ecdsa_half, &der, &der_len)) {
            ERR_clear_error();
            return 0;
        }
        sig = der;
        sig_len = der_len;
    }
    int valid = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *key_ctx = NULL;
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, &key_ctx, digest, NULL, key) == 1) {
        int ready = 1;
        if (scheme == PARLOR_SIG_RSA_PSS_SHA256) {
            ready = EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(key_ctx, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(key_ctx, digest) == 1;
        } else if (kind == PARLOR_PKEY_RSA) {
            ready = EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PADDING) == 1;
        }
        valid = ready && EVP_DigestVerify(ctx, sig, sig_len, msg, msg_len) == 1;
    }
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    ERR_clear_error();
    return valid;
}

int parlor_hmac_verify(int bits, const void *key, size_t key_len, const unsigned char *msg, size_t msg_len,
                       const unsigned char *mac, size_t mac_len) {
    const EVP_MD *digest;
    switch (bits) {
    case 256: digest = EVP_sha256(); break;
    case 384: digest = EVP_sha384(); break;
    case 512: digest = EVP_sha512(); break;
    default: return 0;
    }
    if (key_len > INT32_MAX) return 0;
    unsigned char expected[EVP_MAX_MD_SIZE];
    unsigned int expected_len = 0;
    // HMAC() takes a NULL key as "reuse the last one"; an empty key is given a real (empty) buffer.
    static const unsigned char empty = 0;
    if (HMAC(digest, key_len == 0 ? &empty : key, (int)key_len, msg, msg_len, expected, &expected_len) == NULL) {
        ERR_clear_error();
        return 0;
    }
    if ((size_t)expected_len != mac_len) return 0;
    return CRYPTO_memcmp(expected, mac, mac_len) == 0;
}
