import SimpleXCrypto

/// The key a database's pages are sealed with at rest (`PageCipher`): 32 bytes in sodium memory.
///
/// Never printed: its description names only its size.
public struct DatabaseKey: Sendable, CustomStringConvertible {
    /// The key's length in bytes.
    public static let count = 32

    let bytes: SecureBytes
    /// Whether a plain database may still be encrypted with this key (the one-time upgrade);
    /// false once the keychain records that the group's databases were encrypted.
    public internal(set) var upgradesPlainDatabases = true

    /// Wraps 32 bytes of key; any other length is a clear error.
    public init(_ bytes: SecureBytes) throws(DatabaseError) {
        guard bytes.count == Self.count else {
            throw DatabaseError(
                .misuse, message: "a database key has \(Self.count) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A new random key.
    public static func random() -> DatabaseKey {
        // SecureBytes.random makes exactly `count` bytes, so the length check cannot fail.
        DatabaseKey(unchecked: SecureBytes.random(count: count))
    }

    private init(unchecked bytes: SecureBytes) { self.bytes = bytes }

    public var description: String { "DatabaseKey(\(Self.count) bytes)" }
}
