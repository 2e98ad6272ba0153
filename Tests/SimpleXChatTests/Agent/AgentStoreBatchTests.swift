import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// The group commit of received messages (`AgentStore.batched`): messages processed one after
/// another share one transaction, and what one message does not change what happens to another.
struct AgentStoreBatchTests {
    private func makeStore() throws -> (AgentStore, String, TemporaryDirectory) {
        let directory = try TemporaryDirectory("agent-batch")
        let path = AgentConfig.databasePath(groupDirectory: directory.path)
        let store = try AgentStore(path: path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        return (store, path, directory)
    }

    private func insert(_ id: String, _ store: AgentStore) throws(AgentError) {
        try store.run(
            "INSERT INTO connections (conn_id, conn_mode, status, created_at) VALUES (?, 'invitation', 'ready', 0)",
            [id])
    }

    /// The connection ids another process (a reader of the file) sees: only committed rows.
    private func committed(_ path: String) throws -> [String] {
        let reader = try Database(path: path)
        defer { try? reader.close() }
        return try reader.fetchAll("SELECT conn_id FROM connections ORDER BY conn_id").map {
            try $0.decode(String.self, at: 0)
        }
    }

    @Test func messagesInOneBatchCommitTogetherAndAFailedOneUndoesOnlyItsOwnWrites() throws {
        let (store, path, directory) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        let first = try store.batched { try insert("a", store) }
        #expect(throws: AgentError.self) {
            _ = try store.batched { () throws -> Void in
                try insert("b", store)
                throw AgentError.store("this message cannot be stored")
            }
        }
        let third = try store.batched { try store.transaction { () throws(AgentError) in try insert("c", store) } }
        #expect(first.batch == third.batch)
        #expect(try committed(path) == [])
        #expect(store.commitBatch())
        #expect(try committed(path) == ["a", "c"])
        #expect(!store.batchFailed(first.batch))
        store.close()
    }

    @Test func anotherTransactionCommitsTheOpenBatchFirstInsteadOfJoiningIt() throws {
        let (store, path, directory) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        let received = try store.batched { try insert("received", store) }
        // An app command's transaction: committed on its own, after the batch.
        #expect(throws: AgentError.self) {
            try store.transaction { () throws(AgentError) in
                try insert("command", store)
                throw AgentError.state("the command fails")
            }
        }
        #expect(try committed(path) == ["received"])
        #expect(!store.batchOpen)
        // A new batch starts for the next message.
        let next = try store.batched { try insert("next", store) }
        #expect(next.batch == received.batch + 1)
        store.close()  // commits it
        #expect(try committed(path) == ["next", "received"])
    }

    @Test func aBatchWhoseCommitFailsLosesItsWritesAndIsReportedFailed() throws {
        let (store, path, directory) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        try insert("before", store)
        let batch = try store.batched {
            // Checked at COMMIT: a queue of a connection that does not exist.
            try store.run("PRAGMA defer_foreign_keys = ON")
            try insert("lost", store)
            try store.run(
                """
                INSERT INTO snd_queues (conn_id, server, snd_id, e2e_key, e2e_peer_key, status)
                VALUES ('nobody', 'smp://k@h', x'01', x'', x'', 'new')
                """)
        }.batch
        #expect(!store.commitBatch())
        // Asked for each message of the batch: each is told.
        #expect(store.batchFailed(batch))
        #expect(store.batchFailed(batch))
        #expect(try committed(path) == ["before"])
        // The store goes on.
        let after = try store.batched { try insert("after", store) }.batch
        #expect(after == batch + 1)
        #expect(store.commitBatch())
        #expect(!store.batchFailed(after))
        #expect(try committed(path) == ["after", "before"])
        store.close()
    }
}
