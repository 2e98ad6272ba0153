import Foundation

/// Reading chats: pages of items (by count, before, after, around an item, where a chat opens),
/// content filters, search, the chat list, read and unread, item info, disappearing items.
///
/// Chats are named as the line mode names them (`in name`), or by contact id as the command API
/// does (`/_get chat @1 count=50`). Pages come oldest first.
extension ChatController {
    // MARK: - Pages

    /// A page of the chat with contact `contactId`, optionally only items of one content type
    /// or whose text contains `search`.
    public func chatItems(
        contactId: Int64, _ pagination: ChatPagination, filter: ChatContentFilter? = nil,
        search: String? = nil
    ) throws(ChatError) -> [ChatItem] {
        let items = try store.items(user, contactId: contactId, pagination, filter: filter, search: search)
        // An empty page may be an empty chat or no chat at all; only then is the contact looked up.
        if items.isEmpty { _ = try store.contact(id: contactId) }
        return try withFiles(items)
    }

    /// The last `count` items of a chat.
    public func lastItems(in name: String, count: Int, filter: ChatContentFilter? = nil) throws(ChatError)
        -> [ChatItem]
    {
        try withFiles(
            store.items(
                user, contactId: try contact(named: name).contactId, .last(count: count), filter: filter))
    }

    /// `count` items older than item `id`.
    public func items(in name: String, before id: Int64, count: Int, filter: ChatContentFilter? = nil)
        throws(ChatError) -> [ChatItem]
    {
        try withFiles(
            store.items(
                user, contactId: try contact(named: name).contactId, .before(id: id, count: count),
                filter: filter
            ))
    }

    /// `count` items newer than item `id`.
    public func items(in name: String, after id: Int64, count: Int, filter: ChatContentFilter? = nil)
        throws(ChatError) -> [ChatItem]
    {
        try withFiles(
            store.items(
                user, contactId: try contact(named: name).contactId, .after(id: id, count: count),
                filter: filter))
    }

    /// Item `id` with `count` items on each side (to open a chat at a search result or a quote).
    public func items(in name: String, around id: Int64, count: Int, filter: ChatContentFilter? = nil)
        throws(ChatError) -> [ChatItem]
    {
        try withFiles(
            store.items(
                user, contactId: try contact(named: name).contactId, .around(id: id, count: count),
                filter: filter
            ))
    }

    public func findItem(in name: String, direction: ChatItemDirection?, textPrefix: String) throws(ChatError)
        -> ChatItem
    {
        try store.item(try contact(named: name), direction: direction, textPrefix: textPrefix)
    }

    /// An item's history: its status changes and earlier versions.
    public func itemInfo(_ item: ChatItem) throws(ChatError) -> ChatItemInfo { try store.info(item) }

    // MARK: - Search

    /// Items whose text contains `text`, newest first, in one chat (or all when `name` is nil);
    /// the next page is the one `before` the last item found.
    public func search(_ text: String, in name: String?, before: Int64? = nil, count: Int = 20)
        throws(ChatError) -> [(ChatContact, ChatItem)]
    {
        let contact: ChatContact? = try name.map { name throws(ChatError) in try self.contact(named: name) }
        let found = try store.search(
            user, contactId: contact?.contactId, text: text, before: before, count: count)
        var contacts: [Int64: ChatContact] = contact.map { [$0.contactId: $0] } ?? [:]
        var results: [(ChatContact, ChatItem)] = []
        for item in found {
            if contacts[item.contactId] == nil {
                contacts[item.contactId] = try store.contact(id: item.contactId)
            }
            if let owner = contacts[item.contactId] { results.append((owner, item)) }
        }
        return results
    }

    // MARK: - Chat list and contacts

    /// Every chat with its last item and unread count, most recently active first.
    public func chatList() throws(ChatError) -> [ChatPreview] { try previewsWithFiles() }

    /// The chat list with the file of each last item that is a file offer (its name is what the
    /// preview shows): one lookup for each such chat, none for the others.
    func previewsWithFiles() throws(ChatError) -> [ChatPreview] {
        var previews = try store.chatList(user)
        for index in previews.indices {
            guard let item = previews[index].lastItem, case .file = item.content else { continue }
            previews[index].lastItem = try withFiles([item])[0]
        }
        return previews
    }

    public func contacts() throws(ChatError) -> [ChatContact] { try store.contacts(user) }

    /// Contact requests waiting for accept or reject, oldest first.
    public func contactRequests() throws(ChatError) -> [ChatContactRequest] { try store.requests(user) }

    public func contact(id: Int64) throws(ChatError) -> ChatContact { try store.contact(id: id) }

    // MARK: - Read and unread

    /// Marks every received item of the chat read and clears its "unread" mark.
    public func markRead(_ name: String) throws(ChatError) {
        try markRead(contactId: try contact(named: name).contactId)
    }

    /// Marks received items read: those of `itemIds`, or all of the chat (which also clears
    /// its "unread" mark). Disappearing ones start their timers. Returns how many were unread.
    @discardableResult
    public func markRead(contactId: Int64, itemIds: [Int64]? = nil) throws(ChatError) -> Int {
        let changed = try store.markRead(user, contactId: contactId, itemIds: itemIds)
        let contact = try store.contact(id: contactId)
        if changed > 0 {
            try scheduleExpiry()
            emit(.chatRead(contact))
        }
        return changed
    }

    /// Marks received items unread again. Returns how many changed.
    @discardableResult
    public func markUnread(contactId: Int64, itemIds: [Int64]) throws(ChatError) -> Int {
        let changed = try store.markUnread(user, contactId: contactId, itemIds: itemIds)
        if changed == 0 { _ = try store.contact(id: contactId) }
        return changed
    }

    /// The user's "unread" mark on a whole chat, kept apart from its items' state.
    public func setChatUnread(contactId: Int64, _ unread: Bool) throws(ChatError) {
        _ = try store.contact(id: contactId)
        try store.setUnreadChat(contactId: contactId, unread)
    }

    // MARK: - Disappearing items

    /// Gives a new item its timer when its message had a `ttl`; a sent item's timer starts now.
    func timed(_ item: ChatItem, ttl: Int?) throws(ChatError) -> ChatItem {
        guard let ttl, ttl > 0 else { return item }
        let timed = try store.setTimed(item, ttl: ttl, startNow: item.direction == .sent)
        if timed.timed?.deleteAt != nil { try scheduleExpiry() }
        return timed
    }

    // MARK: - Delete messages after (chat_item_ttl)

    /// The user's "Delete messages after", in seconds (nil: never), as SimpleX's `/ttl`.
    public func chatItemTTL() throws(ChatError) -> Int? { try store.chatItemTTL(user) }

    /// Sets "Delete messages after" and deletes what is older at once; returns how many went.
    @discardableResult
    public func setChatItemTTL(_ seconds: Int?) throws(ChatError) -> Int {
        if let seconds, seconds <= 0 { throw ChatError.invalidCommand("a message lifetime is a positive number of seconds") }
        try store.setChatItemTTL(user, seconds)
        return try deleteItemsPastTTL().count
    }

    /// Deletes the items older than the user's lifetime and tells the user (`itemsExpired`, one
    /// event per chat). Runs at start and every hour while the chat runs.
    @discardableResult
    func deleteItemsPastTTL() throws(ChatError) -> [ChatItem] {
        guard let ttl = try store.chatItemTTL(user) else { return [] }
        let deleted = try store.deleteItems(createdBefore: store.now().addingTimeInterval(-Double(ttl)), user)
        report(expired: deleted)
        return deleted
    }

    /// One `itemsExpired` per chat for `items`.
    private func report(expired items: [ChatItem]) {
        var byContact: [(Int64, [ChatItem])] = []
        for item in items {
            if let index = byContact.firstIndex(where: { $0.0 == item.contactId }) {
                byContact[index].1.append(item)
            } else {
                byContact.append((item.contactId, [item]))
            }
        }
        for (contactId, items) in byContact {
            guard let contact = try? store.contact(id: contactId) else { continue }
            emit(.itemsExpired(contact, items))
        }
    }

    /// Deletes the items whose timer has ended and tells the user (`itemsExpired`, one event per
    /// chat). Runs on its own when the next timer ends while the chat runs.
    @discardableResult
    public func deleteExpiredItems() throws(ChatError) -> [ChatItem] {
        let deleted = try store.deleteExpiredItems(user)
        report(expired: deleted)
        return deleted
    }

    /// Arms the timer for the next deadline; a timer already armed for that deadline or an
    /// earlier one is kept.
    func scheduleExpiry() throws(ChatError) {
        guard expiry.running else { return }
        guard let due = try store.nextExpiry(user) else {
            expiry.disarm()
            return
        }
        if let armed = expiry.due, expiry.task != nil, armed <= due { return }
        expiry.disarm()
        let delay = max(0, due.timeIntervalSince(store.now()))
        let generation = expiry.generation
        expiry.due = due
        expiry.task = Task { [weak self] in
            // Whole milliseconds past the deadline, so the item is due when the timer fires.
            try? await Task.sleep(for: .milliseconds(Int64((delay * 1000).rounded(.up)) + 1))
            guard !Task.isCancelled else { return }
            await self?.expiryFired(generation)
        }
    }

    /// A timer ended; one cancelled or replaced after it woke is ignored.
    private func expiryFired(_ generation: Int) {
        guard expiry.running, generation == expiry.generation else { return }
        expiry.disarm()
        expireAndReschedule()
    }

    /// Starts deleting disappearing items when their time comes, and items past the user's
    /// lifetime now and every hour (at `start`).
    func startExpiry() {
        expiry.running = true
        expireAndReschedule()
        expiry.hourly?.cancel()
        expiry.hourly = Task { [weak self] in
            while !Task.isCancelled {
                await self?.expireOldItems()
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }

    private func expireOldItems() {
        guard expiry.running else { return }
        do { try deleteItemsPastTTL() } catch { emit(.error("deleting old messages: \(error)")) }
    }

    /// Deletes what is due and sets the timer for the next one.
    private func expireAndReschedule() {
        do {
            try deleteExpiredItems()
            try scheduleExpiry()
        } catch {
            emit(.error("disappearing messages: \(error)"))
        }
    }

    func stopExpiry() {
        expiry.disarm()
        expiry.hourly?.cancel()
        expiry.hourly = nil
        expiry.running = false
    }
}

/// The one timer that deletes disappearing items, armed for the soonest deadline.
struct ExpiryTimer {
    var running = false
    var due: Date?
    var task: Task<Void, Never>?
    /// Deletes items past the user's lifetime every hour.
    var hourly: Task<Void, Never>?
    /// Counts armings, so a timer that woke after being replaced knows it.
    var generation = 0

    mutating func disarm() {
        task?.cancel()
        task = nil
        due = nil
        generation += 1
    }
}
