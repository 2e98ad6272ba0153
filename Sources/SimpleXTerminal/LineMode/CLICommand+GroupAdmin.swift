import SimpleXChat

/// The group link, profile, preference and member-contact commands of the line mode, in
/// SimpleX's CLI syntax (`/create link #team`, `/gp team name`, `/set files #team off`, ...).
public enum GroupAdminCommand: Equatable, Sendable {
    /// `/create link #team [role]`.
    case createLink(String, role: GroupMemberRole)
    /// `/show link #team`.
    case showLink(String)
    /// `/delete link #team`.
    case deleteLink(String)
    /// `/set link role #team observer`.
    case setLinkRole(String, role: GroupMemberRole)
    /// `/group_profile team`: show the profile.
    case showProfile(String)
    /// `/gp team new_name [full name]`.
    case updateProfile(String, displayName: String, fullName: String)
    /// `/set welcome #team text`; `/delete welcome #team` (nil).
    case setWelcome(String, text: String?)
    /// `/set files #team on|off [role]`, `/set disappear #team on [ttl]`, ...
    case setPreference(String, GroupPreferences.Feature, on: Bool, role: GroupMemberRole?, ttl: Int?)
    /// `@#team bob text`: a message to a member, over a direct chat made for it when needed.
    case sendToMember(group: String, member: String, text: String)

    /// The words of `/set <word> #team ...` and the features they set (SimpleX's CLI).
    static let preferenceWords: [String: GroupPreferences.Feature] = [
        "disappear": .timedMessages, "direct": .directMessages, "delete": .fullDelete,
        "reactions": .reactions, "voice": .voice, "files": .files, "links": .simplexLinks,
        "reports": .reports, "history": .history, "support": .support,
    ]

    /// A slash command of this kind, or nil when `command` is another.
    static func parse(_ command: String, _ argument: String) throws(CLIParseError) -> GroupAdminCommand? {
        let words = argument.split(separator: " ").map(String.init)
        switch command {
        case "/create" where words.first == "link":
            guard words.count == 2 || words.count == 3 else {
                throw CLIParseError("usage: /create link #<group> [observer|member]")
            }
            return .createLink(
                try group(words[1]), role: try linkRole(words.count == 3 ? words[2] : "member"))
        case "/show" where words.first == "link":
            guard words.count == 2 else { throw CLIParseError("usage: /show link #<group>") }
            return .showLink(try group(words[1]))
        case "/delete" where words.first == "link":
            guard words.count == 2 else { throw CLIParseError("usage: /delete link #<group>") }
            return .deleteLink(try group(words[1]))
        case "/delete" where words.first == "welcome":
            guard words.count == 2 else { throw CLIParseError("usage: /delete welcome #<group>") }
            return .setWelcome(try group(words[1]), text: nil)
        case "/set" where words.first == "link" && words.count > 1 && words[1] == "role":
            guard words.count == 4 else {
                throw CLIParseError("usage: /set link role #<group> observer|member")
            }
            return .setLinkRole(try group(words[2]), role: try linkRole(words[3]))
        case "/set" where words.first == "welcome":
            guard words.count >= 3 else { throw CLIParseError("usage: /set welcome #<group> <text>") }
            let (name, text) = try CLICommand.groupAndRest(String(argument.dropFirst("welcome ".count)))
            return .setWelcome(name, text: text)
        case "/set" where words.count >= 2 && words[1].hasPrefix("#"):
            guard let feature = preferenceWords[words[0]] else {
                throw CLIParseError(
                    "unknown group preference \(words[0]): \(preferenceWords.keys.sorted().joined(separator: ", "))"
                )
            }
            return try preference(feature, group: try group(words[1]), Array(words.dropFirst(2)))
        case "/gp", "/group_profile":
            guard let name = words.first else {
                throw CLIParseError("usage: /gp <group> [<new name> [full name]]")
            }
            guard words.count > 1 else { return .showProfile(try group(name)) }
            let fullName = words.dropFirst(2).joined(separator: " ")
            return .updateProfile(try group(name), displayName: words[1], fullName: fullName)
        default:
            return nil
        }
    }

    /// `@#team bob text`.
    static func parseMemberMessage(_ text: String) throws(CLIParseError) -> GroupAdminCommand {
        let (name, rest) = try CLICommand.groupAndRest(String(text.dropFirst()))
        let (member, message) = try CLICommand.nameAndRest(rest)
        guard !name.isEmpty, !message.isEmpty else {
            throw CLIParseError("usage: @#<group> <member> <message>")
        }
        return .sendToMember(group: name, member: member, text: message)
    }

    private static func preference(_ feature: GroupPreferences.Feature, group: String, _ rest: [String])
        throws(CLIParseError) -> GroupAdminCommand
    {
        var on = true
        var role: GroupMemberRole?
        var ttl: Int?
        var words = rest[...]
        if let first = words.first, first == "on" || first == "off" {
            on = first == "on"
            words = words.dropFirst()
        } else if feature != .timedMessages || words.isEmpty {
            throw CLIParseError("usage: /set <feature> #\(group) on|off [role]")
        }
        for word in words {
            if on, let parsed = GroupMemberRole(rawValue: word), parsed >= .observer {
                role = parsed
            } else if on, feature == .timedMessages, let seconds = ttlSeconds(word) {
                ttl = seconds
            } else {
                throw CLIParseError("usage: /set <feature> #\(group) on|off [role]: \(word)?")
            }
        }
        return .setPreference(group, feature, on: on, role: role, ttl: ttl)
    }

    /// `30s`, `5m`, `1h`, `1d`, `week`, `2w`, `month`: seconds.
    static func ttlSeconds(_ word: String) -> Int? {
        let units: [(String, Int)] = [
            ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400), ("w", 7 * 86_400),
        ]
        switch word {
        case "day": return 86_400
        case "week": return 7 * 86_400
        case "month": return 30 * 86_400
        default: break
        }
        for (suffix, size) in units where word.hasSuffix(suffix) {
            if let count = Int(word.dropLast()), count > 0 { return count * size }
        }
        return nil
    }

    private static func group(_ word: String) throws(CLIParseError) -> String {
        let name = word.hasPrefix("#") ? String(word.dropFirst()) : word
        guard !name.isEmpty else { throw CLIParseError("a group name is missing") }
        return name
    }

    private static func linkRole(_ word: String) throws(CLIParseError) -> GroupMemberRole {
        guard let role = GroupMemberRole(rawValue: word), role == .observer || role == .member else {
            throw CLIParseError("a group link makes members observer or member, not \(word)")
        }
        return role
    }
}
