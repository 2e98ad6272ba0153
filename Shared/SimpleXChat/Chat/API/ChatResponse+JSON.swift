extension ChatResponse {
    /// The response as `chat_send_cmd` returns it: `{"result":{"type":...,...}}`, or
    /// `{"error":{...}}` (SimpleX `ChatError`) for `chatCmdError`.
    public var json: JSON {
        if case .chatCmdError(_, let error) = self { return ["error": error.json] }
        return ["result": resultJSON]
    }

    /// `json` as compact text (one line).
    public var jsonText: String { json.compactText }

    /// The tagged result object, `{"type":"activeUser","user":{...}}`.
    public var resultJSON: JSON {
        let type = responseType
        switch self {
        case .activeUser(let user): return tagged(type, ["user": user.json])
        case .chatStarted, .chatRunning: return tagged(type)
        case .apiChats(let user, let chats):
            return tagged(type, ["user": user.json, "chats": .array(chats.map(\.json))])
        case .apiChat(let user, let chat): return tagged(type, ["user": user.json, "chat": chat.json])
        case .chatItemInfo(let user, let item, let info):
            return tagged(type, ["user": user.json, "chatItem": item.json, "chatItemInfo": info.json])
        case .newChatItems(let user, let items):
            return tagged(type, ["user": user.json, "chatItems": .array(items.map(\.json))])
        case .chatItemUpdated(let user, let item), .chatItemNotChanged(let user, let item):
            return tagged(type, ["user": user.json, "chatItem": item.json])
        case .chatItemsDeleted(let user, let deletions, let byUser):
            return tagged(
                type,
                [
                    "user": user.json, "chatItemDeletions": .array(deletions.map(\.json)),
                    "byUser": .bool(byUser), "timed": false,
                ])
        case .chatItemReaction(let user, let added, let reaction):
            return tagged(type, ["user": user.json, "added": .bool(added), "reaction": reaction.json])
        case .itemsReadForChat(let user, let chatInfo), .chatCleared(let user, let chatInfo):
            return tagged(type, ["user": user.json, "chatInfo": chatInfo.json])
        case .invitation(let user, let link, let connection):
            return tagged(
                type,
                [
                    "user": user.json, "connLinkInvitation": ["connFullLink": .string(link)],
                    "connection": connection.json,
                ])
        case .sentConfirmation(let user, let connection), .sentInvitation(let user, let connection):
            return tagged(type, ["user": user.json, "connection": connection.json])
        case .userContactLinkCreated(let user, let link):
            return tagged(type, ["user": user.json, "connLinkContact": ["connFullLink": .string(link)]])
        case .userContactLink(let user, let link):
            // SimpleX `UserContactLink`: no short link, no business address or auto-accept here.
            return tagged(
                type,
                [
                    "user": user.json,
                    "contactLink": [
                        "connLinkContact": ["connFullLink": .string(link)], "shortLinkDataSet": false,
                        "addressSettings": ["businessAddress": false],
                    ],
                ])
        case .userContactLinkDeleted(let user):
            return tagged(type, ["user": user.json])
        case .groupLinkCreated(let user, let group, let link), .groupLink(let user, let group, let link):
            return tagged(type, ["user": user.json, "groupInfo": group.json, "groupLink": link.json])
        case .groupLinkDeleted(let user, let group):
            return tagged(type, ["user": user.json, "groupInfo": group.json])
        case .groupUpdated(let user, let from, let to):
            return tagged(type, ["user": user.json, "fromGroup": from.json, "toGroup": to.json])
        case .membersBlockedForAllUser(let user, let group, let members, let blocked):
            return tagged(
                type,
                [
                    "user": user.json, "groupInfo": group.json, "members": .array(members.map(\.json)),
                    "blocked": .bool(blocked),
                ])
        case .groupChatItemsDeleted(let user, let group, let deletions, let byUser):
            let chatInfo: JSON = ["type": "group", "groupInfo": group.json]
            func item(_ item: GroupChatItem) -> JSON { ["chatInfo": chatInfo, "chatItem": item.json] }
            return tagged(
                type,
                [
                    "user": user.json,
                    "chatItemDeletions": .array(
                        deletions.map { ["deletedChatItem": item($0.deleted), "toChatItem": $0.to.map(item) ?? .null] }),
                    "byUser": .bool(byUser), "timed": false,
                ])
        case .acceptingContactRequest(let user, let contact), .contactDeleted(let user, let contact):
            return tagged(type, ["user": user.json, "contact": contact.json])
        case .contactRequestRejected(let user, let request):
            return tagged(type, ["user": user.json, "contactRequest": request.json])
        case .contactsList(let user, let contacts):
            return tagged(type, ["user": user.json, "contacts": .array(contacts.map(\.json))])
        case .contactAliasUpdated(let user, let contact):
            return tagged(type, ["user": user.json, "toContact": contact.json])
        case .userProfileUpdated(let user, let from, let to, let summary):
            return tagged(
                type,
                [
                    "user": user.json, "fromProfile": from.apiJSON, "toProfile": to.apiJSON,
                    "updateSummary": summary.json,
                ])
        case .userProfileNoChange(let user): return tagged(type, ["user": user.json])
        case .apiParsedMarkdown(let runs): return tagged(type, ["formattedText": .formattedText(runs)])
        case .userProtoServers(let user, let servers):
            let protoServers = servers.map { server -> JSON in
                ["server": .string(server), "preset": false, "enabled": true]
            }
            return tagged(
                type,
                [
                    "user": user.json,
                    "servers": ["serverProtocol": "smp", "protoServers": .array(protoServers)],
                ])
        case .cmdOk(let user): return tagged(type, ["user_": user?.json])
        case .chatCmdError(let user, let error):
            return tagged(type, ["user_": user?.json, "chatError": error.json])
        }
    }
}

extension AChatItem {
    /// SimpleX `AChatItem`: `{"chatInfo":{...},"chatItem":{...}}`.
    public var json: JSON { ["chatInfo": chatInfo.json, "chatItem": chatItem.json] }
}

extension ChatData {
    /// SimpleX `AChat`: the chat, its items, its unread state.
    public var json: JSON {
        [
            "chatInfo": chatInfo.json, "chatItems": .array(chatItems.map(\.json) + groupItems.map(\.json)),
            "chatStats": chatStats.json,
        ]
    }
}

extension ChatStats {
    /// SimpleX `ChatStats` (no mentions or reports in direct chats).
    public var json: JSON {
        [
            "unreadCount": .int(unreadCount), "unreadMentions": 0, "reportsCount": 0,
            "minUnreadItemId": .int64(minUnreadItemId), "unreadChat": .bool(unreadChat),
        ]
    }
}

extension ChatItemDeletion {
    /// SimpleX `ChatItemDeletion`.
    public var json: JSON {
        jsonObject(["deletedChatItem": deletedChatItem.json, "toChatItem": toChatItem?.json])
    }
}

extension ACIReaction {
    /// SimpleX `ACIReaction`: the chat and the `CIReaction` (who, which item, when, what).
    public var json: JSON {
        [
            "chatInfo": chatInfo.json,
            "chatReaction": [
                "chatDir": ChatItem.directionJSON(sent: chatDir == .sent), "chatItem": chatItem.json,
                "sentAt": .time(sentAt),
                "reaction": reaction.apiJSON,
            ],
        ]
    }
}

extension UserProfileUpdateSummary {
    /// SimpleX `UserProfileUpdateSummary`.
    public var json: JSON {
        [
            "updateSuccesses": .int(updateSuccesses), "updateFailures": .int(updateFailures),
            "changedContacts": .array(changedContacts.map(\.json)),
        ]
    }
}

extension GroupLink {
    /// SimpleX `GroupLink`: the full link only (no short links here), and the joiners' role.
    public var json: JSON {
        [
            "connLinkContact": ["connFullLink": .string(link)], "shortLinkDataSet": false,
            "groupLinkId": linkId.json, "acceptMemberRole": .string(memberRole.rawValue),
        ]
    }
}
