import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Synchronization
import TestSupport
import Testing

@testable import SimpleXChat

/// Reading through `ChatController` with two users connected through a real relay: what arrives
/// is paged, read, and a disappearing message goes on both sides when its timer ends.
@Suite(.serialized)
struct ChatControllerReadingTests {
    /// Collects a controller's events so a test can wait for one.
    final class EventLog: Sendable {
        private final class Shared: Sendable { let events = Mutex<[ChatEvent]>([]) }
        private let shared = Shared()
        private let reader: Task<Void, Never>

        init(_ stream: AsyncStream<ChatEvent>) {
            let shared = self.shared
            reader = Task { for await event in stream { shared.events.withLock { $0.append(event) } } }
        }

        deinit { reader.cancel() }

        /// The first event `matches` accepts, waiting up to `timeout`; it and those before are consumed.
        func next<T>(
            timeout: Duration = .seconds(30), fileID: StaticString = #fileID, line: UInt = #line,
            _ matches: (ChatEvent) -> T?
        ) async throws -> T {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                let found = shared.events.withLock { events -> T? in
                    guard let index = events.firstIndex(where: { matches($0) != nil }) else { return nil }
                    let value = matches(events[index])
                    events.removeFirst(index + 1)
                    return value
                }
                if let found { return found }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw TestSupportError("no such event within \(timeout) (waited for at \(fileID):\(line))")
        }
    }

    struct User {
        let chat: ChatController
        let events: EventLog
    }

    static func user(_ name: String, relay: RelayProcess, in directory: TemporaryDirectory) async throws
        -> User
    {
        let groupDirectory = directory.appending(name)
        try FileManager.default.createDirectory(atPath: groupDirectory, withIntermediateDirectories: true)
        _ = try ChatController.createUser(
            groupDirectory: groupDirectory, profile: Profile(displayName: name, fullName: ""))
        try ChatController.setServers(groupDirectory: groupDirectory, [try SMPServerAddress(relay.address)])
        let chat = try await ChatController.open(
            groupDirectory: groupDirectory, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        let events = EventLog(chat.events)
        await chat.start()
        return User(chat: chat, events: events)
    }

    /// The item each chat starts with once connected (SimpleX `rcvDirectE2EEInfo`), read.
    static let e2eeInfo = ChatItemEvent.rcvDirectE2EEInfo.text

    /// Alice and bob, connected by alice's invitation, with the contact each has for the other.
    struct Pair {
        let alice: User
        let bob: User
        let bobContact: ChatContact
        let aliceContact: ChatContact
    }

    static func connectedPair(relay: RelayProcess, in directory: TemporaryDirectory) async throws -> Pair {
        let alice = try await user("alice", relay: relay, in: directory)
        let bob = try await user("bob", relay: relay, in: directory)
        try await bob.chat.connect(link: try await alice.chat.createInvitation())
        let bobContact = try await alice.events.next {
            if case .contactConnected(let contact) = $0 { contact } else { nil }
        }
        let aliceContact = try await bob.events.next {
            if case .contactConnected(let contact) = $0 { contact } else { nil }
        }
        return Pair(alice: alice, bob: bob, bobContact: bobContact, aliceContact: aliceContact)
    }

    @Test func disappearingMessagesGoOnBothSidesAndReceivedOnesOnlyOnceRead() async throws {
        let relay = try await RelayProcess()
        let pair = try await Self.connectedPair(relay: relay, in: try TemporaryDirectory("chat-reading"))
        let (alice, bob, bobContact, aliceContact) = (
            pair.alice, pair.bob, pair.bobContact, pair.aliceContact
        )

        let kept = try await alice.chat.send(to: bobContact.localDisplayName, .text("stays"))
        // A minute-long timer first: the timer armed for it must be brought forward for the next.
        let later = try await alice.chat.send(to: bobContact.localDisplayName, .text("goes in 60 s"), ttl: 60)
        #expect(later.timed?.ttl == 60)
        let sent = try await alice.chat.send(to: bobContact.localDisplayName, .text("goes in 1 s"), ttl: 1)
        #expect(kept.timed == nil)
        #expect(sent.timed?.ttl == 1 && sent.timed?.deleteAt != nil)
        let received = try await bob.events.next { event -> ChatItem? in
            if case .newItem(_, let item) = event, item.text == "goes in 1 s" { item } else { nil }
        }
        #expect(received.timed == ChatItemTimed(ttl: 1, deleteAt: nil))

        // The sender's copy goes after its second; the unread received one stays.
        let aliceExpired = try await alice.events.next {
            if case .itemsExpired(_, let items) = $0 { items } else { nil }
        }
        #expect(aliceExpired.map(\.itemId) == [sent.itemId])
        #expect(
            try await alice.chat.chatItems(contactId: bobContact.contactId, .last(count: 10)).map(\.text) == [
                Self.e2eeInfo, "stays", "goes in 60 s",
            ])
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(
            try await bob.chat.chatItems(contactId: aliceContact.contactId, .last(count: 10)).map(\.text) == [
                Self.e2eeInfo, "stays", "goes in 60 s", "goes in 1 s",
            ])
        #expect(try await bob.chat.chatList().first?.unreadCount == 3)

        // Read through the command API (`/_read chat items @1 <id>`): its timer starts, and a
        // second later it is gone.
        let response = await bob.chat.execute(
            "/_read chat items @\(aliceContact.contactId) \(received.itemId)")
        guard case .itemsReadForChat = response else {
            Issue.record("read: \(response)")
            return
        }
        let bobExpired = try await bob.events.next {
            if case .itemsExpired(_, let items) = $0 { items } else { nil }
        }
        #expect(bobExpired.map(\.itemId) == [received.itemId])
        let left = try await bob.chat.chatItems(contactId: aliceContact.contactId, .last(count: 10))
        #expect(left.map(\.text) == [Self.e2eeInfo, "stays", "goes in 60 s"])
        #expect(try await bob.chat.chatList().first?.unreadCount == 2)
        // Search and the named pages see the same chat.
        #expect(try await bob.chat.search("goes", in: nil).map(\.1.text) == ["goes in 60 s"])
        #expect(
            try await bob.chat.lastItems(in: aliceContact.localDisplayName, count: 5).map(\.itemId)
                == left.map(\.itemId))

        await alice.chat.stop()
        await bob.chat.stop()
    }

    @Test func aChatThatIsNotThereIsAnErrorNotAnEmptyPage() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-reading")
        let alice = try await Self.user("alice", relay: relay, in: directory)
        await #expect(throws: ChatError.contactNotFound("#42")) {
            try await alice.chat.chatItems(contactId: 42, .last(count: 10))
        }
        await #expect(throws: ChatError.contactNotFound("#42")) {
            try await alice.chat.setChatUnread(contactId: 42, true)
        }
        await #expect(throws: ChatError.contactNotFound("#42")) {
            try await alice.chat.markRead(contactId: 42)
        }
        await #expect(throws: ChatError.contactNotFound("#42")) {
            try await alice.chat.markUnread(contactId: 42, itemIds: [1])
        }
        await alice.chat.stop()
    }
}
