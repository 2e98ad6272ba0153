import Foundation

// The chat types as SimpleX's API writes them (bots/api/TYPES.md, iOS ChatTypes.swift): the same
// field names in the same order, tagged unions with "type" first. Each object carries the fields
// this build keeps; fields SimpleX has and this build does not model are left out rather than
// made up:
// - User: userId, localDisplayName, profile, activeUser (no agentUserId, userContactId,
//   fullPreferences, activeOrder, receipts settings).
// - Contact: contactId, localDisplayName, profile (with localAlias), activeConn (agentConnId,
//   connType, connStatus), contactStatus (no chat settings, preferences, timestamps).
// - ChatItem meta: itemId, itemTs, itemText, itemStatus, itemSharedMsgId, itemForwarded,
//   itemDeleted, itemEdited (no createdAt/updatedAt, editable/deletable); quotes have no sentAt.

/// An object with the present (non-nil) members, in the order given.
func jsonObject(_ pairs: KeyValuePairs<String, JSON?>) -> JSON {
    .object(JSONObject(pairs.compactMap { pair in pair.value.map { (pair.key, $0) } }))
}

/// A tagged object: `{"type":tag, ...}`.
func tagged(_ tag: String, _ pairs: KeyValuePairs<String, JSON?> = [:]) -> JSON {
    .object(
        JSONObject([("type", .string(tag))] + pairs.compactMap { pair in pair.value.map { (pair.key, $0) } }))
}

extension JSON {
    /// A UTC time as SimpleX writes one (`2024-03-08T12:34:56.5Z`).
    static func time(_ date: Date) -> JSON { .string(ChatTimestamp(date).description) }

    /// Markdown JSON as a chat JSON value, member order kept.
    init(_ markdown: MarkdownJSON) {
        switch markdown {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(JSONNumber(value))
        case .double(let value): self = JSONNumber(text: String(value)).map(JSON.number) ?? .null
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSON.init))
        case .object(let members): self = .object(JSONObject(members.map { ($0.key, JSON($0.value)) }))
        }
    }

    /// Markdown runs, or nil for plain text.
    static func formattedText(_ runs: [FormattedText]?) -> JSON? {
        runs.map { .array($0.map { JSON($0.json) }) }
    }
}

extension ChatUser {
    /// SimpleX `User`.
    public var json: JSON {
        jsonObject([
            "userId": .int64(userId), "localDisplayName": .string(localDisplayName),
            "profile": profile.localProfileJSON(localAlias: ""), "activeUser": true,
            "sendRcptsContacts": .bool(sendRcptsContacts),
        ])
    }
}

extension Profile {
    /// SimpleX `LocalProfile`: the profile and the local alias.
    func localProfileJSON(localAlias: String) -> JSON {
        jsonObject([
            "displayName": .string(displayName), "fullName": .string(fullName),
            "shortDescr": shortDescr.map(JSON.string),
            "image": image.map(JSON.string), "contactLink": contactLink.map(JSON.string),
            "preferences": preferences,
            "peerType": otherFields["peerType"], "localAlias": .string(localAlias),
        ])
    }

    /// SimpleX `Profile`, fields in its declaration order.
    var apiJSON: JSON {
        jsonObject([
            "displayName": .string(displayName), "fullName": .string(fullName),
            "shortDescr": shortDescr.map(JSON.string),
            "image": image.map(JSON.string), "contactLink": contactLink.map(JSON.string),
            "preferences": preferences,
            "peerType": otherFields["peerType"],
        ])
    }
}

extension ChatContact {
    /// SimpleX `Contact`.
    public var json: JSON {
        jsonObject([
            "contactId": .int64(contactId), "localDisplayName": .string(localDisplayName),
            "profile": profile.localProfileJSON(localAlias: localAlias),
            "activeConn": agentConnectionID.map { id in
                jsonObject([
                    "agentConnId": .string(id), "connType": "contact",
                    "connStatus": .string(ready ? "ready" : "joined"),
                ])
            },
            "contactStatus": .string(active ? "active" : "deleted"),
            "chatSettings": jsonObject([
                "enableNtfs": .string(enableNtfs.rawValue), "sendRcpts": sendRcpts.map(JSON.bool),
                "favorite": .bool(favorite),
            ]),
        ])
    }
}

extension ChatContactRequest {
    /// SimpleX `UserContactRequest`.
    public var json: JSON {
        jsonObject([
            "contactRequestId": .int64(requestId), "agentInvitationId": .string(agentInvitationID),
            "localDisplayName": .string(localDisplayName), "profile": profile.apiJSON,
        ])
    }
}

extension PendingContactConnection {
    /// SimpleX `PendingContactConnection`.
    public var json: JSON {
        jsonObject([
            "pccConnId": .int64(pccConnId), "pccAgentConnId": .string(pccAgentConnId),
            "pccConnStatus": .string(pccConnStatus),
            "viaContactUri": false, "localAlias": "", "createdAt": .time(createdAt),
            "updatedAt": .time(updatedAt),
        ])
    }
}

extension ChatInfo {
    /// SimpleX `ChatInfo`: `{"type":"direct","contact":{...}}`.
    public var json: JSON {
        switch self {
        case .direct(let contact): tagged("direct", ["contact": contact.json])
        case .contactConnection(let connection):
            tagged("contactConnection", ["contactConnection": connection.json])
        case .group(let group): tagged("group", ["groupInfo": group.json])
        }
    }
}

extension ChatItemStatus {
    /// SimpleX `CIStatus`. A failed send carries no reason here (the agent's is not kept).
    public var json: JSON {
        switch self {
        case .sndNew: tagged("sndNew")
        case .sndSent: tagged("sndSent", ["sndProgress": "complete"])
        case .sndRcvd: tagged("sndRcvd", ["msgRcptStatus": "ok", "sndProgress": "complete"])
        case .sndError: tagged("sndError", ["agentError": tagged("other", ["sndError": "not sent"])])
        case .rcvNew: tagged("rcvNew")
        case .rcvRead: tagged("rcvRead")
        }
    }
}

extension ChatItem {
    /// SimpleX `ChatItem`: direction, meta, content, mentions, markdown, quote, reactions, and
    /// the file it offers (`CIFile`).
    public var json: JSON {
        jsonObject([
            "chatDir": Self.directionJSON(sent: direction == .sent),
            "meta": metaJSON,
            // An event item is its own content type (`rcvIntegrityError`, ...), as in SimpleX.
            "content": event?.apiJSON
                ?? tagged(direction == .sent ? "sndMsgContent" : "rcvMsgContent", ["msgContent": content.apiJSON]),
            "mentions": .object(JSONObject()),
            // (SimpleX parses the markdown of messages only.)
            "formattedText": event == nil ? .formattedText(Markdown.formattedText(text)) : nil,
            "quotedItem": quote.map(\.json),
            "reactions": .array(reactionCounts),
            "file": file.map(\.json),
        ])
    }

    static func directionJSON(sent: Bool) -> JSON { tagged(sent ? "directSnd" : "directRcv") }

    var metaJSON: JSON {
        jsonObject([
            "itemId": .int64(itemId), "itemTs": .time(timestamp), "itemText": .string(text),
            "itemStatus": status.json,
            "itemSharedMsgId": sharedMsgId.map { .string($0.base64) },
            // JSON is nil-literal expressible: `: nil` here would be written as null.
            "itemForwarded": forwarded ? .some(tagged("unknown")) : .none,
            "itemDeleted": deleted ? .some(tagged("deleted", ["chatType": "direct"])) : .none,
            "itemEdited": .bool(edited),
        ])
    }

    /// SimpleX `CIReactionCount`s: one per emoji, in the order first reacted.
    var reactionCounts: [JSON] {
        var emojis: [String] = []
        for reaction in reactions where !emojis.contains(reaction.emoji) { emojis.append(reaction.emoji) }
        return emojis.map { emoji in
            let matching = reactions.filter { $0.emoji == emoji }
            return jsonObject([
                "reaction": tagged("emoji", ["emoji": .string(MsgReaction.wireEmoji(emoji))]),
                "userReacted": .bool(matching.contains { $0.byUser }), "totalReacted": .int(matching.count),
            ])
        }
    }
}

extension ChatItemQuote {
    /// SimpleX `CIQuote` (without `sentAt`, which the store does not keep).
    var json: JSON {
        jsonObject([
            "chatDir": ChatItem.directionJSON(sent: sentByUser),
            "sharedMsgId": sharedMsgId.map { .string($0.base64) },
            "content": content.apiJSON, "formattedText": .formattedText(Markdown.formattedText(content.text)),
        ])
    }
}

extension ChatItemInfo {
    /// SimpleX `ChatItemInfo`: the item's earlier versions, oldest first.
    public var json: JSON {
        jsonObject([
            "itemVersions": .array(
                versions.map { version in
                    jsonObject([
                        "msgContent": version.content.apiJSON,
                        "formattedText": .formattedText(Markdown.formattedText(version.content.text)),
                        "itemVersionTs": .time(version.at),
                    ])
                })
        ])
    }
}

extension MsgContent {
    /// The content's JSON; content that could not be read (kept with an empty object) shows its
    /// type and text rather than `{}`.
    var apiJSON: JSON {
        if case .unknown(let type, let text, let object) = self, object.isEmpty {
            return ["type": .string(type), "text": .string(text)]
        }
        return json
    }
}

extension MsgReaction {
    /// The emoji as sent (the heart without U+FE0F) for an emoji as shown.
    static func wireEmoji(_ shown: String) -> String {
        MsgReactionEmoji.allCases.first { $0.displayText == shown || $0.rawValue == shown }?.rawValue ?? shown
    }
}
