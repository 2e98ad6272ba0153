import SimpleXChat

/// Group links, profile and preference changes and member contacts, as SimpleX's CLI prints them
/// (tests/ChatTests/Groups.hs: testGroupLink, testUpdateGroupProfile, testGroupDescription).
extension CLIView {
    func groupChange(_ change: GroupChange, group: ChatGroup) -> [String] {
        let name = group.localDisplayName
        switch change {
        case .acceptingLinkRequest(let member):
            return ["\(member.nameWithFullName): accepting request to join group #\(name)..."]
        case .joiningByLink:
            return ["#\(name): joining the group..."]
        case .linkRejected(let reason):
            return [
                "#\(name): the host rejected your request to join the group (\(Self.rejectionText(reason)))"
            ]
        case .profileUpdated(let by, let from, let to):
            // `group` is as it was before the change: members knew it by that name.
            return ["\(by.localDisplayName) updated group #\(name):"]
                + groupProfileChanges(from: from, to: to)
        case .memberContact(let member, let contact):
            return [
                "#\(name) \(member.localDisplayName) is creating direct contact \(contact.localDisplayName) with you"
            ]
        }
    }

    /// What changed between two profiles of a group: its name, description, welcome message,
    /// preferences (SimpleX `viewGroupUpdated`).
    public func groupProfileChanges(from: GroupProfile, to: GroupProfile) -> [String] {
        var lines: [String] = []
        if from.displayName != to.displayName { lines.append("changed to #\(to.displayName)") }
        if from.fullName != to.fullName {
            lines.append(
                to.fullName.isEmpty ? "description removed" : "description changed to: \(to.fullName)")
        }
        if from.description != to.description {
            if let welcome = to.description, !welcome.isEmpty {
                lines += ["welcome message changed to:", welcome]
            } else {
                lines.append("welcome message removed")
            }
        }
        let changed = GroupPreferences.Feature.allCases.filter {
            from.preferences.text($0) != to.preferences.text($0)
        }
        if !changed.isEmpty {
            lines.append("updated group preferences:")
            lines += changed.map { to.preferences.text($0) }
        }
        return lines
    }

    /// `/group_profile team`: the name, the welcome message, the preferences.
    public func groupProfile(_ group: ChatGroup) -> [String] {
        let profile = group.profile
        var lines = [
            "#\(group.localDisplayName)" + (profile.fullName.isEmpty ? "" : " (\(profile.fullName))")
        ]
        if let welcome = profile.description, !welcome.isEmpty { lines += ["welcome message:", welcome] }
        lines.append("group preferences:")
        lines += GroupPreferences.Feature.allCases.map { profile.preferences.text($0) }
        return lines
    }

    /// `/create link #team`, `/show link #team`: the link and how to use it.
    public func groupLink(_ link: GroupLink, group: ChatGroup, created: Bool) -> [String] {
        let name = group.localDisplayName
        return [
            created ? "Group link is created!" : "Group link:", "", link.link, "",
            "Anybody can connect to you and join group as \(link.memberRole.rawValue) with: /c <group_link_above>",
            "to show it again: /show link #\(name)",
            "to delete it: /delete link #\(name) (joined members will remain connected to you)",
        ]
    }

    static func rejectionText(_ reason: String) -> String {
        switch reason {
        case "long_name": "the display name is too long"
        case "blocked_name": "the display name is not allowed"
        default: reason
        }
    }
}
