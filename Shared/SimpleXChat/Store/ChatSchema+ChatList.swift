extension ChatSchema {
    /// The eighth migration: a received message no longer writes index entries nothing reads.
    /// Each index keyed by the chat puts a chat's new entry on that chat's own leaf page, so a
    /// commit of messages from many chats wrote a 4 KB page per message per index (in a
    /// 1M-item database, 40 messages from 40 chats: 244 WAL pages before, 110 after).
    /// - The content filter never asks for texts (`ChatContentFilter`): its index leaves them
    ///   out, and the filtered page query names the same condition so the planner can use it.
    /// - Only unread items are looked up by status (marking read, the oldest unread, the
    ///   triggers' counts): that index holds just them, so it stays a few pages whatever the
    ///   history, and an item leaves it when read.
    /// - Only sent items have an agent message id (their status follows it): received ones
    ///   stay out of that index. The cascade of a contact's deletion, which used it, finds the
    ///   items through the page index, now led by contact_id (which implies the user).
    /// - The insert trigger also moves the chat to the top of the list (`chat_ts`), which the
    ///   app did with a second update of the same contact row for every item.
    static let partialItemIndexes = """
        DROP INDEX idx_chat_items_contact_content_tag;
        CREATE INDEX idx_chat_items_contact_content_tag
          ON chat_items (user_id, contact_id, msg_content_tag, chat_item_id) WHERE msg_content_tag <> 'text';
        DROP INDEX idx_chat_items_contact_status;
        CREATE INDEX idx_chat_items_contact_unread
          ON chat_items (user_id, contact_id, chat_item_id) WHERE item_status = 'rcv_new';
        DROP INDEX idx_chat_items_agent_msg_id;
        CREATE INDEX idx_chat_items_agent_msg_id
          ON chat_items (contact_id, agent_msg_id) WHERE agent_msg_id IS NOT NULL;
        DROP INDEX idx_chat_items_contact_page;
        CREATE INDEX idx_chat_items_contact_page ON chat_items (contact_id, chat_item_id);

        DROP TRIGGER chat_items_contact_insert;
        CREATE TRIGGER chat_items_contact_insert AFTER INSERT ON chat_items
        WHEN NEW.contact_id IS NOT NULL
        BEGIN
          UPDATE contacts SET
            last_chat_item_id = NEW.chat_item_id,
            chat_ts = NEW.created_at,
            unread_count = unread_count + (NEW.item_status = 'rcv_new'),
            min_unread_item_id = CASE WHEN NEW.item_status = 'rcv_new' AND min_unread_item_id IS NULL
              THEN NEW.chat_item_id ELSE min_unread_item_id END
          WHERE contact_id = NEW.contact_id;
        END;
        """

    /// The seventh migration: an index a later one made redundant, written with every item for
    /// nothing. A contact's items are found (for the cascade when it is deleted) through
    /// `idx_chat_items_agent_msg_id (contact_id, agent_msg_id)`, which leads with contact_id too.
    static let redundantIndexes = """
        DROP INDEX idx_chat_items_contact_id;
        """

    /// The sixth migration: delivery receipts become a setting. Users made before it had
    /// receipts sent for every message whatever the column said; they keep receipts on.
    static let receipts = """
        UPDATE users SET send_rcpts_contacts = 1;
        """

    /// The fifth migration: each chat's oldest unread item (SimpleX's `minUnreadItemId`, where a
    /// chat opens) kept on the contact beside its unread count, so the chat list and the command
    /// API's chat stats stay one query without a search per chat. The triggers of
    /// `20261130_reading` are replaced by ones that also keep it.
    static let chatListUnread = """
        ALTER TABLE contacts ADD COLUMN min_unread_item_id INTEGER; -- NULL when all is read
        UPDATE contacts SET
          min_unread_item_id = (
            SELECT min(chat_item_id) FROM chat_items i
            WHERE i.user_id = contacts.user_id AND i.contact_id = contacts.contact_id
              AND i.item_status = 'rcv_new');
        DROP TRIGGER chat_items_contact_insert;
        DROP TRIGGER chat_items_contact_delete;
        DROP TRIGGER chat_items_contact_status;

        -- Ids only grow (AUTOINCREMENT), so a new item is always its chat's last.
        CREATE TRIGGER chat_items_contact_insert AFTER INSERT ON chat_items
        WHEN NEW.contact_id IS NOT NULL
        BEGIN
          UPDATE contacts SET
            last_chat_item_id = NEW.chat_item_id,
            unread_count = unread_count + (NEW.item_status = 'rcv_new'),
            min_unread_item_id = CASE WHEN NEW.item_status = 'rcv_new' AND min_unread_item_id IS NULL
              THEN NEW.chat_item_id ELSE min_unread_item_id END
          WHERE contact_id = NEW.contact_id;
        END;

        CREATE TRIGGER chat_items_contact_delete AFTER DELETE ON chat_items
        WHEN OLD.contact_id IS NOT NULL
        BEGIN
          UPDATE contacts SET
            unread_count = unread_count - (OLD.item_status = 'rcv_new'),
            last_chat_item_id = CASE WHEN last_chat_item_id = OLD.chat_item_id
              THEN (SELECT max(chat_item_id) FROM chat_items
                    WHERE user_id = OLD.user_id AND contact_id = OLD.contact_id)
              ELSE last_chat_item_id END,
            min_unread_item_id = CASE WHEN min_unread_item_id = OLD.chat_item_id
              THEN (SELECT min(chat_item_id) FROM chat_items
                    WHERE user_id = OLD.user_id AND contact_id = OLD.contact_id AND item_status = 'rcv_new')
              ELSE min_unread_item_id END
          WHERE contact_id = OLD.contact_id;
        END;

        CREATE TRIGGER chat_items_contact_status AFTER UPDATE OF item_status ON chat_items
        WHEN NEW.contact_id IS NOT NULL AND (OLD.item_status = 'rcv_new') != (NEW.item_status = 'rcv_new')
        BEGIN
          UPDATE contacts SET
            unread_count = unread_count + (NEW.item_status = 'rcv_new') - (OLD.item_status = 'rcv_new'),
            min_unread_item_id = CASE
              WHEN NEW.item_status = 'rcv_new'
                THEN CASE WHEN min_unread_item_id IS NULL OR NEW.chat_item_id < min_unread_item_id
                  THEN NEW.chat_item_id ELSE min_unread_item_id END
              WHEN min_unread_item_id = OLD.chat_item_id
                THEN (SELECT min(chat_item_id) FROM chat_items
                      WHERE user_id = NEW.user_id AND contact_id = NEW.contact_id AND item_status = 'rcv_new')
              ELSE min_unread_item_id END
          WHERE contact_id = NEW.contact_id;
        END;
        """
}
