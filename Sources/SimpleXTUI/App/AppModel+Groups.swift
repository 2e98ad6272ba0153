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
            status = ("\(from) invites you to #\(group.localDisplayName): it is first in the chat list", false)
        case .userJoined(let group):
            status = ("you joined #\(group.localDisplayName)", false)
        case .groupDeleted(let group, let by):
            status = ("\(by.localDisplayName) deleted #\(group.localDisplayName)", false)
        default: break
        }
        let groupId = Self.groupId(of: event)
        return groupChat?.group.groupId == groupId ? [.loadChatList, .openGroup(groupId: groupId)] : [.loadChatList]
    }

    static func groupId(of event: GroupChatEvent) -> Int64 {
        switch event {
        case .invitation(let group, _, _), .userJoined(let group), .memberJoined(let group, _),
            .memberAdded(let group, _, _), .memberConnected(let group, _, _), .newItem(let group, _),
            .memberLeft(let group, _), .memberRole(let group, _, _, _, _), .memberRemoved(let group, _, _),
            .groupDeleted(let group, _), .itemUpdated(let group, _), .itemDeleted(let group, _):
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
            return [.sendGroup(groupId: group.group.groupId, text: text)]
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
        case .key(.escape, _): focus = .list
        default: break
        }
        return []
    }
}
