import SimpleXChat

/// The group commands of the line mode, answered with SimpleX CLI's lines.
extension LineMode {
    func performGroup(_ command: CLICommand, chat: ChatController) async throws {
        switch command {
        case .createGroup(let name, let fullName):
            let group = try await chat.createGroup(GroupProfile(displayName: name, fullName: fullName))
            output("group #\(group.localDisplayName) is created")
            output(
                "to add members use /a \(group.localDisplayName) <name> or /create link #\(group.localDisplayName)"
            )
        case .addMember(let group, let contact, let role):
            _ = try await chat.addMember(group, contact: contact, role: role)
            output("invitation to join the group #\(group) sent to \(contact)")
        case .joinGroup(let name):
            let group = try await chat.joinGroup(name)
            output("#\(group.localDisplayName): joining the group...")
        case .groupMembers(let name):
            let (group, members) = try await chat.members(of: name)
            view.groupMembers(group, members).forEach(output)
        case .sendGroup(let name, let text):
            let item = try await chat.sendGroup(name, .text(text))
            view.groupItem(item, group: try await chat.group(named: name)).forEach(output)
        case .editGroup(let name, let old, let new):
            let item = try await chat.findGroupItem(in: name, sentByUser: true, textPrefix: old)
            let edited = try await chat.editGroup(name, item, to: .text(new))
            view.groupItem(edited, group: try await chat.group(named: name)).forEach(output)
        case .deleteGroup(let name, let text):
            let item = try await chat.findGroupItem(in: name, sentByUser: true, textPrefix: text)
            try await chat.deleteGroupItem(name, item)
            output("message deleted")
        case .replyGroup(let name, let member, let quoted, let text):
            let item = try await chat.findGroupItem(in: name, author: member, textPrefix: quoted)
            let sent = try await chat.sendGroup(name, .text(text), quoting: item)
            view.groupItem(sent, group: try await chat.group(named: name)).forEach(output)
        case .reactGroup(let name, let marker, let text):
            guard let emoji = Self.emoji(marker) else {
                throw ChatError.invalidCommand("reactions are +1 -1 +😀 +😂 +😢 +❤️ +🚀 +✅")
            }
            let item = try await chat.findGroupItem(in: name, sentByUser: nil, textPrefix: text)
            let reacted = try await chat.reactGroup(
                name, item, emoji: emoji, add: !marker.hasPrefix("-") || marker == "-1")
            view.groupItem(reacted, group: try await chat.group(named: name)).forEach(output)
        case .sendGroupFile(let name, let path):
            let item = try await chat.sendGroupFile(name, path: path)
            view.groupItem(item, group: try await chat.group(named: name)).forEach(output)
        case .tailGroup(let name, let count):
            let group = try await chat.group(named: name)
            for item in try await chat.groupItems(name, count: count) {
                view.groupItem(item, group: group).forEach(output)
            }
        case .deleteGroupChat(let name):
            try await chat.deleteGroup(name)
            output("#\(name): you deleted the group")
        case .leaveGroup(let name):
            let group = try await chat.leaveGroup(name)
            output("#\(group.localDisplayName): you left the group")
        case .changeRole(let group, let member, let role):
            let changed = try await chat.changeRole(group, member: member, to: role)
            output("#\(group): you changed the role of \(changed.localDisplayName) to \(role.rawValue)")
        case .removeMember(let group, let member):
            let removed = try await chat.removeMember(group, member: member)
            output("#\(group): you removed \(removed.localDisplayName) from the group")
        case .moderateGroup(let name, let member, let text):
            let item = try await chat.findMemberItem(in: name, member: member, textPrefix: text)
            let moderated = try await chat.moderateGroupItem(name, item)
            if case .removed = moderated.moderation {
                output("message deleted by you")
            } else {
                output("message marked deleted by you")
            }
        case .blockForAll(let group, let member, let blocked):
            let changed = try await chat.blockMemberForAll(group, member: member, blocked: blocked)
            output("#\(group): you \(blocked ? "blocked" : "unblocked") \(changed.localDisplayName)")
        case .reportGroup(let name, let member, let reason, let text):
            let item =
                if let member {
                    try await chat.findMemberItem(in: name, member: member, textPrefix: text)
                } else {
                    try await chat.findGroupItem(in: name, sentByUser: false, textPrefix: text)
                }
            let report = try await chat.reportGroupItem(name, item, reason: reason)
            view.groupItem(report, group: try await chat.group(named: name)).forEach(output)
        default:
            break
        }
    }
}
