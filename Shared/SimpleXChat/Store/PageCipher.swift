import Foundation
internal import CSQLite
internal import CSQLiteCrypt

/// One registration of the encrypting VFS (Shared/CSQLiteCrypt) with a key, for one connection.
///
/// Each connection gets its own instance, so the key lives exactly as long as the connection that
/// uses it: `Database` holds the cipher and closes its handle first, then the cipher unregisters
/// and wipes its copy of the key.
final class PageCipher {
    /// The bytes each page keeps free for the nonce and the tag.
    static let reservedBytes = Int32(SQLITECRYPT_RESERVE)
    /// Page 1's bytes 72..91: "SXC1", then the file's random identifier.
    static let markerOffset = Int(SQLITECRYPT_MARKER_OFFSET)
    static let marker: [UInt8] = Array("SXC1".utf8)

    private let vfs: OpaquePointer

    /// The VFS name to open the connection with.
    let vfsName: String

    init(key: DatabaseKey) throws(DatabaseError) {
        let made = key.bytes.withUnsafeBytes { bytes in
            sqlitecrypt_vfs_create(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        guard let made else {
            throw DatabaseError(
                .error, message: "cannot register the encrypting VFS (out of memory, or libsodium failed)")
        }
        vfs = made
        vfsName = String(cString: sqlitecrypt_vfs_name(made))
    }

    deinit { sqlitecrypt_vfs_destroy(vfs) }
}

/// What the first 100 bytes of a database file say about its encryption.
enum DatabaseFileState: Equatable {
    /// Missing or empty: it will be made in whichever form it is opened.
    case empty
    /// An SQLite database in the clear.
    case plain
    /// A database sealed by `PageCipher`.
    case encrypted
    /// Something else, which SQLite reports as not a database.
    case unknown

    static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// Reads the header in the clear (it holds no secret; see sqlitecrypt.c).
    static func of(_ path: String) -> DatabaseFileState {
        guard let file = fopen(path, "rb") else { return .empty }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 100)
        let read = fread(&header, 1, header.count, file)
        if read == 0 { return .empty }
        guard read == header.count, Array(header[0..<16]) == sqliteMagic else { return .unknown }
        let marker = Array(header[PageCipher.markerOffset..<PageCipher.markerOffset + 4])
        return marker == PageCipher.marker ? .encrypted : .plain
    }
}
