import Foundation
import SimpleXChat

/// The item cursor in a group chat: ↑↓ move, `r` replies, `+` reacts, `s` receives a member's file,
/// `!` reports a member's message to the moderators (a member, where the group allows reports),
/// `e` edits and `D` deletes the user's own message (for every member, confirmed) or moderates a
/// member's where the user's role allows (confirmed), `c` copies, `i`
/// shows the item's info.
extension AppModel {
    mutating func handleGroupMessagesKey(_ key: KeyInput, _ group: GroupChatState) -> [AppEffect] {
        guard let item = group.cursorItem else {
            focus = .compose
            return []
        }
        let own = item.member == nil && !item.deleted && !item.isError
        switch key {
        case .key(.up, _): groupChat?.moveCursor(-1)
        case .key(.down, _):
            groupChat?.moveCursor(1)
            if groupChat?.cursorItemId == nil { focus = .compose }
        case .key(.escape, _):
            groupChat?.cursorItemId = nil
            focus = .compose
        case .character("e") where own:
            groupChat?.editing = item
            groupChat?.cursorItemId = nil
            compose = ComposeState(text: item.text)
            focus = .compose
        case .character("D") where own:
            overlays.append(
                .confirm(
                    question:
                        "Delete this message for every member of #\(group.group.localDisplayName)? y / n",
                    effects: [.deleteGroupItem(groupId: group.group.groupId, item: item)]))
        case .character("D") where group.group.mayModerate(item):
            // Moderate: a member's message deleted for everyone, by a moderator or higher.
            let author = item.member?.localDisplayName ?? ""
            overlays.append(
                .confirm(
                    question:
                        "Moderate: delete \(author)'s message for every member of #\(group.group.localDisplayName)? y / n",
                    effects: [.moderateGroupItem(groupId: group.group.groupId, item: item)]))
        case .character("!") where group.group.mayReport(item):
            overlays.append(.reportReason(ReportReasonPicker(groupId: group.group.groupId, item: item)))
        case .character("r") where !item.deleted && !item.isError && item.sharedMsgId != nil:
            groupChat?.replying = item
            groupChat?.editing = nil
            groupChat?.cursorItemId = nil
            focus = .compose
        case .character("+") where !item.deleted && !item.isError && item.sharedMsgId != nil:
            overlays.append(.reactions(ReactionPicker(groupId: group.group.groupId, item: item)))
        case .character("s") where item.file?.status == .rcvInvitation:
            return item.file.map { [.receiveFile(fileId: $0.fileId)] } ?? []
        case .character("e"), .character("D"):
            status = ("only your own messages can be edited or deleted for everyone", true)
        case .character("c"):
            status = ("copied", false)
            return [.copy(item.text)]
        case .character("i"):
            overlays.append(.info(title: "Message info", lines: Self.groupItemInfo(item), scroll: 0))
        default: break
        }
        return []
    }

    /// Who sent the item and when, as item info shows it.
    static func groupItemInfo(_ item: GroupChatItem) -> [String] {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var lines = [
            (item.member == nil ? "Sent at: " : "Received at: ") + format.string(from: item.timestamp)
        ]
        if let member = item.member {
            lines.append("From: \(member.nameWithFullName), \(member.role.rawValue)")
        }
        if item.forwarded { lines.append("Forwarded by an admin (not from the member directly)") }
        if item.edited { lines.append("Edited") }
        if item.deleted { lines.append("Deleted by its sender") }
        switch item.moderation {
        case .marked(let by), .removed(let by):
            lines.append("Moderated by \(by?.localDisplayName ?? "you")")
        case .blocked: lines.append("Its sender is blocked by an admin")
        case nil: break
        }
        return lines
    }

    /// The keys that work on `item` under the cursor, as the line below the messages lists them:
    /// "D moderate" only where the user's role allows it.
    static func groupItemActions(_ item: GroupChatItem, in group: ChatGroup) -> String {
        var actions: [String] = []
        if item.member == nil && !item.deleted && !item.isError {
            actions += ["e edit", "D delete for everyone"]
        } else if group.mayModerate(item) {
            actions.append("D moderate")
        } else if group.mayReport(item) {
            actions.append("! report")
        }
        return (actions + ["c copy", "i info", "Esc back"]).joined(separator: " · ")
    }
}
