import Foundation

/// Reading chats: pages, filters, search, the chat list. Every query follows an index
/// (`ChatSchema.Reading`), and a page's reactions come in one more query, so opening a chat
/// costs the same with ten items or ten million.
extension ChatStore {
    /// Positions of `ChatSchema.Reading.itemColumns` in a row.
    private enum Column {
        static let id = 0, contactId = 1, sent = 2, ts = 3, content = 4, text = 5, status = 6, edited = 7
        static let deleted = 8, forwarded = 9, shared = 10, quotedShared = 11, quotedContent = 12
        static let quotedSent = 13, timedTTL = 14, timedDeleteAt = 15
    }

    func column<T: DatabaseValueConvertible>(_ row: some ColumnDecoding, _ index: Int) throws(ChatError) -> T
    {
        do { return try row.decode(T.self, at: index) } catch { throw .store("\(error)") }
    }

    /// The item in `row` (from `itemColumns` starting at column `offset`), without reactions.
    func decodeItem(_ row: some ColumnDecoding, at offset: Int = 0) throws(ChatError) -> ChatItem {
        let shared: [UInt8]? = try column(row, offset + Column.shared)
        let quotedContent: String? = try column(row, offset + Column.quotedContent)
        let quotedShared: [UInt8]? = try column(row, offset + Column.quotedShared)
        let quotedSent: Bool? = try column(row, offset + Column.quotedSent)
        let ttl: Int? = try column(row, offset + Column.timedTTL)
        let deleteAt: Date? = try column(row, offset + Column.timedDeleteAt)
        let status: String = try column(row, offset + Column.status)
        return ChatItem(
            itemId: try column(row, offset + Column.id),
            contactId: try column(row, offset + Column.contactId),
            direction: (try column(row, offset + Column.sent) as Bool) ? .sent : .received,
            content: Self.content(
                json: try column(row, offset + Column.content), text: try column(row, offset + Column.text)),
            status: ChatItemStatus(rawValue: status) ?? .rcvNew,
            timestamp: try column(row, offset + Column.ts),
            edited: try column(row, offset + Column.edited),
            deleted: try column(row, offset + Column.deleted),
            forwarded: try column(row, offset + Column.forwarded),
            sharedMsgId: shared.map { SharedMsgID(bytes: $0) },
            quote: quotedContent.map {
                ChatItemQuote(
                    sharedMsgId: quotedShared.map { SharedMsgID(bytes: $0) }, sentByUser: quotedSent ?? false,
                    content: Self.content($0))
            },
            reactions: [], timed: ttl.map { ChatItemTimed(ttl: $0, deleteAt: deleteAt) })
    }

    /// Stored content, parsed. A text message — `{"text":…,"type":"text"}`, as `MsgContent.json`
    /// writes it with sorted keys — is `item_text` itself, so the common case needs no JSON parse.
    static func content(json: String, text: String) -> MsgContent {
        let isText = json.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= textPrefix.count + textSuffix.count - 1
                && bytes.prefix(textPrefix.count).elementsEqual(textPrefix)
                && bytes.suffix(textSuffix.count).elementsEqual(textSuffix)
        }
        return isText == true ? .text(text) : content(json)
    }

    private static let textPrefix = Array(#"{"text":""#.utf8)
    private static let textSuffix = Array(#"","type":"text"}"#.utf8)

    /// The items of `sql` (`itemColumns` first), decoded in place, with their reactions read in
    /// one more query.
    func items(_ sql: String, _ arguments: StatementArguments) throws(ChatError) -> [ChatItem] {
        var items: [ChatItem] = []
        try forEachRow(sql, arguments) { row throws(ChatError) in items.append(try decodeItem(row)) }
        return try withReactions(items)
    }

    /// `items` with their reactions, read in one query.
    func withReactions(_ items: [ChatItem]) throws(ChatError) -> [ChatItem] {
        guard !items.isEmpty else { return items }
        let reactions = try reactions(of: items.map(\.itemId))
        guard !reactions.isEmpty else { return items }
        var items = items
        for index in items.indices { items[index].reactions = reactions[items[index].itemId] ?? [] }
        return items
    }

    /// The reactions of items `ids`, in the order they were made.
    func reactions(of ids: [Int64]) throws(ChatError) -> [Int64: [ChatItemReaction]] {
        var found: [Int64: [ChatItemReaction]] = [:]
        try forEachRow(ChatSchema.Reading.reactions, [Self.jsonArray(ids)]) { row throws(ChatError) in
            let reaction = ChatItemReaction(emoji: try column(row, 1), byUser: try column(row, 2))
            found[try column(row, 0), default: []].append(reaction)
        }
        return found
    }

    /// `[1,2,3]`: ids for `json_each`, one statement whatever their number.
    static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    // MARK: - Pages

    /// A page of a contact's chat, oldest first, optionally only items of one content type or
    /// whose text matches `search` (`ChatSearchQuery`: its words, the last also as a prefix).
    func items(
        _ user: ChatUser, contactId: Int64, _ pagination: ChatPagination, filter: ChatContentFilter? = nil,
        search: String? = nil
    ) throws(ChatError) -> [ChatItem] {
        let query = try search.map { text throws(ChatError) in try searchQuery(text) }
        let mode: ChatSchema.Reading.Search = query.map { $0.usesIndex ? .index : .scan } ?? .none
        func page(
            _ direction: ChatSchema.Reading.Direction, _ cursor: Int64, _ count: Int, scrolling: Bool = false
        ) throws(ChatError) -> [ChatItem] {
            guard count > 0 else { return [] }
            let patterns = query?.likePatterns ?? []
            let sql = Self.pageSQL(direction, tag: filter != nil, search: mode, literalWords: patterns.count)
            let arguments: [(any DatabaseValueConvertible)?] =
                [
                    user.userId, contactId, cursor, count, filter?.contentType,
                    query?.match(chat: "c\(contactId)"),
                ] + patterns
            let used = ChatSchema.Reading.parameterCount(
                tag: filter != nil, search: mode, literalWords: patterns.count)
            var items: [ChatItem] = []
            items.reserveCapacity(count)
            try forEachRow(sql, StatementArguments(Array(arguments.prefix(used))), scrolling: scrolling) {
                row throws(ChatError) in
                items.append(try decodeItem(row))
            }
            return items
        }
        switch pagination {
        case .last(let count):
            return try withReactions(page(.before, .max, count).reversed())
        case .before(let id, let count):
            return try withReactions(page(.before, id, count, scrolling: true).reversed())
        case .after(let id, let count):
            return try withReactions(page(.after, id, count, scrolling: true))
        case .around(let id, let count):
            // The item itself is the newest of the page before id + 1.
            let older = try page(.before, id == .max ? id : id + 1, count + 1)
            return try withReactions(older.reversed() + page(.after, id, count))
        case .initial(let count):
            guard let unread = try firstUnread(user, contactId: contactId) else {
                return try withReactions(page(.before, .max, count).reversed())
            }
            return try items(
                user, contactId: contactId, .around(id: unread, count: count), filter: filter, search: search)
        }
    }

    /// The SQL of each page shape without a search, built once: a statement is cached by its text.
    private static let pageSQLs: [String] = [ChatSchema.Reading.Direction.before, .after].flatMap {
        direction in [false, true].map { ChatSchema.Reading.page(direction, tag: $0) }
    }

    /// A page query's SQL; a search's is built for its number of LIKE patterns (its statement
    /// is then cached by its text like the others).
    static func pageSQL(
        _ direction: ChatSchema.Reading.Direction, tag: Bool, search: ChatSchema.Reading.Search = .none,
        literalWords: Int = 0
    ) -> String {
        guard search != .none else { return pageSQLs[(direction == .before ? 0 : 2) + (tag ? 1 : 0)] }
        return ChatSchema.Reading.page(direction, tag: tag, search: search, literalWords: literalWords)
    }

    func firstUnread(_ user: ChatUser, contactId: Int64) throws(ChatError) -> Int64? {
        try row(ChatSchema.Paging.firstUnread, [":user_id": user.userId, ":contact_id": contactId]).map {
            row throws(ChatError) in
            try column(row, 0)
        }
    }

    /// The last `count` items of a chat, oldest first.
    func lastItems(_ user: ChatUser, _ contact: ChatContact, count: Int) throws(ChatError) -> [ChatItem] {
        try items(user, contactId: contact.contactId, .last(count: count))
    }

    /// `count` items before (older than) item `id`, oldest first.
    func items(_ user: ChatUser, _ contact: ChatContact, before id: Int64, count: Int) throws(ChatError)
        -> [ChatItem]
    {
        try items(user, contactId: contact.contactId, .before(id: id, count: count))
    }

    /// `count` items after (newer than) item `id`, oldest first.
    func items(_ user: ChatUser, _ contact: ChatContact, after id: Int64, count: Int) throws(ChatError)
        -> [ChatItem]
    {
        try items(user, contactId: contact.contactId, .after(id: id, count: count))
    }

    // MARK: - Search

    /// Items whose text matches `text` (`ChatSearchQuery`), newest first, older than item
    /// `before` (when given), in one chat or in all the user's chats. Deleted items (and items
    /// marked deleted) are not found.
    func search(_ user: ChatUser, contactId: Int64?, text: String, before: Int64? = nil, count: Int)
        throws(ChatError) -> [ChatItem]
    {
        guard count > 0 else { return [] }
        guard let contactId else {
            let query = try searchQuery(text)
            let mode: ChatSchema.Reading.Search = query.usesIndex ? .index : .scan
            let patterns = query.likePatterns
            let arguments: [(any DatabaseValueConvertible)?] =
                [user.userId, nil, before ?? .max, count, nil, query.match(chat: "u\(user.userId)")]
                + patterns
            let used = ChatSchema.Reading.parameterCount(
                tag: false, search: mode, literalWords: patterns.count)
            return try items(
                ChatSchema.Reading.searchAll(mode, literalWords: patterns.count),
                StatementArguments(Array(arguments.prefix(used))))
        }
        return try items(user, contactId: contactId, .before(id: before ?? .max, count: count), search: text)
            .reversed()
    }

    /// What `text` searches for, its last word matched whole when the index holds no longer word
    /// starting with it: the same items, without FTS5 reading every posting of the prefix before
    /// the first result (`ChatSchema.searchTerms`). Only for an ASCII word, which the tokenizer
    /// just lower-cases, so the word is the term it looks for.
    func searchQuery(_ text: String) throws(ChatError) -> ChatSearchQuery {
        var query = ChatSearchQuery(text)
        guard query.lastWordIsPrefix, let last = query.indexedWords.last, last.allSatisfy(\.isASCII) else {
            return query
        }
        let term = last.lowercased()
        // No term holds a control character, so every longer word starting with `term` sorts
        // at or after this, and the first term there starts with `term` if any does.
        let next: String? = try row(ChatSchema.termFrom, [term + "\u{1}"]).map { row throws(ChatError) in
            try column(row, 0)
        }
        if next.map({ $0.utf8.starts(with: term.utf8) }) != true { query.lastWordIsPrefix = false }
        return query
    }

    func search(_ user: ChatUser, _ contact: ChatContact?, text: String, count: Int) throws(ChatError)
        -> [ChatItem]
    {
        try search(user, contactId: contact?.contactId, text: text, count: count)
    }
}
