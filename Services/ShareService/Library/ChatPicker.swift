import Foundation
import Glibc
import SimpleXChat

/// The terminal's list of chats when `--to` is missing: most recent first, type to filter, arrows
/// to move, Enter to choose, Esc or Ctrl-C to give up. Chats that cannot take the content yet
/// (still connecting, or the contact deleted us) are shown but cannot be chosen. It reads and
/// draws on `/dev/tty`, so text piped into the helper is left alone.
struct ChatPicker {
    let contacts: [ChatContact]
    /// The user's groups, listed after the contacts; those that cannot take the share greyed.
    var groups: [ChatGroup] = []
    /// The share carries files (groups cannot take them yet).
    var files = false
    /// How many rows of chats are drawn at once.
    var rows = 10

    /// Whether the helper has a controlling terminal to ask on.
    static var hasTerminal: Bool {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return false }
        close(tty)
        return true
    }

    /// Whether `contact` can be chosen.
    static func selectable(_ contact: ChatContact) -> Bool { contact.ready && contact.active }

    /// The chats whose name or alias contains `filter` (ignoring case), in order.
    func matches(_ filter: String) -> [ChatContact] {
        guard !filter.isEmpty else { return contacts }
        let lowered = filter.lowercased()
        return contacts.filter {
            $0.localDisplayName.lowercased().contains(lowered) || $0.localAlias.lowercased().contains(lowered)
                || $0.profile.fullName.lowercased().contains(lowered)
        }
    }

    /// The contacts, then the groups, whose name contains `filter` (ignoring case).
    func choices(_ filter: String) -> [ShareChoice] {
        let lowered = filter.lowercased()
        let shownGroups = groups.filter {
            filter.isEmpty || $0.localDisplayName.lowercased().contains(lowered)
                || $0.profile.fullName.lowercased().contains(lowered)
        }
        return matches(filter).map(ShareChoice.contact) + shownGroups.map(ShareChoice.group)
    }

    /// Whether `choice` can be chosen for this share.
    func selectable(_ choice: ShareChoice) -> Bool {
        switch choice {
        case .contact(let contact): Self.selectable(contact)
        case .group(let group): ShareChoice.groupProblem(group, files: files) == nil
        }
    }

    /// Runs on the controlling terminal; the chosen chat, or nil when the user gave up. Throws
    /// when there is no terminal.
    func choose() throws(ShareSender.Failure) -> ShareChoice? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            throw .init(description: "no terminal to choose the chat in: give it with --to @name", status: ShareExit.usage)
        }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else {
            throw .init(description: "no terminal to choose the chat in: give it with --to @name", status: ShareExit.usage)
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(tty, TCSANOW, &raw)
        defer { tcsetattr(tty, TCSANOW, &saved) }
        var state = State()
        var drawn = 0
        while true {
            drawn = draw(state, on: tty, erasing: drawn)
            guard let key = readKey(tty) else { return nil }
            let shown = choices(state.filter)
            switch key {
            case .enter:
                guard state.selected < shown.count, selectable(shown[state.selected]) else { continue }
                erase(drawn, on: tty)
                return shown[state.selected]
            case .cancel:
                erase(drawn, on: tty)
                return nil
            case .up: state.selected = max(0, state.selected - 1)
            case .down: state.selected = min(max(shown.count - 1, 0), state.selected + 1)
            case .backspace:
                if !state.filter.isEmpty { state.filter.removeLast() }
                state.selected = 0
            case .text(let text):
                state.filter += text
                state.selected = 0
            }
        }
    }

    struct State {
        var filter = ""
        var selected = 0
    }

    enum Key: Equatable {
        case up, down, enter, cancel, backspace
        case text(String)
    }

    /// The lines the picker shows for `state` (without terminal codes, for tests and drawing).
    func lines(_ state: State) -> [String] {
        let shown = choices(state.filter)
        var lines = ["Send to which chat? Type to filter, ↑↓ to move, Enter to send, Esc to cancel: \(state.filter)"]
        let first = max(0, min(state.selected - rows + 1, shown.count - rows))
        for (index, choice) in shown.enumerated().dropFirst(first).prefix(rows) {
            let marker = index == state.selected ? ">" : " "
            switch choice {
            case .contact(let contact):
                let alias = contact.localAlias.isEmpty ? "" : " (\(contact.localDisplayName))"
                let why = !contact.active ? "  — deleted the contact" : !contact.ready ? "  — still connecting" : ""
                lines.append("\(marker) @\(contact.contactId) \(contact.viewName)\(alias)\(why)")
            case .group(let group):
                let why = ShareChoice.groupProblem(group, files: files).map { "  — " + $0 } ?? ""
                lines.append("\(marker) #\(group.groupId) #\(group.localDisplayName)\(why)")
            }
        }
        if shown.isEmpty { lines.append("  no chat matches") }
        return lines
    }

    private func draw(_ state: State, on tty: Int32, erasing previous: Int) -> Int {
        erase(previous, on: tty)
        let lines = lines(state)
        var text = ""
        for (index, line) in lines.enumerated() {
            // The chosen row in reverse video; chats that cannot be chosen dimmed.
            let dim = line.contains("  — ")
            let styled = line.hasPrefix(">") ? "\u{1B}[7m\(line)\u{1B}[0m" : dim ? "\u{1B}[2m\(line)\u{1B}[0m" : line
            text += styled + (index == lines.count - 1 ? "" : "\r\n")
        }
        write(text, to: tty)
        return lines.count
    }

    private func erase(_ count: Int, on tty: Int32) {
        guard count > 0 else { return }
        // Back to the first line drawn, then clear to the end of the screen.
        write("\r" + (count > 1 ? "\u{1B}[\(count - 1)A" : "") + "\u{1B}[J", to: tty)
    }

    private func write(_ text: String, to tty: Int32) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(tty, $0.baseAddress, $0.count) }
    }

    private func readKey(_ tty: Int32) -> Key? {
        var byte: UInt8 = 0
        guard read(tty, &byte, 1) == 1 else { return nil }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x03, 0x04: return .cancel
        case 0x7F, 0x08: return .backspace
        case 0x1B:
            // An arrow is ESC [ A / ESC [ B (or ESC O A); a lone Esc cancels.
            var poller = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { return .cancel }
            var next: [UInt8] = [0, 0]
            guard read(tty, &next, 2) == 2 else { return .cancel }
            switch next[1] {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            default: return readKey(tty)
            }
        default:
            guard byte >= 0x20 else { return readKey(tty) }
            // A UTF-8 sequence: its continuation bytes follow.
            var bytes = [byte]
            let more = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
            for _ in 0..<more {
                var continuation: UInt8 = 0
                guard read(tty, &continuation, 1) == 1 else { break }
                bytes.append(continuation)
            }
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}
