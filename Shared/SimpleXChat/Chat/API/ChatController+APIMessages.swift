import Foundation
import SimpleXProtocol

extension ChatController {
    // MARK: - Messages

    func sendMessages(_ messages: [ComposedMessage], to ref: ChatRef, live: Bool, ttl: Int?)
        async throws(ChatAPIError) -> ChatResponse
    {
        guard !live else { throw .commandError("live messages are not supported yet") }
        let contact = try self.contact(ref)
        let name = try chatName(contact)
        var sent: [ChatItem] = []
        for message in messages {
            guard message.fileSource == nil else { throw .commandError("sending files is not supported yet") }
            let quoted = try message.quotedItemId.map { id throws(ChatAPIError) in
                try self.item(id, in: contact)
            }
            let sentItem = try await api { () async throws(ChatError) in
                try await send(to: name, message.msgContent, quoting: quoted, ttl: ttl)
            }
            sent.append(sentItem)
        }
        return .newChatItems(user: user, chatItems: sent.map { .direct(contact, $0) })
    }

    func updateItem(_ itemId: Int64, in ref: ChatRef, to message: UpdatedMessage, live: Bool)
        async throws(ChatAPIError) -> ChatResponse
    {
        guard !live else { throw .commandError("live messages are not supported yet") }
        let contact = try self.contact(ref)
        let item = try self.item(itemId, in: contact)
        guard item.direction == .sent, item.sharedMsgId != nil, !item.deleted else {
            throw .invalidChatItemUpdate
        }
        if item.content == message.msgContent {
            return .chatItemNotChanged(user: user, chatItem: .direct(contact, item))
        }
        let name = try chatName(contact)
        let edited = try await api { () async throws(ChatError) in
            try await edit(item, in: name, to: message.msgContent)
        }
        return .chatItemUpdated(user: user, chatItem: .direct(contact, edited))
    }

    func deleteItems(_ itemIds: [Int64], in ref: ChatRef, mode: CIDeleteMode) async throws(ChatAPIError)
        -> ChatResponse
    {
        guard mode != .internalMark else {
            throw .commandError("internalMark is not supported yet: use internal or broadcast")
        }
        let contact = try self.contact(ref)
        let name = try chatName(contact)
        var items: [ChatItem] = []
        for id in itemIds {
            let item = try self.item(id, in: contact)
            if mode == .broadcast, item.direction != .sent || item.sharedMsgId == nil {
                throw .invalidChatItemDelete
            }
            items.append(item)
        }
        var deletions: [ChatItemDeletion] = []
        for item in items {
            try await api { () async throws(ChatError) in
                try await delete(item, in: name, forEveryone: mode == .broadcast)
            }
            deletions.append(ChatItemDeletion(deletedChatItem: .direct(contact, item), toChatItem: nil))
        }
        return .chatItemsDeleted(user: user, chatItemDeletions: deletions, byUser: true)
    }

    func reactToItem(_ itemId: Int64, in ref: ChatRef, add: Bool, reaction: MsgReaction)
        async throws(ChatAPIError) -> ChatResponse
    {
        guard case .emoji(let emoji) = reaction else {
            throw .commandError("only SimpleX's emoji reactions can be sent")
        }
        let contact = try self.contact(ref)
        let item = try self.item(itemId, in: contact)
        let name = try chatName(contact)
        let reacted = try await api { () async throws(ChatError) in
            try await react(item, in: name, emoji: emoji, add: add)
        }
        let aciReaction = ACIReaction(
            chatInfo: .direct(contact: contact), chatDir: .sent, chatItem: reacted, sentAt: store.now(),
            reaction: reaction)
        return .chatItemReaction(user: user, added: add, reaction: aciReaction)
    }

    func forwardItems(_ itemIds: [Int64], from: ChatRef, to: ChatRef, ttl: Int?) async throws(ChatAPIError)
        -> ChatResponse
    {
        let source = try self.contact(from)
        let target = try self.contact(to)
        var items: [ChatItem] = []
        for id in itemIds {
            let item = try self.item(id, in: source)
            guard !item.deleted else { throw .invalidForward }
            items.append(item)
        }
        let name = try chatName(target)
        var sent: [ChatItem] = []
        for item in items {
            sent.append(
                try await api { () async throws(ChatError) in
                    try await send(to: name, item.content, forwarded: true, ttl: ttl)
                })
        }
        return .newChatItems(user: user, chatItems: sent.map { .direct(target, $0) })
    }

    /// Changes the display and full name (the other profile fields are not kept yet).
    func updateUserProfile(_ profile: Profile) async throws(ChatAPIError) -> ChatResponse {
        let old = user.profile
        guard !profile.displayName.isEmpty, !profile.displayName.contains(" ") else {
            throw .commandError("the display name must be one word")
        }
        if profile.displayName == old.displayName && profile.fullName == old.fullName
            && ChatPreferences(json: profile.preferences) == ChatPreferences(json: old.preferences)
        {
            return .userProfileNoChange(user: user)
        }
        let recipients = try api { () throws(ChatError) in
            var recipients: [ChatContact] = []
            for contact in try store.contacts(user) where contact.ready && contact.agentConnectionID != nil {
                if try store.incognitoProfile(contactId: contact.contactId) == nil { recipients.append(contact) }
            }
            return recipients
        }
        try await api { () async throws(ChatError) in
            try await updateProfile(
                displayName: profile.displayName, fullName: profile.fullName, preferences: profile.preferences)
        }
        return .userProfileUpdated(
            user: user, fromProfile: old, toProfile: user.profile,
            updateSummary: UserProfileUpdateSummary(updateSuccesses: recipients.count, updateFailures: 0))
    }

    /// The user's profile with new preferences (`/set voice no`, ...).
    func updateUserPreferences(_ preferences: ChatPreferences) async throws(ChatAPIError) -> ChatResponse {
        var profile = user.profile
        profile.preferences = preferences.json
        return try await updateUserProfile(profile)
    }

    // MARK: - Lookups

    /// Runs a chat core call, its error reported as the API reports it.
    func api<T>(_ body: () throws(ChatError) -> T) throws(ChatAPIError) -> T {
        do { return try body() } catch { throw ChatAPIError(error) }
    }

    func api<T>(_ body: () async throws(ChatError) -> T) async throws(ChatAPIError) -> T {
        do { return try await body() } catch { throw ChatAPIError(error) }
    }

    /// A command for user `userId` must be for the active user; incognito is not supported yet.
    func checkUser(_ userId: Int64, incognito: Bool = false) throws(ChatAPIError) {
        guard userId == user.userId else {
            throw .differentActiveUser(commandUserId: userId, activeUserId: user.userId)
        }
        guard !incognito else { throw .commandError("incognito connections are not supported yet") }
    }

    /// The contact a direct chat reference names.
    func contact(_ ref: ChatRef) throws(ChatAPIError) -> ChatContact {
        guard ref.chatType == .direct else {
            throw .commandError("\(ref): only direct chats (@contactId) are supported by this build")
        }
        guard let contact = try api({ () throws(ChatError) in try store.contact(id: ref.chatId, of: user) })
        else {
            throw .contactNotFound(contactId: ref.chatId)
        }
        return contact
    }

    /// Item `id` of the contact's chat.
    func item(_ id: Int64, in contact: ChatContact) throws(ChatAPIError) -> ChatItem {
        let item: ChatItem
        do { item = try store.item(id: id) } catch { throw ChatAPIError(error) }
        guard item.contactId == contact.contactId else { throw .chatItemNotFound(itemId: id) }
        return item
    }

    func request(_ id: Int64) throws(ChatAPIError) -> ChatContactRequest {
        guard let request = try api({ () throws(ChatError) in try store.request(id: id, user) }) else {
            throw .contactRequestNotFound(contactRequestId: id)
        }
        return request
    }

    /// The name the chat core's commands know `contact` by. Names are unique, but a lookup by
    /// name also matches aliases, so one equal to another contact's alias is refused rather than
    /// acting on the wrong chat.
    func chatName(_ contact: ChatContact) throws(ChatAPIError) -> String {
        let name = contact.localDisplayName
        guard (try? self.contact(named: name))?.contactId == contact.contactId else {
            throw .commandError(
                "@\(contact.contactId) cannot be named unambiguously: another contact's alias is \(name)")
        }
        return name
    }

    /// The connection the last invitation or join made.
    func newestPendingConnection() throws(ChatAPIError) -> PendingContactConnection {
        guard let connection = try api({ () throws(ChatError) in try store.pendingConnections(user) }).first
        else {
            throw .internalError("the new connection was not stored")
        }
        return connection
    }
}
