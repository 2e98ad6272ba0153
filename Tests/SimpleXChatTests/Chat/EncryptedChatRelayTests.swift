import Foundation
import SimpleXCrypto
import SimpleXProtocol
import TestSupport
import Testing

@_spi(Testing) @testable import SimpleXChat

/// Two users talking through a real relay with their databases sealed (`databaseKey`): nothing
/// of what they said, their names or the link they connected with is in any file of their group
/// directories; and a group that was plain is encrypted at its next open with its chats intact.
@Suite(.serialized)
struct EncryptedChatRelayTests {
    typealias EventLog = ChatControllerReadingTests.EventLog

    final class User: @unchecked Sendable {  // (used by one test task at a time)
        let name: String
        let directory: String
        let secrets: AgentSecrets
        let key = DatabaseKey.random()
        var chat: ChatController
        var events: EventLog

        init(_ name: String, relay: RelayProcess, in parent: TemporaryDirectory, encrypted: Bool) async throws
        {
            self.name = name
            directory = parent.appending(name)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let databaseKey = encrypted ? key : nil
            _ = try ChatController.createUser(
                groupDirectory: directory, profile: Profile(displayName: name, fullName: ""),
                databaseKey: databaseKey)
            try ChatController.setServers(
                groupDirectory: directory, [try SMPServerAddress(relay.address)], databaseKey: databaseKey)
            secrets = try AgentSecrets(key: SecureBytes.random(count: 32))
            chat = try await ChatController.open(
                groupDirectory: directory, secrets: secrets, databaseKey: databaseKey)
            events = EventLog(chat.events)
            await chat.start()
        }

        /// Stops and opens again, with the key.
        func reopenEncrypted() async throws {
            await chat.stop()
            chat = try await ChatController.open(
                groupDirectory: directory, secrets: secrets, databaseKey: key)
            events = EventLog(chat.events)
            await chat.start()
        }

        func received(_ text: String) async throws {
            do {
                _ = try await events.next { event -> Bool? in
                    if case .newItem(_, let item) = event, item.text == text { true } else { nil }
                }
            } catch { throw TestSupportError("\(name): no item \"\(text)\"") }
        }

        func texts(_ contact: String) async throws -> [String] {
            let id = try #require(try await chat.chatList().first { $0.contact.localDisplayName == contact })
                .contact
            return try await chat.chatItems(contactId: id.contactId, .last(count: 50)).map(\.text)
        }
    }

    /// Connects `alice` and `bob` and has them exchange `first` and `reply`; returns the link.
    static func talk(_ alice: User, _ bob: User, _ first: String, _ reply: String) async throws -> String {
        let link = try await alice.chat.createInvitation()
        try await bob.chat.connect(link: link)
        for user in [alice, bob] {
            _ = try await user.events.next {
                if case .contactConnected(let contact) = $0 { contact } else { nil }
            }
        }
        _ = try await alice.chat.send(to: bob.name, .text(first))
        try await bob.received(first)
        _ = try await bob.chat.send(to: alice.name, .text(reply))
        try await alice.received(reply)
        return link
    }

    /// The regular files under `directory` whose raw bytes contain one of `secrets`, with which.
    static func leaks(in directory: String, of secrets: [String]) throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else {
                continue
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in secrets where bytes.range(of: Data(secret.utf8)) != nil {
                found.append("\(relative): \(secret)")
            }
        }
        return found
    }

    /// What must not be readable: the messages, both names, the link and a stretch of its middle
    /// (the queue address and keys, in case the link is stored in another form).
    static func secrets(_ alice: User, _ bob: User, _ texts: [String], link: String) -> [String] {
        let middle = link.dropFirst(link.count / 2 - 12).prefix(24)
        return texts + [alice.name, bob.name, link, String(middle)]
    }

    @Test func aConversationLeavesNothingReadableInAnyFileOfEitherGroupDirectory() async throws {
        let relay = try await RelayProcess()
        let parent = try TemporaryDirectory("crypt-chat")
        let alice = try await User("alicewonder7731", relay: relay, in: parent, encrypted: true)
        let bob = try await User("bobbuilder9924", relay: relay, in: parent, encrypted: true)
        let texts = ["the eagle lands at 0600 sharp", "understood, bring the blue folder"]
        let link = try await Self.talk(alice, bob, texts[0], texts[1])
        let secrets = Self.secrets(alice, bob, texts, link: link)
        // While running (WAL and index in use), and after both stopped (checkpointed).
        #expect(try Self.leaks(in: parent.path, of: secrets) == [])
        await alice.chat.stop()
        await bob.chat.stop()
        #expect(try Self.leaks(in: parent.path, of: secrets) == [])
        for user in [alice, bob] {
            let chat = user.directory + "/simplex_v1_chat.db"
            #expect(DatabaseFileState.of(chat) == .encrypted)
            #expect(
                DatabaseFileState.of(AgentConfig.databasePath(groupDirectory: user.directory)) == .encrypted)
        }

        // The next start, with the key, has the chat; without it, a clear refusal.
        try await alice.reopenEncrypted()
        #expect(try await alice.texts(bob.name).suffix(2) == texts[...])
        await alice.chat.stop()
        #expect(throws: ChatError.self) { try ChatController.activeUser(groupDirectory: alice.directory) }
    }

    @Test func aPlainGroupIsEncryptedAtItsNextOpenAndTheChatGoesOn() async throws {
        let relay = try await RelayProcess()
        let parent = try TemporaryDirectory("crypt-upgrade")
        let alice = try await User("aliceplain5518", relay: relay, in: parent, encrypted: false)
        let bob = try await User("bobplain6627", relay: relay, in: parent, encrypted: false)
        let texts = ["written before the upgrade", "answered before the upgrade"]
        let link = try await Self.talk(alice, bob, texts[0], texts[1])
        let secrets = Self.secrets(alice, bob, texts, link: link)
        await alice.chat.stop()
        // Plain today: the test would see a leak.
        #expect(try !Self.leaks(in: alice.directory, of: secrets).isEmpty)

        try await alice.reopenEncrypted()
        #expect(try Self.leaks(in: alice.directory, of: secrets) == [])
        #expect(try await alice.texts(bob.name).suffix(2) == texts[...])
        _ = try await bob.chat.send(to: alice.name, .text("after the upgrade"))
        try await alice.received("after the upgrade")
        await alice.chat.stop()
        await bob.chat.stop()
        #expect(try Self.leaks(in: alice.directory, of: secrets + ["after the upgrade"]) == [])
    }
}
