#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 on the x86 SHA extensions (SHA-NI), which libsodium does not use: its portable
/// SHA-256 takes 53-80 µs for 16 KB here where these instructions take ~11 µs. The agent hashes
/// every received client message (up to 16 KB; the duplicate check) and every agent message.

/// 1 when this CPU has the SHA extensions (and SSE4.1/SSSE3, which the code also uses), else 0.
int csha256_hardware_available(void);

/// Writes the 32-byte SHA-256 digest of `length` bytes at `data` to `digest` and returns 1, or
/// returns 0 without writing when the CPU lacks the extensions (the caller hashes another way).
int csha256_hardware(uint8_t digest[32], const uint8_t *data, size_t length);

#endif
