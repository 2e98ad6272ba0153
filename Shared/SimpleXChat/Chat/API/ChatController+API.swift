import Foundation
import SimpleXProtocol

extension ChatController {
    /// Runs one command (SimpleX `chat_send_cmd`): the answer, or `.chatCmdError` with why it failed.
    public func execute(_ command: ChatCommand) async -> ChatResponse {
        do {
            return try await run(command)
        } catch {
            return .chatCmdError(user: user, chatError: error)
        }
    }

    /// Parses `text` (SimpleX syntax) and runs it; text that is no command is a `commandError`.
    public func execute(_ text: String) async -> ChatResponse {
        do {
            return await execute(try ChatCommand.parse(text))
        } catch {
            return .chatCmdError(user: user, chatError: .commandError("\(error)"))
        }
    }

    /// Whether `start()` has run.
    public var isStarted: Bool { agentEvents != nil }

    /// Waits until the agent has handed every waiting message to its relay, or `timeout` passes;
    /// returns whether nothing is left waiting.
    public func waitForDeliveries(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while await agent.hasPendingDeliveries {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    private func run(_ command: ChatCommand) async throws(ChatAPIError) -> ChatResponse {
        switch command {
        case .showActiveUser:
            return .activeUser(user: user)
        case .createActiveUser(let name):
            // One user profile per group directory in this build.
            throw name == user.localDisplayName
                ? .userExists(contactName: name)
                : .commandError(
                    "only one user profile is supported; the active user is \(user.localDisplayName)")
        case .startChat:
            if isStarted { return .chatRunning }
            await start()
            return .chatStarted
        case .apiGetChats(let userId, let pendingConnections):
            try checkUser(userId)
            return .apiChats(user: user, chats: try chats(pendingConnections: pendingConnections))
        case .apiGetChat(let ref, let content, let pagination, let search) where ref.chatType == .group:
            guard content == nil, search == nil, case .last(let count) = pagination else {
                throw .commandError("\(ref): a group's page is its last items (count=N) in this build")
            }
            return .apiChat(user: user, chat: try groupChat(ref.chatId, count: count))
        case .apiGetChat(let ref, let content, let pagination, let search):
            let contact = try self.contact(ref)
            let items = try page(contact, pagination, content: content, search: search)
            let stats = try api { () throws(ChatError) in try store.chatStats(user, contact) }
            return .apiChat(
                user: user,
                chat: ChatData(chatInfo: .direct(contact: contact), chatItems: items, chatStats: stats))
        case .apiGetChatItemInfo(let ref, let itemId):
            let contact = try self.contact(ref)
            let item = try self.item(itemId, in: contact)
            let info = try api { () throws(ChatError) in try store.info(item) }
            return .chatItemInfo(user: user, chatItem: .direct(contact, item), chatItemInfo: info)
        case .apiSendMessages(let ref, let live, let ttl, let messages):
            return try await sendMessages(messages, to: ref, live: live, ttl: ttl)
        case .apiUpdateChatItem(let ref, let itemId, let live, let message):
            return try await updateItem(itemId, in: ref, to: message, live: live)
        case .apiDeleteChatItem(let ref, let itemIds, let mode):
            return try await deleteItems(itemIds, in: ref, mode: mode)
        case .apiChatItemReaction(let ref, let itemId, let add, let reaction):
            return try await reactToItem(itemId, in: ref, add: add, reaction: reaction)
        case .apiForwardChatItems(let to, let from, let itemIds, let ttl):
            return try await forwardItems(itemIds, from: from, to: to, ttl: ttl)
        case .apiChatRead(let ref):
            // Through the controller: read items get their status event, disappearing ones
            // start their timers, and the user's "unread" mark is cleared.
            let contact = try self.contact(ref)
            try api { () throws(ChatError) in _ = try markRead(contactId: contact.contactId) }
            return .cmdOk(user: user)
        case .apiChatItemsRead(let ref, let itemIds):
            let contact = try self.contact(ref)
            try api { () throws(ChatError) in _ = try markRead(contactId: contact.contactId, itemIds: itemIds)
            }
            return .itemsReadForChat(user: user, chatInfo: .direct(contact: contact))
        case .apiChatUnread(let ref, let unread):
            let contact = try self.contact(ref)
            try api { () throws(ChatError) in try store.setUnreadChat(contact, unread) }
            return .cmdOk(user: user)
        case .apiAddContact(let userId, let incognito):
            try checkUser(userId, incognito: incognito)
            let link = try await api { () async throws(ChatError) in try await createInvitation() }
            return .invitation(
                user: user, connLinkInvitation: link, connection: try newestPendingConnection())
        case .apiConnect(let userId, let incognito, let text):
            try checkUser(userId, incognito: incognito)
            guard let link = try? ConnectionLink(text) else { throw .invalidConnReq }
            try await api { () async throws(ChatError) in try await connect(link: text) }
            let connection = try newestPendingConnection()
            return link.isContactAddress
                ? .sentInvitation(user: user, connection: connection)
                : .sentConfirmation(user: user, connection: connection)
        case .apiAcceptContact(let incognito, let requestId):
            let request = try self.request(requestId)
            let contact = try await api { () async throws(ChatError) in
                try await acceptContact(request.localDisplayName, incognito: incognito)
            }
            return .acceptingContactRequest(user: user, contact: contact)
        case .apiCreateGroupLink, .apiGroupLinkMemberRole, .apiDeleteGroupLink, .apiGetGroupLink,
            .apiUpdateGroupProfile, .apiBlockMembersForAll, .apiDeleteMemberChatItem:
            return try await runGroup(command)
        case .apiCreateMyAddress(let userId):
            try checkUser(userId)
            let link = try await api { () async throws(ChatError) in try await createAddress() }
            return .userContactLinkCreated(user: user, connLinkContact: link)
        case .apiShowMyAddress(let userId):
            try checkUser(userId)
            return .userContactLink(
                user: user, connLinkContact: try api { () throws(ChatError) in try existingAddress() })
        case .apiDeleteMyAddress(let userId):
            try checkUser(userId)
            try await api { () async throws(ChatError) in try await deleteAddress() }
            return .userContactLinkDeleted(user: user)
        case .apiRejectContact(let requestId):
            let request = try self.request(requestId)
            try await api { () async throws(ChatError) in try await rejectContact(request.localDisplayName) }
            return .contactRequestRejected(user: user, contactRequest: request)
        case .apiDeleteChat(let ref, let mode):
            let contact = try self.contact(ref)
            guard mode == .full(notify: true) else {
                throw .commandError(
                    "only /_delete \(ref) full notify=on is supported (the contact and its messages)")
            }
            let name = try chatName(contact)
            try await api { () async throws(ChatError) in try await deleteContact(name) }
            return .contactDeleted(user: user, contact: contact)
        case .apiClearChat(let ref):
            let name = try chatName(try self.contact(ref))
            let contact = try await api { () async throws(ChatError) in try await clearChat(name) }
            return .chatCleared(user: user, chatInfo: .direct(contact: contact))
        case .apiListContacts(let userId):
            try checkUser(userId)
            return .contactsList(
                user: user, contacts: try api { () throws(ChatError) in try store.contacts(user) })
        case .apiSetContactAlias(let contactId, let alias):
            let name = try chatName(try contact(.direct(contactId)))
            let contact = try api { () throws(ChatError) in try setAlias(name, alias: alias) }
            return .contactAliasUpdated(user: user, toContact: contact)
        case .apiUpdateProfile(let userId, let profile):
            try checkUser(userId)
            return try await updateUserProfile(profile)
        case .apiSetUserContactReceipts(let userId, let enable, let clear):
            try checkUser(userId)
            try api { () throws(ChatError) in try setContactReceipts(enable: enable, clearOverrides: clear) }
            return .cmdOk(user: user)
        case .setUserContactReceipts(let enable, let clear):
            try api { () throws(ChatError) in try setContactReceipts(enable: enable, clearOverrides: clear) }
            return .cmdOk(user: user)
        case .setUserFeature(let feature, let allowed):
            let preferences = ChatPreferences(json: user.profile.preferences)
            let ttl = preferences.preference(feature).ttl
            return try await updateUserPreferences(
                preferences.setting(feature, FeaturePreference(allow: allowed, ttl: ttl)))
        case .setUserTimedMessages(let allow):
            let preferences = ChatPreferences(json: user.profile.preferences)
            let ttl = preferences.preference(.timedMessages).ttl
            return try await updateUserPreferences(
                preferences.setting(.timedMessages, FeaturePreference(allow: allow ? .yes : .no, ttl: ttl)))
        case .setAllContactReceipts(let enable):
            // One user per database here: "all users" is this one, contacts' own settings kept.
            try api { () throws(ChatError) in try setContactReceipts(enable: enable, clearOverrides: false) }
            return .cmdOk(user: user)
        case .setSendReceipts(let name, let enable):
            try api { () throws(ChatError) in _ = try setSendReceipts(name, enable) }
            return .cmdOk(user: user)
        case .apiSetChatSettings(let ref, let settings) where ref.chatType == .group:
            try api { () throws(ChatError) in
                try store.setGroupNotifications(groupId: try store.group(id: ref.chatId).groupId, settings.enableNtfs)
            }
            return .cmdOk(user: user)
        case .apiSetChatSettings(let ref, let settings):
            let name = try chatName(try contact(ref))
            try api { () throws(ChatError) in _ = try setChatSettings(name, settings) }
            return .cmdOk(user: user)
        case .setShowMessages(let name, let enableNtfs):
            try api { () throws(ChatError) in
                var settings = try contact(named: name).chatSettings
                settings.enableNtfs = enableNtfs
                _ = try setChatSettings(name, settings)
            }
            return .cmdOk(user: user)
        case .setGroupShowMessages(let name, let enableNtfs):
            try api { () throws(ChatError) in
                try store.setGroupNotifications(groupId: try store.group(named: name, user).groupId, enableNtfs)
            }
            return .cmdOk(user: user)
        case .apiParseMarkdown(let text):
            return .parsedMarkdown(text)
        case .getUserProtoServers:
            return .userProtoServers(
                user: user, servers: try api { () throws(ChatError) in try store.servers(user) })
        case .setUserProtoServers(let texts):
            var servers: [String] = []
            for text in texts {
                do { servers.append(try SMPServerAddress(text).description) } catch {
                    throw .commandError("bad relay address \(text): \(error)")
                }
            }
            try api { () throws(ChatError) in try store.setServers(user, servers) }
            return .cmdOk(user: user)
        }
    }

    // MARK: - Reading

    private func chats(pendingConnections: Bool) throws(ChatAPIError) -> [ChatData] {
        try api { () throws(ChatError) in
            var chats: [ChatData] = []
            if pendingConnections {
                for connection in try store.pendingConnections(user) {
                    chats.append(
                        ChatData(
                            chatInfo: .contactConnection(connection), chatItems: [], chatStats: ChatStats()))
                }
            }
            // The list carries each chat's stats: no query per chat.
            for preview in try previewsWithFiles() {
                chats.append(
                    ChatData(
                        chatInfo: .direct(contact: preview.contact),
                        chatItems: preview.lastItem.map { [$0] } ?? [],
                        chatStats: ChatStats(
                            unreadCount: preview.unreadCount, minUnreadItemId: preview.minUnreadItemId,
                            unreadChat: preview.unreadChat)))
            }
            return try Self.mergedByRecency(chats, groups: store.groups(user).map { group throws(ChatError) in
                ChatData(
                    chatInfo: .group(groupInfo: group), chatItems: [],
                    groupItems: try store.groupItems(groupId: group.groupId, count: 1), chatStats: ChatStats())
            })
        }
    }

    /// A page of a chat, oldest first (SimpleX `ChatPagination`), through the indexed reading
    /// queries; with `search`, only the items containing the text.
    private func page(
        _ contact: ChatContact, _ pagination: ChatPagination, content: ChatContentFilter?, search: String?
    )
        throws(ChatAPIError) -> [ChatItem]
    {
        try api { () throws(ChatError) in
            switch pagination {
            case .before(let id, _), .after(let id, _), .around(let id, _):
                // The item a page is anchored at must be in this chat.
                guard try store.item(id: id).contactId == contact.contactId else {
                    throw .itemNotFound("#\(id)")
                }
            case .last, .initial:
                break
            }
            return try chatItems(
                contactId: contact.contactId, pagination, filter: content,
                search: search?.isEmpty == false ? search : nil)
        }
    }
}

extension ChatController {
    /// A group's last `count` items, oldest first (`/_get chat #1 count=50`).
    func groupChat(_ groupId: Int64, count: Int) throws(ChatAPIError) -> ChatData {
        try api { () throws(ChatError) in
            let group = try store.group(id: groupId)
            return ChatData(
                chatInfo: .group(groupInfo: group), chatItems: [],
                groupItems: try store.groupItems(groupId: groupId, count: count), chatStats: ChatStats())
        }
    }

    /// The chat list with the groups among the contacts, most recent last item first; chats
    /// without items keep their order after those with.
    static func mergedByRecency(_ chats: [ChatData], groups: [ChatData]) -> [ChatData] {
        func latest(_ chat: ChatData) -> Date {
            chat.chatItems.last?.timestamp ?? chat.groupItems.last?.timestamp ?? .distantPast
        }
        let pending = chats.filter { if case .contactConnection = $0.chatInfo { true } else { false } }
        let rest = (chats.filter { if case .contactConnection = $0.chatInfo { false } else { true } } + groups)
        return pending
            + rest.enumerated().sorted { (latest($0.element), $1.offset) > (latest($1.element), $0.offset) }.map(\.element)
    }
}
