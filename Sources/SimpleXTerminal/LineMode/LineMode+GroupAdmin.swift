import SimpleXChat

/// The group link, profile, preference and member-contact commands, answered with SimpleX CLI's
/// lines.
extension LineMode {
    func performGroupAdmin(_ command: GroupAdminCommand, chat: ChatController) async throws {
        switch command {
        case .createLink(let name, let role):
            let link = try await chat.createGroupLink(name, role: role)
            view.groupLink(link, group: try await chat.group(named: name), created: true).forEach(output)
        case .showLink(let name):
            let link = try await chat.groupLink(name)
            view.groupLink(link, group: try await chat.group(named: name), created: false).forEach(output)
        case .deleteLink(let name):
            try await chat.deleteGroupLink(name)
            output("Group link is deleted - joined members will remain connected.")
            output("To create a new group link use /create link #\(name)")
        case .setLinkRole(let name, let role):
            let link = try await chat.setGroupLinkRole(name, role)
            view.groupLink(link, group: try await chat.group(named: name), created: false).forEach(output)
        case .showProfile(let name):
            view.groupProfile(try await chat.group(named: name)).forEach(output)
        case .updateProfile(let name, let displayName, let fullName):
            let (from, to) = try await chat.updateGroupProfile(name) { profile in
                profile.displayName = displayName
                profile.fullName = fullName
            }
            profileChanged(from: from, to: to)
        case .setWelcome(let name, let text):
            let (from, to) = try await chat.updateGroupProfile(name) { $0.description = text }
            profileChanged(from: from, to: to)
        case .setPreference(let name, let feature, let on, let role, let ttl):
            let (from, to) = try await chat.setGroupPreference(name, feature, on: on, role: role, ttl: ttl)
            profileChanged(from: from, to: to)
        case .sendToMember(let groupName, let member, let text):
            let (contact, item) = try await chat.sendToMember(groupName, member: member, .text(text))
            guard let item else {
                // A contact already: the message goes to it as usual.
                let sent = try await chat.send(to: contact.localDisplayName, .text(text))
                view.item(sent, contact: try await chat.contact(id: sent.contactId)).forEach(output)
                return
            }
            let name = "#\(groupName) \(contact.localDisplayName)"
            output("member \(name) does not have direct connection, creating")
            output("contact for member \(name) is created")
            output("sent invitation to connect directly to member \(name)")
            view.item(item, contact: contact).forEach(output)
        }
    }

    private func profileChanged(from: ChatGroup, to: ChatGroup) {
        let lines = view.groupProfileChanges(from: from.profile, to: to.profile)
        guard !lines.isEmpty else { return output("group profile did not change") }
        lines.forEach(output)
    }
}
