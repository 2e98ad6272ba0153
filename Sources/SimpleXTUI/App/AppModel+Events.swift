import Foundation
import SimpleXChat

extension AppModel {
    /// Events from the core and results of effects.
    mutating func apply(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case .chatList(let entries):
            chatList.entries = entries
            if let ref = pendingOpen, entries.contains(where: { $0.id == ref }) {
                pendingOpen = nil
                return apply(.openRequested(ref)) + apply(.chatList(entries))
            }
            if chatList.selectedID == nil || !entries.contains(where: { $0.id == chatList.selectedID }) {
                chatList.selectedID = chat?.id ?? entries.first?.id
            }
            if let chat, let contact = entries.first(where: { $0.id == chat.id })?.contact {
                self.chat?.updateContact(contact)
            }
            return []
        case .chatOpened(let contact, let items, let firstUnreadId, let focusId):
            guard chat?.contact.contactId == contact.contactId else { return [] }
            var opened = ChatViewState(contact: contact, items: items, firstUnreadId: firstUnreadId, hasNewer: focusId != nil && items.last?.itemId != chatList.entries.first { $0.id == "@\(contact.contactId)" }?.lastItem?.itemId)
            opened.highlight = chat?.highlight
            opened.filter = chat?.filter
            if let focusId {
                opened.cursorItemId = focusId
                focus = .messages
            }
            chat = opened
            return markReadEffects()
        case .olderPage(let contactId, let before, let items, let requested):
            guard chat?.contact.contactId == contactId else { return [] }
            chat?.prependOlder(items, requested: requested, before: before)
            return []
        case .newerPage(let contactId, let after, let items, let requested):
            guard chat?.contact.contactId == contactId else { return [] }
            chat?.appendNewer(items, requested: requested, after: after)
            return []
        case .ownItem(let contactId, let item):
            if chat?.contact.contactId == contactId {
                if chat?.items.contains(where: { $0.itemId == item.itemId }) == true {
                    chat?.replace(item)
                } else {
                    chat?.append(item)
                    chat?.scrollToBottom()
                }
            }
            return [.loadChatList]
        case .itemDeleted(let contactId, let itemId, let replacement):
            if chat?.contact.contactId == contactId {
                if let replacement { chat?.replace(replacement) } else { chat?.remove(itemId) }
            }
            return [.loadChatList]
        case .core(let event):
            return applyCore(event)
        case .invitation(let link):
            overlays.append(.link(title: "One-time invitation: send this link to your contact (c copies, Esc closes)", link: link))
            return [.loadChatList]
        case .address(let link):
            overlays.append(.link(title: "Your SimpleX address: anyone with it can ask to connect (c copies)", link: link))
            return []
        case .searchResults(let contactId, let text, let before, let items, let more):
            return searchPage(contactId: contactId, text: text, before: before, items, more: more)
        case .info(let title, let lines):
            overlays.append(.info(title: title, lines: lines, scroll: 0))
            return []
        case .profileCreated(let user):
            self.user = user
            overlays.removeAll { if case .prompt(let prompt) = $0 { prompt.kind == .displayName } else { false } }
            status = ("Welcome, \(user.profile.displayName)! Ctrl+N makes an invitation link, Ctrl+O connects via one", false)
            return [.loadChatList]
        case .failed(let message):
            status = (message, true)
            if chat?.loading == true { chat?.loading = false }
            if search?.loading == true { search?.pageFailed() }
            return []
        case .notice(let message):
            status = (message, false)
            return []
        case .editorClosed(let text):
            if let text { compose = ComposeState(text: text, mode: compose.mode) }
            return []
        case .openRequested(let ref):
            if let group = chatList.entries.first(where: { $0.id == ref })?.group { return open(group: group) }
            guard let entry = chatList.entries.first(where: { $0.id == ref }), let contact = entry.contact else {
                pendingOpen = ref
                return []
            }
            overlays.removeAll { if case .prompt(let prompt) = $0 { prompt.kind != .displayName } else { true } }
            chatList.selectedID = entry.id
            return open(contact: contact, around: nil)
        case .globalResults(let text, let found):
            if found.isEmpty {
                status = ("nothing found for “\(text)”", true)
            } else {
                overlays.append(.searchResults(text: text, found, selected: 0))
            }
            return []
        case .shareRequested(let id, let summary):
            overlays.append(.shareTo(id: id, summary: summary, ChatListView(entries: chatList.entries.filter { $0.contact?.ready == true })))
            return []
        case .connectRequested(let link):
            overlays.append(
                .prompt(TextPrompt(kind: .connectLink, title: "Connect via link", hint: "Enter connects, Esc cancels", text: link)))
            return []
        case .groupOpened(let group, let items):
            return groupOpened(group, items)
        case .groupMemberNames(let groupId, let names):
            if groupChat?.group.groupId == groupId { groupChat?.memberNames = names }
            return []
        case .groupCreated(let group):
            return groupCreated(group)
        case .groupMembers, .groupLink, .groupLeft, .groupDeleted, .groupReports:
            return applyGroupResult(event)
        case .servers, .serverTested, .notificationStatus, .profileUpdated, .contactChanged, .contactDeleted:
            return applySettingsResult(event)
        case .key, .resize, .tick, .terminalClosed, .deviceAttributes, .lockIdle, .passcodeChecked, .lockChanged, .chatDataChanged:
            return []
        }
    }

    /// The open chat is read when it is shown with focus.
    mutating func markReadEffects() -> [AppEffect] {
        guard !lock.locked, let chat, let entry = openEntry, entry.unreadCount > 0 || entry.unreadChat, !isNarrow || narrowShowsChat else {
            return []
        }
        chatList.markedRead(chat.contact.contactId)
        return [.markRead(contactId: chat.contact.contactId)]
    }

    private mutating func applyCore(_ event: ChatEvent) -> [AppEffect] {
        switch event {
        case .newItem(let contact, let item):
            // The list follows here, without asking the core for all of it again (at 2,000
            // messages a second those reloads took a core); a chat it does not have yet is loaded.
            let seen = chat?.contact.contactId == contact.contactId && item.direction == .received && userSees
                && (!isNarrow || narrowShowsChat)
            // Event items the core stores read (feature changes, the encryption note) add nothing unread.
            let listed = chatList.received(
                item, from: contact,
                read: seen || item.direction == .sent || (item.event != nil && item.status == .rcvRead))
            let reload: [AppEffect] = listed ? [] : [.loadChatList]
            if chat?.contact.contactId == contact.contactId {
                chat?.append(item)
                if seen {
                    chatList.markedRead(contact.contactId)
                    return reload + [.markRead(contactId: contact.contactId)]
                }
            }
            // Not on screen, or the terminal is in the background: a desktop notification.
            // (Never for an event item of the core: SimpleX notifies messages only.)
            return item.direction == .received && item.event == nil ? reload + [.notify(event)] : reload
        case .itemUpdated(let contact, let item), .itemStatus(let contact, let item), .itemReaction(let contact, let item, _, _):
            if chat?.contact.contactId == contact.contactId { chat?.replace(item) }
            // Only the last item shows in the list.
            chatList.changed(item, of: contact)
            return []
        case .itemDeleted(let contact, let item):
            if chat?.contact.contactId == contact.contactId {
                if item.deleted { chat?.replace(item) } else { chat?.remove(item.itemId) }
            }
            return [.loadChatList]
        case .itemsExpired(let contact, let items):
            if chat?.contact.contactId == contact.contactId { items.forEach { chat?.remove($0.itemId) } }
            return [.loadChatList]
        case .contactConnected(let contact):
            status = ("\(contact.viewName) is connected", false)
            if chat?.contact.contactId == contact.contactId { chat?.updateContact(contact) }
            return [.loadChatList]
        case .contactPreferencesUpdated:
            return []  // told by the feature items in the chat
        case .contactUpdated(let contact, _), .contactSwitchedDevice(let contact):
            if chat?.contact.contactId == contact.contactId { chat?.updateContact(contact) }
            return [.loadChatList]
        case .contactRequest(let request):
            status = ("\(request.localDisplayName) wants to connect: it is first in the chat list", false)
            return userSees ? [.loadChatList] : [.loadChatList, .notify(event)]
        case .chatRead:
            return [.loadChatList]
        case .group(let groupEvent):
            var effects = applyGroup(groupEvent)
            switch groupEvent {
            case .newItem(let group, let item) where item.member != nil:
                // A member's message in a group not on screen, or while the terminal is away: the
                // notifier decides (refused events, a muted group stay quiet).
                if groupChat?.group.groupId != group.groupId || !userSees { effects.append(.notify(event)) }
            case .invitation:
                effects.append(.notify(event))
            default:
                break
            }
            return effects
        case .file(let fileEvent):
            return applyFile(fileEvent)
        case .error(let message):
            status = (message, true)
            return []
        }
    }

    private mutating func applyFile(_ event: ChatFileEvent) -> [AppEffect] {
        let file: ChatFile
        switch event {
        case .rcvAccepted(_, let f), .rcvStarted(_, let f), .rcvProgress(_, let f, _), .rcvComplete(_, let f),
            .rcvError(_, let f, _), .rcvCancelledBySender(_, let f), .sndStarted(_, let f), .sndProgress(_, let f, _),
            .sndComplete(_, let f), .sndError(_, let f, _), .sndCancelledByRecipient(_, let f):
            file = f
        }
        if case .rcvError(_, _, let reason) = event { status = ("\(file.fileName): \(reason)", true) }
        if case .sndError(_, _, let reason) = event { status = ("\(file.fileName): \(reason)", true) }
        guard var chat, chat.contact.contactId == file.contactId, let itemId = file.itemId,
            var item = chat.items.first(where: { $0.itemId == itemId })
        else { return [] }
        item.file = file
        if case .rcvProgress(_, _, let percent) = event { fileProgress[file.fileId] = percent }
        if case .sndProgress(_, _, let percent) = event { fileProgress[file.fileId] = percent }
        if file.status.isFinal { fileProgress[file.fileId] = nil }
        chat.replace(item)
        self.chat = chat
        return []
    }
}

extension AppModel {
    /// A page of the open chat's search: the first shows the newest result; a later one, asked
    /// for as the user stepped past the last result, the first of it.
    mutating func searchPage(contactId: Int64, text: String, before: Int64?, _ items: [ChatItem], more: Bool)
        -> [AppEffect]
    {
        guard chat?.contact.contactId == contactId, var search,
            search.receive(contactId: contactId, text: text, before: before, items, more: more)
        else { return [] }
        self.search = search
        if before != nil {
            guard search.takeStepOnArrival(), let first = items.first, var chat else { return [] }
            self.search = search
            defer { self.chat = chat }
            return showSearchResult(first.itemId, in: &chat)
        }
        guard let newest = items.first else {
            status = ("nothing found for “\(text)”", true)
            return []
        }
        status = ("\(search.countText) found for “\(text)”: n / N next and previous", false)
        focus = .messages
        chat?.cursorItemId = newest.itemId
        if chat?.items.contains(where: { $0.itemId == newest.itemId }) == false {
            return [.openChat(contactId: contactId, around: newest.itemId)]
        }
        return []
    }

    /// The cursor on search result `id`, the chat opened around it when the window does not
    /// hold it.
    mutating func showSearchResult(_ id: Int64, in chat: inout ChatViewState) -> [AppEffect] {
        chat.cursorItemId = id
        if let search {
            status = ("result \((search.results.firstIndex(of: id) ?? 0) + 1) of \(search.countText)", false)
        }
        if !chat.items.contains(where: { $0.itemId == id }) {
            return [.openChat(contactId: chat.contact.contactId, around: id)]
        }
        return []
    }

    /// The page of the open chat that the drawn `screen` asks for, older first, or nil; the chat
    /// is then loading until the page comes (no second request meanwhile).
    public mutating func pageRequest(_ screen: AppView.Screen) -> AppEffect? {
        guard let chat else { return nil }
        if screen.wantsOlder, let oldest = chat.items.first {
            self.chat?.loading = true
            return .loadOlder(
                contactId: chat.contact.contactId, before: oldest.itemId, count: ChatViewState.pageSize,
                filter: chat.filter)
        }
        if screen.wantsNewer, let newest = chat.items.last {
            self.chat?.loading = true
            return .loadNewer(
                contactId: chat.contact.contactId, after: newest.itemId, count: ChatViewState.pageSize,
                filter: chat.filter)
        }
        return nil
    }
}
