import Foundation

extension ChatStore {
    static let itemColumns = """
        SELECT chat_item_id, contact_id, item_sent, item_ts, item_content, item_status, item_edited, item_deleted,
          item_forwarded, shared_msg_id, quoted_shared_msg_id, quoted_content, quoted_sent FROM chat_items
        """

    func item(_ row: Row) throws(ChatError) -> ChatItem {
        let itemId: Int64 = try value(row, "chat_item_id")
        let shared: [UInt8]? = try value(row, "shared_msg_id")
        let quotedContent: String? = try value(row, "quoted_content")
        let quotedShared: [UInt8]? = try value(row, "quoted_shared_msg_id")
        let quotedSent: Bool? = try value(row, "quoted_sent")
        var reactions: [ChatItemReaction] = []
        for reaction in try rows("SELECT reaction, reaction_sent FROM chat_item_reactions WHERE chat_item_id = ? ORDER BY chat_item_reaction_id", [itemId]) {
            reactions.append(ChatItemReaction(emoji: try value(reaction, "reaction"), byUser: try value(reaction, "reaction_sent")))
        }
        return ChatItem(
            itemId: itemId, contactId: try value(row, "contact_id"),
            direction: (try value(row, "item_sent") as Bool) ? .sent : .received,
            content: Self.content(try value(row, "item_content")),
            status: ChatItemStatus(rawValue: try value(row, "item_status")) ?? .rcvNew,
            timestamp: try value(row, "item_ts"), edited: try value(row, "item_edited"), deleted: try value(row, "item_deleted"),
            forwarded: try value(row, "item_forwarded"), sharedMsgId: shared.map { SharedMsgID(bytes: $0) },
            quote: quotedContent.map { ChatItemQuote(sharedMsgId: quotedShared.map { SharedMsgID(bytes: $0) }, sentByUser: quotedSent ?? false, content: Self.content($0)) },
            reactions: reactions)
    }

    /// Stores a new item and moves its chat to the top of the list.
    func insertItem(
        _ user: ChatUser, contact: ChatContact, direction: ChatItemDirection, content: MsgContent, status: ChatItemStatus,
        sharedMsgId: SharedMsgID?, agentMsgID: Int64? = nil, quote: ChatItemQuote? = nil, forwarded: Bool = false, at time: Date? = nil
    ) throws(ChatError) -> ChatItem {
        try transaction { () throws(ChatError) in
            let now = self.now()
            try run(
                """
                INSERT INTO chat_items (user_id, contact_id, item_sent, item_ts, item_content, item_text, item_status, shared_msg_id,
                  agent_msg_id, quoted_shared_msg_id, quoted_content, quoted_sent, item_forwarded, created_at, updated_at)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """,
                [
                    user.userId, contact.contactId, direction == .sent, time ?? now, Self.json(content), content.text, status.rawValue,
                    sharedMsgId?.bytes, agentMsgID, quote?.sharedMsgId?.bytes, quote.map { Self.json($0.content) }, quote?.sentByUser,
                    forwarded, now, now,
                ])
            let itemId = lastID
            try run("INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) VALUES (?, ?, ?)", [itemId, status.rawValue, now])
            try run("UPDATE contacts SET chat_ts = ? WHERE contact_id = ?", [now, contact.contactId])
            return ChatItem(
                itemId: itemId, contactId: contact.contactId, direction: direction, content: content, status: status, timestamp: time ?? now,
                edited: false, deleted: false, forwarded: forwarded, sharedMsgId: sharedMsgId, quote: quote, reactions: [])
        }
    }

    func item(id: Int64) throws(ChatError) -> ChatItem {
        guard let row = try row(Self.itemColumns + " WHERE chat_item_id = ?", [id]) else { throw .itemNotFound("#\(id)") }
        return try item(row)
    }

    func item(_ contact: ChatContact, sharedMsgId: SharedMsgID) throws(ChatError) -> ChatItem? {
        try row(
            Self.itemColumns + " WHERE user_id = (SELECT user_id FROM contacts WHERE contact_id = ?1) AND contact_id = ?1 AND shared_msg_id = ?2",
            [contact.contactId, sharedMsgId.bytes]
        ).map { row throws(ChatError) in try item(row) }
    }

    func item(_ contact: ChatContact, agentMsgID: Int64) throws(ChatError) -> ChatItem? {
        try row(Self.itemColumns + " WHERE contact_id = ? AND agent_msg_id = ?", [contact.contactId, agentMsgID])
            .map { row throws(ChatError) in try item(row) }
    }

    /// The newest item of `direction` in the chat whose text starts with `prefix` (the line
    /// mode names messages by their text, as SimpleX's CLI does).
    func item(_ contact: ChatContact, direction: ChatItemDirection?, textPrefix prefix: String) throws(ChatError) -> ChatItem {
        let rows = try rows(
            Self.itemColumns + " WHERE user_id = (SELECT user_id FROM contacts WHERE contact_id = ?1) AND contact_id = ?1 AND item_deleted = 0 ORDER BY chat_item_id DESC LIMIT 200",
            [contact.contactId])
        for row in rows {
            let found = try item(row)
            if (direction == nil || found.direction == direction) && found.text.hasPrefix(prefix) { return found }
        }
        throw .itemNotFound("starting with \"\(prefix)\"")
    }

    /// A new text for an item; the old one is kept as a version (edit history).
    func updateContent(_ item: ChatItem, _ content: MsgContent) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                "INSERT INTO chat_item_versions (chat_item_id, msg_content, item_version_ts, created_at) VALUES (?, ?, ?, ?)",
                [item.itemId, Self.json(item.content), item.timestamp, now()])
            try run(
                "UPDATE chat_items SET item_content = ?, item_text = ?, item_edited = 1, updated_at = ? WHERE chat_item_id = ?",
                [Self.json(content), content.text, now(), item.itemId])
        }
    }

    func markDeleted(_ item: ChatItem) throws(ChatError) {
        try run("UPDATE chat_items SET item_deleted = 1, item_deleted_ts = ?, updated_at = ? WHERE chat_item_id = ?", [now(), now(), item.itemId])
    }

    func deleteItem(_ item: ChatItem) throws(ChatError) {
        try run("DELETE FROM chat_items WHERE chat_item_id = ?", [item.itemId])
    }

    func setStatus(_ item: ChatItem, _ status: ChatItemStatus) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run("UPDATE chat_items SET item_status = ?, updated_at = ? WHERE chat_item_id = ?", [status.rawValue, now(), item.itemId])
            try run("INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) VALUES (?, ?, ?)", [item.itemId, status.rawValue, now()])
        }
    }

    func setReaction(_ item: ChatItem, emoji: String, byUser: Bool, add: Bool) throws(ChatError) {
        if add {
            try run(
                "INSERT OR IGNORE INTO chat_item_reactions (chat_item_id, reaction, reaction_sent, created_at) VALUES (?, ?, ?, ?)",
                [item.itemId, emoji, byUser, now()])
        } else {
            try run("DELETE FROM chat_item_reactions WHERE chat_item_id = ? AND reaction = ? AND reaction_sent = ?", [item.itemId, emoji, byUser])
        }
    }

    func info(_ item: ChatItem) throws(ChatError) -> ChatItemInfo {
        var statuses: [(ChatItemStatus, Date)] = []
        for row in try rows("SELECT item_status, created_at FROM chat_item_status_events WHERE chat_item_id = ? ORDER BY chat_item_status_event_id", [item.itemId]) {
            statuses.append((ChatItemStatus(rawValue: try value(row, "item_status")) ?? .rcvNew, try value(row, "created_at")))
        }
        var versions: [(MsgContent, Date)] = []
        for row in try rows("SELECT msg_content, item_version_ts FROM chat_item_versions WHERE chat_item_id = ? ORDER BY chat_item_version_id", [item.itemId]) {
            versions.append((Self.content(try value(row, "msg_content")), try value(row, "item_version_ts")))
        }
        return ChatItemInfo(statuses: statuses, versions: versions)
    }

    // MARK: - Reading

    /// The last `count` items of a chat, oldest first.
    func lastItems(_ user: ChatUser, _ contact: ChatContact, count: Int) throws(ChatError) -> [ChatItem] {
        var items: [ChatItem] = []
        for row in try rows(
            Self.itemColumns + " WHERE user_id = ? AND contact_id = ? ORDER BY chat_item_id DESC LIMIT ?", [user.userId, contact.contactId, count])
        {
            items.append(try item(row))
        }
        return items.reversed()
    }

    /// `count` items before (older than) or after item `id`, oldest first.
    func items(_ user: ChatUser, _ contact: ChatContact, before id: Int64, count: Int) throws(ChatError) -> [ChatItem] {
        var items: [ChatItem] = []
        for row in try rows(
            Self.itemColumns + " WHERE user_id = ? AND contact_id = ? AND chat_item_id < ? ORDER BY chat_item_id DESC LIMIT ?",
            [user.userId, contact.contactId, id, count])
        {
            items.append(try item(row))
        }
        return items.reversed()
    }

    func items(_ user: ChatUser, _ contact: ChatContact, after id: Int64, count: Int) throws(ChatError) -> [ChatItem] {
        var items: [ChatItem] = []
        for row in try rows(
            Self.itemColumns + " WHERE user_id = ? AND contact_id = ? AND chat_item_id > ? ORDER BY chat_item_id LIMIT ?",
            [user.userId, contact.contactId, id, count])
        {
            items.append(try item(row))
        }
        return items
    }

    /// Items whose text contains `text` (case-insensitive), newest first, in one chat or all.
    func search(_ user: ChatUser, _ contact: ChatContact?, text: String, count: Int) throws(ChatError) -> [ChatItem] {
        let pattern = "%" + text.replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        let sql =
            Self.itemColumns
            + (contact == nil
                ? " WHERE user_id = ? AND item_deleted = 0 AND item_text LIKE ? ESCAPE '\\' ORDER BY chat_item_id DESC LIMIT ?"
                : " WHERE user_id = ? AND contact_id = ? AND item_deleted = 0 AND item_text LIKE ? ESCAPE '\\' ORDER BY chat_item_id DESC LIMIT ?")
        let arguments: StatementArguments = contact.map { [user.userId, $0.contactId, pattern, count] } ?? [user.userId, pattern, count]
        var items: [ChatItem] = []
        for row in try rows(sql, arguments) { items.append(try item(row)) }
        return items
    }

    /// The chat list: every contact with its last item and unread count, most recent first.
    func chatList(_ user: ChatUser) throws(ChatError) -> [ChatPreview] {
        var previews: [ChatPreview] = []
        for contact in try contacts(user) {
            let last = try lastItems(user, contact, count: 1).first
            let unread: Int64 =
                try row(
                    "SELECT count(*) AS n FROM chat_items WHERE user_id = ? AND contact_id = ? AND item_status = 'rcv_new'",
                    [user.userId, contact.contactId]
                ).map { row throws(ChatError) in try value(row, "n") } ?? 0
            previews.append(ChatPreview(contact: contact, lastItem: last, unreadCount: Int(unread)))
        }
        return previews.sorted { ($0.lastItem?.itemId ?? 0) > ($1.lastItem?.itemId ?? 0) }
    }

    func markRead(_ user: ChatUser, _ contact: ChatContact) throws(ChatError) {
        try run(
            "UPDATE chat_items SET item_status = 'rcv_read', updated_at = ? WHERE user_id = ? AND contact_id = ? AND item_status = 'rcv_new'",
            [now(), user.userId, contact.contactId])
    }
}
