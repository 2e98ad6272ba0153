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
    public internal(set) var scroll = 0
    /// The item under the cursor (message mode), nil in compose.
    public var cursorItemId: Int64?
    /// Where the last frame drew each visible item: rows of the message area, by item id
    /// (a click finds its item here).
    public var drawnRows: [(itemId: Int64, rows: Range<Int>)] = []
    /// Selected items (selection mode).
    public var selectedIds: Set<Int64> = []
    /// Items that arrived while scrolled up.
    public internal(set) var newBelow = 0
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
    /// Lines of each item as last laid out, with the draw state and the item above it then, for
    /// the items in the window. `scroll` counts lines from the newest item, so when the newest
    /// items leave the window, their lines come off it, and the screen stays on what the user
    /// reads (else it jumps a page back, and at the window's top asks page after page). A draw
    /// counts an unchanged item below the screen by these lines instead of laying it out again:
    /// scrolled far back, the window's newer part is hundreds of items under the screen.
    var drawnLines: [Int64: DrawnItem] = [:]
    /// The width and layout `drawnLines` were laid out at; another empties them.
    var drawnKey = DrawnKey(width: -1, layout: 0)
    /// Items added below the screen while scrolled up (a newer page, a message arriving): their
    /// lines go onto `scroll` when the next draw lays them out, for the same reason.
    var addedBelow: Set<Int64> = []

    public init(contact: ChatContact, items: [ChatItem], firstUnreadId: Int64? = nil, hasOlder: Bool? = nil, hasNewer: Bool = false) {
        self.contact = contact
        self.items = items
        self.firstUnreadId = firstUnreadId
        self.hasOlder = hasOlder ?? (items.count >= Self.pageSize / 2)
        self.hasNewer = hasNewer
    }

    public var id: String { "@\(contact.contactId)" }

    public mutating func updateContact(_ contact: ChatContact) {
        if contact.viewName != self.contact.viewName { drawnLines.removeAll() }
        self.contact = contact
    }

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
        guard let index = items.firstIndex(where: { $0.itemId == item.itemId }) else { return }
        items[index] = item
        forgetLines(at: index)
        forgetLines(at: index + 1)
    }

    /// An item deleted for the user.
    public mutating func remove(_ itemId: Int64) {
        guard let index = items.firstIndex(where: { $0.itemId == itemId }) else { return }
        items.remove(at: index)
        drawnLines[itemId] = nil
        forgetLines(at: index)
        if cursorItemId == itemId { cursorItemId = items.last?.itemId }
        selectedIds.remove(itemId)
    }

    public mutating func removeAll() {
        items.removeAll()
        drawnLines.removeAll()
        hasOlder = false
        hasNewer = false
        cursorItemId = nil
        scroll = 0
    }

    /// A page older than the window arrived, read `before` the item that was the oldest when it
    /// was asked for. A page asked for before the window's oldest changed (a message arriving
    /// trimmed it, the chat was opened again) is dropped: it would leave a gap; the next draw
    /// asks again.
    public mutating func prependOlder(_ page: [ChatItem], requested: Int, before: Int64? = nil) {
        loading = false
        if let before, before != items.first?.itemId { return }
        let known = Set(items.map(\.itemId))
        // The oldest item gets one above it: laid out again.
        forgetLines(at: 0)
        items.insert(contentsOf: page.filter { !known.contains($0.itemId) }, at: 0)
        hasOlder = page.count >= requested
        if items.count > Self.windowLimit {
            let dropped = items[Self.windowLimit...]
            scroll = max(0, scroll - dropped.reduce(0) { $0 + (drawnLines[$1.itemId]?.lines ?? 0) })
            for item in dropped {
                addedBelow.remove(item.itemId)
                drawnLines[item.itemId] = nil
            }
            items.removeLast(items.count - Self.windowLimit)
            hasNewer = true
        }
    }

    /// A page newer than the window arrived, read `after` the item that was the newest when it
    /// was asked for (a page that no longer joins the window is dropped, as `prependOlder`'s).
    public mutating func appendNewer(_ page: [ChatItem], requested: Int, after: Int64? = nil) {
        loading = false
        if let after, after != items.last?.itemId { return }
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
        for item in items.prefix(items.count - Self.windowLimit) { drawnLines[item.itemId] = nil }
        items.removeFirst(items.count - Self.windowLimit)
        forgetLines(at: 0)
        hasOlder = true
    }

    /// The item at `index` (if any) is laid out again at the next draw.
    private mutating func forgetLines(at index: Int) {
        if items.indices.contains(index) { drawnLines[items[index].itemId] = nil }
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

    /// The window can take an older page (the view asks when it nears the window's top).
    public var wantsOlder: Bool { hasOlder && !loading }

    /// The window can take a newer page (scrolled back, nearing the window's bottom).
    public var wantsNewer: Bool { hasNewer && !loading }
}
