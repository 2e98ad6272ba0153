import Foundation
import SimpleXChat

/// Lays out one item given the one above it (older): the chat view layout, injected so this
/// state is tested on its own.
public typealias ItemLayouter = @Sendable (_ item: ChatItem, _ older: ChatItem?, _ width: Int, _ state: ItemRenderState) -> [StyledLine]

/// The open chat: a window of its items (pages loaded on demand, the rest dropped so memory
/// stays flat however far back the user scrolls), the scroll position, the item cursor.
public struct ChatViewState: Sendable {
    /// Items kept at most; beyond it the far end of the window is dropped.
    static let windowLimit = 600
    public static let pageSize = 60

    public private(set) var contact: ChatContact
    /// Oldest first.
    public private(set) var items: [ChatItem] = []
    /// Older items exist than the window holds.
    public private(set) var hasOlder = true
    /// Newer items exist than the window holds (after scrolling far back).
    public private(set) var hasNewer = false
    /// Lines scrolled up from the newest; 0 follows new messages.
    public private(set) var scroll = 0
    /// The item under the cursor (message mode), nil in compose.
    public var cursorItemId: Int64?
    /// Where the last frame drew each visible item: rows of the message area, by item id
    /// (a click finds its item here).
    public var drawnRows: [(itemId: Int64, rows: Range<Int>)] = []
    /// Selected items (selection mode).
    public var selectedIds: Set<Int64> = []
    /// Items that arrived while scrolled up.
    public private(set) var newBelow = 0
    /// Where "new messages" is drawn: the first unread item when the chat was opened.
    public var firstUnreadId: Int64?
    /// Items whose secret text the user revealed.
    public var revealedIds: Set<Int64> = []
    /// Search term highlighted in the items.
    public var highlight: String?
    /// Only items of this kind are shown (images, files, links, …), nil for all.
    public var filter: ChatContentFilter?
    /// A page request is on its way (no second one until it comes).
    public var loading = false
    /// Lines of each item the last draw laid out. `scroll` counts lines from the newest item, so
    /// when the newest items leave the window, their lines come off it, and the screen stays on
    /// what the user reads (else it jumps a page back, and at the window's top asks page after page).
    private var drawnLines: [Int64: Int] = [:]
    /// Items added below the screen while scrolled up (a newer page, a message arriving): their
    /// lines go onto `scroll` when the next draw lays them out, for the same reason.
    private var addedBelow: Set<Int64> = []

    public init(contact: ChatContact, items: [ChatItem], firstUnreadId: Int64? = nil, hasOlder: Bool? = nil, hasNewer: Bool = false) {
        self.contact = contact
        self.items = items
        self.firstUnreadId = firstUnreadId
        self.hasOlder = hasOlder ?? (items.count >= Self.pageSize / 2)
        self.hasNewer = hasNewer
    }

    public var id: String { "@\(contact.contactId)" }

    public mutating func updateContact(_ contact: ChatContact) { self.contact = contact }

    // MARK: - Items arriving and changing

    /// A new item: appended when the window reaches the newest, else counted below.
    public mutating func append(_ item: ChatItem) {
        guard !items.contains(where: { $0.itemId == item.itemId }) else { return replace(item) }
        if let filter, item.content.type != filter.contentType { return }
        if hasNewer {
            newBelow += 1
            return
        }
        items.append(item)
        if scroll > 0 { addedBelow.insert(item.itemId) }
        if scroll > 0 || cursorItemId != nil { newBelow += 1 }
        trimOldest()
    }

    /// An item changed (edited, status, reaction, file progress).
    public mutating func replace(_ item: ChatItem) {
        if let index = items.firstIndex(where: { $0.itemId == item.itemId }) { items[index] = item }
    }

    /// An item deleted for the user.
    public mutating func remove(_ itemId: Int64) {
        items.removeAll { $0.itemId == itemId }
        if cursorItemId == itemId { cursorItemId = items.last?.itemId }
        selectedIds.remove(itemId)
    }

    public mutating func removeAll() {
        items.removeAll()
        hasOlder = false
        hasNewer = false
        cursorItemId = nil
        scroll = 0
    }

    /// A page older than the window arrived.
    public mutating func prependOlder(_ page: [ChatItem], requested: Int) {
        loading = false
        let known = Set(items.map(\.itemId))
        items.insert(contentsOf: page.filter { !known.contains($0.itemId) }, at: 0)
        hasOlder = page.count >= requested
        if items.count > Self.windowLimit {
            let dropped = items[Self.windowLimit...]
            scroll = max(0, scroll - dropped.reduce(0) { $0 + (drawnLines[$1.itemId] ?? 0) })
            for item in dropped { addedBelow.remove(item.itemId) }
            items.removeLast(items.count - Self.windowLimit)
            hasNewer = true
        }
    }

    /// A page newer than the window arrived.
    public mutating func appendNewer(_ page: [ChatItem], requested: Int) {
        loading = false
        let known = Set(items.map(\.itemId))
        let fresh = page.filter { !known.contains($0.itemId) }
        items.append(contentsOf: fresh)
        // Below what the screen shows: it stays, and scrolling down comes to them.
        addedBelow.formUnion(fresh.map(\.itemId))
        hasNewer = page.count >= requested
        if !hasNewer { newBelow = 0 }
        trimOldest()
    }

    private mutating func trimOldest() {
        guard items.count > Self.windowLimit else { return }
        items.removeFirst(items.count - Self.windowLimit)
        hasOlder = true
    }

    // MARK: - Scrolling and the cursor

    public mutating func scrollBy(_ lines: Int) {
        scroll = max(0, scroll + lines)
        if scroll == 0, !hasNewer { newBelow = 0 }
    }

    /// Back to the newest item (End, or sending a message).
    public mutating func scrollToBottom() {
        scroll = 0
        addedBelow.removeAll()
        newBelow = 0
        cursorItemId = nil
    }

    /// Moves the item cursor by `offset` items (negative is older); from no cursor, Up takes
    /// the newest item.
    public mutating func moveCursor(_ offset: Int) {
        guard !items.isEmpty else { return }
        guard let current = cursorItemId, let index = items.firstIndex(where: { $0.itemId == current }) else {
            cursorItemId = items.last?.itemId
            return
        }
        let target = index + offset
        if target >= items.count {
            cursorItemId = hasNewer ? items.last?.itemId : nil
            if cursorItemId == nil { scroll = 0 }
            return
        }
        cursorItemId = items[max(0, target)].itemId
    }

    public var cursorItem: ChatItem? { cursorItemId.flatMap { id in items.first { $0.itemId == id } } }

    /// The window wants an older page (the view reached its top).
    public var wantsOlder: Bool { hasOlder && !loading }

    // MARK: - Drawing

    /// What `lines` drew: the lines, and whether the view reached the oldest loaded item (so an
    /// older page should be loaded) or the newest (when `hasNewer`, a newer page).
    public struct Drawn {
        public var lines: [StyledLine]
        public var reachedTop: Bool
        public var reachedBottom: Bool
        /// The rows each visible item occupies, by item id.
        public var rows: [(itemId: Int64, rows: Range<Int>)]
    }

    /// The chat drawn bottom-up in `width` × `height`: only the items that can be seen are laid
    /// out. The scroll is clamped, and moved to keep the cursor's item in view.
    public mutating func draw(width: Int, height: Int, layout: ItemLayouter) -> Drawn {
        var blocks: [(id: Int64, lines: [StyledLine])] = []
        var total = 0
        var index = items.count - 1
        var cursorBlock: (start: Int, end: Int)?
        var laidOut: [Int64: Int] = [:]
        // Lay out newest first until the scrolled window (and the cursor's item) is covered.
        while index >= 0 {
            let item = items[index]
            let older = index > 0 ? items[index - 1] : nil
            let state = ItemRenderState(
                isCursor: item.itemId == cursorItemId, selecting: !selectedIds.isEmpty,
                isSelected: selectedIds.contains(item.itemId), revealedSecret: revealedIds.contains(item.itemId),
                searchHighlight: highlight, showsNewMessagesLineAbove: item.itemId == firstUnreadId)
            let lines = layout(item, older, width, state)
            blocks.append((item.itemId, lines))
            laidOut[item.itemId] = lines.count
            // The newest are laid out first, so this comes before `scroll` is used below.
            if addedBelow.contains(item.itemId) { scroll += lines.count }
            if item.itemId == cursorItemId { cursorBlock = (total, total + lines.count) }
            total += lines.count
            index -= 1
            let cursorPending = cursorItemId != nil && cursorBlock == nil && items.contains { $0.itemId == cursorItemId }
            if total >= scroll + height, !cursorPending { break }
        }
        let reachedTop = index < 0
        drawnLines = laidOut
        addedBelow.removeAll()
        if let cursorBlock {
            // Lines counted from the bottom: keep [start, end) within [scroll, scroll + height).
            if cursorBlock.start < scroll { scroll = cursorBlock.start }
            if cursorBlock.end > scroll + height { scroll = max(0, cursorBlock.end - height) }
        }
        scroll = max(0, min(scroll, max(0, total - height)))
        if scroll == 0, !hasNewer { newBelow = 0 }
        // Flatten oldest first and cut the window.
        var all: [StyledLine] = []
        var rows: [(Int64, Range<Int>)] = []
        all.reserveCapacity(total)
        for block in blocks.reversed() {
            rows.append((block.id, all.count..<(all.count + block.lines.count)))
            all += block.lines
        }
        let end = all.count - scroll
        let start = max(0, end - height)
        var visible = Array(all[start..<end])
        // A short chat sits at the bottom, next to the compose field, as messengers draw it.
        let padding = max(0, height - visible.count)
        if padding > 0 { visible = Array(repeating: StyledLine(), count: padding) + visible }
        let visibleRows = rows.compactMap { id, range -> (Int64, Range<Int>)? in
            let clipped = range.clamped(to: start..<end)
            return clipped.isEmpty
                ? nil : (id, (clipped.lowerBound - start + padding)..<(clipped.upperBound - start + padding))
        }
        return Drawn(
            lines: visible, reachedTop: reachedTop && start == 0, reachedBottom: scroll == 0,
            rows: visibleRows.map { (itemId: $0.0, rows: $0.1) })
    }
}
