import Foundation
internal import CSQLite

/// The one-time upgrade of a plain database to an encrypted one (`Database(path:key:)`).
///
/// Crash-safe by construction: the plain file is only read. Its pages are copied with
/// `VACUUM INTO` into `<path>.encrypting` through the encrypting VFS, which is synced, checked to
/// open with the key, and renamed over the plain file (the rename is atomic; the directory is
/// synced after it). A crash before the rename leaves the plain database whole and the copy is
/// made again at the next start; after it, the database is encrypted.
///
/// Run it where no other process writes the database (at start, under `core.lock`): a write to
/// the plain file after the copy would be lost with it.
public enum DatabaseEncryption {
    /// The name of the copy in progress, beside the database.
    public static func pendingPath(for path: String) -> String { path + ".encrypting" }

    /// Encrypts the database at `path` with `key` if it is plain; true when it did. An encrypted,
    /// missing or empty file is left as it is (and a leftover copy from an interrupted run removed).
    @discardableResult
    public static func encryptIfPlain(path: String, key: DatabaseKey) throws -> Bool {
        let pending = pendingPath(for: path)
        // Only ever a copy being made: the original is still whole beside it.
        try removeWithCompanions(pending)
        guard DatabaseFileState.of(path) == .plain else { return false }
        guard key.upgradesPlainDatabases else {
            throw DatabaseError(
                .notADatabase,
                message: "\(path) is a plain database, but this group's databases were encrypted: "
                    + "the file was replaced (tampering); nothing was changed")
        }
        try createPrivateEmptyFile(pending)
        let cipher = try PageCipher(key: key)
        let source = try Database(path: path)
        do {
            // The copy is made with room for the nonce and tag in every page.
            try source.requestReservedBytes(PageCipher.reservedBytes)
            try source.execute("VACUUM INTO ?", arguments: [uri(pending, vfs: cipher.vfsName)])
            try source.close()
        } catch {
            try? source.close()
            try? removeWithCompanions(pending)
            throw error
        }
        try sync(pending, directory: false)
        do {
            let copy = try Database(path: pending, key: key)
            let check = try copy.fetchValue(String.self, "PRAGMA quick_check")
            try copy.close()
            guard check == "ok" else {
                throw DatabaseError(
                    .corrupt, message: "the encrypted copy of \(path) does not check: \(check ?? "no result")"
                )
            }
        } catch {
            try? removeWithCompanions(pending)
            throw error
        }
        guard rename(pending, path) == 0 else { throw fileError("cannot rename \(pending) to", path) }
        try sync((path as NSString).deletingLastPathComponent, directory: true)
        // The plain file's WAL and index went with its last connection; any left are plain.
        for companion in ["-wal", "-shm", "-journal"] { unlink(path + companion) }
        return true
    }

    /// Whether the file at `path` is a database sealed with a key (its clear header says so).
    public static func isEncrypted(path: String) -> Bool { DatabaseFileState.of(path) == .encrypted }

    /// Whether the file at `path` is an SQLite database in the clear (not missing, not empty).
    public static func isPlain(path: String) -> Bool { DatabaseFileState.of(path) == .plain }

    /// `file:` URI of `path` opened through `vfs` (SQLite is built with URI filenames).
    static func uri(_ path: String, vfs: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:\(escaped)?vfs=\(vfs)"
    }

    private static func removeWithCompanions(_ path: String) throws {
        for name in [path, path + "-wal", path + "-shm", path + "-journal"] {
            guard unlink(name) == 0 || errno == ENOENT else { throw fileError("cannot remove", name) }
        }
    }

    private static func createPrivateEmptyFile(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fileError("cannot create", path) }
        _ = Foundation.close(descriptor)
    }

    private static func sync(_ path: String, directory: Bool) throws {
        let descriptor = open(path, (directory ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fileError("cannot open", path) }
        defer { _ = Foundation.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw fileError("cannot sync", path) }
    }

    private static func fileError(_ action: String, _ path: String) -> DatabaseError {
        DatabaseError(.ioError, message: "\(action) \(path): \(String(cString: strerror(errno)))")
    }
}

extension Database {
    /// Asks for `count` reserved bytes per page in files this connection creates (a new database,
    /// or the output of VACUUM INTO); an existing file keeps its own.
    func requestReservedBytes(_ count: Int32) throws {
        var reserve = count
        let code = sqlite3_file_control(try requireHandle(), "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
        guard code == SQLITE_OK else {
            throw DatabaseError(ResultCode(rawValue: code), message: "cannot reserve page bytes")
        }
    }
}
