import Foundation

/// The reads and writes the command API needs beyond the chat core's own: lookups by id, unread
/// state, items read one by one, pending connections.
extension ChatStore {
    /// The user's contact `id` (not deleted), or nil.
    func contact(id: Int64, of user: ChatUser) throws(ChatError) -> ChatContact? {
        guard
            try row(
                "SELECT 1 FROM contacts WHERE contact_id = ? AND user_id = ? AND deleted = 0",
                [id, user.userId]) != nil
        else {
            return nil
        }
        return try contact(id: id)
    }

    /// A chat's unread items, the oldest of them, and the user's "mark unread" flag, as the chat
    /// list keeps them on the contact.
    func chatStats(_ user: ChatUser, _ contact: ChatContact) throws(ChatError) -> ChatStats {
        guard
            let row = try row(
                """
                SELECT unread_count, coalesce(min_unread_item_id, 0) AS first, unread_chat FROM contacts
                WHERE contact_id = ? AND user_id = ?
                """, [contact.contactId, user.userId])
        else { return ChatStats() }
        return ChatStats(
            unreadCount: try value(row, "unread_count"), minUnreadItemId: try value(row, "first"),
            unreadChat: try value(row, "unread_chat"))
    }

    func setUnreadChat(_ contact: ChatContact, _ unread: Bool) throws(ChatError) {
        try setUnreadChat(contactId: contact.contactId, unread)
    }

    /// Connections made or joined that have no contact yet, newest first.
    func pendingConnections(_ user: ChatUser) throws(ChatError) -> [PendingContactConnection] {
        var found: [PendingContactConnection] = []
        for row in try rows(
            """
            SELECT connection_id, agent_conn_id, conn_status, created_at, updated_at FROM connections
            WHERE user_id = ? AND contact_id IS NULL AND conn_type = 'contact' ORDER BY connection_id DESC
            """, [user.userId])
        {
            found.append(
                PendingContactConnection(
                    pccConnId: try value(row, "connection_id"),
                    pccAgentConnId: try value(row, "agent_conn_id"),
                    pccConnStatus: try value(row, "conn_status"), createdAt: try value(row, "created_at"),
                    updatedAt: try value(row, "updated_at")))
        }
        return found
    }

    /// The user's contact request `id`.
    func request(id: Int64, _ user: ChatUser) throws(ChatError) -> ChatContactRequest? {
        guard
            let row = try row(
                "SELECT local_display_name FROM contact_requests WHERE contact_request_id = ? AND user_id = ?",
                [id, user.userId])
        else { return nil }
        return try request(named: try value(row, "local_display_name"), user)
    }

    /// The oldest unread item of a chat.
    func firstUnreadItemId(_ user: ChatUser, _ contact: ChatContact) throws(ChatError) -> Int64? {
        try row(
            """
            SELECT chat_item_id FROM chat_items WHERE user_id = ? AND contact_id = ? AND item_status = 'rcv_new'
            ORDER BY chat_item_id LIMIT 1
            """, [user.userId, contact.contactId]
        ).map { row throws(ChatError) -> Int64 in try value(row, "chat_item_id") }
    }
}
