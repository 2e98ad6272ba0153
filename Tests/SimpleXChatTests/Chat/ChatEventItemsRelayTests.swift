import Foundation
import SimpleXCrypto
import SimpleXProtocol
import TestSupport
import Testing

@_spi(Testing) @testable import SimpleXChat

/// Event items for real, two users connected through a real relay: the chat starts with its
/// encryption note, a lost message is a gap item, a restored backup of the sender makes its
/// messages undecryptable and then breaks the hash chain, a profile's new preferences are feature
/// items on both sides; and a restart of the receiver repeats none of them.
@Suite(.serialized)
struct ChatEventItemsRelayTests {
    typealias EventLog = ChatControllerReadingTests.EventLog

    /// A user whose controller can be stopped and opened again on the same directory (the agent
    /// key stays the same, as the keychain keeps it).
    final class User: @unchecked Sendable {  // (used by one test task at a time)
        let directory: String
        let secrets: AgentSecrets
        var chat: ChatController
        var events: EventLog

        init(_ name: String, relay: RelayProcess, in parent: TemporaryDirectory) async throws {
            directory = parent.appending(name)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            _ = try ChatController.createUser(
                groupDirectory: directory, profile: Profile(displayName: name, fullName: ""))
            try ChatController.setServers(groupDirectory: directory, [try SMPServerAddress(relay.address)])
            secrets = try AgentSecrets(key: SecureBytes.random(count: 32))
            chat = try await ChatController.open(groupDirectory: directory, secrets: secrets)
            events = EventLog(chat.events)
            await chat.start()
        }

        func restart() async throws {
            await chat.stop()
            chat = try await ChatController.open(groupDirectory: directory, secrets: secrets)
            events = EventLog(chat.events)
            await chat.start()
        }

        func texts(_ contact: ChatContact) async throws -> [String] {
            try await chat.chatItems(contactId: contact.contactId, .last(count: 50)).map(\.text)
        }

        /// Waits for the new item `text`.
        func received(_ text: String) async throws {
            do {
                _ = try await events.next { event -> Bool? in
                    if case .newItem(_, let item) = event, item.text == text { true } else { nil }
                }
            } catch {
                let items = (try? await chat.chatList().map { $0.lastItem?.text ?? "" }) ?? []
                throw TestSupportError("\(directory): no item \"\(text)\" (last items: \(items))")
            }
        }
    }

    static func connect(_ alice: User, _ bob: User) async throws -> (
        bobContact: ChatContact, aliceContact: ChatContact
    ) {
        try await bob.chat.connect(link: try await alice.chat.createInvitation())
        let bobContact = try await alice.events.next {
            if case .contactConnected(let contact) = $0 { contact } else { nil }
        }
        let aliceContact = try await bob.events.next {
            if case .contactConnected(let contact) = $0 { contact } else { nil }
        }
        return (bobContact, aliceContact)
    }

    static let e2ee = ChatItemEvent.rcvDirectE2EEInfo.text

    @Test func aLostMessageIsOneGapItemBeforeTheNextAndARestartRepeatsNothing() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-events-gap")
        let alice = try await User("alice", relay: relay, in: directory)
        let bob = try await User("bob", relay: relay, in: directory)
        let (bobContact, aliceContact) = try await Self.connect(alice, bob)
        // Each chat starts with its encryption note (SimpleX's rcvDirectE2EEInfo), read.
        #expect(try await alice.texts(bobContact) == [Self.e2ee])
        #expect(try await bob.texts(aliceContact) == [Self.e2ee])
        #expect(try await bob.chat.chatList().first?.unreadCount == 0)

        _ = try await alice.chat.send(to: "bob", .text("one"))
        try await bob.received("one")
        // "two" is encrypted and numbered, but the relay never gets it.
        let id = try #require(bobContact.agentConnectionID)
        try await alice.chat.agent.loseMessage(
            id, body: try ChatMessage(event: .msgNew(MsgContainer(content: .text("two")))).encoded())
        _ = try await alice.chat.send(to: "bob", .text("three"))
        try await bob.received("three")
        let texts = try await bob.texts(aliceContact)
        #expect(texts.count == 4 && texts.last == "three")
        let gap = texts[2]
        #expect(gap.hasPrefix("skipped message ID "), "\(texts)")
        #expect(try await bob.chat.chatList().first?.unreadCount == 3)

        try await bob.restart()
        _ = try await alice.chat.send(to: "bob", .text("four"))
        try await bob.received("four")
        #expect(try await bob.texts(aliceContact) == [Self.e2ee, "one", gap, "three", "four"])
        await alice.chat.stop()
        await bob.chat.stop()
    }

    @Test func aSenderRestoredFromABackupIsDecryptionErrorsInOneItemThenABadHash() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-events-backup")
        let alice = try await User("alice", relay: relay, in: directory)
        let bob = try await User("bob", relay: relay, in: directory)
        let (_, aliceContact) = try await Self.connect(alice, bob)
        _ = try await alice.chat.send(to: "bob", .text("one"))
        try await bob.received("one")
        // Bob's receipt for it brought Alice his next ratchet key: her sending chain is then the
        // one in the backup (were it not, her later messages would start a chain of their own).
        do {
            _ = try await alice.events.next { event -> Bool? in
                if case .itemStatus(_, let item) = event, item.text == "one", item.status == .sndRcvd {
                    true
                } else {
                    nil
                }
            }
        } catch { throw TestSupportError("no receipt for \"one\"") }
        // From here Bob sends Alice nothing until the end (no receipts): a message of his would
        // move her to a new chain of her own, which the restored Alice would not reuse.
        #expect(await bob.chat.execute("/receipts @alice off").responseType == "cmdOk")

        // Alice backs up her data, sends two more, then restores the backup: her ratchet and
        // message numbers are as before those two.
        await alice.chat.stop()
        let backup = directory.appending("alice-backup")
        try FileManager.default.copyItem(atPath: alice.directory, toPath: backup)
        try await alice.restart()
        for text in ["two", "three"] {
            _ = try await alice.chat.send(to: "bob", .text(text))
            try await bob.received(text)
        }
        await alice.chat.stop()
        try FileManager.default.removeItem(atPath: alice.directory)
        try FileManager.default.copyItem(atPath: backup, toPath: alice.directory)
        try await alice.restart()

        // Her next two reuse message keys Bob has used: one item, counted twice (SimpleX merges
        // them); the one after decrypts, but its hash chain is not the one Bob has.
        _ = try await alice.chat.send(to: "bob", .text("four"))
        _ = try await alice.chat.send(to: "bob", .text("five"))
        _ = try await alice.chat.send(to: "bob", .text("six"))
        try await bob.received("six")
        let items = try await bob.chat.chatItems(contactId: aliceContact.contactId, .last(count: 20))
        let decryption = items.filter {
            if case .rcvDecryptionError = $0.event { true } else { false }
        }
        #expect(decryption.count == 1, "\(items.map(\.text))")
        if case .rcvDecryptionError(_, let count)? = decryption.first?.event { #expect(count == 2) }
        #expect(
            decryption.first?.text.hasPrefix("decryption error, possibly due to the device change (") == true)
        #expect(
            items.map(\.text).suffix(3) == [decryption.first?.text ?? "", "incorrect message hash", "six"],
            "\(items.map(\.text))")

        // A restart of Bob repeats none of it.
        let before = try await bob.texts(aliceContact)
        try await bob.restart()
        _ = try await bob.chat.send(to: "alice", .text("still there?"))
        try await alice.received("still there?")
        #expect(try await bob.texts(aliceContact) == before + ["still there?"])
        await alice.chat.stop()
        await bob.chat.stop()
    }

    /// Alice restores a backup, then hears from Bob before she writes: his message moves her to a
    /// new ratchet chain, whose first header says she sent fewer on her last chain than Bob got
    /// from it. Bob's ratchet refuses such a fork before the agent would compare message numbers
    /// (which is why the agent's unexpected and duplicate ids do not happen in this stack): each
    /// of her messages is a decryption error, one item counting them.
    @Test func aRestoredSenderThatHearsFromTheReceiverFirstIsRefusedAsAFork() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-events-ids")
        let alice = try await User("alice", relay: relay, in: directory)
        let bob = try await User("bob", relay: relay, in: directory)
        let (_, aliceContact) = try await Self.connect(alice, bob)
        _ = try await alice.chat.send(to: "bob", .text("one"))
        try await bob.received("one")
        do {
            _ = try await alice.events.next { event -> Bool? in
                if case .itemStatus(_, let item) = event, item.text == "one", item.status == .sndRcvd {
                    true
                } else {
                    nil
                }
            }
        } catch { throw TestSupportError("no receipt for \"one\"") }
        // No receipts either way from here: each side sends only what the test says.
        #expect(await bob.chat.execute("/receipts @alice off").responseType == "cmdOk")
        #expect(await alice.chat.execute("/receipts @bob off").responseType == "cmdOk")

        await alice.chat.stop()
        let backup = directory.appending("alice-backup")
        try FileManager.default.copyItem(atPath: alice.directory, toPath: backup)
        try await alice.restart()
        for text in ["two", "three"] {
            _ = try await alice.chat.send(to: "bob", .text(text))
            try await bob.received(text)
        }
        await alice.chat.stop()
        try FileManager.default.removeItem(atPath: alice.directory)
        try FileManager.default.copyItem(atPath: backup, toPath: alice.directory)
        try await alice.restart()

        _ = try await bob.chat.send(to: "alice", .text("hey"))
        try await alice.received("hey")
        for text in ["four", "five", "six"] { _ = try await alice.chat.send(to: "bob", .text(text)) }
        let refused = ChatItemEvent.rcvDecryptionError(.other, count: 3)
        _ = try await bob.events.next { event -> Bool? in
            if case .itemUpdated(_, let item) = event, item.event == refused { true } else { nil }
        }
        let texts = try await bob.texts(aliceContact)
        #expect(
            texts == [
                Self.e2ee, "one", "two", "three", "hey",
                "decryption error, possibly due to the device change (3 messages)",
            ],
            "\(texts)")
        // Bob's messages still reach her, and a restart of Bob repeats nothing.
        try await bob.restart()
        _ = try await bob.chat.send(to: "alice", .text("still there?"))
        try await alice.received("still there?")
        #expect(try await bob.texts(aliceContact) == texts + ["still there?"])
        await alice.chat.stop()
        await bob.chat.stop()
    }

    @Test func newPreferencesAreFeatureItemsForTheUserAndTheContactOnce() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-events-features")
        let alice = try await User("alice", relay: relay, in: directory)
        let bob = try await User("bob", relay: relay, in: directory)
        let (bobContact, aliceContact) = try await Self.connect(alice, bob)

        // Alice turns voice messages off and sets a one-day timer, through the command API.
        let profile =
            #"{"displayName":"alice","fullName":"","preferences":{"timedMessages":{"allow":"yes","ttl":86400},"voice":{"allow":"no"}}}"#
        let response = await alice.chat.execute("/_profile 1 \(profile)")
        #expect(response.responseType == "userProfileUpdated", "\(response)")
        try await bob.received("Voice messages: off")
        // Alice's side: the feature states as they now are between them (SimpleX sndChatFeature).
        #expect(
            try await alice.texts(bobContact) == [
                Self.e2ee, "Disappearing messages: enabled (1 day)", "Voice messages: off",
            ])
        // Bob's: the timer is Alice's offer (his own preference sets none), voice is off.
        #expect(
            try await bob.texts(aliceContact) == [
                Self.e2ee, "offered Disappearing messages (1 day)", "Voice messages: off",
            ])
        #expect(try await bob.chat.chatList().first?.unreadCount == 0)
        let json = try await bob.chat.chatItems(contactId: aliceContact.contactId, .last(count: 1))[0].json
        #expect(
            json.compactText.contains(
                #""content":{"enabled":{"forUser":false,"forContact":false},"feature":"voice","type":"rcvChatFeature"}"#
            ))

        // The same profile again is no change; a restart repeats nothing.
        #expect(await alice.chat.execute("/_profile 1 \(profile)").responseType == "userProfileNoChange")
        try await bob.restart()
        _ = try await alice.chat.send(to: "bob", .text("hi"))
        try await bob.received("hi")
        #expect(
            try await bob.texts(aliceContact) == [
                Self.e2ee, "offered Disappearing messages (1 day)", "Voice messages: off", "hi",
            ])
        await alice.chat.stop()
        await bob.chat.stop()
    }
}
