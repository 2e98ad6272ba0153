extension ChatCommand {
    /// Reads a command in SimpleX's syntax (`Commands.hs` `chatCommandP`): `parse(c.cmdString) == c`.
    ///
    /// Optional parts SimpleX's parser allows are accepted too: `/user`, `/_start` alone,
    /// `/_get chats 1` without `pcc=`, `/_send @1 json [...]` without `live=`/`ttl=`, `/_delete @1`
    /// without a mode, `/_accept 5` without `incognito=`. One deliberate difference: SimpleX's
    /// `/_parse <text>` is `/_parse markdown <text>` here, and `/_parse <text>` is read as the
    /// same command unless the text itself starts with "markdown ".
    public static func parse(_ text: String) throws(ChatCommandParseError) -> ChatCommand {
        var s = CommandScanner(text)
        let command: ChatCommand
        if let group = try groupCommand(&s) {
            command = group
        } else if s.keyword("/_get chats") {
            let userId = try Self.userId(&s)
            command = .apiGetChats(
                userId: userId, pendingConnections: s.take(" pcc=") ? try s.onOff() : false)
        } else if s.keyword("/_get chat") {
            command = try getChat(&s)
        } else if s.keyword("/_get item info") {
            let ref = try chatRef(&s)
            try s.expect(" ")
            command = .apiGetChatItemInfo(ref, itemId: try s.decimal("an item id"))
        } else if s.keyword("/_send") {
            command = try send(&s)
        } else if s.keyword("/_update item") {
            command = try update(&s)
        } else if s.keyword("/_delete item") {
            let ref = try chatRef(&s)
            try s.expect(" ")
            let ids = try s.ids()
            try s.expect(" ")
            let word = s.word()
            guard let mode = CIDeleteMode(rawValue: word) else {
                throw s.invalid("expected broadcast, internal or internalMark, found \"\(word)\"")
            }
            command = .apiDeleteChatItem(ref, itemIds: ids, mode: mode)
        } else if s.keyword("/_reaction") {
            command = try reaction(&s)
        } else if s.keyword("/_forward") {
            let to = try chatRef(&s)
            let from = try chatRef(&s)
            try s.expect(" ")
            let ids = try s.ids()
            command = .apiForwardChatItems(
                to: to, from: from, itemIds: ids, ttl: s.take(" ttl=") ? try s.ttl() : nil)
        } else if s.keyword("/_read chat items") {
            let ref = try chatRef(&s)
            try s.expect(" ")
            command = .apiChatItemsRead(ref, itemIds: try s.ids())
        } else if s.keyword("/_read chat") {
            command = .apiChatRead(try chatRef(&s))
        } else if s.keyword("/_unread chat") {
            let ref = try chatRef(&s)
            try s.expect(" ")
            command = .apiChatUnread(ref, unread: try s.onOff())
        } else if s.keyword("/_clear chat") {
            command = .apiClearChat(try chatRef(&s))
        } else if s.keyword("/_connect") {
            command = try connect(&s)
        } else if s.keyword("/_accept") {
            let incognito = s.take(" incognito=") ? try s.onOff() : false
            try s.expect(" ")
            command = .apiAcceptContact(
                incognito: incognito, contactReqId: try s.decimal("a contact request id"))
        } else if s.keyword("/_address") {
            command = .apiCreateMyAddress(userId: try userId(&s))
        } else if s.keyword("/_show_address") {
            command = .apiShowMyAddress(userId: try userId(&s))
        } else if s.keyword("/_delete_address") {
            command = .apiDeleteMyAddress(userId: try userId(&s))
        } else if s.keyword("/_reject") {
            try s.expect(" ")
            command = .apiRejectContact(contactReqId: try s.decimal("a contact request id"))
        } else if s.keyword("/_delete") {
            let ref = try chatRef(&s)
            command = .apiDeleteChat(ref, mode: try deleteMode(&s))
        } else if s.keyword("/_contacts") {
            command = .apiListContacts(userId: try userId(&s))
        } else if s.keyword("/_set receipts contacts") {
            let userId = try Self.userId(&s)
            let (enable, clear) = try receiptSettings(&s)
            command = .apiSetUserContactReceipts(userId: userId, enable: enable, clearOverrides: clear)
        } else if s.keyword("/set receipts contacts") {
            let (enable, clear) = try receiptSettings(&s)
            command = .setUserContactReceipts(enable: enable, clearOverrides: clear)
        } else if s.keyword("/set disappear") {
            try s.expect(" ")
            command = .setUserTimedMessages(try allowed(&s, ["yes", "no"]) == .yes)
        } else if let feature = ChatFeature.allCases.first(where: {
            $0 != .timedMessages && s.keyword("/set \($0.commandWord)")
        }) {
            try s.expect(" ")
            command = .setUserFeature(feature, try allowed(&s, ["always", "yes", "no"]))
        } else if s.keyword("/set receipts all") {
            try s.expect(" ")
            command = .setAllContactReceipts(enable: try s.onOff())
        } else if s.keyword("/receipts") {
            try s.expect(" ")
            try s.expect("@")
            let name = try displayName(&s)
            try s.expect(" ")
            command = .setSendReceipts(contactName: name, enable: s.take("default") ? nil : try s.onOff())
        } else if s.keyword("/_settings") {
            let ref = try chatRef(&s)
            try s.expect(" ")
            let json = try s.json("the chat settings")
            do { command = .apiSetChatSettings(ref, try ChatSettings(json: json)) } catch {
                throw s.invalid("the chat settings: \(error)")
            }
        } else if s.keyword("/mute") || s.keyword("/unmute") {
            let mute = s.command == "/mute"
            try s.expect(" ")
            // `/unmute mentions #team`: only messages that mention the user notify (SimpleX MFMentions).
            let mentions = !mute && s.take("mentions ")
            if s.take("#") {
                let setting: NotificationChat.NotificationSetting = mute ? .none : mentions ? .mentions : .all
                command = .setGroupShowMessages(groupName: try displayName(&s), enableNtfs: setting)
            } else if mentions {
                throw s.invalid("/unmute mentions is for groups: /unmute mentions #<group>")
            } else {
                try s.expect("@")
                command = .setShowMessages(contactName: try displayName(&s), enableNtfs: mute ? .none : .all)
            }
        } else if s.keyword("/_set alias") {
            try s.expect(" @")
            let contactId = try s.decimal("a contact id")
            command = .apiSetContactAlias(contactId: contactId, localAlias: s.take(" ") ? s.remainder() : "")
        } else if s.keyword("/_profile") {
            let userId = try Self.userId(&s)
            try s.expect(" ")
            let json = try s.json("the profile")
            do { command = .apiUpdateProfile(userId: userId, profile: try Profile(json: json)) } catch {
                throw s.invalid("the profile: \(error)")
            }
        } else if s.keyword("/_parse") {
            _ = s.take(" markdown ") || s.take(" ")
            command = .apiParseMarkdown(text: s.remainder())
        } else if s.keyword("/_start") {
            command = try start(&s)
        } else if s.keyword("/create user") {
            try s.expect(" ")
            command = .createActiveUser(displayName: try displayName(&s))
        } else if s.keyword("/smp") {
            let servers = s.remainder().split(separator: " ").map(String.init)
            command = servers.isEmpty ? .getUserProtoServers : .setUserProtoServers(servers)
        } else if s.keyword("/user") || s.keyword("/u") {
            command = .showActiveUser
        } else {
            throw .unknownCommand(s.command)
        }
        try s.end()
        return command
    }

    /// A space, then a user id.
    private static func userId(_ s: inout CommandScanner) throws(ChatCommandParseError) -> Int64 {
        try s.expect(" ")
        return try s.decimal("a user id")
    }

    /// A space, then a chat reference.
    private static func chatRef(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatRef {
        try s.expect(" ")
        return try s.chatRef()
    }

    private static func getChat(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        let ref = try chatRef(&s)
        var content: ChatContentFilter?
        if s.take(" content=") {
            let tag = s.word()
            guard let filter = ChatContentFilter.allCases.first(where: { $0.contentType == tag }) else {
                throw s.invalid(
                    "unknown content type \"\(tag)\", expected "
                        + ChatContentFilter.allCases.map(\.contentType).joined(separator: ", "))
            }
            content = filter
        }
        try s.expect(" ")
        let pagination: ChatPagination
        if s.take("count=") {
            pagination = .last(count: try s.count("count"))
        } else if s.take("initial=") {
            pagination = .initial(count: try s.count("count"))
        } else {
            let make: (Int64, Int) -> ChatPagination
            if s.take("after=") {
                make = { .after(id: $0, count: $1) }
            } else if s.take("before=") {
                make = { .before(id: $0, count: $1) }
            } else if s.take("around=") {
                make = { .around(id: $0, count: $1) }
            } else {
                throw s.invalid(
                    "expected count=N, after=ID count=N, before=ID count=N, around=ID count=N or initial=N")
            }
            let itemId = try s.decimal("an item id")
            try s.expect(" count=")
            pagination = make(itemId, try s.count("count"))
        }
        return .apiGetChat(
            ref, content: content, pagination: pagination, search: s.take(" search=") ? s.remainder() : nil)
    }

    private static func send(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        let ref = try chatRef(&s)
        let live = s.take(" live=") ? try s.onOff() : false
        let ttl = s.take(" ttl=") ? try s.ttl() : nil
        try s.expect(" json ")
        guard case .array(let elements) = try s.json("the messages") else {
            throw s.invalid("expected a JSON array of messages")
        }
        var messages: [ComposedMessage] = []
        for element in elements {
            do { messages.append(try ComposedMessage(json: element)) } catch {
                throw s.invalid("a message: \(error)")
            }
        }
        guard !messages.isEmpty else { throw s.invalid("no messages to send") }
        return .apiSendMessages(ref, live: live, ttl: ttl, composedMessages: messages)
    }

    private static func update(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        let ref = try chatRef(&s)
        try s.expect(" ")
        let itemId = try s.decimal("an item id")
        let live = s.take(" live=") ? try s.onOff() : false
        try s.expect(" json")
        let json = try s.json("the updated message")
        do {
            return .apiUpdateChatItem(
                ref, itemId: itemId, live: live, updatedMessage: try UpdatedMessage(json: json))
        } catch {
            throw s.invalid("the updated message: \(error)")
        }
    }

    private static func reaction(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        let ref = try chatRef(&s)
        try s.expect(" ")
        let itemId = try s.decimal("an item id")
        try s.expect(" ")
        let add = try s.onOff()
        try s.expect(" ")
        let reaction: MsgReaction
        do { reaction = try MsgReaction(json: try s.json("the reaction")) } catch {
            throw s.invalid("the reaction: \(error)")
        }
        // As SimpleX's `knownReaction`: only its emoji.
        guard case .emoji = reaction else {
            throw s.invalid("the reaction is not one of SimpleX's emoji (👍 👎 😀 😂 😢 ❤ 🚀 ✅)")
        }
        return .apiChatItemReaction(ref, itemId: itemId, add: add, reaction: reaction)
    }

    private static func connect(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        let userId = try Self.userId(&s)
        let incognito = s.take(" incognito=") ? try s.onOff() : false
        let link = s.take(" ") ? s.word() : ""
        return link.isEmpty
            ? .apiAddContact(userId: userId, incognito: incognito)
            : .apiConnect(userId: userId, incognito: incognito, link: link)
    }

    private static func deleteMode(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatDeleteMode
    {
        let notify: (inout CommandScanner) throws(ChatCommandParseError) -> Bool = {
            s throws(ChatCommandParseError) in
            s.take(" notify=") ? try s.onOff() : true
        }
        if s.take(" full") { return .full(notify: try notify(&s)) }
        if s.take(" entity") { return .entity(notify: try notify(&s)) }
        if s.take(" messages") { return .messages }
        return .full(notify: try notify(&s))
    }

    /// One of `words` (`always`, `yes`, `no`), as what a feature is allowed.
    private static func allowed(_ s: inout CommandScanner, _ words: [String]) throws(ChatCommandParseError)
        -> FeatureAllowed
    {
        let word = s.word()
        guard words.contains(word), let allowed = FeatureAllowed(rawValue: word) else {
            let found = word.isEmpty ? "the end" : "\"\(word)\""
            throw s.invalid("expected \(words.joined(separator: ", ")), found \(found)")
        }
        return allowed
    }

    /// SimpleX's `receiptSettings`: ` on|off`, then optionally ` clear_overrides=on|off` (off).
    private static func receiptSettings(_ s: inout CommandScanner) throws(ChatCommandParseError) -> (
        Bool, Bool
    ) {
        try s.expect(" ")
        let enable = try s.onOff()
        return (enable, s.take(" clear_overrides=") ? try s.onOff() : false)
    }

    private static func start(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand {
        guard s.take(" main=") else { return .startChat(mainApp: true, enableSndFiles: true) }
        let mainApp = try s.onOff()
        let sndFiles = s.take(" snd_files=") ? try s.onOff() : mainApp
        return .startChat(mainApp: mainApp, enableSndFiles: sndFiles)
    }

    /// SimpleX's `displayNameP`: a word, or any text in single quotes.
    private static func displayName(_ s: inout CommandScanner) throws(ChatCommandParseError) -> String {
        let name = try s.quoted("'") ?? s.word()
        guard let first = name.first, first > " ", first != "#", first != "@", first != "'" else {
            throw s.invalid("expected a display name")
        }
        return name
    }
}

extension ChatCommand {
    /// The group commands of SimpleX's API (`/_create link #1 member`, `/_block #1 3 blocked=on`, ...);
    /// nil when `s` is not one of them (nothing consumed).
    fileprivate static func groupCommand(_ s: inout CommandScanner) throws(ChatCommandParseError) -> ChatCommand? {
        if s.keyword("/_create link") {
            let groupId = try Self.groupId(&s)
            return .apiCreateGroupLink(groupId: groupId, memberRole: s.take(" ") ? try role(&s) : .member)
        } else if s.keyword("/_set link role") {
            let groupId = try Self.groupId(&s)
            try s.expect(" ")
            return .apiGroupLinkMemberRole(groupId: groupId, memberRole: try role(&s))
        } else if s.keyword("/_delete link") {
            return .apiDeleteGroupLink(groupId: try groupId(&s))
        } else if s.keyword("/_get link") {
            return .apiGetGroupLink(groupId: try groupId(&s))
        } else if s.keyword("/_group_profile") {
            let groupId = try Self.groupId(&s)
            try s.expect(" ")
            let json = try s.json("the group profile")
            do { return .apiUpdateGroupProfile(groupId: groupId, groupProfile: try GroupProfile(json: json)) } catch {
                throw s.invalid("the group profile: \(error)")
            }
        } else if s.keyword("/_block") {
            let groupId = try Self.groupId(&s)
            try s.expect(" ")
            let ids = try s.ids()
            try s.expect(" blocked=")
            return .apiBlockMembersForAll(groupId: groupId, memberIds: ids, blocked: try s.onOff())
        } else if s.keyword("/_delete member item") {
            let groupId = try Self.groupId(&s)
            try s.expect(" ")
            return .apiDeleteMemberChatItem(groupId: groupId, itemIds: try s.ids())
        }
        return nil
    }

    /// ` #<groupId>`.
    private static func groupId(_ s: inout CommandScanner) throws(ChatCommandParseError) -> Int64 {
        try s.expect(" #")
        return try s.decimal("a group id")
    }

    private static func role(_ s: inout CommandScanner) throws(ChatCommandParseError) -> GroupMemberRole {
        let word = s.word()
        guard let role = GroupMemberRole(rawValue: word) else {
            throw s.invalid("expected a role (observer, author, member, moderator, admin, owner), found \"\(word)\"")
        }
        return role
    }
}
