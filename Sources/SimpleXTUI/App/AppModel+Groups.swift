import Foundation
import SimpleXChat

/// Group chats: opened from the list, their items shown with each member's name, the compose
/// field sending to every member.
extension AppModel {
    /// Opens `group`'s chat; an invitation is joined instead.
    mutating func open(group: ChatGroup) -> [AppEffect] {
        if group.membership.status == .invited {
            status = ("joining #\(group.localDisplayName)…", false)
            return [.joinGroup(groupId: group.groupId)]
        }
        chatList.filter = ""
        chatList.selectedID = "#\(group.groupId)"
        if groupChat?.group.groupId != group.groupId {
            groupChat = GroupChatState(group: group, items: [])
            chat = nil
            compose = ComposeState()
        }
        focus = .compose
        narrowShowsChat = true
        return [.openGroup(groupId: group.groupId)]
    }

    /// A group's items came: shown when the group is the open one.
    mutating func groupOpened(_ group: ChatGroup, _ items: [GroupChatItem]) -> [AppEffect] {
        guard groupChat?.group.groupId == group.groupId else { return [] }
        groupChat?.group = group
        groupChat?.items = items
        return []
    }

    /// Something happened in a group: the list again, and the open group's items.
    mutating func applyGroup(_ event: GroupChatEvent) -> [AppEffect] {
        switch event {
        case .invitation(let group, let from, _):
            status = (
                "\(from) invites you to #\(group.localDisplayName): it is first in the chat list", false
            )
        case .userJoined(let group):
            status = ("you joined #\(group.localDisplayName)", false)
        case .groupDeleted(let group, let by):
            status = ("\(by.localDisplayName) deleted #\(group.localDisplayName)", false)
        default: break
        }
        let groupId = Self.groupId(of: event)
        return groupChat?.group.groupId == groupId
            ? [.loadChatList, .openGroup(groupId: groupId)] : [.loadChatList]
    }

    static func groupId(of event: GroupChatEvent) -> Int64 {
        switch event {
        case .invitation(let group, _, _), .userJoined(let group), .memberJoined(let group, _),
            .memberAdded(let group, _, _), .memberConnected(let group, _, _), .newItem(let group, _),
            .memberLeft(let group, _), .memberRole(let group, _, _, _, _), .memberRemoved(let group, _, _),
            .groupDeleted(let group, _), .itemUpdated(let group, _), .itemDeleted(let group, _),
            .memberBlocked(let group, _, _, _), .change(let group, _), .itemReaction(let group, _, _, _, _):
            group.groupId
        }
    }

    /// Keys of the compose field in a group: Enter sends to the group; the rest edit the text.
    mutating func handleGroupComposeKey(_ key: KeyInput, _ group: GroupChatState) -> [AppEffect] {
        switch key {
        case .key(.enter, let modifiers) where modifiers.contains(.shift) || modifiers.contains(.alt):
            compose.newline()
        case .alt("\r"), .alt("\n"), .control("j"):
            compose.newline()
        case .key(.enter, _):
            guard !compose.isEmpty else { return [] }
            guard compose.remaining >= 0 else {
                status = ("the message is \(-compose.remaining) bytes over the limit", true)
                return []
            }
            let text = compose.string
            compose.clear()
            if let editing = group.editing {
                groupChat?.editing = nil
                return [.editGroupItem(groupId: group.group.groupId, item: editing, text: text)]
            }
            if let replying = group.replying {
                groupChat?.replying = nil
                return [.replyGroup(groupId: group.group.groupId, text: text, quoting: replying)]
            }
            return [.sendGroup(groupId: group.group.groupId, text: text)]
        case .key(.up, _) where compose.text.isEmpty && !group.items.isEmpty:
            groupChat?.moveCursor(-1)
            focus = .messages
        case .paste(let text): compose.insert(text)
        case .character(let character): compose.insert(String(character))
        case .key(.backspace, _): compose.backspace()
        case .key(.delete, _): compose.deleteForward()
        case .control("w"): compose.deleteWordBackward()
        case .control("u"): compose.deleteToLineStart()
        case .key(.left, _): compose.moveLeft()
        case .key(.right, _): compose.moveRight()
        case .key(.home, _), .control("a"): compose.moveLineStart()
        case .key(.end, _), .control("e"): compose.moveLineEnd()
        case .key(.pageUp, _): groupChat?.scroll += max(1, height / 2)
        case .key(.pageDown, _): groupChat?.scroll = max(0, group.scroll - max(1, height / 2))
        case .key(.escape, _) where group.editing != nil:
            groupChat?.editing = nil
            compose.clear()
        case .control("t"):
            overlays.append(
                .prompt(
                    TextPrompt(
                        kind: .attachFile, title: "Offer a file to #\(group.group.localDisplayName)",
                        hint: "a path (Tab completes), Enter sends, Esc cancels")))
        case .key(.escape, _) where group.replying != nil:
            groupChat?.replying = nil
        case .key(.escape, _): focus = .list
        default: break
        }
        return []
    }

    /// Enter in the new group or invite prompt: a valid name creates the group; names of
    /// connected contacts are invited (an unknown name keeps the prompt open, saying which).
    mutating func submitGroupPrompt(_ prompt: inout TextPrompt, value: String) -> [AppEffect] {
        switch prompt.kind {
        case .newGroup:
            if let problem = Self.displayNameProblem(value) {
                prompt.error = problem
                overlays.append(.prompt(prompt))
                return []
            }
            return [.createGroup(name: value)]
        case .inviteMembers(let groupId):
            let names = value.split { $0 == " " || $0 == "," }.map { String($0.drop { $0 == "@" }) }
            guard !names.isEmpty else { return [] }
            let contacts = Set(
                chatList.entries.compactMap { $0.contact?.ready == true ? $0.contact?.localDisplayName : nil }
            )
            if let unknown = names.first(where: { !contacts.contains($0) }) {
                prompt.error = "\(unknown) is not a connected contact"
                overlays.append(.prompt(prompt))
                return []
            }
            return [.inviteMembers(groupId: groupId, contacts: names)]
        default:
            return []
        }
    }

    /// A group made here: opened, with the prompt for whom to invite.
    mutating func groupCreated(_ group: ChatGroup) -> [AppEffect] {
        let effects = open(group: group)
        overlays.append(
            .prompt(
                TextPrompt(
                    kind: .inviteMembers(groupId: group.groupId),
                    title: "Invite to #\(group.localDisplayName)",
                    hint: "contacts' names, separated by spaces; Enter invites, Esc skips")))
        return [.loadChatList] + effects
    }
}
