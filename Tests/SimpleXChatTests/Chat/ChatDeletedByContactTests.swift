import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// A contact who deleted us (`x.direct.del`): the chat stays and says so, the contact is no
/// longer active (`contactStatus` `deleted` in the API), and nothing more can be sent to it.
@Suite struct ChatDeletedByContactTests {
    @Test(.timeLimit(.minutes(1))) func aContactWhoDeletedUsCannotBeWrittenTo() async throws {
        let fixture = try await ChatWithContacts.open("chat-deleted", contacts: ["bob"])
        let (chat, bob) = (fixture.chat, fixture.contacts[0])
        #expect(try await chat.contact(id: bob.contactId).active)

        let body = try ChatMessage(event: .directDel).encoded()
        await chat.handle(batch: [
            .message(
                connection: "conn-bob", message: AgentReceivedMessage(agentMsgID: 1, integrity: .ok, body: body))
        ])
        let deleted = try await chat.contact(id: bob.contactId)
        #expect(!deleted.active)
        #expect(deleted.json.compactText.contains(#""contactStatus":"deleted""#))
        #expect(try await chat.chatList().first?.contact.active == false)
        await #expect(throws: ChatError.contactNotActive("bob")) {
            _ = try await chat.send(to: "bob", .text("hello?"))
        }
        let items = try await chat.chatItems(contactId: bob.contactId, .last(count: 10))
        #expect(items.map(\.text) == ["deleted contact"])
        await fixture.chat.stop()  // (the fixture, and its directory, live until here)
    }
}
