import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// A contact's new profile (`x.info`): a new display name becomes the contact's local name
/// (with a suffix when another chat has it), as SimpleX does; a new full name alone keeps it.
@Suite struct ChatProfileUpdateTests {
    @Test(.timeLimit(.minutes(1))) func aNewDisplayNameRenamesTheContactAndAFullNameAloneDoesNot() async throws {
        let fixture = try await ChatWithContacts.open("chat-profile", contacts: ["bob", "bobby"])
        let chat = fixture.chat
        var events = chat.events.makeAsyncIterator()
        func profile(_ id: UInt8, _ displayName: String, _ fullName: String) async throws -> ChatEvent? {
            let body = try ChatMessage(
                msgId: SharedMsgID(bytes: Array(repeating: id, count: 12)),
                event: .info(Profile(displayName: displayName, fullName: fullName))
            ).encoded()
            await chat.handle(batch: [
                .message(
                    connection: "conn-bob",
                    message: AgentReceivedMessage(agentMsgID: Int64(id), integrity: .ok, body: body))
            ])
            // (The agent of this test never received the message: its acknowledgement fails,
            // told as an error after the update.)
            while let event = await events.next() {
                if case .contactUpdated = event { return event }
            }
            return nil
        }

        // "bobby" is another contact's name here: bob becomes bobby_1.
        guard case .contactUpdated(let renamed, let before) = try await profile(1, "bobby", "Bob Builder") else {
            Issue.record("no contactUpdated event")
            return
        }
        #expect(before.localDisplayName == "bob" && renamed.localDisplayName == "bobby_1")
        #expect(renamed.profile == Profile(displayName: "bobby", fullName: "Bob Builder"))
        #expect(try await chat.contacts().map(\.localDisplayName).sorted() == ["bobby", "bobby_1"])
        let json = ChatEvent.contactUpdated(renamed, from: before).json(user: await chat.user).compactText
        #expect(json.contains(#""fromContact":{"#) && json.contains(#""localDisplayName":"bob""#))
        #expect(json.contains(#""localDisplayName":"bobby_1""#))

        guard case .contactUpdated(let updated, _) = try await profile(2, "bobby", "Robert") else {
            Issue.record("no contactUpdated event")
            return
        }
        #expect(updated.localDisplayName == "bobby_1" && updated.profile.fullName == "Robert")
        await fixture.chat.stop()  // (the fixture, and its directory, live until here)
    }
}
