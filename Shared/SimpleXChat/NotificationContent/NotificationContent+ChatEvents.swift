// What of the chat core's events may notify, as `NotificationContent.Source` values: the bridge from
// the core's model (ChatEvent, ChatContact, ChatItem) to the pure notification inputs.

extension NotificationContent.Source {
    /// The source for `event` of `user`'s chat, or nil for events that never notify (sent items,
    /// event items, edits, deletions, reactions, statuses, file progress, errors, group events other
    /// than messages and invitations).
    public init?(event: ChatEvent, user: ChatUser) {
        let notificationUser = NotificationUser(userId: user.userId)
        switch event {
        case .newItem(let contact, let item):
            // Event items (integrity and decryption errors, feature changes) never notify, as in
            // SimpleX, whose notifications are for messages.
            guard item.direction == .received, item.event == nil else { return nil }
            self.init(
                user: notificationUser,
                chat: .direct(contact.notificationName, contactId: contact.contactId, notifications: contact.enableNtfs),
                item: .received(item.notificationItem))
        case .contactConnected(let contact):
            self.init(
                user: notificationUser, chat: .direct(contact.notificationName, contactId: contact.contactId),
                item: .contactConnected)
        case .contactRequest(let request):
            let name = NotificationName(request.profile.displayName, fullName: request.profile.fullName)
            self.init(
                user: notificationUser, chat: .contactRequest(name, contactRequestId: request.requestId),
                item: .contactRequest)
        case .group(let event):
            self.init(groupEvent: event, user: notificationUser)
        case .itemUpdated, .itemDeleted, .itemReaction, .itemStatus, .itemsExpired, .contactUpdated,
            .contactPreferencesUpdated,
            .contactSwitchedDevice, .file, .error, .chatRead:
            return nil
        }
    }
}

extension ChatContact {
    /// The contact's names as notifications show them (the local alias first, iOS `Contact.displayName`).
    var notificationName: NotificationName {
        NotificationName(profile.displayName, fullName: profile.fullName, localAlias: localAlias)
    }
}

extension ChatItem {
    /// A received item reduced to what its notification shows; a deleted item is silent.
    var notificationItem: NotificationItem.ReceivedItem {
        guard !deleted else { return NotificationItem.ReceivedItem(content: .silent) }
        return NotificationItem.ReceivedItem(content: .message(content.notificationContent), fileName: file?.fileName)
    }
}

extension MsgContent {
    var notificationContent: NotificationItem.MessageContent {
        switch self {
        case .text(let text): .text(text)
        case .link(let text, _): .link(text: text)
        case .image(let text, _): .image(text: text)
        case .video(let text, _, let duration): .video(text: text, duration: duration)
        case .voice(let text, let duration): .voice(text: text, duration: duration)
        case .file(let text): .file(text: text)
        case .report(let text, let reason): .report(text: text, reason: reason.notificationReason)
        case .chat(let text, _): .chat(text: text)
        case .unknown(let type, let text, _): .unknown(type: type, text: text)
        }
    }
}

extension ReportReason {
    var notificationReason: NotificationItem.ReportReason {
        switch self {
        case .spam: .spam
        case .content: .illegal
        case .community: .community
        case .profile: .profile
        case .other: .other
        case .unknown(let type): .unknown(type)
        }
    }
}
