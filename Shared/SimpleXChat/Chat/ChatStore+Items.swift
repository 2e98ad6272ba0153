import Foundation

extension ChatStore {
    /// `SELECT` of an item's columns (`ChatSchema.Reading.itemColumns`) from `chat_items i`.
    static let itemColumns = "SELECT " + ChatSchema.Reading.itemColumns + " FROM chat_items i"

    /// The item in `row` with its reactions.
    func item(_ row: Row) throws(ChatError) -> ChatItem {
        try withReactions([decodeItem(row)])[0]
    }

    /// Stores a new item; its chat moves to the top of the list (the insert trigger sets
    /// `chat_ts` from `created_at`).
    func insertItem(
        _ user: ChatUser, contact: ChatContact, direction: ChatItemDirection, content: MsgContent,
        status: ChatItemStatus,
        sharedMsgId: SharedMsgID?, agentMsgID: Int64? = nil, quote: ChatItemQuote? = nil,
        forwarded: Bool = false, at time: Date? = nil
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
                    user.userId, contact.contactId, direction == .sent, time ?? now, Self.json(content),
                    content.text, status.rawValue,
                    sharedMsgId?.bytes, agentMsgID, quote?.sharedMsgId?.bytes,
                    quote.map { Self.json($0.content) }, quote?.sentByUser,
                    forwarded, now, now,
                ])
            let itemId = lastID
            try run(
                "INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) VALUES (?, ?, ?)",
                [itemId, status.rawValue, now])
            return ChatItem(
                itemId: itemId, contactId: contact.contactId, direction: direction, content: content,
                status: status, timestamp: time ?? now,
                edited: false, deleted: false, forwarded: forwarded, sharedMsgId: sharedMsgId, quote: quote,
                reactions: [])
        }
    }

    func item(id: Int64) throws(ChatError) -> ChatItem {
        guard let row = try row(Self.itemColumns + " WHERE chat_item_id = ?", [id]) else {
            throw .itemNotFound("#\(id)")
        }
        return try item(row)
    }

    func item(_ contact: ChatContact, sharedMsgId: SharedMsgID) throws(ChatError) -> ChatItem? {
        try row(
            Self.itemColumns
                + " WHERE user_id = (SELECT user_id FROM contacts WHERE contact_id = ?1) AND contact_id = ?1 AND shared_msg_id = ?2",
            [contact.contactId, sharedMsgId.bytes]
        ).map { row throws(ChatError) in try item(row) }
    }

    func item(_ contact: ChatContact, agentMsgID: Int64) throws(ChatError) -> ChatItem? {
        try row(
            // Sent items only: an event item keeps the id of the received message that led to it
            // (`eventItem`), which is the contact's numbering, not ours.
            Self.itemColumns + " WHERE contact_id = ? AND agent_msg_id = ? AND item_sent = 1",
            [contact.contactId, agentMsgID]
        )
        .map { row throws(ChatError) in try item(row) }
    }

    /// The newest item of `direction` in the chat whose text starts with `prefix` (the line
    /// mode names messages by their text, as SimpleX's CLI does).
    func item(_ contact: ChatContact, direction: ChatItemDirection?, textPrefix prefix: String)
        throws(ChatError) -> ChatItem
    {
        let recent = try items(
            Self.itemColumns
                + " WHERE user_id = (SELECT user_id FROM contacts WHERE contact_id = ?1) AND contact_id = ?1 AND item_deleted = 0 ORDER BY chat_item_id DESC LIMIT 200",
            [contact.contactId])
        // Messages only: an event item (a gap, a feature change) is nothing to reply to or edit.
        for found in recent
        where (direction == nil || found.direction == direction) && found.event == nil
            && found.text.hasPrefix(prefix)
        {
            return found
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
        try run(
            "UPDATE chat_items SET item_deleted = 1, item_deleted_ts = ?, updated_at = ? WHERE chat_item_id = ?",
            [now(), now(), item.itemId])
    }

    /// Deletes every item of a chat, with their files' records (their history, statuses and
    /// reactions go with them); the chat list's counters follow by the delete trigger.
    func clearChat(_ user: ChatUser, _ contact: ChatContact) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                "DELETE FROM files WHERE user_id = ? AND contact_id = ?", [user.userId, contact.contactId])
            try run(
                "DELETE FROM chat_items WHERE user_id = ? AND contact_id = ?",
                [user.userId, contact.contactId])
        }
    }

    func deleteItem(_ item: ChatItem) throws(ChatError) {
        try run("DELETE FROM chat_items WHERE chat_item_id = ?", [item.itemId])
    }

    func setStatus(_ item: ChatItem, _ status: ChatItemStatus) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                "UPDATE chat_items SET item_status = ?, updated_at = ? WHERE chat_item_id = ?",
                [status.rawValue, now(), item.itemId])
            try run(
                "INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) VALUES (?, ?, ?)",
                [item.itemId, status.rawValue, now()])
        }
    }

    func setReaction(_ item: ChatItem, emoji: String, byUser: Bool, add: Bool) throws(ChatError) {
        if add {
            try run(
                "INSERT OR IGNORE INTO chat_item_reactions (chat_item_id, reaction, reaction_sent, created_at) VALUES (?, ?, ?, ?)",
                [item.itemId, emoji, byUser, now()])
        } else {
            try run(
                "DELETE FROM chat_item_reactions WHERE chat_item_id = ? AND reaction = ? AND reaction_sent = ?",
                [item.itemId, emoji, byUser])
        }
    }

    func info(_ item: ChatItem) throws(ChatError) -> ChatItemInfo {
        var statuses: [(ChatItemStatus, Date)] = []
        for row in try rows(
            "SELECT item_status, created_at FROM chat_item_status_events WHERE chat_item_id = ? ORDER BY chat_item_status_event_id",
            [item.itemId])
        {
            statuses.append(
                (
                    ChatItemStatus(rawValue: try value(row, "item_status")) ?? .rcvNew,
                    try value(row, "created_at")
                ))
        }
        var versions: [(MsgContent, Date)] = []
        for row in try rows(
            "SELECT msg_content, item_version_ts FROM chat_item_versions WHERE chat_item_id = ? ORDER BY chat_item_version_id",
            [item.itemId])
        {
            versions.append((Self.content(try value(row, "msg_content")), try value(row, "item_version_ts")))
        }
        return ChatItemInfo(statuses: statuses, versions: versions)
    }
}
