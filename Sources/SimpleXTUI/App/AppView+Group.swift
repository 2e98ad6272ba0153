import Foundation
import SimpleXChat

extension AppView {
    /// The open group chat: its name and the user's role, the items, the compose field.
    func drawGroupChat(_ state: inout AppModel, width: Int, height: Int, column: Int) -> Screen {
        guard var group = state.groupChat else { return Screen(lines: [], cursor: nil) }
        var header = StyledLine()
        header.append(" #" + group.group.localDisplayName, Style(attributes: .bold))
        let fullName = group.group.profile.fullName
        if !fullName.isEmpty, fullName != group.group.localDisplayName {
            header.append(" (\(fullName))", Style(foreground: theme.secondary))
        }
        header.append(
            " · you are \(group.group.membership.role.rawValue)", Style(foreground: theme.secondary))
        let composed = state.compose.lines(
            width: width, maxRows: min(8, max(1, height / 4)), placeholder: "Message to the group",
            style: theme.compose)
        var settings = state.chatSettings
        settings.userName = state.user?.profile.displayName ?? settings.userName
        let banner =
            group.editing.map {
                StyledLine(" ✎ editing: " + $0.text, Style(foreground: theme.accent)).truncated(to: width)
            }
            ?? group.replying.map {
                StyledLine(
                    " ↩ replying to \($0.member?.localDisplayName ?? "you"): " + $0.text + " · Esc cancels",
                    Style(foreground: theme.accent)
                ).truncated(to: width)
            }
        let chatHeight = max(1, height - 2 - composed.lines.count - (banner == nil ? 0 : 1))
        var lines = [header.truncated(to: width)]
        lines += group.lines(width: width, height: chatHeight, settings: settings, now: state.now).map {
            $0.truncated(to: width)
        }
        if state.focus == .messages, let item = group.cursorItem {
            // The item's actions, on the rule below the messages.
            let actions = " " + AppModel.groupItemActions(item, in: group.group) + " "
            let rule = String(repeating: "─", count: max(0, width - actions.count - 2))
            lines.append(
                StyledLine("──" + actions + rule, Style(foreground: theme.secondary)).truncated(to: width))
        } else {
            lines.append(
                StyledLine(
                    String(repeating: "─", count: width),
                    Style(foreground: state.focus == .compose ? theme.accent : theme.secondary)))
        }
        if let banner { lines.append(banner) }
        let composeTop = lines.count
        lines += composed.lines
        var screen = Screen(lines: lines, cursor: nil)
        if state.focus == .compose {
            screen.cursor = (
                composeTop + composed.cursor.row, column + min(width - 1, composed.cursor.column)
            )
        }
        state.groupChat = group
        return screen
    }
}
