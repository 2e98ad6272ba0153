import Foundation
import SimpleXChat

/// Alt+I in a group: its members with their roles and status, its link (made here by an admin,
/// shown as a QR code) and preferences, and leaving or deleting the group (both confirmed); for
/// moderators, blocking the chosen member for all and the reports.
public struct GroupInfoScreen: Sendable, Equatable {
    public var group: ChatGroup
    /// The members other than the user, as the core lists them.
    public var members: [GroupMember]
    /// The member ↑↓ choose (an index of `members`), for blocking.
    public var selected = 0
    /// The group's link, when it has one (loaded after the members).
    public var link: String?

    public init(group: ChatGroup, members: [GroupMember]) {
        self.group = group
        self.members = members
    }

    var selectedMember: GroupMember? { members.indices.contains(selected) ? members[selected] : nil }

    /// What a key does: nil keeps the screen; a question with the effect a yes runs.
    public enum Outcome: Equatable, Sendable {
        case none
        case close
        case confirm(question: String, effect: AppEffect)
        /// The screen changed (another member chosen).
        case update(GroupInfoScreen)
        /// An effect at once (loading the reports, making the link).
        case run(AppEffect)
        /// The link as a QR code, over this screen.
        case showQRCode(String)
    }

    /// Whether the user may make the group's link (an admin of a group it is in).
    var canCreateLink: Bool {
        link == nil && group.membership.status.isCurrent && group.membership.role >= .admin
    }

    public func handle(_ key: KeyInput) -> Outcome {
        let name = "#" + group.localDisplayName
        switch key {
        case .key(.escape, _): return .close
        case .key(.up, _):
            var moved = self
            moved.selected = max(0, selected - 1)
            return .update(moved)
        case .key(.down, _):
            var moved = self
            moved.selected = min(max(0, members.count - 1), selected + 1)
            return .update(moved)
        case .character("b"):
            guard let member = selectedMember, group.mayBlock(member) else { return .none }
            let block = !member.blockedByAdmin
            return .confirm(
                question: block
                    ? "Block \(member.localDisplayName) for all? Their messages are hidden from every member. y / n"
                    : "Unblock \(member.localDisplayName) for all? y / n",
                effect: .blockMember(
                    groupId: group.groupId, memberName: member.localDisplayName, blocked: block))
        case .character("r") where group.membership.role >= .moderator:
            return .run(.loadGroupReports(groupId: group.groupId))
        case .character("k") where canCreateLink: return .run(.createGroupLink(groupId: group.groupId))
        case .character("q"): return link.map { .showQRCode($0) } ?? .none
        case .character("l") where group.membership.status.isCurrent:
            return .confirm(
                question: "Leave \(name)? You stop receiving its messages. y / n",
                effect: .leaveGroup(groupId: group.groupId))
        case .character("x"):
            let everyone = group.membership.role == .owner && group.membership.status.isCurrent
            return .confirm(
                question: everyone
                    ? "Delete \(name) for every member? y / n"
                    : "Delete \(name) and its messages on this device? y / n",
                effect: .deleteGroup(groupId: group.groupId))
        default: return .none
        }
    }

    /// `bob · admin · connected`, the user first as `you`.
    static func memberLine(_ member: GroupMember, isUser: Bool = false) -> String {
        let status = member.status.rawValue.replacingOccurrences(of: "-", with: " ").replacingOccurrences(
            of: "_", with: " ")
        return
            "  \(isUser ? "you (\(member.localDisplayName))" : member.nameWithFullName) · \(member.role.rawValue) · \(status)"
            + (member.blockedByAdmin ? " · blocked by admin" : "")
    }

    public func lines(width: Int, height: Int) -> [StyledLine] {
        let secondary = Style(foreground: .brightBlack)
        var lines = [StyledLine(" #" + group.localDisplayName, Style(attributes: .bold)).truncated(to: width)]
        if !group.profile.fullName.isEmpty, group.profile.fullName != group.localDisplayName {
            lines.append(StyledLine(" " + group.profile.fullName).truncated(to: width))
        }
        let current = members.filter(\.status.isCurrent).count + 1
        lines.append(StyledLine(" \(current) member\(current == 1 ? "" : "s")", secondary))
        lines.append(StyledLine(Self.memberLine(group.membership, isUser: true)).truncated(to: width))
        let moderator = group.membership.role >= .moderator && group.membership.status.isCurrent
        for (index, member) in members.enumerated() {
            var line = Self.memberLine(member)
            if moderator, index == selected { line = "›" + line.dropFirst() }
            lines.append(StyledLine(line).truncated(to: width))
        }
        lines.append(StyledLine())
        // What stays on screen however many members: the link and the actions, and the
        // preferences above them while there is room for them and a few members.
        var tail: [StyledLine] = []
        if height >= GroupPreferences.Feature.allCases.count + 12 {
            tail.append(StyledLine(" Preferences", secondary))
            tail += GroupPreferences.Feature.allCases.map {
                StyledLine("  " + group.preferences.text($0)).truncated(to: width)
            }
            tail.append(StyledLine())
        }
        if let link {
            tail.append(StyledLine(" Group link: " + link).truncated(to: width))
            tail.append(StyledLine(" q  Show the link's QR code"))
        } else if canCreateLink {
            tail.append(StyledLine(" k  Create group link"))
        }
        var actions: [String] = []
        if let member = selectedMember, moderator, group.mayBlock(member) {
            actions.append(
                " b  \(member.blockedByAdmin ? "Unblock" : "Block") \(member.localDisplayName) for all (↑↓ choose)"
            )
        }
        if moderator { actions.append(" r  Reports") }
        if group.membership.status.isCurrent { actions.append(" l  Leave group") }
        actions.append(" x  Delete group")
        tail += actions.map { StyledLine($0).truncated(to: width) }
        tail.append(StyledLine(" Esc back", secondary))
        // Members beyond the room are cut from the middle.
        guard lines.count + tail.count > height else { return lines + tail }
        return Array(lines.prefix(max(1, height - tail.count))) + tail
    }
}
