import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXDesktop
import Testing
import TestSupport

/// The keychain's master key from a real gnome-keyring Secret Service on a private bus, and the
/// key file fallback on a bus without one.
@Suite struct DesktopKeychainTests {
    let tmp: TemporaryDirectory
    let container: GroupContainer
    let environment: [String: String]

    init() throws {
        tmp = try TemporaryDirectory("desktop-keychain")
        container = try GroupContainer(path: tmp.appending("group"))
        environment = ["XDG_CONFIG_HOME": tmp.appending("config"), "HOME": tmp.path]
    }

    var keyFilePath: String { tmp.appending("config/simplex/keychain.key") }

    @Test func aNewKeychainKeepsItsMasterKeyInTheSecretService() async throws {
        let keyring = try await TestKeyring()
        let store = try await DesktopKeychain.open(container: container, bus: keyring.connection, environment: environment)
        #expect(store.source == .secretService)
        #expect(store.notice == "the keychain's master key is kept in the Secret Service")
        try store.set(.databasePassword, SecureBytes(copying: Array("from the keyring".utf8)))
        #expect(!FileManager.default.fileExists(atPath: keyFilePath))

        // The key is an item in the keyring, found by the keychain's path.
        let client = SecretServiceClient(connection: keyring.connection)
        let key = try await client.lookup(attributes: ["application": "chat.simplex.linux", "keychain": container.keychainPath])
        #expect(key?.count == 32)

        // Another process (another connection) opens it with the same key.
        let other = try await DBusConnection(address: keyring.bus.address)
        defer { other.close() }
        let reopened = try await DesktopKeychain.open(container: container, bus: other, environment: environment)
        #expect(try reopened.get(.databasePassword) == SecureBytes(copying: Array("from the keyring".utf8)))

        // The keyring's item removed: a clear error, not a new empty keychain.
        try await client.delete(attributes: ["application": "chat.simplex.linux", "keychain": container.keychainPath])
        let before = FileManager.default.contents(atPath: container.keychainPath)
        await #expect(
            throws: KeychainError.masterKeyMissing(path: container.keychainPath, source: "the Secret Service")
        ) {
            _ = try await DesktopKeychain.open(container: container, bus: other, environment: environment)
        }
        #expect(FileManager.default.contents(atPath: container.keychainPath) == before)
    }

    @Test func withoutASecretServiceTheKeyFileFallbackIsUsedAndSaid() async throws {
        let bus = try await TestBus()
        let connection = try await DBusConnection(address: bus.address)
        defer { connection.close() }
        let store = try await DesktopKeychain.open(container: container, bus: connection, environment: environment)
        #expect(store.source == .keyFile)
        #expect(
            store.notice
                == "no Secret Service on the session bus, so the keychain's master key is in the key file \(keyFilePath) (0600)")
        #expect(try permissions(of: keyFilePath) == 0o600)

        // No bus at all: the same fallback.
        let noBus = try await DesktopKeychain.open(container: container, bus: nil, environment: environment)
        #expect(noBus.source == .keyFile)
    }

    @Test func aKeyFileKeychainStaysWithItsKeyFileWhenAKeyringAppears() async throws {
        let first = try await DesktopKeychain.open(container: container, bus: nil, environment: environment)
        try first.set(.appPassword, SecureBytes(copying: [1, 2, 3]))
        let keyring = try await TestKeyring()
        let store = try await DesktopKeychain.open(container: container, bus: keyring.connection, environment: environment)
        #expect(store.source == .keyFile)
        #expect(try store.get(.appPassword) == SecureBytes(copying: [1, 2, 3]))
    }

    @Test func aSecretServiceKeychainIsAnErrorWhenTheServiceIsGone() async throws {
        let keyring = try await TestKeyring()
        let store = try await DesktopKeychain.open(container: container, bus: keyring.connection, environment: environment)
        try store.set(.selfDestructPassword, SecureBytes(copying: [9]))
        let before = FileManager.default.contents(atPath: container.keychainPath)
        try await keyring.stop()

        await #expect {
            _ = try await DesktopKeychain.open(container: container, bus: keyring.connection, environment: environment)
        } throws: { error in
            "\(error)" == "the keychain \(container.keychainPath) is protected by the Secret Service, "
                + "which is not usable: none runs on the session bus"
        }
        await #expect(
            throws: KeychainError.secretServiceUnavailable(path: container.keychainPath, reason: "there is no session bus")
        ) {
            _ = try await DesktopKeychain.open(container: container, bus: nil, environment: environment)
        }
        #expect(FileManager.default.contents(atPath: container.keychainPath) == before)
        #expect(!FileManager.default.fileExists(atPath: keyFilePath))
    }

    @Test func aPassphraseKeychainAsksForThePassphrase() async throws {
        _ = try KeychainStore.open(
            path: container.keychainPath, passphrase: SecureBytes(copying: Array("pw".utf8)), limits: .minimum)
        await #expect(throws: KeychainError.passphraseRequired(path: container.keychainPath)) {
            _ = try await DesktopKeychain.open(container: container, bus: nil, environment: environment)
        }
    }
}
