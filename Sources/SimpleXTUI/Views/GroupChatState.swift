import Foundation
import SimpleXChat

/// An open group chat: the group and its last items (the core gives a group's last
/// `pageSize`), drawn with the chat view's layout, each member as its own sender.
public struct GroupChatState: Sendable {
    public static let pageSize = 100
    public var group: ChatGroup
    public var items: [GroupChatItem]
    /// Lines scrolled up from the newest.
    public var scroll = 0

    public init(group: ChatGroup, items: [GroupChatItem]) {
        self.group = group
        self.items = items
    }

    /// The chat list's id of the group (`#3`).
    public var id: String { "#\(group.groupId)" }

    /// The items' lines, bottom-up within `height` (a short chat sits at the bottom, by the
    /// compose field), `scroll` lines up from the newest (clamped here).
    public mutating func lines(width: Int, height: Int, settings: ChatViewSettings, now: Date) -> [StyledLine] {
        let rows = items.map { ChatViewItem(group: $0, userName: settings.userName) }
        var blocks: [[StyledLine]] = []
        var total = 0
        for index in rows.indices.reversed() {
            let block = ChatViewLayout.groupLines(
                for: rows[index], older: index > 0 ? rows[index - 1] : nil, width: width, settings: settings,
                state: ItemRenderState(), now: now)
            blocks.append(block)
            total += block.count
            if total >= scroll + height { break }
        }
        scroll = max(0, min(scroll, total - height))
        let all = blocks.reversed().flatMap { $0 }
        let end = all.count - scroll
        let shown = Array(all[max(0, end - height)..<end])
        return Array(repeating: StyledLine(), count: max(0, height - shown.count)) + shown
    }
}
