import SimpleXChat
import SimpleXSystem

/// Opens the group's keychain with the master key source this desktop offers: the Secret
/// Service when one runs on the session bus, else the key file fallback (reported in the
/// store's `notice`). A keychain keeps the source it was created with: one made with the key
/// file stays with it when a Secret Service appears later, and one made with the Secret Service
/// is an error, not a silent new keychain, when the service is gone.
public enum DesktopKeychain {
    public static func open(
        container: GroupContainer, bus: DBusConnection?,
        environment: [String: String] = ProcessEnvironment.current
    ) async throws(KeychainError) -> KeychainStore {
        let path = container.keychainPath
        let secretService = await availableSecretService(bus)
        switch try KeychainStore.recordedSource(at: path) {
        case .passphrase:
            throw .passphraseRequired(path: path)
        case .secretService:
            guard let secretService else {
                throw .secretServiceUnavailable(
                    path: path, reason: bus == nil ? "there is no session bus" : "none runs on the session bus")
            }
            return try await KeychainStore.open(
                path: path, masterKey: SecretServiceMasterKey(client: secretService, keychainPath: path))
        case .keyFile:
            let keyFile = try keyFile(environment, path)
            return try await KeychainStore.open(
                path: path, masterKey: keyFile,
                notice: "the keychain's master key is in the key file \(keyFile.path) (0600)")
        case nil:
            if let secretService {
                return try await KeychainStore.open(
                    path: path, masterKey: SecretServiceMasterKey(client: secretService, keychainPath: path))
            }
            let keyFile = try keyFile(environment, path)
            return try await KeychainStore.open(
                path: path, masterKey: keyFile,
                notice: "no Secret Service on the session bus, so the keychain's master key is in the key file "
                    + "\(keyFile.path) (0600)")
        }
    }

    private static func availableSecretService(_ bus: DBusConnection?) async -> SecretServiceClient? {
        guard let bus, await SecretServiceClient.isAvailable(on: bus) else { return nil }
        return SecretServiceClient(connection: bus)
    }

    private static func keyFile(_ environment: [String: String], _ path: String) throws(KeychainError) -> KeyFileMasterKey {
        guard let keyFile = KeyFileMasterKey(environment: environment) else {
            throw .noKeyFileLocation
        }
        return keyFile
    }
}
