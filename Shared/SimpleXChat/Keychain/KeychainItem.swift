/// A named secret in the keychain store (iOS: the Keychain's generic-password accounts).
public struct KeychainItem: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The database passphrase, read by every process when `storeDBPassphrase` is on.
    public static let databasePassword = KeychainItem(rawValue: "databasePassword")
    /// The SimpleX Lock passcode.
    public static let appPassword = KeychainItem(rawValue: "appPassword")
    /// The passcode that erases everything when entered.
    public static let selfDestructPassword = KeychainItem(rawValue: "selfDestructPassword")
    /// Set once the group's databases have been encrypted: from then on a plain database in their
    /// place is a replacement, refused, not an old one to encrypt.
    public static let databasesEncrypted = KeychainItem(rawValue: "databasesEncrypted")
    /// The key that seals the agent database's private keys and ratchet states.
    public static let agentStoreKey = KeychainItem(rawValue: "agentStoreKey")

    public var description: String { rawValue }
}

/// Where a keychain's master key comes from; recorded in the keychain file's header.
public enum KeychainKeySource: UInt8, Sendable, Equatable, CustomStringConvertible {
    /// A random key kept by the desktop Secret Service (org.freedesktop.secrets).
    case secretService = 1
    /// A random key in `$XDG_CONFIG_HOME/simplex/keychain.key` (0600): the fallback when no
    /// Secret Service runs.
    case keyFile = 2
    /// A key derived from a passphrase the user types (Argon2id); nothing is stored on disk.
    case passphrase = 3

    public var description: String {
        switch self {
        case .secretService: return "the Secret Service"
        case .keyFile: return "a key file"
        case .passphrase: return "a passphrase"
        }
    }
}
