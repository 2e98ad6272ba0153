import SimpleXChat

extension ChatViewState {
    /// Items left above the screen (or below it, scrolled back) when the next page is asked for,
    /// ahead of the view reaching the window's end: the page is read while the user reads this
    /// one, and scrolling on finds it there instead of waiting for it.
    static let prefetchItems = pageSize

    /// An item's lines as last laid out, and what they depended on besides the item.
    struct DrawnItem {
        var lines: Int
        var state: ItemRenderState
    }

    /// What every item's layout depends on: the width, and the layout's own settings (a hash).
    struct DrawnKey: Equatable {
        var width: Int
        var layout: Int
    }

    /// What `draw` drew: the lines, and whether the view reached the oldest loaded item (so an
    /// older page should be loaded) or the newest (when `hasNewer`, a newer page).
    public struct Drawn {
        public var lines: [StyledLine]
        public var reachedTop: Bool
        public var reachedBottom: Bool
        /// Fewer than `prefetchItems` items are above the screen (the next older page is due).
        public var nearTop = false
        /// Fewer than `prefetchItems` items are below the screen (when `hasNewer`, the next
        /// newer page is due).
        public var nearBottom = false
        /// The rows each visible item occupies, by item id.
        public var rows: [(itemId: Int64, rows: Range<Int>)]
    }

    /// The chat drawn bottom-up in `width` × `height`: only the items that can be seen are laid
    /// out; unchanged items below the screen are counted by their lines from the last draw.
    /// The scroll is clamped, and moved to keep the cursor's item in view. `layoutKey` stands for
    /// the layout's settings: another value lays every item out again.
    public mutating func draw(width: Int, height: Int, layout: ItemLayouter, layoutKey: Int = 0) -> Drawn {
        let key = DrawnKey(width: width, layout: layoutKey)
        if key != drawnKey {
            drawnLines.removeAll()
            drawnKey = key
        }
        if let drawn = draw(width: width, height: height, layout: layout, countingBelow: addedBelow.isEmpty) {
            return drawn
        }
        // The screen ended up lower than the items counted (the scroll clamped at the window's
        // top, or moved to the cursor): laid out in full.
        return draw(width: width, height: height, layout: layout, countingBelow: false)!
    }

    private func renderState(_ item: ChatItem) -> ItemRenderState {
        ItemRenderState(
            isCursor: item.itemId == cursorItemId, selecting: !selectedIds.isEmpty,
            isSelected: selectedIds.contains(item.itemId), revealedSecret: revealedIds.contains(item.itemId),
            searchHighlight: highlight, showsNewMessagesLineAbove: item.itemId == firstUnreadId)
    }

    /// One draw; nil when `countingBelow` counted items the screen turned out to show.
    private mutating func draw(width: Int, height: Int, layout: ItemLayouter, countingBelow: Bool) -> Drawn? {
        var blocks: [(id: Int64, lines: [StyledLine])] = []
        var total = 0
        var index = items.count - 1
        var cursorBlock: (start: Int, end: Int)?
        // Unchanged items wholly below the screen: counted, not laid out.
        var counted = 0
        var countedItems = 0
        while countingBelow, index >= 0 {
            let item = items[index]
            guard item.itemId != cursorItemId, let drawn = drawnLines[item.itemId],
                total + drawn.lines <= scroll, drawn.state == renderState(item)
            else { break }
            total += drawn.lines
            counted = total
            countedItems += 1
            index -= 1
        }
        let cursorInWindow = cursorItemId.map { id in items.contains { $0.itemId == id } } ?? false
        // Lay out newest first until the scrolled window (and the cursor's item) is covered.
        while index >= 0 {
            let item = items[index]
            let state = renderState(item)
            let lines = layout(item, index > 0 ? items[index - 1] : nil, width, state)
            blocks.append((item.itemId, lines))
            drawnLines[item.itemId] = DrawnItem(lines: lines.count, state: state)
            // The newest are laid out first, so this comes before `scroll` is used below.
            if addedBelow.contains(item.itemId) { scroll += lines.count }
            if item.itemId == cursorItemId { cursorBlock = (total, total + lines.count) }
            total += lines.count
            index -= 1
            if total >= scroll + height, !cursorInWindow || cursorBlock != nil { break }
        }
        let reachedTop = index < 0
        addedBelow.removeAll()
        if let cursorBlock {
            // Lines counted from the bottom: keep [start, end) within [scroll, scroll + height).
            if cursorBlock.start < scroll { scroll = cursorBlock.start }
            if cursorBlock.end > scroll + height { scroll = max(0, cursorBlock.end - height) }
        }
        scroll = max(0, min(scroll, max(0, total - height)))
        if scroll < counted { return nil }
        if scroll == 0, !hasNewer { newBelow = 0 }
        return visible(
            blocks, laidOut: total - counted, scroll: scroll - counted, height: height,
            itemsAbove: index + 1, itemsBelowCounted: countedItems, reachedTop: reachedTop)
    }

    /// The screen's lines out of the laid-out blocks (newest first), `scroll` lines up from
    /// their bottom.
    private func visible(
        _ blocks: [(id: Int64, lines: [StyledLine])], laidOut: Int, scroll: Int, height: Int, itemsAbove: Int,
        itemsBelowCounted: Int, reachedTop: Bool
    ) -> Drawn {
        let end = laidOut - scroll
        let start = max(0, end - height)
        // A short chat sits at the bottom, next to the compose field, as messengers draw it.
        let padding = max(0, height - (end - start))
        var lines = Array(repeating: StyledLine(), count: padding)
        lines.reserveCapacity(height)
        var rows: [(itemId: Int64, rows: Range<Int>)] = []
        var above = itemsAbove
        var below = itemsBelowCounted
        var offset = 0
        for block in blocks.reversed() {
            let range = offset..<(offset + block.lines.count)
            offset = range.upperBound
            if range.upperBound <= start { above += 1 }
            if range.lowerBound >= end { below += 1 }
            let clipped = range.clamped(to: start..<end)
            guard !clipped.isEmpty else { continue }
            lines +=
                block.lines[(clipped.lowerBound - range.lowerBound)..<(clipped.upperBound - range.lowerBound)]
            rows.append(
                (block.id, (clipped.lowerBound - start + padding)..<(clipped.upperBound - start + padding)))
        }
        return Drawn(
            lines: lines, reachedTop: reachedTop && start == 0, reachedBottom: self.scroll == 0,
            nearTop: above < Self.prefetchItems, nearBottom: below < Self.prefetchItems, rows: rows)
    }
}
