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
        var items: [ChatItem] = []
        let fixture = try await ChatWithContacts.open("chat-status-batch", contacts: ["bob"]) {
            store, user, contacts in
            items = try (1...4).map { index in
                try store.insertItem(
                    user, contact: contacts[0], direction: .sent, content: .text("m\(index)"), status: .sndNew,
                    sharedMsgId: nil, agentMsgID: Int64(index))
            }
        }
        let (chat, bob) = (fixture.chat, fixture.contacts[0])
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
        await fixture.chat.stop()  // (the fixture, and its directory, live until here)
    }
}
