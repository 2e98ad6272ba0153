import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Statuses of sent items that arrive together (SENT for a burst of messages, receipts) are
/// written in one transaction, with the same outcome as one at a time: in order, never back from
/// delivered to sent, and told after they are stored.
@Suite struct ChatStatusBatchTests {
    @Test(.timeLimit(.minutes(1))) func statusesTakenTogetherEndAsOneAtATime() async throws {
        let directory = try TemporaryDirectory("chat-status-batch")
        let user = try ChatController.createUser(
            groupDirectory: directory.path, profile: Profile(displayName: "alice", fullName: ""))
        let store = try ChatStore(path: directory.path + "/simplex_v1_chat.db")
        try store.insertPendingConnection(user, agentConnectionID: "conn-bob")
        let bob = try store.createContact(
            user, profile: Profile(displayName: "bob", fullName: ""), agentConnectionID: "conn-bob")
        try store.setReady(agentConnectionID: "conn-bob")
        let items = try (1...4).map { index in
            try store.insertItem(
                user, contact: bob, direction: .sent, content: .text("m\(index)"), status: .sndNew,
                sharedMsgId: nil, agentMsgID: Int64(index))
        }
        store.close()
        let chat = try await ChatController.open(
            groupDirectory: directory.path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        var events = chat.events.makeAsyncIterator()

        await chat.handle(batch: [
            .sent(connection: "conn-bob", agentMsgID: 1), .sent(connection: "conn-bob", agentMsgID: 2),
            .delivered(connection: "conn-bob", agentMsgID: 1, hashMatched: true),
            // A receipt that overtook its SENT: the item stays delivered.
            .delivered(connection: "conn-bob", agentMsgID: 3, hashMatched: true),
            .sent(connection: "conn-bob", agentMsgID: 3),
            .sendFailed(connection: "conn-bob", agentMsgID: 4, reason: "AUTH"),
            .sent(connection: "conn-unknown", agentMsgID: 9),
        ])
        var told: [(Int64, ChatItemStatus)] = []
        while told.count < 5, let event = await events.next() {
            if case .itemStatus(_, let item) = event { told.append((item.itemId, item.status)) }
        }
        #expect(told.map(\.0) == [items[0], items[1], items[0], items[2], items[3]].map(\.itemId))
        #expect(told.map(\.1) == [.sndSent, .sndSent, .sndRcvd, .sndRcvd, .sndError])
        let stored = try await chat.chatItems(contactId: bob.contactId, .last(count: 10))
        #expect(stored.map(\.status) == [.sndRcvd, .sndSent, .sndRcvd, .sndError])
        // Item info keeps each change, in order.
        let history = try await chat.itemInfo(items[0]).statuses.map(\.status)
        #expect(history == [.sndNew, .sndSent, .sndRcvd])
        await chat.stop()
    }
}
