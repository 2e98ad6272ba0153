import Foundation

/// The chat list, read and unread state, and disappearing items.
extension ChatStore {
    // MARK: - Chat list

    /// The chat list: every contact with its last item and unread count, most recently active
    /// first. Two queries whatever the number of chats: the list (the last item and the count are
    /// kept on the contact by triggers) and the reactions of the last items.
    func chatList(_ user: ChatUser) throws(ChatError) -> [ChatPreview] {
        let itemOffset = 14
        var previews: [ChatPreview] = []
        previews.reserveCapacity(256)
        try forEachRow(ChatSchema.Reading.chatList, [user.userId]) { row throws(ChatError) in
            let lastId: Int64? = try column(row, itemOffset)
            previews.append(
                ChatPreview(
                    contact: try listedContact(row),
                    lastItem: lastId == nil ? nil : try decodeItem(row, at: itemOffset),
                    unreadCount: try column(row, 11), unreadChat: try column(row, 12),
                    minUnreadItemId: try column(row, 13)))
        }
        let ids = previews.compactMap { $0.lastItem?.itemId }
        guard !ids.isEmpty else { return previews }
        let reactions = try reactions(of: ids)
        guard !reactions.isEmpty else { return previews }
        for index in previews.indices {
            if let id = previews[index].lastItem?.itemId, let found = reactions[id] {
                previews[index].lastItem?.reactions = found
            }
        }
        return previews
    }

    private func listedContact(_ row: StatementRow) throws(ChatError) -> ChatContact {
        let status: String? = try column(row, 6)
        return ChatContact(
            contactId: try column(row, 0), localDisplayName: try column(row, 1),
            profile: Profile(displayName: try column(row, 3), fullName: try column(row, 4)),
            localAlias: try column(row, 2),
            agentConnectionID: try column(row, 5), ready: status == "ready", sendRcpts: try column(row, 7),
            active: (try column(row, 8) as String) == "active",
            enableNtfs: NotificationChat.NotificationSetting(enableNtfsColumn: try column(row, 9)),
            favorite: try column(row, 10))
    }

    // MARK: - Read and unread

    /// Marks a chat's received items read (all, or those of `itemIds`): each gets a `rcv_read`
    /// status event (item info), and a disappearing one starts its timer. Reading the whole chat
    /// also clears the user's "unread" mark. Returns how many items were unread.
    @discardableResult
    func markRead(_ user: ChatUser, contactId: Int64, itemIds: [Int64]? = nil) throws(ChatError) -> Int {
        try transaction { () throws(ChatError) -> Int in
            let selection = Self.receivedItems(status: "rcv_new", byIds: itemIds != nil)
            let arguments: StatementArguments = [user.userId, contactId, itemIds.map(Self.jsonArray), now()]
            try run(
                "INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) SELECT chat_item_id, 'rcv_read', ?4 "
                    + selection, arguments)
            try run(
                """
                UPDATE chat_items SET item_status = 'rcv_read', updated_at = ?4,
                  timed_delete_at = CASE WHEN timed_ttl IS NOT NULL AND timed_delete_at IS NULL
                    THEN ?4 + timed_ttl * 1000 ELSE timed_delete_at END
                WHERE chat_item_id IN (SELECT chat_item_id \(selection))
                """, arguments)
            let changed = database.changes
            if itemIds == nil { try setUnreadChat(contactId: contactId, false) }
            return changed
        }
    }

    /// Marks read items of a chat unread again. Returns how many changed.
    @discardableResult
    func markUnread(_ user: ChatUser, contactId: Int64, itemIds: [Int64]) throws(ChatError) -> Int {
        try transaction { () throws(ChatError) -> Int in
            let selection = Self.receivedItems(status: "rcv_read", byIds: true)
            let arguments: StatementArguments = [user.userId, contactId, Self.jsonArray(itemIds), now()]
            try run(
                "INSERT INTO chat_item_status_events (chat_item_id, item_status, created_at) SELECT chat_item_id, 'rcv_new', ?4 "
                    + selection, arguments)
            try run(
                "UPDATE chat_items SET item_status = 'rcv_new', updated_at = ?4 WHERE chat_item_id IN (SELECT chat_item_id \(selection))",
                arguments)
            return database.changes
        }
    }

    /// `FROM … WHERE …` of a chat's (`?1` user, `?2` contact) received items in `status`: those
    /// of a JSON array of ids in `?3` (found by primary key), or the whole chat (by the status
    /// index; `?3` is then unused and bound to NULL).
    static func receivedItems(status: String, byIds: Bool) -> String {
        byIds
            ? "FROM chat_items WHERE chat_item_id IN (SELECT value FROM json_each(?3)) AND user_id = ?1 AND contact_id = ?2 "
                + "AND item_status = '\(status)'"
            : "FROM chat_items WHERE user_id = ?1 AND contact_id = ?2 AND item_status = '\(status)'"
    }

    /// The user's own "unread" mark on a chat (SimpleX `unread_chat`).
    func setUnreadChat(contactId: Int64, _ unread: Bool) throws(ChatError) {
        try run(
            "UPDATE contacts SET unread_chat = ?, updated_at = ? WHERE contact_id = ?",
            [unread, now(), contactId])
    }

    func markRead(_ user: ChatUser, _ contact: ChatContact) throws(ChatError) {
        try markRead(user, contactId: contact.contactId)
    }

    // MARK: - Disappearing items

    /// Makes `item` disappear `ttl` seconds after now (`startNow`: a sent item), or after it is
    /// read (a received one).
    func setTimed(_ item: ChatItem, ttl: Int, startNow: Bool) throws(ChatError) -> ChatItem {
        // Whole milliseconds, as the column keeps it, so the item equals one read back.
        let deleteAt =
            startNow
            ? Date(
                timeIntervalSince1970: ((now().timeIntervalSince1970 + Double(ttl)) * 1000).rounded() / 1000)
            : nil
        try run(
            "UPDATE chat_items SET timed_ttl = ?, timed_delete_at = ? WHERE chat_item_id = ?",
            [ttl, deleteAt, item.itemId])
        var timed = item
        timed.timed = ChatItemTimed(ttl: ttl, deleteAt: deleteAt)
        return timed
    }

    /// Deletes the user's items whose timer has ended, with their history and reactions; returns
    /// them, oldest deadline first.
    func deleteExpiredItems(_ user: ChatUser) throws(ChatError) -> [ChatItem] {
        var deleted: [ChatItem] = []
        let batch = 500
        while true {
            let found = try transaction { () throws(ChatError) -> [ChatItem] in
                let expired = try items(ChatSchema.Reading.expired, [user.userId, now(), batch])
                for item in expired {
                    try run("DELETE FROM chat_items WHERE chat_item_id = ?", [item.itemId])
                }
                return expired
            }
            deleted += found
            if found.count < batch { return deleted }
        }
    }

    /// When the user's next disappearing item is due, if one is counting down.
    func nextExpiry(_ user: ChatUser) throws(ChatError) -> Date? {
        guard let row = try row(ChatSchema.Reading.nextExpiry, [user.userId]) else { return nil }
        return try column(row, 0)
    }

    /// The user's "Delete messages after", in seconds (nil: never).
    func chatItemTTL(_ user: ChatUser) throws(ChatError) -> Int? {
        guard let row = try row("SELECT chat_item_ttl FROM users WHERE user_id = ?", [user.userId]) else { return nil }
        let seconds: Int? = try column(row, 0)
        return seconds.flatMap { $0 > 0 ? $0 : nil }
    }

    func setChatItemTTL(_ user: ChatUser, _ seconds: Int?) throws(ChatError) {
        try run("UPDATE users SET chat_item_ttl = ?, updated_at = ? WHERE user_id = ?", [seconds, now(), user.userId])
    }

    /// Deletes the user's items that arrived or were sent before `cutoff`, a batch a transaction;
    /// returns the contacts' items deleted (group items go too, unreported).
    func deleteItems(createdBefore cutoff: Date, _ user: ChatUser) throws(ChatError) -> [ChatItem] {
        var deleted: [ChatItem] = []
        let batch = 500
        while true {
            let found = try transaction { () throws(ChatError) -> [ChatItem] in
                let old = try items(
                    """
                    SELECT \(ChatSchema.Reading.itemColumns) FROM chat_items i
                    WHERE i.user_id = ?1 AND i.contact_id IS NOT NULL AND i.created_at < ?2
                    ORDER BY i.chat_item_id LIMIT ?3
                    """, [user.userId, cutoff, batch])
                for item in old { try run("DELETE FROM chat_items WHERE chat_item_id = ?", [item.itemId]) }
                return old
            }
            deleted += found
            if found.count < batch { break }
        }
        try run(
            "DELETE FROM chat_items WHERE user_id = ? AND contact_id IS NULL AND created_at < ?", [user.userId, cutoff])
        return deleted
    }
}
