import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// What leaves the chat leaves the disk: the agent keeps a received message's body only until
/// the app has acknowledged it (it kept every body for good, so text the user deleted, or that
/// disappeared on its timer, stayed readable in the agent database).
@Suite struct ReceivedBodiesTests {
    @Test func aDisappearedMessageLeavesNoTextInEitherUsersFiles() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("received-bodies")
        let pair = try await ChatControllerReadingTests.connectedPair(relay: relay, in: directory)
        let (alice, bob) = (pair.alice, pair.bob)
        let secret = "the vault code is 4912-7731"
        let kept = "this one stays"
        _ = try await alice.chat.send(to: pair.bobContact.localDisplayName, .text(kept))
        _ = try await alice.chat.send(to: pair.bobContact.localDisplayName, .text(secret), ttl: 1)
        let received = try await bob.events.next { event -> ChatItem? in
            if case .newItem(_, let item) = event, item.text == secret { item } else { nil }
        }
        // Read, its timer starts; a second later it is gone from the chat.
        let response = await bob.chat.execute(
            "/_read chat items @\(pair.aliceContact.contactId) \(received.itemId)")
        guard case .itemsReadForChat = response else {
            Issue.record("read: \(response)")
            return
        }
        let expired = try await bob.events.next {
            if case .itemsExpired(_, let items) = $0 { items } else { nil }
        }
        #expect(expired.map(\.itemId) == [received.itemId])
        _ = try await alice.events.next {
            if case .itemsExpired(_, let items) = $0 { items } else { nil }
        }
        #expect(
            try await bob.chat.chatItems(contactId: pair.aliceContact.contactId, .last(count: 10)).map(\.text)
                == [ChatItemEvent.rcvDirectE2EEInfo.text, kept])
        await alice.chat.stop()
        await bob.chat.stop()

        // Every file either user has (the databases, any WAL left), byte for byte.
        let bytes = Data(secret.utf8)
        var files = 0
        for name in ["alice", "bob"] {
            let root = directory.appending(name)
            let paths = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
            for path in paths {
                guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
                files += 1
                #expect(data.range(of: bytes) == nil, "\(name)/\(path) still holds the deleted text")
            }
        }
        #expect(files >= 4)
        // The message that was not deleted is still in bob's chat database: the search above
        // would find a text that is there.
        let chatDatabase = try #require(
            FileManager.default.contents(atPath: directory.appending("bob") + "/simplex_v1_chat.db"))
        #expect(chatDatabase.range(of: Data(kept.utf8)) != nil)
    }

    @Test func earlierDatabasesLoseAcknowledgedBodiesAndAcknowledgeByTheAgentIdIndex() throws {
        let directory = try TemporaryDirectory("received-bodies")
        let path = directory.appending("agent.db")
        let database = try Database(path: path)
        try database.migrate(Array(AgentSchema.migrations.prefix(1)))
        try database.execute(
            "INSERT INTO connections (conn_id, conn_mode, status, created_at) VALUES ('c1', 'invitation', 'ready', 0)")
        for (id, userAck) in [(1, true), (2, false)] {
            try database.execute(
                """
                INSERT INTO rcv_messages (conn_id, agent_msg_id, enc_hash, msg_hash, body, integrity, server, rcv_id,
                  server_msg_id, user_ack, created_at)
                VALUES ('c1', ?, ?, x'', ?, 'ok', 'smp://k@h', x'01', ?, ?, 0)
                """, arguments: [id, [UInt8]([UInt8(id)]), Array("body \(id)".utf8), [UInt8]([UInt8(id)]), userAck])
        }
        try database.migrate(AgentSchema.migrations)
        let bodies = try database.fetchAll("SELECT agent_msg_id, length(body) FROM rcv_messages ORDER BY agent_msg_id")
            .map { [try $0.decode(Int64.self, at: 0), try $0.decode(Int64.self, at: 1)] }
        // The acknowledged one is emptied; the one the app has not seen yet keeps its body.
        #expect(bodies == [[1, 0], [2, 6]])

        // The relay's acknowledgement of the other finds its row through the agent id index
        // (the index by the relay's id is gone); the body stays until the app acknowledges it.
        let plan = try database.fetchAll("EXPLAIN QUERY PLAN " + AgentStore.relayAcknowledged, arguments: ["c1", 2, [UInt8]([2])])
            .map { try $0.decode(String.self, at: 3) }
        #expect(plan == ["SEARCH rcv_messages USING INDEX idx_rcv_messages_agent_msg_id (conn_id=? AND agent_msg_id=?)"])
        #expect(try database.fetchAll("SELECT name FROM sqlite_master WHERE name = 'idx_rcv_messages_relay_unacked'").isEmpty)
        try database.execute(AgentStore.relayAcknowledged, arguments: ["c1", 2, [UInt8]([2])])
        let row = try #require(try database.fetchAll("SELECT relay_ack, user_ack, length(body) FROM rcv_messages WHERE agent_msg_id = 2").first)
        #expect(try (0..<3).map { try row.decode(Int64.self, at: $0) } == [1, 0, 6])
        // What the app has not acknowledged is found at start through its own index, not by
        // reading every received message.
        let startPlan = try database.fetchAll("EXPLAIN QUERY PLAN " + AgentStore.unacknowledgedByAppSQL)
            .map { try $0.decode(String.self, at: 3) }
        #expect(startPlan.contains("SCAN r USING INDEX idx_rcv_messages_app_unacked"))
        #expect(!startPlan.contains("SCAN r") && !startPlan.contains { $0.contains("TEMP B-TREE") })
    }
}
