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
        case .update(let updated):
            overlays.append(.groupInfo(updated))
        case .run(let effect):
            overlays.append(.groupInfo(screen))
            return [effect]
        case .confirm(let question, let effect):
            overlays.append(.groupInfo(screen))
            overlays.append(.confirm(question: question, effects: [effect]))
        case .showQRCode(let link):
            overlays.append(.groupInfo(screen))
            overlays.append(.qrCode(link))
        }
        return []
    }

    mutating func applyGroupResult(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case .groupMembers(let group, let members):
            // Loaded again after a block: the screen keeps its place and the link it showed.
            var screen = GroupInfoScreen(group: group, members: members)
            if let open = overlays.lazy.compactMap({ overlay -> GroupInfoScreen? in
                if case .groupInfo(let screen) = overlay, screen.group.groupId == group.groupId {
                    screen
                } else {
                    nil
                }
            }).first {
                screen.selected = min(open.selected, max(0, members.count - 1))
                screen.link = open.link
            }
            closeGroupInfo(group.groupId)
            overlays.append(.groupInfo(screen))
        case .groupReports(let group, let reports):
            overlays.append(
                .info(
                    title: "Reports in #\(group.localDisplayName)", lines: Self.reportLines(reports),
                    scroll: 0))
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

    /// A moderator's reports view: who reported whose message, why, and the message.
    static func reportLines(_ reports: [GroupChatItem]) -> [String] {
        guard !reports.isEmpty else { return ["No reports"] }
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm"
        return reports.reversed().flatMap { report -> [String] in
            let reporter = report.member?.localDisplayName ?? "you"
            let author = report.quote.map { $0.byUser ? "you" : $0.member?.localDisplayName ?? "?" } ?? "?"
            var reason = "other"
            if case .report(_, let why) = report.content { reason = why.rawValue }
            var lines = [
                "\(format.string(from: report.timestamp))  \(reporter) reported \(author): \(reason)"
            ]
            if let quote = report.quote { lines.append("  > \(quote.content.text)") }
            if !report.text.isEmpty { lines.append("  \(report.text)") }
            return lines
        }
    }

    private mutating func closeGroupInfo(_ groupId: Int64) {
        overlays.removeAll {
            if case .groupInfo(let screen) = $0 { screen.group.groupId == groupId } else { false }
        }
    }
}
