#ifndef SQLITECRYPT_H
#define SQLITECRYPT_H
#include <stddef.h>

/// A page-encrypting SQLite VFS over the default (unix) VFS and libsodium: see sqlitecrypt.c.

/// Bytes SQLite must leave free at the end of every page (SQLITE_FCNTL_RESERVE_BYTES): the
/// XChaCha20-Poly1305 nonce (24) and tag (16).
#define SQLITECRYPT_RESERVE 40
/// Bytes of the key.
#define SQLITECRYPT_KEY_BYTES 32
/// Where page 1's header keeps the marker and the per-file identifier (bytes SQLite reserves
/// "for expansion", 72..91): "SXC1" then 16 random bytes.
#define SQLITECRYPT_MARKER_OFFSET 72

typedef struct sqlitecrypt_vfs sqlitecrypt_vfs;

/// Registers a new VFS instance that encrypts with `key` (32 bytes, copied into sodium memory).
/// NULL when memory or libsodium fails. Each instance has its own name (sqlitecrypt_vfs_name).
sqlitecrypt_vfs *sqlitecrypt_vfs_create(const unsigned char *key, size_t key_length);
/// The name to give sqlite3_open_v2.
const char *sqlitecrypt_vfs_name(const sqlitecrypt_vfs *vfs);
/// Unregisters the instance and wipes its key. Only after every connection on it is closed.
void sqlitecrypt_vfs_destroy(sqlitecrypt_vfs *vfs);

#endif
