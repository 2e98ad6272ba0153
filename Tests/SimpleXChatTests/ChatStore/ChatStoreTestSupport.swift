import Foundation
import Synchronization
import TestSupport

@testable import SimpleXChat

/// A clock tests move by hand; the store reads it for every timestamp it writes.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A chat store in its own directory with a user and contacts, for the reading tests.
final class ChatStoreFixture {
    let directory: TemporaryDirectory
    let store: ChatStore
    let clock = TestClock()
    let user: ChatUser
    private var generator = SystemRandomNumberGenerator()

    init() throws {
        directory = try TemporaryDirectory("chat-store")
        let clock = self.clock
        store = try ChatStore(path: directory.appending("chat.db"), now: { clock.now })
        // Durability is not under test; an fsync per item would make these tests take minutes.
        try store.database.execute("PRAGMA synchronous = OFF")
        user = try store.createUser(Profile(displayName: "alice", fullName: "Alice"))
    }

    deinit { store.close() }

    /// A connected contact.
    func contact(_ name: String) throws -> ChatContact {
        let connection = "conn-\(name)"
        try store.insertPendingConnection(user, agentConnectionID: connection)
        let contact = try store.createContact(
            user, profile: Profile(displayName: name, fullName: ""), agentConnectionID: connection)
        try store.setReady(agentConnectionID: connection)
        return try store.contact(id: contact.contactId)
    }

    /// Stores an item; time moves on one second first, so items have distinct times.
    @discardableResult
    func item(
        _ contact: ChatContact, _ content: MsgContent, sent: Bool = false, status: ChatItemStatus? = nil
    ) throws -> ChatItem {
        clock.advance(by: 1)
        return try store.insertItem(
            user, contact: contact, direction: sent ? .sent : .received, content: content,
            status: status ?? (sent ? .sndSent : .rcvNew), sharedMsgId: SharedMsgID.random(using: &generator))
    }

    @discardableResult
    func text(_ contact: ChatContact, _ text: String, sent: Bool = false) throws -> ChatItem {
        try item(contact, .text(text), sent: sent)
    }

    /// The store's unread count for a chat, counted from the items themselves.
    func countedUnread(_ contact: ChatContact) throws -> Int {
        try store.database.fetchValue(
            Int.self, "SELECT count(*) FROM chat_items WHERE contact_id = ? AND item_status = 'rcv_new'",
            arguments: [contact.contactId]) ?? -1
    }
}

extension Array where Element == ChatItem {
    var ids: [Int64] { map(\.itemId) }
    var texts: [String] { map(\.text) }
}

/// The content of each kind the filters select, and text.
enum SampleContent {
    static let image = MsgContent.image(text: "a photo", image: "data:image/jpg;base64,AAAA")
    static let video = MsgContent.video(text: "a film", image: "data:image/jpg;base64,BBBB", duration: 12)
    static let voice = MsgContent.voice(text: "", duration: 5)
    static let file = MsgContent.file("report.pdf")
    static let link = MsgContent.link(
        text: "https://simplex.chat",
        preview: LinkPreview(uri: "https://simplex.chat", title: "SimpleX", description: "", image: ""))
}
