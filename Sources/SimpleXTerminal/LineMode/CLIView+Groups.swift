import SimpleXChat

/// Group lines, as SimpleX's CLI prints them (tests/ChatTests/Groups.hs).
extension CLIView {
    public func groupEvent(_ event: GroupChatEvent) -> [String] {
        switch event {
        case .invitation(let group, let from, let role):
            return [
                "#\(group.localDisplayName): \(from) invites you to join the group as \(role.rawValue)",
                "use /j \(group.localDisplayName) to accept",
            ]
        case .userJoined(let group):
            return ["#\(group.localDisplayName): you joined the group"]
        case .memberJoined(let group, let member):
            return ["#\(group.localDisplayName): \(member.localDisplayName) joined the group"]
        case .memberAdded(let group, let host, let member):
            return [
                "#\(group.localDisplayName): \(host.localDisplayName) added \(member.nameWithFullName) to the group (connecting...)"
            ]
        case .memberConnected(let group, let member, let newMember):
            return newMember
                ? ["#\(group.localDisplayName): new member \(member.localDisplayName) is connected"]
                : ["#\(group.localDisplayName): member \(member.nameWithFullName) is connected"]
        case .groupDeleted(let group, let by):
            return [
                "#\(group.localDisplayName): \(by.localDisplayName) deleted the group",
                "use /d #\(group.localDisplayName) to delete the local copy of the group",
            ]
        case .memberLeft(let group, let member):
            return ["#\(group.localDisplayName): \(member.localDisplayName) left the group"]
        case .memberRole(let group, let by, let member, let from, let to):
            let whose = member.category == .user ? "your role" : "the role of \(member.localDisplayName)"
            return [
                "#\(group.localDisplayName): \(by.localDisplayName) changed \(whose) from \(from.rawValue) to \(to.rawValue)"
            ]
        case .memberRemoved(let group, let by, let member):
            let whom = member.category == .user ? "you" : member.localDisplayName
            return ["#\(group.localDisplayName): \(by.localDisplayName) removed \(whom) from the group"]
        case .memberBlocked(let group, let by, let member, let blocked):
            return [
                "#\(group.localDisplayName): \(by.localDisplayName) \(blocked ? "blocked" : "unblocked") \(member.localDisplayName)"
            ]
        case .newItem(let group, let item), .itemUpdated(let group, let item),
            .itemDeleted(let group, let item):
            return groupItem(item, group: group)
        case .change(let group, let change):
            return groupChange(change, group: group)
        case .itemReaction(let group, let item, let by, let emoji, let add):
            return [groupReaction(item, group: group, by: by, emoji: emoji, add: add)]
        }
    }

    /// `12:01 #team hello` sent, `12:01 #team bob> hello` received (`bob!>` when it mentions the
    /// user), ` [>>]` when forwarded; a refused
    /// event as `#team: error from bob: ...`.
    public func groupItem(_ item: GroupChatItem, group: ChatGroup) -> [String] {
        let name = group.localDisplayName
        if item.isError {
            return ["#\(name): error from \(item.member?.localDisplayName ?? "you"): \(item.text)"]
        }
        let sender = item.member.map { " \($0.localDisplayName)\(item.userMention ? "!>" : ">")" } ?? ""
        if case .report = item.content, let quote = item.quote { return reportLines(item, quote: quote, group: group) }
        var text = item.text
        if item.edited { text = "[edited] " + text }
        if item.deleted { text = "[marked deleted] " + text }
        switch item.moderation {
        case .marked(let by): text = "[marked deleted by \(by?.localDisplayName ?? "you")] " + text
        case .removed(let by): text = "[moderated by \(by?.localDisplayName ?? "you")]"
        case .blocked: text += " [blocked by admin] <muted>"
        case nil: break
        }
        if let file = item.file, item.moderation == nil { return groupFileItem(item, file: file, group: group) }
        let prefix = "\(time(item.timestamp)) #\(name)\(sender) "
        let forwarded = item.forwarded ? " [>>]" : ""
        var lines =
            item.quote.map { quote in
                [
                    prefix + "> \(quotedAuthor(quote)) \(quote.content.text)",
                    indent(prefix) + text + forwarded,
                ]
            } ?? [prefix + text + forwarded]
        if !item.reactions.isEmpty { lines.append(indent(prefix) + Self.reactionSummary(item.reactions)) }
        return lines
    }

    /// A report as SimpleX's CLI prints a reply: `#team bob> > cath text`, then the report indented.
    func reportLines(_ item: GroupChatItem, quote: GroupItemQuote, group: ChatGroup) -> [String] {
        let sender = item.member.map { " \($0.localDisplayName)>" } ?? ""
        let author = quote.byUser ? "you" : quote.member?.localDisplayName ?? "?"
        return [
            "\(time(item.timestamp)) #\(group.localDisplayName)\(sender) > \(author) \(quote.content.text)"
                + (item.forwarded ? " [>>]" : ""),
            "      \(item.content.displayText)",
        ]
    }

    /// A group's last item as `/chats` shows it: `bob> hi`, `you: hi`.
    func groupPreviewText(_ item: GroupChatItem) -> String {
        let text =
            item.deleted || item.moderation != nil && item.moderation != .blocked
            ? "[marked deleted]"
            : item.moderation == .blocked ? "[blocked by admin]" : item.content.displayText
        return (item.member.map { "\($0.localDisplayName)> " } ?? "you: ") + text
    }

    /// `/ms team`: `bob (Bob): admin, invited, connected`, the user first.
    public func groupMembers(_ group: ChatGroup, _ members: [GroupMember]) -> [String] {
        ([group.membership] + members).map { member in
            let category: String =
                switch member.category {
                case .user: "you, "
                case .invitee: "invited, "
                case .host: "host, "
                case .pre, .post: ""
                }
            return
                "\(member.nameWithFullName): \(member.role.rawValue), \(category)\(Self.statusText(member.status))"
                + (member.blockedByAdmin ? ", blocked by admin" : "")
        }
    }

    static func statusText(_ status: GroupMemberStatus) -> String {
        switch status {
        case .creator: "created group"
        case .connected, .complete: "connected"
        case .invited: "not yet joined"
        case .accepted: "accepted"
        case .announced, .introduced, .introInvited: "connecting"
        case .removed: "removed"
        case .left: "left"
        case .deleted: "group deleted"
        case .rejected: "rejected"
        case .unknown: "unknown"
        case .pendingApproval, .pendingReview: "pending"
        }
    }
}

extension CLIView {
    /// `12:05 #team bob> +👍 to: hello`: a member's reaction to an item, as the direct chats print one.
    func groupReaction(_ item: GroupChatItem, group: ChatGroup, by: GroupMember, emoji: String, add: Bool)
        -> String
    {
        "\(time(now())) #\(group.localDisplayName) \(by.localDisplayName)> \(add ? "+" : "-")\(emoji) to: \(item.text)"
    }

    /// A file item, as direct chats print one: `12:01 /f #team ./notes.txt` sent,
    /// `12:01 #team alice> sends file notes.txt (8 bytes / 8 bytes)` received, with how to receive it.
    func groupFileItem(_ item: GroupChatItem, file: ChatFile, group: ChatGroup) -> [String] {
        let time = self.time(item.timestamp)
        guard let member = item.member else {
            return ["\(time) /f #\(group.localDisplayName) \(file.filePath ?? file.fileName)"]
        }
        let size = "\(FileChunking.readableSize(file.fileSize)) / \(file.fileSize) bytes"
        var lines = [
            "\(time) #\(group.localDisplayName) \(member.localDisplayName)> sends file \(file.fileName) (\(size))"
        ]
        if file.status == .rcvInvitation {
            lines.append("use /fr \(file.fileId) [<dir>/ | <path>] to receive it")
        }
        return lines
    }

    /// The quoted item's author as a reply's first line names it (`> bob hello`, `> you hello`).
    func quotedAuthor(_ quote: GroupItemQuote) -> String {
        guard let member = quote.member else { return "?" }
        return quote.byUser ? "you" : member.localDisplayName
    }

    /// `👍 2 ❤️`: each emoji once, with how many when more than one reacted with it.
    static func reactionSummary(_ reactions: [GroupItemReaction]) -> String {
        var counts: [(String, Int)] = []
        for reaction in reactions {
            if let index = counts.firstIndex(where: { $0.0 == reaction.emoji }) {
                counts[index].1 += 1
            } else {
                counts.append((reaction.emoji, 1))
            }
        }
        return counts.map { $0.1 > 1 ? "\($0.0) \($0.1)" : $0.0 }.joined(separator: " ")
    }

    private func indent(_ prefix: String) -> String { String(repeating: " ", count: prefix.count) }
}
