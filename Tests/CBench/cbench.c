#include "CBench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

/* Results feed this sink so the compiler cannot drop the calls being timed. */
static volatile unsigned char cbench_sink;

double cbench_now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

double cbench_secretbox_seal_seconds(size_t length, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char key[crypto_secretbox_KEYBYTES];
    unsigned char nonce[crypto_secretbox_NONCEBYTES];
    unsigned char *message = malloc(length ? length : 1);
    unsigned char *box = malloc(length + crypto_secretbox_MACBYTES);
    if (!message || !box) {
        free(message);
        free(box);
        return -1;
    }
    crypto_secretbox_keygen(key);
    randombytes_buf(nonce, sizeof nonce);
    randombytes_buf(message, length);

    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        crypto_secretbox_easy(box, message, length, nonce, key);
        cbench_sink ^= box[0];
    }
    double elapsed = cbench_now_seconds() - start;

    free(message);
    free(box);
    sodium_memzero(key, sizeof key);
    return elapsed;
}

double cbench_sha256_seconds(size_t length, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char digest[crypto_hash_sha256_BYTES];
    unsigned char *message = malloc(length ? length : 1);
    if (!message) return -1;
    randombytes_buf(message, length);

    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        crypto_hash_sha256(digest, message, length);
        cbench_sink ^= digest[0];
    }
    double elapsed = cbench_now_seconds() - start;
    free(message);
    return elapsed;
}

double cbench_sign_seconds(size_t length, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char publicKey[crypto_sign_PUBLICKEYBYTES];
    unsigned char secretKey[crypto_sign_SECRETKEYBYTES];
    unsigned char signature[crypto_sign_BYTES];
    unsigned char *message = malloc(length ? length : 1);
    if (!message) return -1;
    crypto_sign_keypair(publicKey, secretKey);
    randombytes_buf(message, length);

    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        crypto_sign_detached(signature, NULL, message, length, secretKey);
        cbench_sink ^= signature[0];
    }
    double elapsed = cbench_now_seconds() - start;

    free(message);
    sodium_memzero(secretKey, sizeof secretKey);
    return elapsed;
}

double cbench_verify_seconds(size_t length, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char publicKey[crypto_sign_PUBLICKEYBYTES];
    unsigned char secretKey[crypto_sign_SECRETKEYBYTES];
    unsigned char signature[crypto_sign_BYTES];
    unsigned char *message = malloc(length ? length : 1);
    if (!message) return -1;
    crypto_sign_keypair(publicKey, secretKey);
    randombytes_buf(message, length);
    crypto_sign_detached(signature, NULL, message, length, secretKey);

    int valid = 0;
    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        valid += crypto_sign_verify_detached(signature, message, length, publicKey) == 0;
    }
    double elapsed = cbench_now_seconds() - start;
    cbench_sink ^= (unsigned char)valid;

    free(message);
    sodium_memzero(secretKey, sizeof secretKey);
    /* A verify loop that fails is not measuring the success path the Swift side measures. */
    return valid == iterations ? elapsed : -1;
}

/* The libsodium work of one double-ratchet message in a chain (the Swift ratchet's floor): one chainKdf
 * step (HKDF-SHA512 with an empty salt: extract, then two expand blocks for 112 bytes) and two
 * XChaCha20-Poly1305 operations, the 88-byte padded header with the 64-byte associated data and the
 * padded body with AD ‖ 131-byte encrypted header. */

static void cbench_hmac_sha512(unsigned char out[64], const unsigned char *key, size_t keyLength,
                               const unsigned char *a, size_t aLength, const unsigned char *b, size_t bLength,
                               const unsigned char *c, size_t cLength) {
    crypto_auth_hmacsha512_state state;
    crypto_auth_hmacsha512_init(&state, key, keyLength);
    if (aLength) crypto_auth_hmacsha512_update(&state, a, aLength);
    if (bLength) crypto_auth_hmacsha512_update(&state, b, bLength);
    if (cLength) crypto_auth_hmacsha512_update(&state, c, cLength);
    crypto_auth_hmacsha512_final(&state, out);
    sodium_memzero(&state, sizeof state);
}

/* chainKdf: ck ← HKDF-SHA512(salt = empty, ikm = ck, info "SimpleXChainRatchet") bytes 0..31; the
 * 112 bytes of output land in `out`. */
static void cbench_chain_kdf(unsigned char ck[32], unsigned char out[128]) {
    static const unsigned char info[] = "SimpleXChainRatchet";
    const size_t infoLength = sizeof info - 1;
    unsigned char zeros[64] = {0};
    unsigned char prk[64];
    unsigned char one = 1, two = 2;
    cbench_hmac_sha512(prk, zeros, sizeof zeros, ck, 32, NULL, 0, NULL, 0);
    cbench_hmac_sha512(out, prk, sizeof prk, info, infoLength, &one, 1, NULL, 0);
    cbench_hmac_sha512(out + 64, prk, sizeof prk, out, 64, info, infoLength, &two, 1);
    memcpy(ck, out, 32);
    sodium_memzero(prk, sizeof prk);
}

enum { cbench_ad = 64, cbench_header = 88, cbench_encrypted_header = 131 };

double cbench_ratchet_encrypt_primitives_seconds(size_t paddedLength, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char ck[32], headerKey[32], chain[128], header[cbench_header], headerOut[cbench_header];
    unsigned char ad[cbench_ad + cbench_encrypted_header], tags[32];
    unsigned char *body = malloc(paddedLength ? paddedLength : 1);
    if (!body) return -1;
    randombytes_buf(ck, sizeof ck);
    randombytes_buf(headerKey, sizeof headerKey);
    randombytes_buf(header, sizeof header);
    randombytes_buf(ad, sizeof ad);
    randombytes_buf(body, paddedLength);

    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        cbench_chain_kdf(ck, chain);
        crypto_aead_xchacha20poly1305_ietf_encrypt_detached(headerOut, tags, NULL, header, sizeof header, ad,
                                                            cbench_ad, NULL, chain + 88, headerKey);
        crypto_aead_xchacha20poly1305_ietf_encrypt_detached(body, tags + 16, NULL, body, paddedLength, ad,
                                                            sizeof ad, NULL, chain + 64, chain + 32);
        cbench_sink ^= body[0] ^ headerOut[0];
    }
    double elapsed = cbench_now_seconds() - start;

    free(body);
    sodium_memzero(ck, sizeof ck);
    sodium_memzero(chain, sizeof chain);
    return elapsed;
}

double cbench_ratchet_decrypt_primitives_seconds(size_t paddedLength, long iterations) {
    if (sodium_init() < 0) return -1;
    unsigned char ck[32], key[32], nonce[24], chain[128], header[cbench_header], headerOut[cbench_header];
    unsigned char ad[cbench_ad + cbench_encrypted_header], tags[32];
    unsigned char *body = malloc(paddedLength ? paddedLength : 1);
    unsigned char *bodyOut = malloc(paddedLength ? paddedLength : 1);
    if (!body || !bodyOut) {
        free(body);
        free(bodyOut);
        return -1;
    }
    randombytes_buf(ck, sizeof ck);
    randombytes_buf(key, sizeof key);
    randombytes_buf(nonce, sizeof nonce);
    randombytes_buf(header, sizeof header);
    randombytes_buf(ad, sizeof ad);
    randombytes_buf(body, paddedLength);
    /* Valid ciphertexts under a fixed key and nonce, so every open below takes the success path (a
     * failed open skips the decryption); the chain step still runs and feeds itself as in the ratchet. */
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(header, tags, NULL, header, sizeof header, ad, cbench_ad,
                                                        NULL, nonce, key);
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(body, tags + 16, NULL, body, paddedLength, ad, sizeof ad,
                                                        NULL, nonce, key);

    int valid = 0;
    double start = cbench_now_seconds();
    for (long i = 0; i < iterations; i++) {
        cbench_chain_kdf(ck, chain);
        valid += crypto_aead_xchacha20poly1305_ietf_decrypt_detached(headerOut, NULL, header, sizeof header,
                                                                     tags, ad, cbench_ad, nonce, key) == 0;
        valid += crypto_aead_xchacha20poly1305_ietf_decrypt_detached(bodyOut, NULL, body, paddedLength,
                                                                     tags + 16, ad, sizeof ad, nonce, key) == 0;
        cbench_sink ^= bodyOut[0] ^ headerOut[0] ^ chain[0];
    }
    double elapsed = cbench_now_seconds() - start;

    free(body);
    free(bodyOut);
    sodium_memzero(ck, sizeof ck);
    sodium_memzero(chain, sizeof chain);
    return valid == 2 * iterations ? elapsed : -1;
}
