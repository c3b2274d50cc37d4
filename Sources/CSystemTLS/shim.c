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
