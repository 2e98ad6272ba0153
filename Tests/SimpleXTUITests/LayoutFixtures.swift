import Foundation
import SimpleXChat

@testable import SimpleXTUI

/// Items and settings the layout tests share: a direct chat of bob (the user) with alice.
enum Fixture {
    /// 2026-01-01 12:00 UTC, a Thursday.
    static let noon = Date(timeIntervalSince1970: 1_767_268_800)
    static let now = noon.addingTimeInterval(3600)
    static let alice = ChatViewSender.contact(1, name: "alice")
    static let me = ChatViewSender.user("bob")

    static func settings(_ layout: ChatLayout = .terminal, theme: Theme = .terminal) -> ChatViewSettings {
        ChatViewSettings(layout: layout, theme: theme, userName: "bob")
    }

    static func text(
        _ text: String, from sender: ChatViewSender = alice, at minutes: Double = 0, id: Int64 = 1
    ) -> ChatViewItem {
        ChatViewItem(
            id: id, timestamp: noon.addingTimeInterval(minutes * 60), sender: sender,
            content: .text(.init(text)), status: sender.isUser ? .sndRcvd : nil)
    }

    static func item(
        _ content: ChatViewItem.Content, from sender: ChatViewSender? = alice, at minutes: Double = 0
    ) -> ChatViewItem {
        ChatViewItem(
            id: 1, timestamp: noon.addingTimeInterval(minutes * 60), sender: sender, content: content,
            status: sender?.isUser == true ? .sndSent : nil)
    }

    /// The text a user reads, line by line.
    static func read(
        _ item: ChatViewItem, older: ChatViewItem? = nil, width: Int = 40,
        settings: ChatViewSettings = settings(), state: ItemRenderState = .plain
    ) -> [String] {
        ChatViewLayout.lines(
            for: item, older: older, width: width, settings: settings, state: state, now: now
        ).map(\.text)
    }

    /// The item's own lines, without the date separator and what else goes above it.
    static func body(
        _ item: ChatViewItem, width: Int = 40, settings: ChatViewSettings = settings(),
        state: ItemRenderState = .plain
    ) -> [String] {
        let older = olderSameDay(item)
        return ChatViewLayout.lines(
            for: item, older: older, width: width, settings: settings, state: state, now: now
        )
        .map(\.text).drop { $0.isEmpty }.map { $0 }
    }

    /// An older item of the same day from someone else, so the item gets no date separator.
    static func olderSameDay(_ item: ChatViewItem) -> ChatViewItem {
        ChatViewItem.event(.connected, id: 0, at: item.timestamp.addingTimeInterval(-1))
    }

    /// `text` with trailing spaces removed (bubble padding).
    static func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0 == " " }.reversed())
    }
}
