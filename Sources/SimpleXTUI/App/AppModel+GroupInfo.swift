import Foundation
import SimpleXChat

/// The group info screen (Alt+I in a group) and the results of its actions.
extension AppModel {
    mutating func handleGroupInfoKey(_ key: KeyInput, _ screen: GroupInfoScreen) -> [AppEffect] {
        switch screen.handle(key) {
        case .none:
            overlays.append(.groupInfo(screen))
        case .close:
            break
        case .confirm(let question, let effect):
            overlays.append(.groupInfo(screen))
            overlays.append(.confirm(question: question, effects: [effect]))
        case .effect(let effect):
            overlays.append(.groupInfo(screen))
            return [effect]
        case .showQRCode(let link):
            overlays.append(.groupInfo(screen))
            overlays.append(.qrCode(link))
        }
        return []
    }

    mutating func applyGroupResult(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case .groupMembers(let group, let members):
            overlays.append(.groupInfo(GroupInfoScreen(group: group, members: members)))
        case .groupLink(let groupId, let link):
            for (index, overlay) in overlays.enumerated() {
                if case .groupInfo(var screen) = overlay, screen.group.groupId == groupId {
                    screen.link = link
                    overlays[index] = .groupInfo(screen)
                }
            }
        case .groupLeft(let group):
            closeGroupInfo(group.groupId)
            status = ("you left #\(group.localDisplayName)", false)
            if groupChat?.group.groupId == group.groupId { return [.openGroup(groupId: group.groupId)] }
        case .groupDeleted(let groupId):
            closeGroupInfo(groupId)
            if groupChat?.group.groupId == groupId {
                status = ("#\(groupChat?.group.localDisplayName ?? "") deleted", false)
                groupChat = nil
                compose = ComposeState()
                focus = .list
                narrowShowsChat = false
            }
        default:
            break
        }
        return []
    }

    private mutating func closeGroupInfo(_ groupId: Int64) {
        overlays.removeAll {
            if case .groupInfo(let screen) = $0 { screen.group.groupId == groupId } else { false }
        }
    }
}
