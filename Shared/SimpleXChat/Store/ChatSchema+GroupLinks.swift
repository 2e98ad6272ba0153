extension ChatSchema {
    /// Group links (SimpleX keeps them in `user_contact_links` with a `group_id`; a table of their
    /// own here, so the user's contact address is never mistaken for one): the group-owned contact
    /// address, the role a joiner gets, and on the joiner's side the connection made to a link
    /// until the host answers it.
    static let groupLinks = """
        CREATE TABLE group_links (
          group_link_id INTEGER PRIMARY KEY,
          group_id INTEGER NOT NULL UNIQUE REFERENCES groups ON DELETE CASCADE,
          agent_conn_id TEXT NOT NULL UNIQUE,
          conn_req_contact TEXT NOT NULL,
          link_id BLOB NOT NULL, -- GroupLinkId, in the link's client data
          member_role TEXT NOT NULL, -- the role of a member who joins by it
          created_at INTEGER NOT NULL
        );

        CREATE TABLE group_link_joins (
          agent_conn_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          link_id BLOB NOT NULL,
          created_at INTEGER NOT NULL
        );

        -- Joiner side: the link a group was joined by, so the same link is not joined twice.
        ALTER TABLE groups ADD COLUMN via_group_link_id BLOB;

        -- A member who joined by the group link: sent the host's profile (x.grp.link.mem) on connecting.
        ALTER TABLE group_members ADD COLUMN via_group_link INTEGER NOT NULL DEFAULT 0;
        """
}
