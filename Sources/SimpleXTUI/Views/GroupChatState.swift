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
    /// The item under the item cursor (Up from an empty compose field).
    public var cursorItemId: Int64?
    /// The user's own item the compose field is editing.
    public var editing: GroupChatItem?
    /// The item the compose field replies to.
    public var replying: GroupChatItem?
    /// The members' names, for `@` completion (loaded when the group opens).
    public var memberNames: [String] = []
    /// The last `@` completion's prefix, for Tab again.
    public var mentionCompletion: MentionCompletion?

    public init(group: ChatGroup, items: [GroupChatItem]) {
        self.group = group
        self.items = items
    }

    /// The chat list's id of the group (`#3`).
    public var id: String { "#\(group.groupId)" }

    /// The items' lines, bottom-up within `height` (a short chat sits at the bottom, by the
    /// compose field), `scroll` lines up from the newest (clamped here).
    public mutating func lines(width: Int, height: Int, settings: ChatViewSettings, now: Date) -> [StyledLine]
    {
        let rows = items.map { ChatViewItem(group: $0, userName: settings.userName) }
        var blocks: [[StyledLine]] = []
        var total = 0
        var cursorBlock: Range<Int>?
        for index in rows.indices.reversed() {
            let isCursor = rows[index].id == cursorItemId
            let block = ChatViewLayout.groupLines(
                for: rows[index], older: index > 0 ? rows[index - 1] : nil, width: width, settings: settings,
                state: ItemRenderState(isCursor: isCursor), now: now)
            blocks.append(block)
            if isCursor { cursorBlock = total..<(total + block.count) }
            total += block.count
            if total >= scroll + height, cursorItemId == nil || cursorBlock != nil { break }
        }
        // The cursor's item stays on screen (lines counted from the bottom).
        if let cursorBlock {
            if cursorBlock.lowerBound < scroll { scroll = cursorBlock.lowerBound }
            if cursorBlock.upperBound > scroll + height { scroll = cursorBlock.upperBound - height }
        }
        scroll = max(0, min(scroll, total - height))
        let all = blocks.reversed().flatMap { $0 }
        let end = all.count - scroll
        let shown = Array(all[max(0, end - height)..<end])
        return Array(repeating: StyledLine(), count: max(0, height - shown.count)) + shown
    }

    /// The item under the cursor.
    public var cursorItem: GroupChatItem? { items.first { $0.itemId == cursorItemId } }

    /// Moves the cursor `offset` items (negative: older); past the newest it leaves the items.
    mutating func moveCursor(_ offset: Int) {
        guard !items.isEmpty else { return cursorItemId = nil }
        guard let current = items.firstIndex(where: { $0.itemId == cursorItemId }) else {
            cursorItemId = offset < 0 ? items.last?.itemId : nil
            return
        }
        let next = current + offset
        cursorItemId = next >= items.count ? nil : items[max(0, next)].itemId
    }
}
