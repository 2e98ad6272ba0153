import Foundation
import SimpleXSystem
import Testing
import TestSupport

@testable import SimpleXChat

/// What the self-destruct passcode leaves of a group directory: its settings file with the lock
/// off, the lock files, and an empty keychain; no database, file or key.
@Suite struct SelfDestructTests {
    @Test func everythingButTheSettingsAndAnEmptyKeychainGoes() async throws {
        let tmp = try TemporaryDirectory("self-destruct")
        let container = try GroupContainer(path: tmp.appending("group"))
        let keyFile = try #require(KeyFileMasterKey(environment: ["XDG_CONFIG_HOME": tmp.appending("config")]))
        let keychain = try await KeychainStore.open(path: container.keychainPath, masterKey: keyFile)
        let defaults = GroupDefaults(container: container)
        // A group in use: both databases with a user, a received file, a temporary copy, keys.
        let key = try DatabaseKey.load(from: keychain)
        _ = try AgentSecrets.load(from: keychain)
        _ = try ChatController.createUser(
            groupDirectory: container.path, profile: Profile(displayName: "carol", fullName: "Carol Secret"),
            databaseKey: key)
        FileManager.default.createFile(atPath: container.filesDirectory + "/photo.jpg", contents: Data("jpeg".utf8))
        try FileManager.default.createDirectory(
            atPath: container.tmpDirectory + "/open", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: container.tmpDirectory + "/open/doc.pdf", contents: Data("pdf".utf8))
        FileManager.default.createFile(atPath: container.path + "/nse-reported", contents: Data("1".utf8))
        try AppPasscode.set("open-1", as: .appPassword, in: keychain, limits: .minimum)
        try AppPasscode.set("gone-1", as: .selfDestructPassword, in: keychain, limits: .minimum)
        try defaults.update {
            $0[.appLocalAuthEnabled] = true
            $0[.selfDestruct] = true
            $0[.selfDestructDisplayName] = "fresh"
            $0[.appLocked] = true
            $0[.chatLayout] = .classic  // a preference, not data: kept (iOS keeps its settings)
        }
        let lock = try FileLock(path: container.coreLockPath)
        defer { lock.unlock() }

        let name = try SelfDestruct.erase(container: container, keychain: keychain, defaults: defaults)

        #expect(name == "fresh")
        let left = try FileManager.default.contentsOfDirectory(atPath: container.path).sorted()
        #expect(left.allSatisfy { ["files", "tmp", "groupDefaults.json", "keychain"].contains($0) || $0.hasSuffix(".lock") }, "\(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.filesDirectory).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.tmpDirectory).isEmpty)
        #expect(try keychain.itemNames().isEmpty)
        let snapshot = defaults.snapshot()
        #expect(!snapshot[.appLocalAuthEnabled] && !snapshot[.selfDestruct] && !snapshot[.appLocked])
        #expect(snapshot[.selfDestructDisplayName] == nil)
        #expect(snapshot[.chatLayout] == .classic)
        // The next start makes new keys and an empty chat.
        let newKey = try DatabaseKey.load(from: keychain)
        #expect(try ChatController.activeUser(groupDirectory: container.path, databaseKey: newKey) == nil)
        for file in try FileManager.default.subpathsOfDirectory(atPath: container.path) {
            guard let bytes = FileManager.default.contents(atPath: container.path + "/" + file) else { continue }
            #expect(bytes.range(of: Data("Carol Secret".utf8)) == nil, "\(file)")
        }
    }
}
