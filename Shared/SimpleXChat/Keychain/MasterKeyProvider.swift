import SimpleXCrypto

/// A source of the keychain's 32-byte master key that keeps the key somewhere outside the
/// keychain file: the Secret Service (SimpleXDesktop) or the key file fallback.
public protocol MasterKeyProvider: Sendable {
    var source: KeychainKeySource { get }
    /// Where the key lives, for messages ("key file /home/u/.config/simplex/keychain.key").
    var location: String { get }
    /// The stored key, or nil when none has been made yet.
    func existingKey() async throws(KeychainError) -> SecureBytes?
    /// Makes, stores and returns a new random key.
    func createKey() async throws(KeychainError) -> SecureBytes
}

/// Master key length in bytes.
let masterKeyCount = 32
