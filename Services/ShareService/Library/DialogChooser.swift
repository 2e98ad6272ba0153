import Foundation
import Glibc
import SimpleXChat
import SimpleXDesktop

/// Choosing the chat without a terminal (a file manager started the helper): a desktop dialog —
/// kdialog first on KDE, else zenity, else yad, whichever the desktop has — else the terminal
/// picker in `x-terminal-emulator`, else nothing (the caller then says so in a notification).
struct DialogChooser {
    enum Outcome: Equatable {
        case chosen(Int64)
        /// A group (`#3`) was chosen.
        case chosenGroup(Int64)
        case cancelled
        /// The helper runs again in a terminal, where the user chooses.
        case handedToTerminal
        case noDialog
    }

    let environment: [String: String]

    /// The dialog programs to try, in order, with their full paths.
    func dialogs() -> [(name: String, path: String)] {
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased()
        let order = desktop.contains("KDE") ? ["kdialog", "zenity", "yad"] : ["zenity", "yad", "kdialog"]
        return order.compactMap { name in find(name).map { (name, $0) } }
    }

    /// The dialog's command line for `contacts`, then `groups` (`#3`, `#team`), and `count` items.
    /// The dialogs cannot grey a row: the caller leaves out what cannot be chosen.
    static func arguments(for dialog: String, contacts: [ChatContact], groups: [ChatGroup] = [], items count: Int)
        -> [String]
    {
        let title = "Send with SimpleX Chat"
        let question = "Send \(count == 1 ? "1 item" : "\(count) items") to which chat?"
        let rows =
            contacts.flatMap { ["@\($0.contactId)", $0.viewName] }
            + groups.flatMap { ["#\($0.groupId)", "#" + $0.localDisplayName] }
        switch dialog {
        case "kdialog": return ["--title", title, "--menu", question] + rows
        case "yad":
            return ["--list", "--title", title, "--text", question, "--column", "Chat", "--column", "Name", "--print-column", "1"] + rows
        default:
            return ["--list", "--title", title, "--text", question, "--column", "Chat", "--column", "Name"] + rows
        }
    }

    /// The chat id a dialog printed (`@12`, yad's `@12|`).
    static func chosen(from output: String) -> Int64? {
        let trimmed = firstWord(output)
        return Int64(trimmed.hasPrefix("@") ? String(trimmed.dropFirst()) : trimmed)
    }

    /// The group id a dialog printed (`#3`), or nil when it chose a contact.
    static func chosenGroup(from output: String) -> Int64? {
        let trimmed = firstWord(output)
        return trimmed.hasPrefix("#") ? Int64(trimmed.dropFirst()) : nil
    }

    private static func firstWord(_ output: String) -> String {
        let first = output.split(whereSeparator: { $0 == "\n" || $0 == "|" }).first.map(String.init) ?? ""
        return first.trimmingCharacters(in: .whitespaces)
    }

    func choose(_ contacts: [ChatContact], groups: [ChatGroup] = [], items count: Int, again: [String]) -> Outcome {
        if let dialog = dialogs().first {
            let (status, output) = run(
                dialog.path, Self.arguments(for: dialog.name, contacts: contacts, groups: groups, items: count))
            guard status == 0 else { return .cancelled }
            if let id = Self.chosenGroup(from: output) { return .chosenGroup(id) }
            guard let id = Self.chosen(from: output) else { return .cancelled }
            return .chosen(id)
        }
        if let terminal = find("x-terminal-emulator") {
            // Detached: the terminal lives on its own; the helper there does the rest.
            spawnDetached(["/usr/bin/setsid", "--fork", terminal, "-e", selfPath()] + again)
            return .handedToTerminal
        }
        return .noDialog
    }

    private func find(_ name: String) -> String? { Program.find(name, environment: environment) }

    private func selfPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "simplex-share"
    }

    private func run(_ path: String, _ arguments: [String]) -> (Int32, String) {
        let result = Program.run(path, arguments, environment: environment)
        return (result.status, result.output)
    }

    private func spawnDetached(_ arguments: [String]) {
        // `setsid --fork` returns at once; the program lives on in a session of its own.
        _ = Program.run(arguments[0], Array(arguments.dropFirst()), environment: environment, capture: false)
    }
}
