import SimpleXChat
import SimpleXCrypto

/// The keychain's master key kept by the desktop Secret Service (gnome-keyring, KWallet,
/// KeePassXC), as an item whose attributes name the keychain file (attributes are not secret).
public struct SecretServiceMasterKey: MasterKeyProvider {
    let client: SecretServiceClient
    let keychainPath: String

    public init(client: SecretServiceClient, keychainPath: String) {
        self.client = client
        self.keychainPath = keychainPath
    }

    public var source: KeychainKeySource { .secretService }
    public var location: String { "the Secret Service" }

    var attributes: [String: String] {
        ["application": "chat.simplex.linux", "keychain": keychainPath]
    }

    public func existingKey() async throws(KeychainError) -> SecureBytes? {
        do {
            return try await client.lookup(attributes: attributes)
        } catch {
            throw .secretServiceUnavailable(path: keychainPath, reason: "\(error)")
        }
    }

    public func createKey() async throws(KeychainError) -> SecureBytes {
        let key = SecureBytes.random(count: 32)
        do {
            try await client.store(
                label: "SimpleX Chat keychain key (\(keychainPath))", attributes: attributes, secret: key)
        } catch {
            throw .secretServiceUnavailable(path: keychainPath, reason: "\(error)")
        }
        return key
    }
}
