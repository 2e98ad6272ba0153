#ifndef CBENCH_H
#define CBENCH_H

#include <stddef.h>

/// The reference side of `make bench`: libsodium called from plain C loops, so the Swift wrappers'
/// overhead can be reported as a ratio measured in the same process and run. Each function does its
/// setup (keys, nonce, message) outside the timed region and returns the seconds the loop took.

/// Seconds on CLOCK_MONOTONIC, shared by the Swift side so both use the same clock.
double cbench_now_seconds(void);

/// Time `iterations` crypto_secretbox_easy calls on a `length`-byte message into one preallocated buffer.
double cbench_secretbox_seal_seconds(size_t length, long iterations);

/// Time `iterations` crypto_hash_sha256 calls (libsodium's portable code) on a `length`-byte message.
double cbench_sha256_seconds(size_t length, long iterations);

/// Time `iterations` crypto_sign_detached calls on a `length`-byte message.
double cbench_sign_seconds(size_t length, long iterations);

/// Time `iterations` crypto_sign_verify_detached calls on a `length`-byte message and its signature.
double cbench_verify_seconds(size_t length, long iterations);

/// Time `iterations` of the libsodium work of one ratchet encrypt in a chain: the chainKdf step
/// (HKDF-SHA512, 112 bytes), sealing the 88-byte header and sealing a `paddedLength`-byte body.
double cbench_ratchet_encrypt_primitives_seconds(size_t paddedLength, long iterations);

/// The same for one ratchet decrypt: the chainKdf step and opening a valid header and body.
double cbench_ratchet_decrypt_primitives_seconds(size_t paddedLength, long iterations);

#endif
