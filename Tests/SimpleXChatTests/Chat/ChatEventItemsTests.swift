import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Event items made from what the agent reports (SimpleX's rcvIntegrityError, rcvDecryptionError,
/// rcvChatFeature): stored with the chat's items, each once however often the agent gives the
/// message again (the agent of these tests never received the messages, so their
/// acknowledgement fails and they stay the agent's to give again, as after a crash).
@Suite struct ChatEventItemsTests {
    static func body(_ id: UInt8, _ event: ChatMsgEvent) throws -> [UInt8] {
        try ChatMessage(msgId: SharedMsgID(bytes: Array(repeating: id, count: 12)), event: event).encoded()
    }

    static func message(_ agentMsgID: Int64, _ integrity: MessageIntegrity, _ body: [UInt8]) -> AgentEvent {
        .message(
            connection: "conn-bob",
            message: AgentReceivedMessage(agentMsgID: agentMsgID, integrity: integrity, body: body))
    }

    static func texts(_ chat: ChatController, _ contact: ChatContact) async throws -> [String] {
        try await chat.chatItems(contactId: contact.contactId, .last(count: 20)).map(\.text)
    }

    @Test(.timeLimit(.minutes(1)))
    func aGapIsOneItemBeforeTheMessageAfterItEvenWhenDeliveredAgainAfterARestart()
        async throws
    {
        let fixture = try await ChatWithContacts.open("chat-integrity", contacts: ["bob"])
        let bob = fixture.contacts[0]
        let batch = [
            Self.message(1, .ok, try Self.body(1, .msgNew(MsgContainer(content: .text("one"))))),
            Self.message(
                4, .skipped(from: 2, to: 3), try Self.body(2, .msgNew(MsgContainer(content: .text("four"))))),
            Self.message(5, .badHash, try Self.body(3, .msgNew(MsgContainer(content: .text("five"))))),
        ]
        await fixture.chat.handle(batch: batch)
        let expected = ["one", "skipped message ID 2..3", "four", "incorrect message hash", "five"]
        #expect(try await Self.texts(fixture.chat, bob) == expected)
        // The errors are unread, as SimpleX stores them, and the chat list sees them.
        #expect(try await fixture.chat.chatList().first?.unreadCount == 5)
        let items = try await fixture.chat.chatItems(contactId: bob.contactId, .last(count: 20))
        #expect(items[1].event == .rcvIntegrityError(.msgSkipped(from: 2, to: 3)))
        #expect(
            items[1].json.compactText.contains(
                #""content":{"msgError":{"type":"msgSkipped","fromMsgId":2,"toMsgId":3},"type":"rcvIntegrityError"}"#
            ))

        // Not acknowledged: given again, in this run and after a restart, with the same checks.
        await fixture.chat.handle(batch: batch)
        #expect(try await Self.texts(fixture.chat, bob) == expected)
        await fixture.chat.stop()
        let reopened = try await ChatController.open(
            groupDirectory: fixture.directory.path,
            secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        await reopened.handle(batch: batch)
        #expect(try await Self.texts(reopened, bob) == expected)
        // One at a time (the path of messages with files) the same.
        for event in batch { await reopened.handle(event) }
        #expect(try await Self.texts(reopened, bob) == expected)
        await reopened.stop()
    }

    @Test(.timeLimit(.minutes(1))) func messagesThatDoNotDecryptOneAfterAnotherAreOneItemWithTheirCount()
        async throws
    {
        let fixture = try await ChatWithContacts.open("chat-decryption", contacts: ["bob"])
        let (chat, bob) = (fixture.chat, fixture.contacts[0])
        var events = chat.events.makeAsyncIterator()
        let earlier = AgentEvent.receiveFailed(connection: "conn-bob", reason: .ratchet(.duplicateMessage))
        await chat.handle(batch: [earlier, earlier, earlier])
        let text = "decryption error, possibly due to the device change (earlier message, 3 messages)"
        #expect(try await Self.texts(chat, bob) == [text])
        // Told as a new item, then as that item updated.
        guard case .newItem(_, let made) = await events.next(),
            case .itemUpdated(_, let grown) = await events.next()
        else {
            Issue.record("no new item and update")
            return
        }
        #expect(made.itemId == grown.itemId && grown.event == .rcvDecryptionError(.ratchetEarlier, count: 2))

        // Another kind, or a message between, starts a new item; a replay or an invalid message
        // makes none (SimpleX's agent drops a replay; an invalid message is stored as invalid).
        await chat.handle(batch: [
            .receiveFailed(connection: "conn-bob", reason: .ratchet(.headerDecryptionFailed)),
            .receiveFailed(connection: "conn-bob", reason: .duplicate),
            .receiveFailed(connection: "conn-bob", reason: .invalid("not a message")),
            Self.message(1, .ok, try Self.body(1, .msgNew(MsgContainer(content: .text("hello"))))),
            .receiveFailed(connection: "conn-bob", reason: .decryption("per-queue layer: bad tag")),
            .receiveFailed(connection: "conn-bob", reason: .ratchet(.tooManySkipped(700))),
            .receiveFailed(connection: "conn-bob", reason: .ratchet(.tooManySkipped(701))),
        ])
        #expect(
            try await Self.texts(chat, bob) == [
                text, "decryption error, possibly due to the device change (header)", "hello",
                "decryption error, possibly due to the device change",
                "decryption error, possibly due to the device change (too many skipped messages, 701 messages)",
            ])
        // A connection that is no contact's (a file's) makes nothing.
        await chat.handle(batch: [
            .receiveFailed(connection: "conn-file", reason: .ratchet(.decryptionFailed))
        ])
        #expect(try await Self.texts(chat, bob).count == 5)
        await chat.stop()
    }

    @Test(.timeLimit(.minutes(1))) func aContactsNewPreferencesAreFeatureItemsOnceAndReadAsSimpleXWordsThem()
        async throws
    {
        let fixture = try await ChatWithContacts.open("chat-features", contacts: ["bob"])
        let (chat, bob) = (fixture.chat, fixture.contacts[0])
        var events = chat.events.makeAsyncIterator()
        func info(_ id: UInt8, _ preferences: JSON?, name: String = "bob") throws -> AgentEvent {
            Self.message(
                Int64(id), .ok,
                try Self.body(id, .info(Profile(displayName: name, fullName: "", preferences: preferences))))
        }
        let first = try info(
            1,
            [
                "voice": ["allow": "no"], "timedMessages": ["allow": "yes", "ttl": 86400],
                "calls": ["allow": "always"],
            ])
        await chat.handle(batch: [first])
        // In feature order: the timer is the contact's offer (the state stays "allowed", the
        // user set no timer); voice, the user's default yes against no, is off; calls "always"
        // against the user's yes stays enabled, an offer.
        let expected = [
            "offered Disappearing messages (1 day)", "Voice messages: off", "offered Audio/video calls",
        ]
        #expect(try await Self.texts(chat, bob) == expected)
        #expect(try await chat.chatList().first?.unreadCount == 0)
        // Told first as the contact's new preferences (SimpleX contactPrefsUpdated), then as items.
        guard case .contactPreferencesUpdated(_, _, let from, let to) = await events.next() else {
            Issue.record("no contactPreferencesUpdated first")
            return
        }
        #expect(from == ChatPreferences() && to.preference(.voice) == FeaturePreference(allow: .no))
        let json = ChatEvent.contactPreferencesUpdated(bob, user: ChatPreferences(), from: from, to: to)
            .json(user: await chat.user).compactText
        #expect(json.contains(#""type":"contactPrefsUpdated""#) && json.contains(#""voice":{"allow":"no"}"#))
        // The same profile again (after a restart, unacknowledged) changes nothing.
        await chat.handle(batch: [first])
        #expect(try await Self.texts(chat, bob) == expected)

        // A new name and new preferences together: the rename first, then the feature items.
        await chat.handle(batch: [try info(2, ["fullDelete": ["allow": "always"]], name: "robert")])
        // Full deletion: the contact's "always" against the user's "no" is the user's alone.
        #expect(
            try await Self.texts(chat, bob) == expected + [
                "offered Disappearing messages", "Full deletion: enabled for you", "Voice messages: enabled",
                "offered Audio/video calls",
            ])
        #expect(try await chat.contact(id: bob.contactId).localDisplayName == "robert")
        await chat.stop()
    }
}
