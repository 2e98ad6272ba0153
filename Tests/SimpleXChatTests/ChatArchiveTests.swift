import Foundation
import SimpleXCrypto
import SimpleXSystem
import Testing
import TestSupport

@testable import SimpleXChat

/// Export and import of a whole chat: what the archive holds, that it opens only with its
/// passphrase, that damage is found before anything changes, and an import finished after a crash.
@Suite struct ChatArchiveTests {
    struct Group {
        let container: GroupContainer
        let keychain: KeychainStore
    }

    let tmp: TemporaryDirectory
    init() throws { tmp = try TemporaryDirectory("archive") }

    func group(_ name: String) async throws -> Group {
        let container = try GroupContainer(path: tmp.appending(name))
        let keyFile = try #require(KeyFileMasterKey(environment: ["XDG_CONFIG_HOME": tmp.appending(name + "-config")]))
        return Group(container: container, keychain: try await KeychainStore.open(path: container.keychainPath, masterKey: keyFile))
    }

    /// A group with a profile, a received file and its keys.
    func used(_ name: String) async throws -> (Group, DatabaseKey) {
        let group = try await group(name)
        let key = try DatabaseKey.load(from: group.keychain)
        _ = try AgentSecrets.load(from: group.keychain)
        try DatabaseKey.recordDatabasesEncrypted(in: group.keychain)
        _ = try ChatController.createUser(
            groupDirectory: group.container.path, profile: Profile(displayName: "dora", fullName: "Dora Exported"),
            databaseKey: key)
        FileManager.default.createFile(
            atPath: group.container.filesDirectory + "/notes.txt", contents: Data("the file's words".utf8))
        return (group, key)
    }

    static let passphrase = SecureBytes(copying: Array("carry it over".utf8))

    @Test func anArchiveImportedOnAnotherGroupOpensTheSameChat() async throws {
        let (source, key) = try await used("source")
        let archive = tmp.appending("chat.archive")
        let exported = try ChatArchive.export(
            container: source.container, keychain: source.keychain, databaseKey: key, to: archive,
            passphrase: Self.passphrase, limits: .minimum)
        #expect(exported.files == 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        for secret in ["Dora Exported", "the file's words", "notes.txt", "dora"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in the clear")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int == 0o600)

        let target = try await group("target")
        let imported = try ChatArchive.import(
            from: archive, passphrase: Self.passphrase, container: target.container, keychain: target.keychain)
        #expect(imported == exported)
        let targetKey = try DatabaseKey.load(from: target.keychain)
        let user = try ChatController.activeUser(groupDirectory: target.container.path, databaseKey: targetKey)
        #expect(user?.profile.fullName == "Dora Exported")
        #expect(try target.keychain.get(.agentStoreKey) == source.keychain.get(.agentStoreKey))
        #expect(FileManager.default.contents(atPath: target.container.filesDirectory + "/notes.txt") == Data("the file's words".utf8))
        #expect(try target.keychain.itemNames().allSatisfy { !$0.hasSuffix(".imported") })
        #expect(!FileManager.default.fileExists(atPath: ChatArchive.stagingPath(target.container.path)))
    }

    @Test func aWrongPassphraseOrADamagedArchiveChangesNothing() async throws {
        let (source, key) = try await used("source")
        let archive = tmp.appending("chat.archive")
        try ChatArchive.export(
            container: source.container, keychain: source.keychain, databaseKey: key, to: archive,
            passphrase: Self.passphrase, limits: .minimum)
        let (target, targetKey) = try await used("target")
        let before = try target.keychain.itemNames()
        func targetUser() throws -> String? {
            try ChatController.activeUser(groupDirectory: target.container.path, databaseKey: targetKey)?.profile.displayName
        }
        #expect(throws: ChatArchive.Failure.wrongPassphrase) {
            try ChatArchive.import(
                from: archive, passphrase: SecureBytes(copying: Array("guess".utf8)), container: target.container,
                keychain: target.keychain)
        }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let original = bytes
        // A byte flipped in the last chunk: found before anything is replaced.
        bytes[bytes.count - 20] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: archive))
        #expect(throws: ChatArchive.Failure.self) {
            try ChatArchive.import(from: archive, passphrase: Self.passphrase, container: target.container, keychain: target.keychain)
        }
        // Cut short: the last chunk missing.
        try Data(original.prefix(original.count - 30)).write(to: URL(fileURLWithPath: archive))
        #expect(throws: ChatArchive.Failure.self) {
            try ChatArchive.import(from: archive, passphrase: Self.passphrase, container: target.container, keychain: target.keychain)
        }
        try Data("not an archive at all, just some text of the right length or longer than sixty-four bytes".utf8)
            .write(to: URL(fileURLWithPath: archive))
        #expect(throws: ChatArchive.Failure.notAnArchive) {
            try ChatArchive.import(from: archive, passphrase: Self.passphrase, container: target.container, keychain: target.keychain)
        }
        #expect(try targetUser() == "dora")
        #expect(try target.keychain.itemNames() == before)
        #expect(!FileManager.default.fileExists(atPath: ChatArchive.stagingPath(target.container.path)))
    }

    @Test func anImportCommittedBeforeACrashIsFinishedAndOneNotCommittedIsDropped() async throws {
        let (source, key) = try await used("source")
        let archive = tmp.appending("chat.archive")
        try ChatArchive.export(
            container: source.container, keychain: source.keychain, databaseKey: key, to: archive,
            passphrase: Self.passphrase, limits: .minimum)
        // Not committed: staged files and pending keys of a crashed import go; the chat stays.
        let (target, targetKey) = try await used("target")
        let staging = ChatArchive.stagingPath(target.container.path)
        _ = try ChatArchive.unpack(archive, passphrase: Self.passphrase, into: {
            try? FileManager.default.createDirectory(atPath: staging + "/files", withIntermediateDirectories: true)
            return staging
        }())
        try target.keychain.set(ChatArchive.pendingItem(.databasePassword), SecureBytes.random(count: 32))
        try ChatArchive.recover(container: target.container, keychain: target.keychain)
        #expect(!FileManager.default.fileExists(atPath: staging))
        #expect(try target.keychain.get(ChatArchive.pendingItem(.databasePassword)) == nil)
        #expect(try ChatController.activeUser(groupDirectory: target.container.path, databaseKey: targetKey) != nil)

        // Committed: the next start finishes it.
        let (_, keys) = try ChatArchive.unpack(archive, passphrase: Self.passphrase, into: {
            try? FileManager.default.createDirectory(atPath: staging + "/files", withIntermediateDirectories: true)
            return staging
        }())
        for (item, value) in keys { try target.keychain.set(ChatArchive.pendingItem(item), value) }
        try AtomicFile.write(Array("import\n".utf8), to: ChatArchive.commitPath(target.container.path))
        try ChatArchive.recover(container: target.container, keychain: target.keychain)
        let newKey = try DatabaseKey.load(from: target.keychain)
        #expect(try ChatController.activeUser(groupDirectory: target.container.path, databaseKey: newKey)?.profile.fullName == "Dora Exported")
        #expect(!FileManager.default.fileExists(atPath: ChatArchive.commitPath(target.container.path)))
    }
}
