import Foundation

extension ChatEvent {
    /// The SimpleX event type this event is sent as (`newChatItems`, `contactConnected`, ...).
    public var eventType: String {
        switch self {
        case .contactConnected: "contactConnected"
        case .contactRequest: "receivedContactRequest"
        case .newItem: "newChatItems"
        case .itemUpdated: "chatItemUpdated"
        case .itemDeleted, .itemsExpired: "chatItemsDeleted"
        case .itemReaction: "chatItemReaction"
        case .itemStatus: "chatItemsStatusesUpdated"
        case .contactUpdated: "contactUpdated"
        case .contactPreferencesUpdated: "contactPrefsUpdated"
        case .contactSwitchedDevice: "contactAnotherClient"
        case .error: "chatError"
        // SimpleX answers a read with cmdOk and tells no one; this core tells its own process.
        case .chatRead: "chatRead"
        case .file(let event): event.eventType
        }
    }

    /// The event as `chat_recv_msg_wait` returns it: `{"result":{"type":"newChatItems",...}}`.
    /// `now` is when a received reaction is taken to have been sent (the store keeps no time).
    public func json(user: ChatUser, at now: Date = Date()) -> JSON {
        ["result": eventJSON(user: user, at: now)]
    }

    /// The tagged event object.
    public func eventJSON(user: ChatUser, at now: Date = Date()) -> JSON {
        let type = eventType
        switch self {
        case .contactConnected(let contact), .contactSwitchedDevice(let contact):
            return tagged(type, ["user": user.json, "contact": contact.json])
        case .contactRequest(let request):
            return tagged(type, ["user": user.json, "contactRequest": request.json])
        case .newItem(let contact, let item), .itemStatus(let contact, let item):
            return tagged(type, ["user": user.json, "chatItems": [AChatItem.direct(contact, item).json]])
        case .itemUpdated(let contact, let item):
            return tagged(type, ["user": user.json, "chatItem": AChatItem.direct(contact, item).json])
        case .itemDeleted(let contact, let item):
            // The contact deleted it for everyone: the item stays, marked deleted.
            let deletion = ChatItemDeletion(
                deletedChatItem: .direct(contact, item), toChatItem: .direct(contact, item))
            return tagged(
                type,
                ["user": user.json, "chatItemDeletions": [deletion.json], "byUser": false, "timed": false])
        case .itemsExpired(let contact, let items):
            // Disappearing messages whose time came: deleted, by the timer.
            let deletions = items.map {
                ChatItemDeletion(deletedChatItem: .direct(contact, $0), toChatItem: nil).json
            }
            return tagged(
                type,
                ["user": user.json, "chatItemDeletions": .array(deletions), "byUser": false, "timed": true])
        case .itemReaction(let contact, let item, let emoji, let add):
            let reaction = ACIReaction(
                chatInfo: .direct(contact: contact), chatDir: .received, chatItem: item, sentAt: now,
                reaction: MsgReactionEmoji.allCases.first { $0.displayText == emoji || $0.rawValue == emoji }
                    .map(MsgReaction.emoji)
                    ?? .unknown(type: "emoji", json: ["type": "emoji", "emoji": .string(emoji)]))
            return tagged(type, ["user": user.json, "added": .bool(add), "reaction": reaction.json])
        case .chatRead(let contact):
            return tagged(type, ["user": user.json, "chatInfo": ChatInfo.direct(contact: contact).json])
        case .contactPreferencesUpdated(let contact, _, let old, let new):
            var before = contact.json
            var after = contact.json
            if case .object(var members) = before {
                members["preferences"] = old.json
                before = .object(members)
            }
            if case .object(var members) = after {
                members["preferences"] = new.json
                after = .object(members)
            }
            return tagged(type, ["user": user.json, "fromContact": before, "toContact": after])
        case .contactUpdated(let contact, let old):
            return tagged(type, ["user": user.json, "fromContact": old.json, "toContact": contact.json])
        case .error(let message):
            return tagged(type, ["user_": user.json, "chatError": ChatAPIError.internalError(message).json])
        case .file(let event):
            var members: JSONObject = ["type": .string(type), "user": user.json]
            for member in event.members { members[member.key] = member.value }
            return .object(members)
        }
    }
}
