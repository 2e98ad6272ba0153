import SimpleXCrypto
import SimpleXSystem

/// The fallback master key: 32 random bytes in `$XDG_CONFIG_HOME/simplex/keychain.key`, mode
/// 0600, in a 0700 directory. Used when no Secret Service runs; the keychain reports it.
public struct KeyFileMasterKey: MasterKeyProvider {
    public let path: String
    public var source: KeychainKeySource { .keyFile }
    public var location: String { "key file \(path)" }

    public init(path: String) { self.path = path }

    /// The key file for `environment` (`$XDG_CONFIG_HOME/simplex/keychain.key`).
    public init?(environment: [String: String] = ProcessEnvironment.current) {
        guard let config = ProcessEnvironment.configHome(environment) else { return nil }
        path = "\(config)/simplex/keychain.key"
    }

    public func existingKey() async throws(KeychainError) -> SecureBytes? {
        do { return try SecretFile(path: path, count: masterKeyCount).read() } catch { throw map(error) }
    }

    public func createKey() async throws(KeychainError) -> SecureBytes {
        do { return try SecretFile(path: path, count: masterKeyCount).create() } catch { throw map(error) }
    }

    private func map(_ error: SecretFileError) -> KeychainError {
        switch error {
        case .accessibleByOthers(let path, let mode): return .keyFileAccessibleByOthers(path: path, mode: mode)
        case .notOwned(let path): return .keyFileNotOwned(path: path)
        case .wrongSize(let path, let size, _): return .keyFileCorrupted(path: path, size: size)
        case .directory(let path, let reason): return .corrupted(path: path, reason: reason)
        case .system(let error): return .system(error)
        }
    }
}
