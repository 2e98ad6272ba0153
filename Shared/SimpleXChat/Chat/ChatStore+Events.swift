import Foundation

extension ChatStore {
    /// Stores an event item (`ChatItemEvent`): unread when it needs the user's attention (errors),
    /// else read. `agentMsgID` is the received message that showed it, which `eventItems` finds
    /// again when that message is delivered again after a restart.
    func insertEvent(_ user: ChatUser, contact: ChatContact, _ event: ChatItemEvent, agentMsgID: Int64? = nil)
        throws(ChatError) -> ChatItem
    {
        let status: ChatItemStatus =
            event.direction == .sent ? .sndSent : event.requiresAttention ? .rcvNew : .rcvRead
        return try insertItem(
            user, contact: contact, direction: event.direction, content: event.content, status: status,
            sharedMsgId: nil, agentMsgID: agentMsgID)
    }

    /// The event items made for the received message `agentMsgID` of `contact`.
    func eventItems(_ contact: ChatContact, agentMsgID: Int64) throws(ChatError) -> [ChatItem] {
        try items(
            Self.itemColumns + " WHERE contact_id = ? AND agent_msg_id = ? AND item_sent = 0",
            [contact.contactId, agentMsgID])
    }

    /// Whether the chat has an item of content `type` (an event's, `rcvDirectE2EEInfo`, ...).
    func hasItem(_ user: ChatUser, _ contact: ChatContact, type: String) throws(ChatError) -> Bool {
        try row(
            "SELECT 1 FROM chat_items WHERE user_id = ? AND contact_id = ? AND msg_content_tag = ? LIMIT 1",
            [user.userId, contact.contactId, type]) != nil
    }

    /// The chat's newest item.
    func lastItem(_ contact: ChatContact) throws(ChatError) -> ChatItem? {
        try row(
            Self.itemColumns + " WHERE contact_id = ? ORDER BY chat_item_id DESC LIMIT 1", [contact.contactId]
        )
        .map { row throws(ChatError) in try item(row) }
    }

    /// An event item's content replaced in place (a count that grew): no edit, no version.
    func replaceEvent(_ item: ChatItem, with event: ChatItemEvent) throws(ChatError) {
        let content = event.content
        try run(
            "UPDATE chat_items SET item_content = ?, item_text = ?, updated_at = ? WHERE chat_item_id = ?",
            [Self.json(content), content.text, now(), item.itemId])
    }

    // MARK: - Preferences

    /// The preferences in a contact's profile as last received (nil: none were sent).
    func contactPreferences(_ contact: ChatContact) throws(ChatError) -> JSON? {
        guard
            let row = try row(
                """
                SELECT p.preferences FROM contacts c
                JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id WHERE c.contact_id = ?
                """, [contact.contactId])
        else { throw .contactNotFound("#\(contact.contactId)") }
        return Self.preferences(try value(row, "preferences"))
    }

    func setContactPreferences(_ contact: ChatContact, _ preferences: JSON?) throws(ChatError) {
        try run(
            """
            UPDATE contact_profiles SET preferences = ?, updated_at = ?
            WHERE contact_profile_id = (SELECT contact_profile_id FROM contacts WHERE contact_id = ?)
            """, [preferences?.compactText, now(), contact.contactId])
    }

    /// A stored `preferences` column read back (nil when empty or not JSON).
    static func preferences(_ text: String?) -> JSON? {
        guard let text else { return nil }
        return try? JSON(parsing: Array(text.utf8))
    }
}
