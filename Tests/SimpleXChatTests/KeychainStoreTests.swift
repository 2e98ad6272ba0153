import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

@Suite struct KeychainStoreTests {
    let tmp: TemporaryDirectory
    let keychainPath: String
    let keyFile: KeyFileMasterKey

    init() throws {
        tmp = try TemporaryDirectory("keychain")
        let container = try GroupContainer(path: tmp.appending("group"))
        keychainPath = container.keychainPath
        keyFile = try #require(KeyFileMasterKey(environment: ["XDG_CONFIG_HOME": tmp.appending("config")]))
    }

    func secret(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }
    func fileBytes() -> Data? { FileManager.default.contents(atPath: keychainPath) }

    @Test func keyFileFallbackStoresGetsAndRemovesItems() async throws {
        let store = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        #expect(store.source == .keyFile)
        #expect(store.notice.contains("key file \(tmp.appending("config"))/simplex/keychain.key"))
        #expect(try permissions(of: keyFile.path) == 0o600)
        #expect(try permissions(of: tmp.appending("config/simplex")) == 0o700)
        #expect(try permissions(of: keychainPath) == 0o600)
        #expect(try store.get(.databasePassword) == nil)

        try store.set(.databasePassword, secret("db-passphrase-1"))
        try store.set(.appPassword, SecureBytes(copying: [0, 1, 0, 255]))
        try store.set(.selfDestructPassword, secret("boom"))
        #expect(try store.get(.databasePassword) == secret("db-passphrase-1"))
        #expect(try store.get(.appPassword) == SecureBytes(copying: [0, 1, 0, 255]))
        #expect(try store.itemNames() == ["appPassword", "databasePassword", "selfDestructPassword"])

        // Another process opening the same keychain sees the same items.
        let other = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        #expect(try other.get(.selfDestructPassword) == secret("boom"))
        try other.remove(.selfDestructPassword)
        #expect(try store.get(.selfDestructPassword) == nil)
        try store.set(.databasePassword, secret("db-passphrase-2"))
        #expect(try other.get(.databasePassword) == secret("db-passphrase-2"))

        // The secrets are not in the file in the clear.
        let raw = try #require(fileBytes())
        #expect(raw.range(of: Data("db-passphrase-2".utf8)) == nil)
        #expect(raw.range(of: Data("databasePassword".utf8)) == nil)
    }

    @Test func looseKeyFilePermissionsAreRefused() async throws {
        let store = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        try store.set(.databasePassword, secret("kept"))
        let before = fileBytes()
        chmod(keyFile.path, 0o644)
        await #expect {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        } throws: { error in
            "\(error)" == "the keychain key file \(keyFile.path) can be read or written by other users "
                + "(mode 644): fix it with: chmod 600 \(keyFile.path)"
        }
        #expect(fileBytes() == before)
        chmod(keyFile.path, 0o600)
        let reopened = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        #expect(try reopened.get(.databasePassword) == secret("kept"))
    }

    @Test func aReplacedOrMissingKeyFileIsAClearError() async throws {
        let store = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        try store.set(.databasePassword, secret("kept"))
        let before = fileBytes()
        let original = try #require(FileManager.default.contents(atPath: keyFile.path))

        try Data(Random.bytes(count: 32)).write(to: URL(fileURLWithPath: keyFile.path))
        await #expect(throws: KeychainError.wrongMasterKey(path: keychainPath, source: keyFile.location)) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
        try Data(Random.bytes(count: 31)).write(to: URL(fileURLWithPath: keyFile.path))
        await #expect(throws: KeychainError.keyFileCorrupted(path: keyFile.path, size: 31)) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
        try FileManager.default.removeItem(atPath: keyFile.path)
        await #expect(throws: KeychainError.masterKeyMissing(path: keychainPath, source: keyFile.location)) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
        #expect(fileBytes() == before)

        try original.write(to: URL(fileURLWithPath: keyFile.path))
        chmod(keyFile.path, 0o600)
        #expect(try await KeychainStore.open(path: keychainPath, masterKey: keyFile).get(.databasePassword) == secret("kept"))
    }

    @Test(arguments: [0, 4, 8, 40, 60, -1])
    func aTamperedFileIsDetectedAndNothingChanges(flipping index: Int) async throws {
        let store = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        try store.set(.appPassword, secret("1234"))
        var bytes = try #require(fileBytes())
        let position = index >= 0 ? index : bytes.count - 1
        bytes[position] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: keychainPath))

        #expect(throws: KeychainError.self) { try store.get(.appPassword) }
        #expect(throws: KeychainError.self) { try store.set(.appPassword, secret("changed")) }
        await #expect {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        } throws: { error in
            let message = "\(error)"
            // A flipped key-check byte reads as a wrong key; every other byte as tampering.
            return message.contains("corrupted or was tampered with") || message.contains("does not open the keychain")
        }
        #expect(fileBytes() == bytes)

        bytes[position] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: keychainPath))
        #expect(try store.get(.appPassword) == secret("1234"))
    }

    @Test func truncatedOrForeignFilesAreCorrupted() async throws {
        try Data("not a keychain at all".utf8).write(to: URL(fileURLWithPath: keychainPath))
        await #expect(throws: KeychainError.corrupted(path: keychainPath, reason: "not a keychain file")) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
        try Data("SXKC".utf8 + [1, 2] + [UInt8](repeating: 7, count: 20)).write(to: URL(fileURLWithPath: keychainPath))
        await #expect(throws: KeychainError.corrupted(path: keychainPath, reason: "truncated header")) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
    }

    @Test func passphraseModeKeepsNoKeyOnDiskAndRefusesAWrongPassphrase() async throws {
        let store = try KeychainStore.open(path: keychainPath, passphrase: secret("correct horse"), limits: .interactive)
        #expect(store.source == .passphrase)
        try store.set(.databasePassword, secret("db"))
        #expect(!FileManager.default.fileExists(atPath: keyFile.path))
        #expect(try KeychainStore.recordedSource(at: keychainPath) == .passphrase)
        let before = fileBytes()

        #expect(throws: KeychainError.wrongPassphrase(path: keychainPath)) {
            _ = try KeychainStore.open(path: keychainPath, passphrase: secret("wrong horse"), limits: .interactive)
        }
        #expect(fileBytes() == before)
        // The salt and limits come from the file, not from the caller.
        let reopened = try KeychainStore.open(path: keychainPath, passphrase: secret("correct horse"), limits: .moderate)
        #expect(try reopened.get(.databasePassword) == secret("db"))

        // A key provider cannot open a passphrase keychain.
        await #expect(throws: KeychainError.passphraseRequired(path: keychainPath)) {
            _ = try await KeychainStore.open(path: keychainPath, masterKey: keyFile)
        }
    }

    @Test func concurrentWritersLoseNoItem() async throws {
        let path = keychainPath
        let provider = keyFile
        _ = try await KeychainStore.open(path: path, masterKey: provider)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let store = try await KeychainStore.open(path: path, masterKey: provider)
                    for n in 0..<10 {
                        try store.set(KeychainItem(rawValue: "item-\(writer)-\(n)"), SecureBytes(copying: [UInt8(n)]))
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try await KeychainStore.open(path: path, masterKey: provider).itemNames()
        #expect(names.count == 40)
    }

    @Test func secureBytesNeverPrintTheirContents() {
        let value = secret("hunter2")
        #expect(!"\(value)".contains("hunter2"))
        #expect(!String(reflecting: value).contains("hunter2"))
    }
}

@Suite struct KeychainFileTests {
    @Test func unreasonableArgon2LimitsInAFileAreRefusedBeforeDerivation() throws {
        var bytes = Array("SXKC".utf8) + [1, KeychainKeySource.passphrase.rawValue]
        bytes += [UInt8](repeating: 1, count: 16)  // salt
        bytes += littleEndianBytes(3) + littleEndianBytes(UInt64.max / 2)  // ops, absurd memory
        bytes += [UInt8](repeating: 0, count: 32 + 24 + 16)
        #expect(throws: KeychainError.corrupted(path: "k", reason: "unreasonable key derivation limits")) {
            _ = try KeychainFile(parsing: bytes, path: "k")
        }
    }

    @Test func itemsEncodeAndOneItemIsFoundWithoutDecodingTheRest() throws {
        var items = KeychainItems()
        items.values["databasePassword"] = SecureBytes(copying: [1, 2, 3])
        items.values["appPassword"] = SecureBytes(copying: [])
        let plaintext = items.encoded()
        #expect(KeychainItems.value(named: "databasePassword", in: plaintext) == .some(SecureBytes(copying: [1, 2, 3])))
        #expect(KeychainItems.value(named: "appPassword", in: plaintext) == .some(SecureBytes(copying: [])))
        #expect(KeychainItems.value(named: "selfDestructPassword", in: plaintext) == .some(nil))
        let decoded = try #require(KeychainItems(decoding: plaintext))
        #expect(decoded.values.keys.sorted() == ["appPassword", "databasePassword"])

        // A count that promises more than is there is malformed, not an empty result.
        let truncated = plaintext.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0.dropLast(2))) }
        #expect(KeychainItems.value(named: "selfDestructPassword", in: truncated) == nil)
        #expect(KeychainItems(decoding: truncated) == nil)
    }
}
