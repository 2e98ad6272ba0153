import Foundation

extension ChatStore {
    // MARK: - User

    func activeUser() throws(ChatError) -> ChatUser? {
        guard
            let row = try row(
                """
                SELECT u.user_id, u.local_display_name, p.display_name, p.full_name, p.preferences,
                  u.send_rcpts_contacts FROM users u
                JOIN contact_profiles p ON p.contact_profile_id = u.contact_profile_id WHERE u.active_user = 1
                """)
        else { return nil }
        return ChatUser(
            userId: try value(row, "user_id"),
            profile: Profile(
                displayName: try value(row, "display_name"), fullName: try value(row, "full_name"),
                preferences: Self.preferences(try value(row, "preferences"))),
            localDisplayName: try value(row, "local_display_name"),
            sendRcptsContacts: try value(row, "send_rcpts_contacts"))
    }

    func createUser(_ profile: Profile) throws(ChatError) -> ChatUser {
        try transaction { () throws(ChatError) in
            let now = self.now()
            try run(
                // Receipts on for a new user, as SimpleX makes them.
                """
                INSERT INTO users (local_display_name, active_user, send_rcpts_contacts, created_at, updated_at)
                VALUES (?, 1, 1, ?, ?)
                """,
                [profile.displayName, now, now])
            let userId = lastID
            try run(
                """
                INSERT INTO contact_profiles (user_id, display_name, full_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                """, [userId, profile.displayName, profile.fullName, now, now])
            try run("UPDATE users SET contact_profile_id = ? WHERE user_id = ?", [lastID, userId])
            return ChatUser(userId: userId, profile: profile, localDisplayName: profile.displayName)
        }
    }

    func updateUserProfile(_ user: ChatUser, _ profile: Profile) throws(ChatError) {
        try run(
            """
            UPDATE contact_profiles SET display_name = ?, full_name = ?, preferences = ?, updated_at = ?
            WHERE contact_profile_id = (SELECT contact_profile_id FROM users WHERE user_id = ?)
            """, [profile.displayName, profile.fullName, profile.preferences?.compactText, now(), user.userId])
    }

    // MARK: - Relays

    func servers(_ user: ChatUser) throws(ChatError) -> [String] {
        var servers: [String] = []
        for row in try rows(
            "SELECT address FROM smp_servers WHERE user_id = ? ORDER BY smp_server_id", [user.userId])
        {
            servers.append(try value(row, "address"))
        }
        return servers
    }

    func setServers(_ user: ChatUser, _ servers: [String]) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run("DELETE FROM smp_servers WHERE user_id = ?", [user.userId])
            for server in servers {
                try run(
                    "INSERT INTO smp_servers (user_id, address, created_at) VALUES (?, ?, ?)",
                    [user.userId, server, now()])
            }
        }
    }

    // MARK: - Connections and contacts

    func insertPendingConnection(_ user: ChatUser, agentConnectionID: String) throws(ChatError) {
        try run(
            """
            INSERT INTO connections (user_id, agent_conn_id, conn_type, conn_status, created_at, updated_at)
            VALUES (?, ?, 'contact', 'new', ?, ?)
            """, [user.userId, agentConnectionID, now(), now()])
    }

    /// A local name not yet taken: `name`, else `name_1`, `name_2`, ... (as SimpleX does).
    func freeDisplayName(_ user: ChatUser, _ name: String) throws(ChatError) -> String {
        var candidate = name
        var suffix = 0
        while try row(
            """
            SELECT 1 FROM contacts WHERE user_id = ?1 AND local_display_name = ?2 AND deleted = 0
            UNION ALL SELECT 1 FROM contact_requests WHERE user_id = ?1 AND local_display_name = ?2
            """, [user.userId, candidate]) != nil || candidate == user.localDisplayName
        {
            suffix += 1
            candidate = "\(name)_\(suffix)"
        }
        return candidate
    }

    /// Makes the contact for a connection whose peer profile arrived; with `incognitoProfile`, the
    /// user shows that profile to this contact instead of their own.
    func createContact(
        _ user: ChatUser, profile: Profile, agentConnectionID: String, incognitoProfile: Profile? = nil
    ) throws(ChatError) -> ChatContact {
        try transaction { () throws(ChatError) in
            let name = try freeDisplayName(user, profile.displayName)
            let now = self.now()
            try run(
                """
                INSERT INTO contact_profiles (user_id, display_name, full_name, preferences, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [user.userId, profile.displayName, profile.fullName, profile.preferences?.compactText, now, now])
            let profileId = lastID
            try run(
                """
                INSERT INTO contacts (user_id, local_display_name, contact_profile_id, chat_ts, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [user.userId, name, profileId, now, now, now])
            let contactId = lastID
            try run(
                "UPDATE connections SET contact_id = ?, conn_status = 'joined', updated_at = ? WHERE agent_conn_id = ?",
                [contactId, now, agentConnectionID])
            if let incognitoProfile {
                try run(
                    """
                    INSERT INTO contact_profiles (user_id, display_name, full_name, incognito, created_at, updated_at)
                    VALUES (?, ?, ?, 1, ?, ?)
                    """, [user.userId, incognitoProfile.displayName, incognitoProfile.fullName, now, now])
                try run(
                    "UPDATE connections SET custom_user_profile_id = ? WHERE agent_conn_id = ?", [lastID, agentConnectionID])
            }
            return ChatContact(
                contactId: contactId, localDisplayName: name, profile: profile, localAlias: "",
                agentConnectionID: agentConnectionID,
                ready: false)
        }
    }

    /// The profile the user shows `contactId` instead of their own, if they connected incognito.
    func incognitoProfile(contactId: Int64) throws(ChatError) -> Profile? {
        try row(
            """
            SELECT p.display_name, p.full_name FROM connections cn
            JOIN contact_profiles p ON p.contact_profile_id = cn.custom_user_profile_id
            WHERE cn.contact_id = ?
            """, [contactId]
        ).map { row throws(ChatError) in
            Profile(displayName: try value(row, "display_name"), fullName: try value(row, "full_name"))
        }
    }

    func setReady(agentConnectionID: String) throws(ChatError) {
        try run(
            "UPDATE connections SET conn_status = 'ready', updated_at = ? WHERE agent_conn_id = ?",
            [now(), agentConnectionID])
    }

    /// The contact's new profile (`x.info`). A new display name becomes the contact's local
    /// name too (`name_1`, ... when taken), as SimpleX does: the user then writes to it by it.
    func updateContactProfile(_ user: ChatUser, _ contact: ChatContact, _ profile: Profile) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                """
                UPDATE contact_profiles SET display_name = ?, full_name = ?, updated_at = ?
                WHERE contact_profile_id = (SELECT contact_profile_id FROM contacts WHERE contact_id = ?)
                """, [profile.displayName, profile.fullName, now(), contact.contactId])
            guard profile.displayName != contact.profile.displayName else { return }
            try run(
                "UPDATE contacts SET local_display_name = ?, updated_at = ? WHERE contact_id = ?",
                [try freeDisplayName(user, profile.displayName), now(), contact.contactId])
        }
    }

    /// The user's receipts setting for contacts; `clearOverrides` also resets every contact's own.
    func setContactReceipts(_ user: ChatUser, enable: Bool, clearOverrides: Bool) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                "UPDATE users SET send_rcpts_contacts = ?, updated_at = ? WHERE user_id = ?",
                [enable, now(), user.userId])
            if clearOverrides {
                try run(
                    "UPDATE contacts SET send_rcpts = NULL, updated_at = ? WHERE user_id = ? AND send_rcpts IS NOT NULL",
                    [now(), user.userId])
            }
        }
    }

    /// A contact's own receipts setting; nil follows the user's.
    func setSendReceipts(_ contact: ChatContact, _ enable: Bool?) throws(ChatError) {
        try run(
            "UPDATE contacts SET send_rcpts = ?, updated_at = ? WHERE contact_id = ?",
            [enable, now(), contact.contactId])
    }

    /// A chat's own settings (SimpleX `/_settings`): notifications and favorite; `sendRcpts` as
    /// `setSendReceipts`.
    func setChatSettings(_ contact: ChatContact, _ settings: ChatSettings) throws(ChatError) {
        try run(
            "UPDATE contacts SET enable_ntfs = ?, send_rcpts = ?, favorite = ?, updated_at = ? WHERE contact_id = ?",
            [settings.enableNtfs.enableNtfsColumn, settings.sendRcpts, settings.favorite, now(), contact.contactId])
    }

    func setAlias(_ contact: ChatContact, _ alias: String) throws(ChatError) {
        try run(
            "UPDATE contacts SET local_alias = ?, updated_at = ? WHERE contact_id = ?",
            [alias, now(), contact.contactId])
    }

    func deleteContact(_ contact: ChatContact) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run("DELETE FROM connections WHERE contact_id = ?", [contact.contactId])
            try run("DELETE FROM contacts WHERE contact_id = ?", [contact.contactId])
        }
    }

    private static let contactColumns = """
        SELECT c.contact_id, c.local_display_name, c.local_alias, p.display_name, p.full_name, cn.agent_conn_id,
          cn.conn_status, c.send_rcpts, c.contact_status, c.enable_ntfs, c.favorite
        FROM contacts c JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id
        LEFT JOIN connections cn ON cn.contact_id = c.contact_id
        """

    /// Contacts of user `?1` whose name or alias is `?2`: two index searches (written as an OR,
    /// SQLite would read every contact of the user).
    static let contactIdsNamed = """
        SELECT contact_id FROM contacts WHERE user_id = ?1 AND local_display_name = ?2
        UNION ALL SELECT contact_id FROM contacts WHERE user_id = ?1 AND local_alias = ?2
        """

    private func contact(_ row: Row) throws(ChatError) -> ChatContact {
        ChatContact(
            contactId: try value(row, "contact_id"), localDisplayName: try value(row, "local_display_name"),
            profile: Profile(
                displayName: try value(row, "display_name"), fullName: try value(row, "full_name")),
            localAlias: try value(row, "local_alias"), agentConnectionID: try value(row, "agent_conn_id"),
            ready: (try value(row, "conn_status") as String?) == "ready",
            sendRcpts: try value(row, "send_rcpts"),
            active: (try value(row, "contact_status") as String) == "active",
            enableNtfs: NotificationChat.NotificationSetting(enableNtfsColumn: try value(row, "enable_ntfs")),
            favorite: try value(row, "favorite"))
    }

    /// The contact deleted us (x.direct.del): kept, with its chat, as no longer active.
    func setDeletedByContact(_ contact: ChatContact) throws(ChatError) {
        try run(
            "UPDATE contacts SET contact_status = 'deleted', updated_at = ? WHERE contact_id = ?",
            [now(), contact.contactId])
    }

    func contact(named name: String, _ user: ChatUser) throws(ChatError) -> ChatContact {
        guard
            let row = try row(
                Self.contactColumns + " WHERE c.contact_id IN (\(Self.contactIdsNamed)) AND c.deleted = 0",
                [user.userId, name])
        else { throw .contactNotFound(name) }
        return try contact(row)
    }

    func contact(id: Int64) throws(ChatError) -> ChatContact {
        guard let row = try row(Self.contactColumns + " WHERE c.contact_id = ?", [id]) else {
            throw .contactNotFound("#\(id)")
        }
        return try contact(row)
    }

    func contact(agentConnectionID: String) throws(ChatError) -> ChatContact? {
        try row(Self.contactColumns + " WHERE cn.agent_conn_id = ?", [agentConnectionID]).map {
            row throws(ChatError) in try contact(row)
        }
    }

    func contacts(_ user: ChatUser) throws(ChatError) -> [ChatContact] {
        var found: [ChatContact] = []
        for row in try rows(
            Self.contactColumns + " WHERE c.user_id = ? AND c.deleted = 0 ORDER BY c.contact_id",
            [user.userId])
        {
            found.append(try contact(row))
        }
        return found
    }

    // MARK: - Address and requests

    /// Forgets the user's contact address and the requests that came through it, not yet
    /// accepted or rejected (contacts made through it stay).
    func deleteAddress(_ user: ChatUser) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run("DELETE FROM user_contact_links WHERE user_id = ?", [user.userId])
            try run("DELETE FROM contact_requests WHERE user_id = ?", [user.userId])
        }
    }

    func setAddress(_ user: ChatUser, agentConnectionID: String, link: String) throws(ChatError) {
        try run(
            "INSERT INTO user_contact_links (user_id, agent_conn_id, conn_req_contact, created_at) VALUES (?, ?, ?, ?)",
            [user.userId, agentConnectionID, link, now()])
    }

    func address(_ user: ChatUser) throws(ChatError) -> (agentConnectionID: String, link: String)? {
        guard
            let row = try row(
                "SELECT agent_conn_id, conn_req_contact FROM user_contact_links WHERE user_id = ?",
                [user.userId])
        else {
            return nil
        }
        return (try value(row, "agent_conn_id"), try value(row, "conn_req_contact"))
    }

    func insertRequest(_ user: ChatUser, invitationID: String, profile: Profile) throws(ChatError)
        -> ChatContactRequest
    {
        let name = try freeDisplayName(user, profile.displayName)
        try run(
            """
            INSERT INTO contact_requests (user_id, agent_invitation_id, local_display_name, profile, created_at) VALUES (?, ?, ?, ?, ?)
            """, [user.userId, invitationID, name, profile.json.compactText, now()])
        return ChatContactRequest(
            requestId: lastID, localDisplayName: name, profile: profile, agentInvitationID: invitationID)
    }

    func request(named name: String, _ user: ChatUser) throws(ChatError) -> ChatContactRequest {
        guard
            let row = try row(
                "SELECT contact_request_id, local_display_name, profile, agent_invitation_id FROM contact_requests WHERE user_id = ? AND local_display_name = ?",
                [user.userId, name])
        else { throw .requestNotFound(name) }
        return ChatContactRequest(
            requestId: try value(row, "contact_request_id"), localDisplayName: name,
            profile: Self.profile(try value(row, "profile")) ?? Profile(displayName: name, fullName: ""),
            agentInvitationID: try value(row, "agent_invitation_id"))
    }

    /// The user's contact requests, oldest first.
    func requests(_ user: ChatUser) throws(ChatError) -> [ChatContactRequest] {
        try rows(
            "SELECT contact_request_id, local_display_name, profile, agent_invitation_id FROM contact_requests WHERE user_id = ? ORDER BY contact_request_id",
            [user.userId]
        ).map { row throws(ChatError) in
            let name: String = try value(row, "local_display_name")
            return ChatContactRequest(
                requestId: try value(row, "contact_request_id"), localDisplayName: name,
                profile: Self.profile(try value(row, "profile")) ?? Profile(displayName: name, fullName: ""),
                agentInvitationID: try value(row, "agent_invitation_id"))
        }
    }

    func deleteRequest(_ request: ChatContactRequest) throws(ChatError) {
        try run("DELETE FROM contact_requests WHERE contact_request_id = ?", [request.requestId])
    }
}
