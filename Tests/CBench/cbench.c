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
