import Foundation
@testable import SimpleXChat

@testable import SimpleXTUI

/// Contacts, items and entries for the app model's tests.
enum AppFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func contact(_ id: Int64, _ name: String, ready: Bool = true, alias: String = "") -> ChatContact {
        ChatContact(
            contactId: id, localDisplayName: name, profile: Profile(displayName: name, fullName: ""), localAlias: alias,
            agentConnectionID: "conn\(id)", ready: ready)
    }

    static func item(
        _ id: Int64, _ text: String, contact: Int64 = 1, sent: Bool = false, at offset: TimeInterval = 0,
        deleted: Bool = false
    ) -> ChatItem {
        ChatItem(
            itemId: id, contactId: contact, direction: sent ? .sent : .received, content: .text(text),
            status: sent ? .sndSent : .rcvRead, timestamp: now.addingTimeInterval(offset), edited: false,
            deleted: deleted, forwarded: false, sharedMsgId: nil, quote: nil, reactions: [])
    }

    static func entry(_ contact: ChatContact, last: ChatItem? = nil, unread: Int = 0) -> ChatListEntry {
        ChatListEntry(kind: .contact(contact), lastItem: last, unreadCount: unread)
    }

    /// One line per item, `name: text` (the real layout has its own tests).
    static let layout: ItemLayouter = { item, _, width, state in
        let marker = state.isCursor ? ">" : " "
        return [StyledLine("\(marker)\(item.direction == .sent ? "me" : "them"): \(item.text)").truncated(to: width)]
    }

    /// An app with a user, `contacts` in its chat list, and a 100×30 screen.
    static func app(_ contacts: [ChatContact] = [contact(1, "alice"), contact(2, "bob")]) -> AppModel {
        var app = AppModel(
            width: 100, height: 30, now: now,
            user: ChatUser(userId: 1, profile: Profile(displayName: "me", fullName: ""), localDisplayName: "me"))
        _ = app.update(.chatList(contacts.map { entry($0) }))
        return app
    }
}
