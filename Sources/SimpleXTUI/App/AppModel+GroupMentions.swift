import Foundation
import SimpleXChat

/// `@` completion in a group's compose field: Tab after `@` and the start of a member's name puts
/// in the whole name (`@bob `, `@'Bob B' ` with a space in it); when several members' names fit,
/// the first is put in and the others are named on the status line (Tab again takes the next).
extension AppModel {
    mutating func completeMention(_ group: GroupChatState) {
        guard let typed = Self.mentionPrefix(compose) else { return }
        // After a completion the word is a whole name and a space: Tab again offers the next name.
        let earlier = group.mentionCompletion?.prefix
        let (prefix, replaced, current) =
            typed.afterCompletion
            ? (
                earlier.flatMap { typed.name.lowercased().hasPrefix($0.lowercased()) ? $0 : nil }
                    ?? typed.name,
                typed.length, typed.name
            )
            : (typed.name, typed.length, nil)
        let candidates = Self.mentionCandidates(prefix, names: group.memberNames)
        guard !candidates.isEmpty else {
            status = ("no member of #\(group.group.localDisplayName) is called \(prefix)…", true)
            return
        }
        let next = current.flatMap { candidates.firstIndex(of: $0) }.map { ($0 + 1) % candidates.count } ?? 0
        let name = candidates[next]
        for _ in 0..<replaced { compose.backspace() }
        compose.insert("@" + Self.mentionText(name) + " ")
        groupChat?.mentionCompletion = MentionCompletion(prefix: prefix)
        if candidates.count > 1 {
            status = (candidates.map { "@" + $0 }.joined(separator: "  ") + " · Tab: next", false)
        } else {
            status = nil
        }
    }

    /// The `@name` being typed just before the cursor: the name typed so far, how many characters to
    /// replace (with the `@`), and whether it is a completion just made (a name and a space).
    static func mentionPrefix(_ compose: ComposeState)
        -> (name: String, length: Int, afterCompletion: Bool)?
    {
        let before = Array(compose.text[..<compose.cursor])
        // A completion just made: `@name ` or `@'name with spaces' `.
        if before.last == " ", let at = before.dropLast().lastIndex(of: "@") {
            let word = String(before[(at + 1)..<(before.count - 1)])
            let name =
                word.hasPrefix("'") && word.hasSuffix("'") && word.count > 1
                ? String(word.dropFirst().dropLast()) : word
            if !name.isEmpty, !word.contains(" ") || word.hasPrefix("'"),
                at == 0 || before[at - 1].isWhitespace
            {
                return (name, before.count - at, true)
            }
        }
        guard let at = before.lastIndex(of: "@"), at == 0 || before[at - 1].isWhitespace else { return nil }
        let typed = before[(at + 1)...]
        guard !typed.contains(where: \.isWhitespace) else { return nil }
        return (String(typed).replacingOccurrences(of: "'", with: ""), before.count - at, false)
    }

    /// The members whose names start with `prefix` (any case), those with the exact case first.
    static func mentionCandidates(_ prefix: String, names: [String]) -> [String] {
        let lower = prefix.lowercased()
        let matching = names.filter { $0.lowercased().hasPrefix(lower) }
        return matching.filter { $0.hasPrefix(prefix) } + matching.filter { !$0.hasPrefix(prefix) }
    }

    /// A name as a mention writes it: in single quotes when it has a space.
    static func mentionText(_ name: String) -> String {
        name.contains(" ") ? "'\(name)'" : name
    }
}

/// What Tab completed last, so that Tab again offers the next name for the same prefix.
public struct MentionCompletion: Equatable, Sendable {
    public var prefix: String
}
