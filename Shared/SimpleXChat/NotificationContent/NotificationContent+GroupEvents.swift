// What of the chat core's group events may notify: a member's message in a group, and an invitation
// to join a group (iOS: `newChatItems` with a group item, and `rcvGroupInvitation` items).

extension NotificationContent.Source {
    /// The source for a group event of `user`, or nil for events that never notify (the user's own
    /// items, refused events, joins, role changes, edits and deletions).
    init?(groupEvent event: GroupChatEvent, user: NotificationUser) {
        switch event {
        case .newItem(let group, let item):
            // A blocked member's message, or one moderated before it came, never notifies.
            guard let member = item.member, !item.isChatEvent, item.moderation == nil else { return nil }
            self.init(
                user: user, chat: group.notificationChat,
                item: .received(
                    NotificationItem.ReceivedItem(
                        content: item.deleted ? .silent : .message(item.content.notificationContent),
                        sender: member.notificationName, mentionsUser: item.userMention)))
        case .invitation(let group, let from, _):
            // The invitation is the inviting contact's message (iOS shows it in the contact's chat);
            // a click opens the group, where the user joins.
            self.init(
                user: user,
                chat: NotificationChat(kind: .direct(contact: NotificationName(from)), chatId: "#\(group.groupId)"),
                item: .received(NotificationItem.ReceivedItem(content: .groupInvitation(groupName: group.localDisplayName))))
        case .userJoined, .memberJoined, .memberAdded, .memberConnected, .memberLeft, .memberRole, .memberRemoved,
            .groupDeleted, .itemUpdated, .itemDeleted, .memberBlocked, .change, .itemReaction:
            return nil
        }
    }
}

extension ChatGroup {
    /// The group as a notification names it, with the user's notification setting for it.
    var notificationChat: NotificationChat {
        .group(NotificationName(localDisplayName, fullName: profile.fullName), groupId: groupId, notifications: enableNtfs)
    }
}

extension GroupMember {
    /// The member's names as a group notification's title shows them.
    var notificationName: NotificationName {
        NotificationName(localDisplayName, fullName: profile.fullName)
    }
}

extension GroupChatItem {
    /// An item the core wrote for an event (a refused event, one this build does not apply), not a
    /// member's message: those never notify.
    var isChatEvent: Bool {
        guard case .unknown(let type, _, _) = content else { return false }
        return type == "groupError" || type.hasPrefix("x.")
    }
}
