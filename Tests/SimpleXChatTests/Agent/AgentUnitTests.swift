import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

struct MessageIntegrityTests {
    let hash = [UInt8](repeating: 7, count: 32)

    @Test func theNextIdWithThePreviousHashIsOk() {
        #expect(MessageIntegrity.check(id: 5, previousHash: hash, lastID: 4, lastHash: hash) == .ok)
        #expect(MessageIntegrity.check(id: 1, previousHash: [], lastID: 0, lastHash: []) == .ok)
    }

    @Test func aGapIsSkippedWithTheMissingRange() {
        #expect(
            MessageIntegrity.check(id: 9, previousHash: hash, lastID: 4, lastHash: hash)
                == .skipped(from: 5, to: 8))
    }

    @Test func anOldIdIsBadARepeatedOneADuplicateAndAWrongHashIsBadHash() {
        #expect(MessageIntegrity.check(id: 3, previousHash: hash, lastID: 4, lastHash: hash) == .badID(3))
        // As SimpleX's agent: the last id again (another message than the last, which its hash
        // would have caught) is a duplicate id.
        #expect(MessageIntegrity.check(id: 4, previousHash: hash, lastID: 4, lastHash: hash) == .duplicate)
        #expect(MessageIntegrity.check(id: 5, previousHash: [1], lastID: 4, lastHash: hash) == .badHash)
    }

    @Test func theStoredFormReadsBack() {
        for integrity in [MessageIntegrity.ok, .badHash, .badID(12), .skipped(from: 3, to: 9), .duplicate] {
            #expect(MessageIntegrity(stored: integrity.description) == integrity)
        }
        #expect(MessageIntegrity(stored: "skipped 3") == nil)
    }
}

struct AgentSecretsTests {
    @Test func aSealedColumnOpensOnlyInItsOwnPlaceWithItsOwnKey() throws {
        let secrets = try AgentSecrets(key: SecureBytes.random(count: 32))
        let sealed = secrets.seal([1, 2, 3], column: "ratchet", row: "conn-a")
        #expect(
            try secrets.open(sealed, column: "ratchet", row: "conn-a").withUnsafeBytes { Array($0) } == [
                1, 2, 3,
            ])
        // Moved to another row or column, tampered, or under another keychain: each a clear error.
        #expect(throws: AgentError.self) { try secrets.open(sealed, column: "ratchet", row: "conn-b") }
        #expect(throws: AgentError.self) { try secrets.open(sealed, column: "e2e_key", row: "conn-a") }
        var tampered = sealed
        tampered[30] ^= 1
        #expect(throws: AgentError.self) { try secrets.open(tampered, column: "ratchet", row: "conn-a") }
        let other = try AgentSecrets(key: SecureBytes.random(count: 32))
        #expect(throws: AgentError.self) { try other.open(sealed, column: "ratchet", row: "conn-a") }
        #expect(throws: AgentError.self) { try secrets.open([1, 2, 3], column: "ratchet", row: "conn-a") }
    }

    @Test func aKeyOfTheWrongSizeIsRefused() {
        #expect(throws: AgentError.self) { try AgentSecrets(key: SecureBytes.random(count: 16)) }
    }

    @Test func theAgentDatabaseKeepsNoPrivateKeyInTheClear() throws {
        let directory = try TemporaryDirectory("agent-store")
        let path = AgentConfig.databasePath(groupDirectory: directory.path)
        let store = try AgentStore(path: path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        let keys = RatchetKeyPairs.generate()
        var record = ConnectionRecord(id: "c1", mode: .invitation, status: .new)
        record.x3dhKeys = AgentCrypto.sealX3DH(keys, store: store, connection: "c1")
        try store.insert(record)
        store.close()
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        let file = try Data(contentsOf: URL(fileURLWithPath: path)) + wal
        let secret = keys.first.privateKey.withUnsafeBytes { Data($0) }
        #expect(file.range(of: secret) == nil)
        #expect(try permissions(of: path) == 0o600)
        // Reopened with the same key, the keys come back; with another keychain's key, a clear error.
        let reopened = try AgentStore(
            path: path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        #expect(throws: AgentError.self) {
            try AgentCrypto.openX3DH(try reopened.connection("c1"), store: reopened)
        }
    }

    /// The agent reads every queue when it starts (to subscribe them); each is decoded then, with
    /// its sealed keys opened, and not again when its first message comes.
    @Test func queuesReadAtStartAreNotOpenedAgainForTheirFirstMessage() throws {
        let directory = try TemporaryDirectory("agent-store")
        let path = AgentConfig.databasePath(groupDirectory: directory.path)
        let secrets = try AgentSecrets(key: SecureBytes.random(count: 32))
        let server = try SMPServerAddress(
            keyHash: Array(repeating: 7, count: 32), hosts: ["127.0.0.1"], port: 5223)
        let writer = try AgentStore(path: path, secrets: secrets)
        try writer.insert(ConnectionRecord(id: "c1", mode: .invitation, status: .new))
        let dh = X25519.generateKeyPair()
        let serverDH = X25519.generateKeyPair().publicKey
        let queue = RcvQueue(
            connectionID: "c1", server: server, recipientID: EntityID(Array(repeating: 1, count: 24)),
            senderID: EntityID(Array(repeating: 2, count: 24)), mode: .messaging,
            authKey: .generate(.x25519),
            messageKey: try CryptoBox.SharedKey(publicKey: serverDH, privateKey: dh.privateKey),
            e2eKey: X25519.generateKeyPair(), e2ePeerKey: nil)
        try writer.insert(queue, rcvDHPrivateKey: dh.privateKey, serverDHKey: serverDH)
        writer.close()

        let started = try AgentStore(path: path, secrets: secrets)
        defer { started.close() }
        let all = try started.rcvQueues()
        #expect(all.map(\.recipientID) == [queue.recipientID])
        // The sealed key on disk goes bad: a queue read at start is still at hand, decoded once;
        // a store that had not read it finds the row unreadable.
        try started.database.execute("UPDATE rcv_queues SET rcv_auth_key = x'00'")
        let first = try started.rcvQueue(server: server, recipientID: queue.recipientID)
        #expect(first?.authKey.publicKey == queue.authKey.publicKey)
        #expect(try started.rcvQueues().map(\.recipientID) == [queue.recipientID])
        let fresh = try AgentStore(path: path, secrets: secrets)
        defer { fresh.close() }
        #expect(throws: AgentError.self) {
            try fresh.rcvQueue(server: server, recipientID: queue.recipientID)
        }
    }
}
