import SimpleXChat

/// A search in the open chat (Ctrl+F): its results, newest first, read a page at a time. The
/// first page is small (the user sees the newest result first, and steps with n / N), so a
/// common word answers as fast as a rare one; older pages are read as the stepping nears the
/// end of those loaded, and a page arriving for a search the user has since replaced is dropped.
public struct ChatSearch: Equatable, Sendable {
    /// Results in the first page: more than a screen's worth of steps.
    public static let firstPage = 20
    /// Results in each later page.
    public static let nextPage = 100
    /// Steps left before the end of the loaded results when the next page is asked for.
    static let prefetchSteps = 5

    public let contactId: Int64
    public let text: String
    /// Result item ids, newest first.
    public private(set) var results: [Int64] = []
    /// Older results exist than those loaded.
    public private(set) var hasMore = true
    /// A page is on its way.
    public private(set) var loading = true
    /// The user stepped past the last result while the next page was on its way: the cursor
    /// goes to its first result when it comes.
    private var stepsOnArrival = false

    public init(contactId: Int64, text: String) {
        self.contactId = contactId
        self.text = text
    }

    /// The first page's effect.
    public var firstRequest: AppEffect {
        .search(contactId: contactId, text: text, before: nil, count: Self.firstPage)
    }

    /// How many were found, "20+" while more may come.
    public var countText: String { "\(results.count)\(hasMore ? "+" : "")" }

    /// A page of results (`items`, newest first) read before result `before` (nil: the first
    /// page); false when it is not this search's next page (it is then ignored). `more`: older
    /// results exist beyond it.
    public mutating func receive(
        contactId: Int64, text: String, before: Int64?, _ items: [ChatItem], more: Bool
    ) -> Bool {
        guard contactId == self.contactId, text == self.text, loading, before == results.last else {
            return false
        }
        let known = Set(results)
        results += items.map(\.itemId).filter { !known.contains($0) }
        hasMore = more && !items.isEmpty
        loading = false
        return true
    }

    /// A page that was asked for failed (the core reported an error): the next step asks again.
    public mutating func pageFailed() {
        loading = false
        stepsOnArrival = false
    }

    /// Whether the result that arrived first in the last page should take the cursor (the user
    /// stepped past the end while it was on its way); asking clears it.
    public mutating func takeStepOnArrival() -> Bool {
        defer { stepsOnArrival = false }
        return stepsOnArrival
    }

    /// Where a step goes from the result `current` (its index, -1 for none): the result id, or
    /// nil at either end; and the next page to ask for when the step nears or passes the end
    /// of the loaded results.
    public mutating func step(from current: Int, older: Bool) -> (result: Int64?, request: AppEffect?) {
        let next = older ? current + 1 : current - 1
        var request: AppEffect?
        if older, hasMore, !loading, next >= results.count - Self.prefetchSteps, let last = results.last {
            loading = true
            request = .search(contactId: contactId, text: text, before: last, count: Self.nextPage)
        }
        guard results.indices.contains(next) else {
            if older, loading { stepsOnArrival = true }
            return (nil, request)
        }
        return (results[next], request)
    }
}
