extension ChatSchema {
    /// Groups (SimpleX's `groups`, `group_profiles`, `group_members`, `group_member_intros`):
    /// a group is a local profile plus one connection per member; items of a group are
    /// `chat_items` rows with `group_id` and, when received, the sending `group_member_id`.
    static let groups = """
        CREATE TABLE group_profiles (
          group_profile_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          display_name TEXT NOT NULL,
          full_name TEXT NOT NULL DEFAULT '',
          short_descr TEXT,
          description TEXT, -- the welcome message
          image TEXT, -- a data: URI
          preferences TEXT, -- GroupPreferences JSON
          other_fields TEXT, -- profile members this build does not model, JSON
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );

        CREATE TABLE groups (
          group_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          local_display_name TEXT NOT NULL,
          group_profile_id INTEGER NOT NULL REFERENCES group_profiles ON DELETE CASCADE,
          chat_ts INTEGER,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          UNIQUE (user_id, local_display_name)
        );

        CREATE TABLE group_members (
          group_member_id INTEGER PRIMARY KEY,
          group_id INTEGER NOT NULL REFERENCES groups ON DELETE CASCADE,
          member_id BLOB NOT NULL, -- the id every member knows this member by
          member_role TEXT NOT NULL, -- observer ... owner
          member_category TEXT NOT NULL, -- user, invitee, host, pre, post
          member_status TEXT NOT NULL, -- invited, introduced, intro-inv, accepted, announced, connected, ...
          -- The member who invited or introduced this one: only it may forward this member's messages.
          invited_by_group_member_id INTEGER REFERENCES group_members ON DELETE SET NULL,
          local_display_name TEXT NOT NULL,
          member_profile_id INTEGER NOT NULL REFERENCES contact_profiles,
          contact_id INTEGER REFERENCES contacts ON DELETE SET NULL,
          -- The invitation to join: the group's (an invitee's host) or an introduced member's.
          conn_request TEXT,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          UNIQUE (group_id, member_id)
        );
        CREATE INDEX idx_group_members_group_id ON group_members (group_id);

        -- What the host did to connect each pair of members: introduced `re` to `to`, forwarded the
        -- invitation, and whether they told it they connected (then it stops forwarding).
        CREATE TABLE group_member_intros (
          group_member_intro_id INTEGER PRIMARY KEY,
          re_group_member_id INTEGER NOT NULL REFERENCES group_members ON DELETE CASCADE,
          to_group_member_id INTEGER NOT NULL REFERENCES group_members ON DELETE CASCADE,
          intro_status TEXT NOT NULL, -- new, inv, fwd, con
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          UNIQUE (re_group_member_id, to_group_member_id)
        );
        CREATE INDEX idx_group_member_intros_to ON group_member_intros (to_group_member_id);

        ALTER TABLE connections ADD COLUMN group_member_id INTEGER REFERENCES group_members ON DELETE CASCADE;
        CREATE INDEX idx_connections_group_member_id ON connections (group_member_id);

        ALTER TABLE chat_items ADD COLUMN group_id INTEGER REFERENCES groups ON DELETE CASCADE;
        ALTER TABLE chat_items ADD COLUMN group_member_id INTEGER REFERENCES group_members ON DELETE SET NULL;
        CREATE INDEX idx_chat_items_group_page ON chat_items (user_id, group_id, chat_item_id) WHERE group_id IS NOT NULL;
        -- Duplicates (a message that came directly and forwarded) are found by the shared id.
        CREATE INDEX idx_chat_items_group_shared_msg_id
          ON chat_items (group_id, group_member_id, shared_msg_id) WHERE group_id IS NOT NULL;
        CREATE INDEX idx_chat_items_group_member_id ON chat_items (group_member_id) WHERE group_member_id IS NOT NULL;
        """

    /// A group's notification setting, as a contact's (`contacts.enable_ntfs`: 0 none, 1 all, 2 mentions).
    static let groupSettings = """
        ALTER TABLE groups ADD COLUMN enable_ntfs INTEGER NOT NULL DEFAULT 1;
        """
}
