import Foundation
import SimpleXChat

/// Alt+I in a group: its members with their roles and status, and leaving or deleting the
/// group (both confirmed).
public struct GroupInfoScreen: Sendable {
    public var group: ChatGroup
    /// The members other than the user, as the core lists them.
    public var members: [GroupMember]

    public init(group: ChatGroup, members: [GroupMember]) {
        self.group = group
        self.members = members
    }

    /// What a key does: nil keeps the screen; a question with the effect a yes runs.
    public enum Outcome: Equatable, Sendable {
        case none
        case close
        case confirm(question: String, effect: AppEffect)
    }

    public func handle(_ key: KeyInput) -> Outcome {
        let name = "#" + group.localDisplayName
        switch key {
        case .key(.escape, _): return .close
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
        for member in members { lines.append(StyledLine(Self.memberLine(member)).truncated(to: width)) }
        lines.append(StyledLine())
        if group.membership.status.isCurrent { lines.append(StyledLine(" l  Leave group")) }
        lines.append(StyledLine(" x  Delete group"))
        lines.append(StyledLine(" Esc back", secondary))
        // The actions stay on screen: members beyond the room are cut from the middle.
        guard lines.count > height else { return lines }
        let tail = group.membership.status.isCurrent ? 4 : 3
        return Array(lines.prefix(max(1, height - tail))) + lines.suffix(tail)
    }
}
