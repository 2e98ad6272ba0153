import SimpleXChat

/// The moderation commands, as SimpleX's CLI spells them: `\\ #team @cath text` (delete a
/// member's message for everyone), `/block for all #team cath`, `/unblock for all #team cath`,
/// `/report #team [@cath] spam text`.
extension CLICommand {
    /// `\\ #team @cath hi`: the member's message starting with `hi`.
    static func moderation(group name: String, rest: String) throws(CLIParseError) -> CLICommand {
        let (member, text) = try nameAndRest(rest)
        guard !member.isEmpty, !text.isEmpty else { throw CLIParseError("usage: \\ #group @member text") }
        return .moderateGroup(name, member: member, text: text)
    }

    /// `/block for all #team cath` and `/unblock for all #team cath` (`@cath` too).
    static func blockForAll(_ argument: String, blocked: Bool) throws(CLIParseError) -> CLICommand {
        let usage = CLIParseError("usage: /\(blocked ? "" : "un")block for all #group member")
        guard argument.hasPrefix("for all ") else { throw usage }
        let (group, member) = try groupAndRest(String(argument.dropFirst("for all ".count)))
        let bare = member.hasPrefix("@") ? String(member.dropFirst()) : member
        guard !group.isEmpty, !bare.isEmpty, !bare.contains(" ") else { throw usage }
        return .blockForAll(group: group, member: bare, blocked: blocked)
    }

    /// `/report #team [@cath] <reason> <text the message starts with>`.
    static func report(_ argument: String) throws(CLIParseError) -> CLICommand {
        let usage = CLIParseError("usage: /report #group [@member] spam|content|community|profile|other text")
        guard argument.hasPrefix("#") else { throw usage }
        var (group, rest) = try groupAndRest(argument)
        var member: String?
        if rest.hasPrefix("@") {
            let (name, after) = try nameAndRest(rest)
            member = name
            rest = after
        }
        let words = rest.split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, let reason = ReportReason(known: words[0]) else { throw usage }
        return .reportGroup(group, member: member, reason: reason, text: words[1])
    }
}

extension ReportReason {
    /// A reason a user may give (not an unknown one a newer client sent).
    init?(known text: String) {
        switch text {
        case "spam": self = .spam
        case "content": self = .content
        case "community": self = .community
        case "profile": self = .profile
        case "other": self = .other
        default: return nil
        }
    }
}
