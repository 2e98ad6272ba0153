import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Received messages taken in a batch (as many as have arrived) are stored together and told in
/// the order they came, with the same outcome as one at a time.
@Suite struct ChatReceiveBatchTests {
    static func body(_ id: UInt8, _ event: ChatMsgEvent) throws -> [UInt8] {
        try ChatMessage(msgId: SharedMsgID(bytes: Array(repeating: id, count: 12)), event: event).encoded()
    }

    static func new(_ id: UInt8, _ text: String) throws -> [UInt8] {
        try body(id, .msgNew(MsgContainer(content: .text(text))))
    }

    @Test func aBatchIsStoredAndToldInOrderWithEditsInvalidMessagesAndRepeatsAsOneAtATime() async throws {
        let fixture = try await ChatWithContacts.open("chat-batch", contacts: ["bob"])
        let (chat, bob) = (fixture.chat, fixture.contacts[0])

        let bodies: [[UInt8]] = [
            try Self.new(1, "one"),
            try Self.new(2, "two"),
            try Self.body(
                3,
                .msgUpdate(
                    MsgUpdate(
                        msgId: SharedMsgID(bytes: Array(repeating: 1, count: 12)),
                        content: .text("one, edited")))),
            Array("not a chat message".utf8),
            try Self.new(2, "two"),  // delivered again: dropped by its id
            try Self.new(4, "three"),
        ]
        let batch = bodies.enumerated().map { index, body in
            AgentEvent.message(
                connection: "conn-bob",
                message: AgentReceivedMessage(agentMsgID: Int64(index + 1), integrity: .ok, body: body))
        }
        await chat.handle(batch: batch)

        let items = try await chat.chatItems(contactId: bob.contactId, .last(count: 10))
        #expect(items.map(\.text).count == 4)
        #expect(items.map(\.text).first == "one, edited")
        #expect(items.map(\.text)[1] == "two")
        #expect(items.map(\.text)[2].hasPrefix("invalid message: "))
        #expect(items.map(\.text)[3] == "three")

        // The events in the order the messages came; the agent of this test never received them,
        // so acknowledging them is an error, told after them.
        var told: [String] = []
        for await event in chat.events {
            switch event {
            case .newItem(_, let item): told.append("new \(item.text.prefix(7))")
            case .itemUpdated(_, let item): told.append("updated \(item.text)")
            case .error: told.append("error")
            default: continue
            }
            if told.count == 6 { break }
        }
        #expect(told == ["new one", "new two", "updated one, edited", "new invalid", "new three", "error"])
        await fixture.chat.stop()  // (the fixture, and its directory, live until here)
    }
}
