import Foundation

/// `?` / F1: every key, by where it works.
enum HelpScreen {
    static let sections: [(String, [(String, String)])] = [
        ("Everywhere", [
            ("Tab", "chat list ⇄ compose"), ("Ctrl+K", "go to a chat by name"), ("Alt+1…9", "open the n-th chat"),
            ("Ctrl+N", "new one-time invitation link"), ("Ctrl+O", "connect via a link"), ("Alt+A", "your SimpleX address"), ("Alt+G", "new group: its name, then the contacts to invite"),
            ("Alt+U", "unread chats only"),
            ("Ctrl+S", "settings: notifications, relays, privacy, appearance, profile"), ("Alt+I", "the contact's info: alias, mute, receipts, layout, clear, delete; in a group its members, leave, delete; for moderators b blocks the chosen member for all, r the reports"), ("Ctrl+Z", "suspend"), ("Ctrl+Q", "quit"),
        ]),
        ("Chat list", [("↑ ↓ PgUp PgDn", "choose"), ("Ctrl+F", "search all chats"), ("Enter", "open (a request: accept or reject)"), ("letters", "filter by name"), ("Esc", "clear the filter"), (",", "settings")]),
        ("Compose", [
            ("Enter", "send"), ("Alt+Enter, Shift+Enter", "new line"), ("↑", "to the messages (item cursor)"),
            ("PgUp PgDn, wheel", "scroll"), ("Ctrl+T", "attach a file"), ("Ctrl+F", "search in the chat"), ("Alt+C", "only images, videos, voice, files or links"),
            ("Ctrl+X", "edit in $EDITOR"), ("Ctrl+W Ctrl+U", "delete word / line"), ("Esc", "cancel reply or edit"),
            ("@ then Tab", "in a group: complete a member's name (Tab again: the next)"),
        ]),
        ("Messages", [
            ("↑ ↓ j k, a click", "move"), ("Enter, a second or right click", "actions menu"), ("r", "reply"), ("e", "edit (yours)"), ("+", "react"), ("c", "copy"),
            ("f", "forward"), ("d / D", "delete for me / everyone (D on a member's message: moderate, where your role allows)"), ("!", "in a group, report a member's message to the moderators"), ("i", "info"), ("v", "select (Space toggles)"),
            ("s", "save or receive the file"), ("o", "open the link"), ("h", "reveal a secret"), ("n N", "next / previous search result"),
            ("Esc", "back to compose"),
        ]),
    ]

    static func lines(width: Int) -> [StyledLine] {
        var lines = [StyledLine(" Keys", Style(attributes: .bold))]
        for (title, keys) in sections {
            lines.append(StyledLine(" " + title, Style(foreground: .blue, attributes: .bold)))
            for (key, what) in keys {
                var line = StyledLine("   ")
                line.append(key.padding(toLength: max(key.count, 22), withPad: " ", startingAt: 0), Style(attributes: .bold))
                line.append(what)
                lines.append(line.truncated(to: width))
            }
        }
        lines.append(StyledLine(" Esc closes", Style(foreground: .brightBlack)))
        return lines
    }
}
