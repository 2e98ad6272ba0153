import Foundation

extension GroupChatEvent {
    /// The SimpleX event type (`receivedGroupInvitation`, `userJoinedGroup`, ...).
    public var eventType: String {
        switch self {
        case .invitation: "receivedGroupInvitation"
        case .userJoined: "userJoinedGroup"
        case .memberJoined: "joinedGroupMember"
        case .memberAdded: "joinedGroupMemberConnecting"
        case .memberConnected: "connectedToGroupMember"
        case .newItem: "newChatItems"
        case .memberLeft: "leftMember"
        case .memberRole(_, _, let member, _, _): member.category == .user ? "memberRoleUser" : "memberRole"
        case .memberRemoved(_, _, let member):
            member.category == .user ? "deletedMemberUser" : "deletedMember"
        case .groupDeleted: "groupDeleted"
        case .itemUpdated: "chatItemUpdated"
        case .itemDeleted: "chatItemsDeleted"
        case .memberBlocked: "memberBlockedForAll"
        case .change(_, let change): change.eventType
        case .itemReaction: "chatItemReaction"
        }
    }

    /// The event's members besides `type` and `user`.
    var members: JSONObject {
        switch self {
        case .invitation(let group, let from, let role):
            return [
                "groupInfo": group.json, "fromMemberName": .string(from),
                "memberRole": .string(role.rawValue),
            ]
        case .userJoined(let group):
            return ["groupInfo": group.json]
        case .memberJoined(let group, let member), .memberConnected(let group, let member, _):
            return ["groupInfo": group.json, "member": member.json]
        case .memberAdded(let group, let host, let member):
            return ["groupInfo": group.json, "hostMember": host.json, "member": member.json]
        case .newItem(let group, let item):
            return [
                "chatItems": [
                    ["chatInfo": ["type": "group", "groupInfo": group.json], "chatItem": item.json]
                ]
            ]
        case .memberLeft(let group, let member):
            return ["groupInfo": group.json, "member": member.json]
        case .memberRole(let group, let by, let member, let from, let to):
            return [
                "groupInfo": group.json, "byMember": by.json, "member": member.json,
                "fromRole": .string(from.rawValue), "toRole": .string(to.rawValue),
            ]
        case .memberRemoved(let group, let by, let member):
            return ["groupInfo": group.json, "byMember": by.json, "deletedMember": member.json]
        case .groupDeleted(let group, let by):
            return ["groupInfo": group.json, "member": by.json]
        case .itemUpdated(let group, let item):
            return [
                "chatItem": ["chatInfo": ["type": "group", "groupInfo": group.json], "chatItem": item.json]
            ]
        case .memberBlocked(let group, let by, let member, let blocked):
            return [
                "groupInfo": group.json, "byMember": by.json, "member": member.json,
                "blocked": .bool(blocked),
            ]
        case .change(let group, let change):
            var members = change.members
            members["groupInfo"] = group.json
            return members
        case .itemDeleted(let group, let item):
            let chatItem: JSON = [
                "chatInfo": ["type": "group", "groupInfo": group.json], "chatItem": item.json,
            ]
            return [
                "chatItemDeletions": [["deletedChatItem": chatItem, "toChatItem": chatItem]], "byUser": false,
            ]
        case .itemReaction(let group, let item, let by, let emoji, let add):
            let reaction: JSON = [
                "chatInfo": ["type": "group", "groupInfo": group.json],
                "chatReaction": [
                    "chatDir": ["type": "groupRcv", "groupMember": by.json], "chatItem": item.json,
                    "reaction": ["type": "emoji", "emoji": .string(emoji)],
                ],
            ]
            return ["added": .bool(add), "reaction": reaction]
        }
    }
}

extension ChatGroup {
    /// SimpleX's `GroupInfo`, reduced to what this build keeps.
    public var json: JSON {
        [
            "groupId": .number(JSONNumber(groupId)), "localDisplayName": .string(localDisplayName),
            "groupProfile": profile.json, "membership": membership.json,
        ]
    }
}

extension GroupMember {
    /// SimpleX's `GroupMember`, reduced to what this build keeps.
    public var json: JSON {
        [
            "groupMemberId": .number(JSONNumber(groupMemberId)), "groupId": .number(JSONNumber(groupId)),
            "memberId": memberId.json, "memberRole": .string(role.rawValue),
            "memberCategory": .string(category.rawValue), "memberStatus": .string(status.rawValue),
            "localDisplayName": .string(localDisplayName), "memberProfile": profile.json,
        ]
    }
}

extension GroupChatItem {
    /// The item with its direction (`groupSnd`, or `groupRcv` with the member) and content.
    public var json: JSON {
        let direction: JSON =
            member.map { ["type": "groupRcv", "groupMember": $0.json] } ?? ["type": "groupSnd"]
        var meta: JSONObject = ["itemId": .number(JSONNumber(itemId)), "itemText": .string(text)]
        meta["itemForwarded"] = forwarded ? ["type": "chatItem"] : nil
        meta["itemEdited"] = .bool(edited)
        meta["itemDeleted"] = deleted ? ["type": "deleted"] : nil
        switch moderation {
        case .marked(let by), .removed(let by):
            meta["itemDeleted"] = ["type": "moderated", "byGroupMember": by?.json ?? .null]
        case .blocked: meta["itemDeleted"] = ["type": "blockedByAdmin"]
        case nil: break
        }
        meta["userMention"] = .bool(userMention)
        return ["chatDir": direction, "meta": .object(meta), "content": content.json]
    }
}
