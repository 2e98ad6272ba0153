import Foundation
import SimpleXProtocol

extension ChatController {
    // MARK: - Connecting

    /// A one-time invitation link to pass to someone (`/c`).
    public func createInvitation() async throws(ChatError) -> String {
        do {
            let (id, link) = try await agent.createInvitation()
            try store.insertPendingConnection(user, agentConnectionID: id)
            return link.description
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// Connects by someone's invitation or contact address link (`/c <link>`).
    public func connect(link text: String) async throws(ChatError) {
        let link: ConnectionLink
        do { link = try ConnectionLink(text) } catch { throw .invalidCommand("\(error)") }
        try checkGroupLinkJoin(link)
        do {
            let id = try await agent.joinConnection(
                link, connInfo: contactInfo(request: link.isContactAddress))
            try store.insertPendingConnection(user, agentConnectionID: id)
            try recordGroupLinkJoin(link, connection: id)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// The connInfo we send: x.info, or x.contact to a contact address.
    func contactInfo(request: Bool) -> [UInt8] {
        let event: ChatMsgEvent =
            request ? .contact(ContactRequest(profile: user.profile)) : .info(user.profile)
        return (try? ChatMessage(event: event).encoded()) ?? []
    }

    /// The user's contact address, made on first use (`/ad`).
    public func contactAddress() async throws(ChatError) -> String {
        if let existing = try store.address(user) { return existing.link }
        return try await makeAddress()
    }

    /// The user's contact address as it is, without making one (`/sa`).
    public func existingAddress() throws(ChatError) -> String {
        guard let address = try store.address(user) else { throw .noAddress }
        return address.link
    }

    /// Makes the user's contact address; one they have already is an error (`/_address 1`).
    public func createAddress() async throws(ChatError) -> String {
        guard try store.address(user) == nil else { throw .addressExists }
        return try await makeAddress()
    }

    /// A new contact address for a user who has none.
    private func makeAddress() async throws(ChatError) -> String {
        do {
            let (id, link) = try await agent.createContactAddress()
            try store.setAddress(user, agentConnectionID: id, link: link.description)
            return link.description
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// Deletes the user's contact address (`/da`): its queue on the relay is deleted, so no
    /// request arrives through it any more, and requests not yet answered are dropped; contacts
    /// made through it stay connected. The link stops working for anyone who has it.
    /// A relay that does not confirm the deletion is reported after the address is forgotten
    /// here (the agent has deleted its side already).
    public func deleteAddress() async throws(ChatError) {
        guard let address = try store.address(user) else { throw .noAddress }
        var unconfirmed: AgentError?
        do { try await agent.deleteConnection(address.agentConnectionID) } catch { unconfirmed = error }
        try store.deleteAddress(user)
        if let unconfirmed { throw .agent("\(unconfirmed)") }
    }

    /// Accepts a contact request (`/ac name`): the contact is made now, connected shortly. With
    /// `incognito`, the contact is shown a random profile instead of the user's, now and later
    /// (profile updates are not sent to it).
    public func acceptContact(_ name: String, incognito: Bool = false) async throws(ChatError) -> ChatContact {
        let request = try store.request(named: name, user)
        let shown = incognito ? IncognitoProfile.random() : nil
        do {
            let info = try shown.map { profile throws(ChatError) in try encode(.info(profile)) } ?? profileInfo
            let id = try await agent.acceptContact(request.agentInvitationID, connInfo: info)
            try store.insertPendingConnection(user, agentConnectionID: id)
            try store.deleteRequest(request)
            return try store.createContact(
                user, profile: request.profile, agentConnectionID: id, incognitoProfile: shown)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// Rejects a contact request (`/rc name`); the requester is not told.
    public func rejectContact(_ name: String) async throws(ChatError) {
        let request = try store.request(named: name, user)
        do { try await agent.rejectContact(request.agentInvitationID) } catch { throw .agent("\(error)") }
        try store.deleteRequest(request)
    }

    /// Deletes a contact: its connection (queues on the relays) and its chat.
    public func deleteContact(_ name: String) async throws(ChatError) {
        let contact = try contact(named: name)
        if let id = contact.agentConnectionID {
            // A contact who deleted us has no queue to tell: nothing is sent or waited for.
            let reachable = contact.ready && contact.active
            if reachable { _ = try? await agent.sendMessage(id, body: try encode(.directDel)) }
            try? await agent.deleteConnection(id, waitDelivery: reachable)
        }
        try store.deleteContact(contact)
    }

    /// Clears a chat (SimpleX `APIClearChat`): every item of it is deleted on this device only
    /// (nothing is sent to the contact), with the files received into the group directory's
    /// `files/`; transfers still under way are cancelled first. Returns the contact as it now is.
    public func clearChat(_ name: String) async throws(ChatError) -> ChatContact {
        let contact = try contact(named: name)
        for file in try store.files(contactId: contact.contactId) {
            if !file.status.isFinal { _ = try? await cancelFile(file.fileId) }
            // A received file the user saved elsewhere (`/fr id path`) is theirs; ours go.
            if file.direction == .received, let path = file.filePath, path.hasPrefix(filesDirectory + "/") {
                TransferFiles.remove(path)
            }
        }
        try store.clearChat(user, contact)
        return try store.contact(id: contact.contactId)
    }

    /// Whether the user sends delivery receipts to contacts; `clearOverrides` also makes every
    /// contact follow this setting again.
    public func setContactReceipts(enable: Bool, clearOverrides: Bool) throws(ChatError) {
        try store.setContactReceipts(user, enable: enable, clearOverrides: clearOverrides)
        user.sendRcptsContacts = enable
    }

    /// Delivery receipts to one contact: on, off, or nil to follow the user's setting.
    @discardableResult
    public func setSendReceipts(_ name: String, _ enable: Bool?) throws(ChatError) -> ChatContact {
        let contact = try contact(named: name)
        try store.setSendReceipts(contact, enable)
        return try store.contact(id: contact.contactId)
    }

    /// Sets a chat's own settings (notifications, receipts, favorite) whole.
    public func setChatSettings(_ name: String, _ settings: ChatSettings) throws(ChatError) -> ChatContact {
        let contact = try contact(named: name)
        try store.setChatSettings(contact, settings)
        return try store.contact(id: contact.contactId)
    }

    /// Sets the local alias a contact is shown by.
    public func setAlias(_ name: String, alias: String) throws(ChatError) -> ChatContact {
        let contact = try contact(named: name)
        try store.setAlias(contact, alias)
        return try store.contact(id: contact.contactId)
    }

    /// Changes the user's profile and sends it to every contact (x.info).
    public func updateProfile(displayName: String, fullName: String) async throws(ChatError) {
        try await updateProfile(
            displayName: displayName, fullName: fullName, preferences: user.profile.preferences)
    }

    /// The user's new profile with its `preferences` (nil: SimpleX's defaults), sent to every
    /// contact who knows the user's own profile; the chats with them get an item for each feature
    /// the new preferences change (SimpleX `sndChatFeature`).
    public func updateProfile(displayName: String, fullName: String, preferences: JSON?)
        async throws(ChatError)
    {
        let old = user.profile.preferences
        user.profile.displayName = displayName
        user.profile.fullName = fullName
        user.profile.preferences = preferences
        try store.updateUserProfile(user, user.profile)
        var recipients: [ChatContact] = []
        for contact in try store.contacts(user) where contact.ready && contact.active {
            // A contact who knows the user by an incognito profile never learns the real one.
            guard let id = contact.agentConnectionID, try store.incognitoProfile(contactId: contact.contactId) == nil
            else { continue }
            recipients.append(contact)
            _ = try? await agent.sendMessage(id, body: try encode(.info(user.profile)))
        }
        try userPreferencesChanged(from: old, to: preferences, contacts: recipients)
    }

    // MARK: - Messages

    func encode(_ event: ChatMsgEvent, msgId: SharedMsgID? = nil) throws(ChatError) -> [UInt8] {
        do { return try ChatMessage(msgId: msgId, event: event).encoded() } catch {
            throw .invalidCommand("\(error)")
        }
    }

    func connected(_ contact: ChatContact) throws(ChatError) -> String {
        guard contact.active else { throw .contactNotActive(contact.viewName) }
        guard contact.ready, let id = contact.agentConnectionID else { throw .notConnected(contact.viewName) }
        return id
    }

    /// Sends a message, optionally replying to (quoting) an item or forwarding one.
    public func send(
        to name: String, _ content: MsgContent, quoting quoted: ChatItem? = nil, forwarded: Bool = false,
        ttl: Int? = nil
    ) async throws(ChatError) -> ChatItem {
        let contact = try contact(named: name)
        let id = try connected(contact)
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        let quote = quoted.map {
            ChatItemQuote(sharedMsgId: $0.sharedMsgId, sentByUser: $0.direction == .sent, content: $0.content)
        }
        let container = MsgContainer(
            content: content, ttl: ttl,
            quote: quoted.map {
                QuotedMsg(
                    msgRef: MsgRef(
                        msgId: $0.sharedMsgId, sentAt: ChatTimestamp($0.timestamp),
                        sent: $0.direction == .sent),
                    content: $0.content)
            }, forward: forwarded)
        let body = try encode(.msgNew(container), msgId: msgId)
        let agentMsgID: Int64
        do { agentMsgID = try await agent.sendMessage(id, body: body) } catch { throw .agent("\(error)") }
        let item = try store.insertItem(
            user, contact: contact, direction: .sent, content: content, status: .sndNew, sharedMsgId: msgId,
            agentMsgID: agentMsgID,
            quote: quote, forwarded: forwarded)
        return try timed(item, ttl: ttl)
    }

    /// Edits a sent item (x.msg.update); the old text stays in its history.
    public func edit(_ item: ChatItem, in name: String, to content: MsgContent) async throws(ChatError)
        -> ChatItem
    {
        let contact = try contact(named: name)
        guard item.direction == .sent, let msgId = item.sharedMsgId else {
            throw .invalidCommand("only your own messages can be edited")
        }
        let id = try connected(contact)
        do {
            _ = try await agent.sendMessage(
                id, body: try encode(.msgUpdate(MsgUpdate(msgId: msgId, content: content))))
        } catch {
            throw .agent("\(error)")
        }
        try store.updateContent(item, content)
        return try store.item(id: item.itemId)
    }

    /// Deletes an item: for the user only, or for everyone (x.msg.del; marked deleted for the contact).
    public func delete(_ item: ChatItem, in name: String, forEveryone: Bool) async throws(ChatError) {
        let contact = try contact(named: name)
        if forEveryone {
            guard item.direction == .sent, let msgId = item.sharedMsgId else {
                throw .invalidCommand("only your own messages can be deleted for everyone")
            }
            let id = try connected(contact)
            do {
                _ = try await agent.sendMessage(
                    id, body: try encode(.msgDel(msgId: msgId, memberId: nil, scope: nil)))
            } catch {
                throw .agent("\(error)")
            }
        }
        try store.deleteItem(item)
    }

    /// Adds or removes a reaction (x.msg.react) from SimpleX's emoji set.
    public func react(_ item: ChatItem, in name: String, emoji: MsgReactionEmoji, add: Bool)
        async throws(ChatError) -> ChatItem
    {
        let contact = try contact(named: name)
        guard let msgId = item.sharedMsgId else { throw .invalidCommand("this item cannot have reactions") }
        let id = try connected(contact)
        do {
            _ = try await agent.sendMessage(
                id,
                body: try encode(
                    .msgReact(msgId: msgId, memberId: nil, scope: nil, reaction: .emoji(emoji), add: add)))
        } catch {
            throw .agent("\(error)")
        }
        try store.setReaction(item, emoji: emoji.displayText, byUser: true, add: add)
        return try store.item(id: item.itemId)
    }
}
