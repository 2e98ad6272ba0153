// A VFS shim that encrypts SQLite databases at rest: every page of the main database, the page
// images in WAL frames and in the rollback journal, sealed with XChaCha20-Poly1305 (libsodium).
//
// Why XChaCha20-Poly1305: its 192-bit nonce can be drawn at random for every page write, so no
// counter has to be kept consistent across the processes sharing the file or across a crash
// (a repeated nonce under the same key would expose the pages). AES-GCM's 96-bit nonce is too short
// for random nonces over millions of page writes, and libsodium offers it only with AES-NI.
//
// Page layout (page size P, reserve R = 40, set with SQLITE_FCNTL_RESERVE_BYTES before the file
// is created; SQLite never stores anything in the reserved bytes, as cksumvfs relies on too):
//
//     [0, P-40)     ciphertext of SQLite's bytes      (page 1: bytes 0..99 stay in the clear)
//     [P-40, P-16)  nonce, random per write
//     [P-16, P)     Poly1305 tag
//
// Associated data: "SXC1" | the file's 16-byte identifier | page number (u32 BE) | on page 1,
// the 100 header bytes. A page copied to another position, or from another database under the
// same key, fails to open; so does any changed byte. A failure is SQLITE_IOERR_DATA, which the
// Swift side reports as tampering; SQLite never sees the bytes.
//
// Page 1's first 100 bytes are SQLite's file header, read before SQLite knows the page size; they
// stay readable and authenticated. They hold only the format's numbers (page size, reserve,
// change counters, page and freelist counts, schema cookie and format, encoding, user version,
// SQLite's version) and, in bytes 72..91 which SQLite reserves for expansion, our marker "SXC1"
// and the random file identifier: nothing of a message, a name or a key. The shared-memory
// wal-index holds frame numbers and page numbers, no page content.
//
// WAL and journal files find their main database (sqlite3_database_file_object) and use its key
// and identifier; a page's number comes from the frame header (WAL) or record header (journal)
// just before it. Temporary files (sorters, temp databases, statement journals when they spill;
// the Swift side also sets temp_store = MEMORY) are XORed with an XChaCha20 keystream under a
// random key that lives only as long as the file.
//
// Not covered, as with any page-level scheme: an attacker who can write the files can put back
// an older sealed version of a page or of a whole file, or cut the WAL's tail (a torn tail after
// a crash looks the same, so WAL recovery treats a frame that fails to open as the end of the WAL).
#include "sqlitecrypt.h"

#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NONCE_BYTES crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define TAG_BYTES crypto_aead_xchacha20poly1305_ietf_ABYTES
#define ID_BYTES 16
#define HEADER_BYTES 100
#define WAL_HEADER_BYTES 32
#define WAL_FRAME_HEADER_BYTES 24
static const unsigned char marker[4] = {'S', 'X', 'C', '1'};

struct sqlitecrypt_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    unsigned char *key;  // sodium_malloc
    char name[64];
};

enum file_kind { KIND_PASS, KIND_MAIN, KIND_WAL, KIND_JOURNAL, KIND_TEMP };

typedef struct crypt_file {
    sqlite3_file base;
    sqlitecrypt_vfs *vfs;
    enum file_kind kind;
    struct crypt_file *main;  // for WAL and journal: their database (opened first, closed last)
    int page_size;            // main: learned from the header and page I/O; WAL: from its header
    int have_id;
    unsigned char id[ID_BYTES];
    unsigned char temp_key[crypto_stream_xchacha20_KEYBYTES];
    unsigned char temp_nonce[crypto_stream_xchacha20_NONCEBYTES];
    unsigned char *scratch;  // one page (or one temp write), sqlite3_malloc
    int scratch_size;
    sqlite3_file *real;  // follows this struct in the same allocation
} crypt_file;

#define REAL(f) (((crypt_file *)(f))->real)

static int valid_page_size(sqlite3_int64 n) { return n >= 512 && n <= 65536 && (n & (n - 1)) == 0; }

static unsigned read_be32(const unsigned char *p) {
    return ((unsigned)p[0] << 24) | ((unsigned)p[1] << 16) | ((unsigned)p[2] << 8) | p[3];
}

static unsigned char *scratch(crypt_file *f, int size) {
    if (f->scratch_size < size) {
        sqlite3_free(f->scratch);
        f->scratch = sqlite3_malloc(size);
        f->scratch_size = f->scratch ? size : 0;
    }
    return f->scratch;
}

/// The page size from a database header's bytes 16..17 (1 means 65536).
static int header_page_size(const unsigned char *header) {
    int n = (header[16] << 8) | header[17];
    return n == 1 ? 65536 : n;
}

/// Learns the file identifier and page size from a database header in the clear.
static void learn_header(crypt_file *db, const unsigned char *header) {
    if (memcmp(header + SQLITECRYPT_MARKER_OFFSET, marker, 4) == 0 && !db->have_id) {
        memcpy(db->id, header + SQLITECRYPT_MARKER_OFFSET + 4, ID_BYTES);
        db->have_id = 1;
    }
    int n = header_page_size(header);
    if (valid_page_size(n)) db->page_size = n;
}

static size_t associated_data(unsigned char *ad, const unsigned char *id, unsigned pgno, const unsigned char *page) {
    memcpy(ad, marker, 4);
    memcpy(ad + 4, id, ID_BYTES);
    ad[20] = (unsigned char)(pgno >> 24);
    ad[21] = (unsigned char)(pgno >> 16);
    ad[22] = (unsigned char)(pgno >> 8);
    ad[23] = (unsigned char)pgno;
    if (pgno != 1) return 24;
    memcpy(ad + 24, page, HEADER_BYTES);
    return 24 + HEADER_BYTES;
}

/// Seals SQLite's page `in` (page number `pgno`, size `size`) into `out` under `db`'s key and id.
static int seal_page(crypt_file *db, unsigned pgno, const unsigned char *in, unsigned char *out, int size) {
    if (size <= SQLITECRYPT_RESERVE + HEADER_BYTES || pgno == 0) return SQLITE_IOERR_WRITE;
    int clear = 0;
    if (pgno == 1) {
        // A page 1 without the reserve would put the nonce and tag over SQLite's own bytes.
        if (in[20] != SQLITECRYPT_RESERVE || header_page_size(in) != size) return SQLITE_IOERR_WRITE;
        clear = HEADER_BYTES;
        memcpy(out, in, HEADER_BYTES);
    }
    if (!db->have_id) {
        // A new file: any page 1 on disk has been read (and its identifier learned) before a write.
        // A large transaction can spill other pages before page 1.
        randombytes_buf(db->id, ID_BYTES);
        db->have_id = 1;
    }
    if (pgno == 1) {
        memcpy(out + SQLITECRYPT_MARKER_OFFSET, marker, 4);
        memcpy(out + SQLITECRYPT_MARKER_OFFSET + 4, db->id, ID_BYTES);
    }
    unsigned char *nonce = out + size - SQLITECRYPT_RESERVE;
    unsigned char *tag = out + size - TAG_BYTES;
    unsigned char ad[24 + HEADER_BYTES];
    size_t ad_length = associated_data(ad, db->id, pgno, out);
    randombytes_buf(nonce, NONCE_BYTES);
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
        out + clear, tag, NULL, in + clear, (unsigned long long)(size - SQLITECRYPT_RESERVE - clear), ad, ad_length,
        NULL, nonce, db->vfs->key);
    return SQLITE_OK;
}

/// SQLite sees zeros where the nonce, the tag and page 1's marker and identifier are: what its
/// own buffers hold for a page it made, so a page read back is byte for byte what it wrote and
/// the checksums it keeps over pages (WAL frames, journal records) match. `from` is the offset of
/// `bytes` within the page, `count` its length.
static void hide_own_bytes(unsigned char *bytes, unsigned pgno, int from, int count) {
    int page_size = 0;
    if (pgno == 1) {
        int lo = SQLITECRYPT_MARKER_OFFSET > from ? SQLITECRYPT_MARKER_OFFSET : from;
        int hi = SQLITECRYPT_MARKER_OFFSET + 4 + ID_BYTES < from + count ? SQLITECRYPT_MARKER_OFFSET + 4 + ID_BYTES
                                                                        : from + count;
        if (lo < hi) memset(bytes + (lo - from), 0, (size_t)(hi - lo));
    }
    if (from == 0 && valid_page_size(count)) page_size = count;
    if (page_size) memset(bytes + page_size - SQLITECRYPT_RESERVE, 0, SQLITECRYPT_RESERVE);
}

/// Opens a sealed page in place; SQLITE_IOERR_DATA (and zeros) when it does not authenticate.
static int open_page(crypt_file *db, unsigned pgno, unsigned char *page, int size) {
    if (size <= SQLITECRYPT_RESERVE + HEADER_BYTES || pgno == 0) return SQLITE_IOERR_DATA;
    int clear = 0;
    const unsigned char *id = db->id;
    if (pgno == 1) {
        clear = HEADER_BYTES;
        if (memcmp(page + SQLITECRYPT_MARKER_OFFSET, marker, 4) != 0) goto fail;
        id = page + SQLITECRYPT_MARKER_OFFSET + 4;
        // Page 1 of another database (a WAL frame, say) must not pass for this one's.
        if (db->have_id && sodium_memcmp(id, db->id, ID_BYTES) != 0) goto fail;
    } else if (!db->have_id) {
        goto fail;
    }
    unsigned char ad[24 + HEADER_BYTES];
    size_t ad_length = associated_data(ad, id, pgno, page);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
            page + clear, NULL, page + clear, (unsigned long long)(size - SQLITECRYPT_RESERVE - clear),
            page + size - TAG_BYTES, ad, ad_length, page + size - SQLITECRYPT_RESERVE, db->vfs->key) != 0)
        goto fail;
    if (pgno == 1 && !db->have_id) {
        memcpy(db->id, id, ID_BYTES);
        db->have_id = 1;
    }
    hide_own_bytes(page, pgno, 0, size);
    return SQLITE_OK;
fail:
    sqlite3_log(SQLITE_IOERR_DATA, "sqlitecrypt: page %u does not authenticate", pgno);
    memset(page, 0, (size_t)size);
    return SQLITE_IOERR_DATA;
}

/// XORs `n` bytes at file offset `offset` with the temp file's keystream.
static void temp_xor(crypt_file *f, unsigned char *buf, int n, sqlite3_int64 offset) {
    uint64_t block = (uint64_t)offset / 64;
    int skip = (int)(offset % 64);
    if (skip) {
        unsigned char stream[64];
        memset(stream, 0, sizeof stream);
        crypto_stream_xchacha20_xor_ic(stream, stream, 64, f->temp_nonce, block, f->temp_key);
        int take = 64 - skip < n ? 64 - skip : n;
        for (int i = 0; i < take; i++) buf[i] ^= stream[skip + i];
        sodium_memzero(stream, sizeof stream);
        buf += take;
        n -= take;
        block++;
    }
    if (n > 0) crypto_stream_xchacha20_xor_ic(buf, buf, (unsigned long long)n, f->temp_nonce, block, f->temp_key);
}

// MARK: - Main database

static int main_read(crypt_file *f, unsigned char *buf, int amount, sqlite3_int64 offset) {
    int rc = REAL(f)->pMethods->xRead(REAL(f), buf, amount, offset);
    if (offset == 0 && amount >= HEADER_BYTES && rc == SQLITE_OK) learn_header(f, buf);
    // The header alone (SQLite reads it before it knows the page size): in the clear.
    if (offset + amount <= HEADER_BYTES) {
        hide_own_bytes(buf, 1, (int)offset, amount);
        return rc;
    }
    if (!valid_page_size(amount) || offset % amount != 0) return SQLITE_IOERR_READ;
    if (rc == SQLITE_IOERR_SHORT_READ) {
        // Past the end (or a partial page, which SQLite never writes): no sealed data to show.
        memset(buf, 0, (size_t)amount);
        return rc;
    }
    if (rc != SQLITE_OK) return rc;
    f->page_size = amount;
    return open_page(f, (unsigned)(offset / amount) + 1, buf, amount);
}

static int main_write(crypt_file *f, const unsigned char *buf, int amount, sqlite3_int64 offset) {
    if (!valid_page_size(amount) || offset % amount != 0) return SQLITE_IOERR_WRITE;
    unsigned char *out = scratch(f, amount);
    if (!out) return SQLITE_IOERR_NOMEM;
    int rc = seal_page(f, (unsigned)(offset / amount) + 1, buf, out, amount);
    if (rc != SQLITE_OK) return rc;
    f->page_size = amount;
    return REAL(f)->pMethods->xWrite(REAL(f), out, amount, offset);
}

// MARK: - WAL: 32-byte header, then frames of a 24-byte header (page number first) and a page

static int wal_page_size(crypt_file *f) { return f->page_size ? f->page_size : f->main->page_size; }

static void wal_learn_header(crypt_file *f, const unsigned char *buf, int amount, sqlite3_int64 offset) {
    if (offset != 0 || amount < WAL_HEADER_BYTES) return;
    unsigned n = read_be32(buf + 8);
    if (n == 1) n = 65536;
    if (valid_page_size(n)) f->page_size = (int)n;
}

/// The page number in the frame header on disk before the page at `offset`.
static int wal_page_number(crypt_file *f, sqlite3_int64 page_offset, unsigned *pgno) {
    unsigned char header[4];
    int rc = REAL(f)->pMethods->xRead(REAL(f), header, 4, page_offset - WAL_FRAME_HEADER_BYTES);
    if (rc != SQLITE_OK) return rc;
    *pgno = read_be32(header);
    return SQLITE_OK;
}

static int wal_read(crypt_file *f, unsigned char *buf, int amount, sqlite3_int64 offset) {
    int rc = REAL(f)->pMethods->xRead(REAL(f), buf, amount, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    wal_learn_header(f, buf, amount, offset);
    int size = wal_page_size(f);
    if (!valid_page_size(size)) return offset + amount <= WAL_HEADER_BYTES ? rc : SQLITE_IOERR_READ;
    sqlite3_int64 frame = WAL_FRAME_HEADER_BYTES + size;
    // Every page region [start, start + size) the read overlaps.
    sqlite3_int64 first = offset < WAL_HEADER_BYTES ? 0 : (offset - WAL_HEADER_BYTES) / frame;
    for (sqlite3_int64 k = first;; k++) {
        sqlite3_int64 start = WAL_HEADER_BYTES + k * frame + WAL_FRAME_HEADER_BYTES;
        if (start >= offset + amount) break;
        if (start + size <= offset) continue;
        if (start < offset || start + size > offset + amount) {
            // SQLite reads pages, frames and headers; part of a page is not one of them.
            return SQLITE_IOERR_READ;
        }
        unsigned char *page = buf + (start - offset);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            memset(page, 0, (size_t)size);  // cut short: no sealed page to show
            continue;
        }
        unsigned pgno;
        int whole_frame = start - WAL_FRAME_HEADER_BYTES >= offset;
        if (whole_frame) {
            pgno = read_be32(page - WAL_FRAME_HEADER_BYTES);
        } else {
            int hrc = wal_page_number(f, start, &pgno);
            if (hrc != SQLITE_OK) return hrc;
        }
        int orc = open_page(f->main, pgno, page, size);
        // Reading whole frames is recovery (or checksum rewriting) walking the log: a frame that
        // does not open is a torn tail left by a crash as far as anyone can tell, and its zeros fail
        // SQLite's frame checksum, which ends the log there. A page read on its own is tampering.
        if (orc != SQLITE_OK && !whole_frame) return orc;
    }
    return rc;
}

static int wal_write(crypt_file *f, const unsigned char *buf, int amount, sqlite3_int64 offset) {
    wal_learn_header(f, buf, amount, offset);
    int size = wal_page_size(f);
    if (offset + amount <= WAL_HEADER_BYTES) return REAL(f)->pMethods->xWrite(REAL(f), buf, amount, offset);
    if (!valid_page_size(size) || offset < WAL_HEADER_BYTES) return SQLITE_IOERR_WRITE;
    sqlite3_int64 frame = WAL_FRAME_HEADER_BYTES + size;
    sqlite3_int64 within = (offset - WAL_HEADER_BYTES) % frame;
    if (within == 0 && amount == WAL_FRAME_HEADER_BYTES) return REAL(f)->pMethods->xWrite(REAL(f), buf, amount, offset);
    unsigned char *out = scratch(f, (int)frame);
    if (!out) return SQLITE_IOERR_NOMEM;
    int rc;
    if (within == WAL_FRAME_HEADER_BYTES && amount == size) {
        unsigned pgno;
        rc = wal_page_number(f, offset, &pgno);
        if (rc == SQLITE_OK) rc = seal_page(f->main, pgno, buf, out, size);
    } else if (within == 0 && amount == frame) {
        memcpy(out, buf, WAL_FRAME_HEADER_BYTES);
        rc = seal_page(f->main, read_be32(buf), buf + WAL_FRAME_HEADER_BYTES, out + WAL_FRAME_HEADER_BYTES, size);
    } else {
        // Anything else would put part of a page in the clear.
        return SQLITE_IOERR_WRITE;
    }
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xWrite(REAL(f), out, amount, offset);
}

// MARK: - Rollback journal: headers at sector multiples; records of page number, page, checksum
//
// A record's page starts 4 bytes after a multiple of 8 (headers are sector-aligned, records are
// 8 + P long), so a page-sized write or read at offset % 8 == 4 is a page and one at a multiple
// of 8 is a header padded to the page size.

static int journal_is_page(crypt_file *f, int amount, sqlite3_int64 offset) {
    return amount == f->main->page_size && valid_page_size(amount) && offset % 8 == 4;
}

static int journal_page_number(crypt_file *f, sqlite3_int64 offset, unsigned *pgno) {
    unsigned char header[4];
    int rc = REAL(f)->pMethods->xRead(REAL(f), header, 4, offset - 4);
    if (rc != SQLITE_OK) return rc;
    *pgno = read_be32(header);
    return SQLITE_OK;
}

static int journal_read(crypt_file *f, unsigned char *buf, int amount, sqlite3_int64 offset) {
    int rc = REAL(f)->pMethods->xRead(REAL(f), buf, amount, offset);
    if (rc != SQLITE_OK || !journal_is_page(f, amount, offset)) return rc;
    unsigned pgno;
    rc = journal_page_number(f, offset, &pgno);
    if (rc != SQLITE_OK) return rc;
    return open_page(f->main, pgno, buf, amount);
}

static int journal_write(crypt_file *f, const unsigned char *buf, int amount, sqlite3_int64 offset) {
    if (!journal_is_page(f, amount, offset)) {
        if (amount >= 512 && offset % 8 == 4) return SQLITE_IOERR_WRITE;  // a page we cannot place
        return REAL(f)->pMethods->xWrite(REAL(f), buf, amount, offset);
    }
    unsigned pgno;
    int rc = journal_page_number(f, offset, &pgno);
    if (rc != SQLITE_OK) return rc;
    unsigned char *out = scratch(f, amount);
    if (!out) return SQLITE_IOERR_NOMEM;
    rc = seal_page(f->main, pgno, buf, out, amount);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xWrite(REAL(f), out, amount, offset);
}

// MARK: - io methods

static int crypt_close(sqlite3_file *file) {
    crypt_file *f = (crypt_file *)file;
    int rc = REAL(f)->pMethods->xClose(REAL(f));
    sqlite3_free(f->scratch);
    f->scratch = NULL;
    sodium_memzero(f->temp_key, sizeof f->temp_key);
    sodium_memzero(f->id, sizeof f->id);
    return rc;
}

static int crypt_read(sqlite3_file *file, void *buf, int amount, sqlite3_int64 offset) {
    crypt_file *f = (crypt_file *)file;
    switch (f->kind) {
    case KIND_MAIN: return main_read(f, buf, amount, offset);
    case KIND_WAL: return wal_read(f, buf, amount, offset);
    case KIND_JOURNAL: return journal_read(f, buf, amount, offset);
    case KIND_TEMP: {
        int rc = REAL(f)->pMethods->xRead(REAL(f), buf, amount, offset);
        if (rc == SQLITE_OK) temp_xor(f, buf, amount, offset);
        return rc;  // a short read is zero-filled past the end, where nothing was written
    }
    case KIND_PASS: break;
    }
    return REAL(f)->pMethods->xRead(REAL(f), buf, amount, offset);
}

static int crypt_write(sqlite3_file *file, const void *buf, int amount, sqlite3_int64 offset) {
    crypt_file *f = (crypt_file *)file;
    switch (f->kind) {
    case KIND_MAIN: return main_write(f, buf, amount, offset);
    case KIND_WAL: return wal_write(f, buf, amount, offset);
    case KIND_JOURNAL: return journal_write(f, buf, amount, offset);
    case KIND_TEMP: {
        unsigned char *out = scratch(f, amount);
        if (!out) return SQLITE_IOERR_NOMEM;
        memcpy(out, buf, (size_t)amount);
        temp_xor(f, out, amount, offset);
        return REAL(f)->pMethods->xWrite(REAL(f), out, amount, offset);
    }
    case KIND_PASS: break;
    }
    return REAL(f)->pMethods->xWrite(REAL(f), buf, amount, offset);
}

static int crypt_truncate(sqlite3_file *f, sqlite3_int64 size) { return REAL(f)->pMethods->xTruncate(REAL(f), size); }
static int crypt_sync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }
static int crypt_file_size(sqlite3_file *f, sqlite3_int64 *size) { return REAL(f)->pMethods->xFileSize(REAL(f), size); }
static int crypt_lock(sqlite3_file *f, int lock) { return REAL(f)->pMethods->xLock(REAL(f), lock); }
static int crypt_unlock(sqlite3_file *f, int lock) { return REAL(f)->pMethods->xUnlock(REAL(f), lock); }
static int crypt_check_reserved_lock(sqlite3_file *f, int *out) {
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int crypt_file_control(sqlite3_file *file, int op, void *arg) {
    crypt_file *f = (crypt_file *)file;
    if (op == SQLITE_FCNTL_MMAP_SIZE) {
        // Memory-mapped pages would bypass xRead, and so the decryption.
        *(sqlite3_int64 *)arg = 0;
        return SQLITE_OK;
    }
    int rc = REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
    if (op == SQLITE_FCNTL_VFSNAME && rc == SQLITE_OK && f->kind != KIND_PASS) {
        char *inner = *(char **)arg;
        *(char **)arg = sqlite3_mprintf("sqlitecrypt/%z", inner);
    }
    return rc;
}

static int crypt_sector_size(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int crypt_device_characteristics(sqlite3_file *f) {
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
static int crypt_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, out);
}
static int crypt_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}
static void crypt_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int crypt_shm_unmap(sqlite3_file *f, int delete) { return REAL(f)->pMethods->xShmUnmap(REAL(f), delete); }

// Version 2: the shared-memory methods WAL needs, and no xFetch, so SQLite never maps pages.
static const sqlite3_io_methods crypt_io_methods = {
    2,
    crypt_close,
    crypt_read,
    crypt_write,
    crypt_truncate,
    crypt_sync,
    crypt_file_size,
    crypt_lock,
    crypt_unlock,
    crypt_check_reserved_lock,
    crypt_file_control,
    crypt_sector_size,
    crypt_device_characteristics,
    crypt_shm_map,
    crypt_shm_lock,
    crypt_shm_barrier,
    crypt_shm_unmap,
    NULL,
    NULL,
};

// MARK: - VFS methods

#define VFS_REAL(v) (((sqlitecrypt_vfs *)(v))->real)

static int crypt_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    crypt_file *f = (crypt_file *)file;
    memset(f, 0, sizeof *f);
    f->vfs = (sqlitecrypt_vfs *)vfs;
    f->real = (sqlite3_file *)&f[1];
    if (flags & SQLITE_OPEN_MAIN_DB) {
        f->kind = KIND_MAIN;
    } else if (flags & (SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL)) {
        sqlite3_file *db = sqlite3_database_file_object(name);
        if (db == NULL || db->pMethods != &crypt_io_methods) return SQLITE_CANTOPEN;
        f->main = (crypt_file *)db;
        f->kind = (flags & SQLITE_OPEN_WAL) ? KIND_WAL : KIND_JOURNAL;
    } else if (flags & SQLITE_OPEN_SUPER_JOURNAL) {
        f->kind = KIND_PASS;  // the names of the databases in a multi-file commit
    } else {
        // Temp and transient databases, temp and statement journals, and unnamed files.
        f->kind = KIND_TEMP;
        randombytes_buf(f->temp_key, sizeof f->temp_key);
        randombytes_buf(f->temp_nonce, sizeof f->temp_nonce);
    }
    int rc = VFS_REAL(vfs)->xOpen(VFS_REAL(vfs), name, f->real, flags, out_flags);
    if (f->real->pMethods) file->pMethods = &crypt_io_methods;
    return rc;
}

static int crypt_delete(sqlite3_vfs *v, const char *name, int sync) { return VFS_REAL(v)->xDelete(VFS_REAL(v), name, sync); }
static int crypt_access(sqlite3_vfs *v, const char *name, int flags, int *out) {
    return VFS_REAL(v)->xAccess(VFS_REAL(v), name, flags, out);
}
static int crypt_full_pathname(sqlite3_vfs *v, const char *name, int n, char *out) {
    return VFS_REAL(v)->xFullPathname(VFS_REAL(v), name, n, out);
}
static void *crypt_dl_open(sqlite3_vfs *v, const char *name) { return VFS_REAL(v)->xDlOpen(VFS_REAL(v), name); }
static void crypt_dl_error(sqlite3_vfs *v, int n, char *out) { VFS_REAL(v)->xDlError(VFS_REAL(v), n, out); }
static void (*crypt_dl_sym(sqlite3_vfs *v, void *h, const char *s))(void) { return VFS_REAL(v)->xDlSym(VFS_REAL(v), h, s); }
static void crypt_dl_close(sqlite3_vfs *v, void *h) { VFS_REAL(v)->xDlClose(VFS_REAL(v), h); }
static int crypt_randomness(sqlite3_vfs *v, int n, char *out) { return VFS_REAL(v)->xRandomness(VFS_REAL(v), n, out); }
static int crypt_sleep(sqlite3_vfs *v, int us) { return VFS_REAL(v)->xSleep(VFS_REAL(v), us); }
static int crypt_current_time(sqlite3_vfs *v, double *out) { return VFS_REAL(v)->xCurrentTime(VFS_REAL(v), out); }
static int crypt_get_last_error(sqlite3_vfs *v, int n, char *out) {
    return VFS_REAL(v)->xGetLastError ? VFS_REAL(v)->xGetLastError(VFS_REAL(v), n, out) : 0;
}
static int crypt_current_time_int64(sqlite3_vfs *v, sqlite3_int64 *out) {
    return VFS_REAL(v)->xCurrentTimeInt64(VFS_REAL(v), out);
}

sqlitecrypt_vfs *sqlitecrypt_vfs_create(const unsigned char *key, size_t key_length) {
    if (key_length != SQLITECRYPT_KEY_BYTES || sodium_init() < 0) return NULL;
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL || real->iVersion < 2) return NULL;
    sqlitecrypt_vfs *v = sqlite3_malloc(sizeof *v);
    if (v == NULL) return NULL;
    memset(v, 0, sizeof *v);
    v->key = sodium_malloc(SQLITECRYPT_KEY_BYTES);
    if (v->key == NULL) {
        sqlite3_free(v);
        return NULL;
    }
    memcpy(v->key, key, SQLITECRYPT_KEY_BYTES);
    sodium_mprotect_readonly(v->key);
    v->real = real;
    snprintf(v->name, sizeof v->name, "sqlitecrypt-%p", (void *)v);
    v->base.iVersion = 2;
    v->base.szOsFile = (int)sizeof(crypt_file) + real->szOsFile;
    v->base.mxPathname = real->mxPathname;
    v->base.zName = v->name;
    v->base.pAppData = v;
    v->base.xOpen = crypt_open;
    v->base.xDelete = crypt_delete;
    v->base.xAccess = crypt_access;
    v->base.xFullPathname = crypt_full_pathname;
    v->base.xDlOpen = crypt_dl_open;
    v->base.xDlError = crypt_dl_error;
    v->base.xDlSym = crypt_dl_sym;
    v->base.xDlClose = crypt_dl_close;
    v->base.xRandomness = crypt_randomness;
    v->base.xSleep = crypt_sleep;
    v->base.xCurrentTime = crypt_current_time;
    v->base.xGetLastError = crypt_get_last_error;
    v->base.xCurrentTimeInt64 = crypt_current_time_int64;
    if (sqlite3_vfs_register(&v->base, 0) != SQLITE_OK) {
        sodium_free(v->key);
        sqlite3_free(v);
        return NULL;
    }
    return v;
}

const char *sqlitecrypt_vfs_name(const sqlitecrypt_vfs *vfs) { return vfs->name; }

void sqlitecrypt_vfs_destroy(sqlitecrypt_vfs *vfs) {
    if (vfs == NULL) return;
    sqlite3_vfs_unregister(&vfs->base);
    sodium_free(vfs->key);  // zeroes first
    sqlite3_free(vfs);
}
