import SimpleXChat

/// A line typed in the line mode (`simplex-chat --cli`), in the SimpleX terminal CLI's syntax
/// (ios-coordination.md §7).
public enum CLICommand: Equatable, Sendable {
    case createInvitation
    case connect(link: String)
    case address
    /// `/sa`: show the contact address without making one.
    case showAddress
    /// `/da`: delete the contact address.
    case deleteAddress
    /// `/ac name`, or `/ac incognito name` (SimpleX's `/accept incognito`): a random profile is shown.
    case acceptContact(String, incognito: Bool = false)
    case rejectContact(String)
    case deleteContact(String)
    /// `/clear @name`: delete every message of a chat, here only.
    case clearChat(String)
    case send(to: String, text: String)
    /// A bare line: to the chat last written to or received from.
    case sendToActive(String)
    case reply(to: String, quoted: String, text: String)
    case edit(in: String, old: String, new: String)
    case delete(in: String, text: String)
    case react(in: String, emoji: String, text: String)
    case forward(to: String, from: String, text: String)
    case tail(chat: String?, count: Int)
    case search(chat: String?, text: String)
    case chats
    case profile(displayName: String, fullName: String)
    case alias(contact: String, alias: String)
    case info(in: String, text: String)
    case servers([String])
    /// `/f @name path`: offer a file.
    case sendFile(to: String, path: String)
    /// `/fr id [dir/ | path]`: receive an offered file.
    case receiveFile(id: Int64, path: String?)
    case cancelFile(id: Int64)
    case fileStatus(id: Int64)
    /// `/fsave id path`: the file's contents written to `path` (decrypted when sealed at rest).
    case saveFile(id: Int64, path: String)
    /// `/files`: files and media in the group directory, with their size; `/files delete` deletes them.
    case localFiles(delete: Bool)
    /// `/ttl`: "Delete messages after", shown; `/ttl none|day|week|month|year|<seconds>` sets it.
    case showTTL
    case setTTL(Int?)
    /// A command of the chat API that the line mode takes as it is written there and answers
    /// with "ok": `/receipts @name on|off|default`, `/set receipts contacts|all on|off`,
    /// `/mute @name`, `/unmute @name`.
    case chatCommand(ChatCommand)
    /// `/g team [full name]`: a new group with the user as owner.
    case createGroup(String, fullName: String)
    /// `/a team bob [role]`: invite a contact (as `member` unless another role is named).
    case addMember(group: String, contact: String, role: GroupMemberRole)
    /// `/j team`: accept a group invitation.
    case joinGroup(String)
    /// `/ms team`: the group's members with their roles and status.
    case groupMembers(String)
    /// `#team text`: a message to the group.
    case sendGroup(String, text: String)
    /// `! #team (old text) new text`: edit the user's message in a group.
    case editGroup(String, old: String, new: String)
    /// `\\ #team text`: delete the user's message in a group, for everyone.
    case deleteGroup(String, text: String)
    /// `/d #team`: delete the group (the owner, for everyone), here.
    case deleteGroupChat(String)
    /// `/l team`: leave the group.
    case leaveGroup(String)
    /// `/mr team bob observer`: change a member's role.
    case changeRole(group: String, member: String, role: GroupMemberRole)
    /// `/rm team bob`: remove a member.
    case removeMember(group: String, member: String)
    /// `/tail #team [n]`: the group's last messages.
    case tailGroup(String, count: Int)
    /// `\\ #team @cath text`: delete a member's message for everyone, as a moderator.
    case moderateGroup(String, member: String, text: String)
    /// `/block for all #team cath`, `/unblock for all #team cath`.
    case blockForAll(group: String, member: String, blocked: Bool)
    /// `/report #team [@cath] spam text`: report a member's message to the moderators.
    case reportGroup(String, member: String?, reason: ReportReason, text: String)
    /// Group links, profile, preferences, member contacts (`CLICommand+GroupAdmin.swift`).
    case groupAdmin(GroupAdminCommand)
    /// `> #team @bob (quoted text) reply` (without `@bob`: the user's own message).
    case replyGroup(String, member: String?, quoted: String, text: String)
    /// `+1 #team text`, `-1 #team text`, `+❤️ #team text`: react to a group message.
    case reactGroup(String, emoji: String, text: String)
    /// `/f #team path`: a file to every member of the group.
    case sendGroupFile(String, path: String)
    case help
    case quit

    /// Parses one line; a line that is none of the commands is an error with a hint.
    public static func parse(_ line: String) throws(CLIParseError) -> CLICommand? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("/") { return try slashCommand(text) }
        // `#group message`, and the reply, edit, delete and react forms naming a group.
        if text.hasPrefix(">#") || text.hasPrefix("> #") { return try groupReply(text) }
        if text.hasPrefix("! #") {
            let (name, rest) = try groupAndRest(String(text.dropFirst(2)))
            let (old, new) = try parenthesised(rest, usage: "! #group (old text) new text")
            return .editGroup(name, old: old, new: new)
        }
        if text.hasPrefix("\\ #") {
            let (name, rest) = try groupAndRest(String(text.dropFirst(2)))
            guard !rest.isEmpty else { throw CLIParseError("usage: \\ #group text") }
            if rest.hasPrefix("@") { return try moderation(group: name, rest: rest) }
            return .deleteGroup(name, text: rest)
        }
        if text.hasPrefix("#") {
            let (name, rest) = try groupAndRest(text)
            guard !rest.isEmpty else { throw CLIParseError("nothing to send to #\(name)") }
            return .sendGroup(name, text: rest)
        }
        if text.hasPrefix("@#") { return .groupAdmin(try GroupAdminCommand.parseMemberMessage(text)) }
        if text.hasPrefix(">@") { return try reply(String(text.dropFirst())) }
        if text.hasPrefix("! @") { return try edit(String(text.dropFirst(2))) }
        if text.hasPrefix("\\ @") {
            let (name, rest) = try nameAndRest(String(text.dropFirst(2)))
            return .delete(in: name, text: rest)
        }
        if let space = text.firstIndex(of: " "), text.hasPrefix("+") || text.hasPrefix("-"),
            text[text.index(after: space)...].hasPrefix("#")
        {
            let (name, rest) = try groupAndRest(String(text[text.index(after: space)...]))
            guard !rest.isEmpty else { throw CLIParseError("usage: +1 #group text") }
            return .reactGroup(name, emoji: String(text[..<space]), text: rest)
        }
        if let space = text.firstIndex(of: " "), text.hasPrefix("+") || text.hasPrefix("-"),
            text[text.index(after: space)...].hasPrefix("@")
        {
            let marker = String(text[..<space])
            let (name, rest) = try nameAndRest(String(text[text.index(after: space)...]))
            return .react(in: name, emoji: marker, text: rest)
        }
        if text.hasPrefix("@") {
            let (name, rest) = try nameAndRest(text)
            if rest.hasPrefix("<- @") {
                let (from, quoted) = try nameAndRest(String(rest.dropFirst(3)))
                return .forward(to: name, from: from, text: quoted)
            }
            guard !rest.isEmpty else { throw CLIParseError("nothing to send to @\(name)") }
            return .send(to: name, text: rest)
        }
        return .sendToActive(text)
    }

    private static func slashCommand(_ text: String) throws(CLIParseError) -> CLICommand {
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        if let command = try GroupAdminCommand.parse(words[0], argument) { return .groupAdmin(command) }
        switch words[0] {
        case "/c", "/connect": return argument.isEmpty ? .createInvitation : .connect(link: argument)
        case "/ad", "/address": return .address
        case "/sa", "/show_address": return .showAddress
        case "/da", "/delete_address": return .deleteAddress
        case "/ac", "/accept":
            if argument.hasPrefix("incognito ") {
                let rest = String(argument.dropFirst("incognito ".count)).trimmingCharacters(in: .whitespaces)
                return .acceptContact(try name(rest, "/ac incognito <name>"), incognito: true)
            }
            return .acceptContact(try name(argument, "/ac <name>"))
        case "/rc", "/reject": return .rejectContact(try name(argument, "/rc <name>"))
        case "/d" where argument.hasPrefix("#"), "/delete" where argument.hasPrefix("#"):
            return .deleteGroupChat(try groupName(argument, "/d #<group>"))
        case "/d", "/delete": return .deleteContact(try name(argument, "/d @<name>"))
        case "/clear": return .clearChat(try name(argument, "/clear @<name>"))
        case "/tail" where argument.hasPrefix("#"):
            let (name, rest) = try groupAndRest(argument)
            guard let count = rest.isEmpty ? 10 : Int(rest), count > 0 else {
                throw CLIParseError("usage: /tail #group [count]")
            }
            return .tailGroup(name, count: count)
        case "/tail":
            var chat: String?
            var count = 10
            for word in argument.split(separator: " ") {
                if word.hasPrefix("@") {
                    chat = String(word.dropFirst())
                } else if let n = Int(word), n > 0 {
                    count = n
                } else {
                    throw CLIParseError("usage: /tail [@name] [count]")
                }
            }
            return .tail(chat: chat, count: count)
        case "/search", "/?":
            if argument.hasPrefix("@") {
                let (chat, rest) = try nameAndRest(argument)
                guard !rest.isEmpty else { throw CLIParseError("usage: /search [@name] <text>") }
                return .search(chat: chat, text: rest)
            }
            guard !argument.isEmpty else { throw CLIParseError("usage: /search [@name] <text>") }
            return .search(chat: nil, text: argument)
        case "/chats": return .chats
        case "/p", "/profile":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard let display = parts.first, !display.isEmpty else {
                throw CLIParseError("usage: /p <display name> [full name]")
            }
            return .profile(displayName: display, fullName: parts.count > 1 ? parts[1] : "")
        case "/alias":
            let (contact, alias) = try nameAndRest(argument)
            return .alias(contact: contact, alias: alias)
        case "/i", "/info":
            let (contact, rest) = try nameAndRest(argument)
            return .info(in: contact, text: rest)
        case "/smp", "/server", "/servers":
            let servers = argument.split(separator: " ").map(String.init)
            guard !servers.isEmpty else {
                throw CLIParseError("usage: /smp smp://<fingerprint>@<host>[:port] ...")
            }
            return .servers(servers)
        case "/f" where argument.hasPrefix("#"), "/file" where argument.hasPrefix("#"):
            let (name, path) = try groupAndRest(argument)
            guard !name.isEmpty, !path.isEmpty else { throw CLIParseError("usage: /f #<group> <path>") }
            return .sendGroupFile(name, path: path)
        case "/f", "/file":
            let (name, path) = try nameAndRest(argument)
            guard argument.hasPrefix("@"), !path.isEmpty else {
                throw CLIParseError("usage: /f @<name> <path>")
            }
            return .sendFile(to: name, path: path)
        case "/fr", "/freceive":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard let first = parts.first, let id = Int64(first) else {
                throw CLIParseError("usage: /fr <file id> [<dir>/ | <path>]")
            }
            return .receiveFile(
                id: id, path: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil)
        case "/fc", "/fcancel":
            guard let id = Int64(argument) else { throw CLIParseError("usage: /fc <file id>") }
            return .cancelFile(id: id)
        case "/ttl":
            switch argument {
            case "": return .showTTL
            case "none", "never": return .setTTL(nil)
            case "day": return .setTTL(86_400)
            case "week": return .setTTL(7 * 86_400)
            case "month": return .setTTL(30 * 86_400)
            case "year": return .setTTL(365 * 86_400)
            default:
                guard let seconds = Int(argument), seconds > 0 else {
                    throw CLIParseError("usage: /ttl [none | day | week | month | year | <seconds>]")
                }
                return .setTTL(seconds)
            }
        case "/files":
            switch argument {
            case "": return .localFiles(delete: false)
            case "delete": return .localFiles(delete: true)
            default: throw CLIParseError("usage: /files [delete]")
            }
        case "/fsave":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = Int64(parts[0]), !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
            else { throw CLIParseError("usage: /fsave <file id> <dir>/ | <path>") }
            return .saveFile(id: id, path: parts[1].trimmingCharacters(in: .whitespaces))
        case "/fs", "/fstatus":
            guard let id = Int64(argument) else { throw CLIParseError("usage: /fs <file id>") }
            return .fileStatus(id: id)
        case "/receipts", "/set", "/mute", "/unmute":
            let unknown = CLIParseError("unknown command \(words[0]): type /help")
            let command: ChatCommand
            do { command = try ChatCommand.parse(text) } catch {
                if case .unknownCommand = error { throw unknown }
                throw CLIParseError("\(error)")
            }
            switch command {
            case .setSendReceipts, .setUserContactReceipts, .setAllContactReceipts, .setShowMessages,
                .setGroupShowMessages,
                .setUserFeature, .setUserTimedMessages:
                return .chatCommand(command)
            default: throw unknown
            }
        case "/g", "/group":
            let (name, fullName) = try groupAndRest(argument)
            guard !name.isEmpty else { throw CLIParseError("usage: /g <name> [full name]") }
            return .createGroup(name, fullName: fullName)
        case "/a", "/add":
            let parts = argument.split(separator: " ").map(String.init)
            guard parts.count == 2 || parts.count == 3 else {
                throw CLIParseError("usage: /a <group> <contact> [role]")
            }
            let roleText = parts.count == 3 ? parts[2] : "member"
            guard let role = GroupMemberRole(rawValue: roleText), role >= .observer else {
                throw CLIParseError(
                    "unknown role \(roleText): observer, author, member, moderator, admin or owner")
            }
            let group = parts[0].hasPrefix("#") ? String(parts[0].dropFirst()) : parts[0]
            let contact = parts[1].hasPrefix("@") ? String(parts[1].dropFirst()) : parts[1]
            return .addMember(group: group, contact: contact, role: role)
        case "/j", "/join": return .joinGroup(try groupName(argument, "/j <group>"))
        case "/ms", "/members": return .groupMembers(try groupName(argument, "/ms <group>"))
        case "/l", "/leave": return .leaveGroup(try groupName(argument, "/l <group>"))
        case "/rm", "/remove":
            let parts = argument.split(separator: " ").map(String.init)
            guard parts.count == 2 else { throw CLIParseError("usage: /rm <group> <member>") }
            return .removeMember(group: try groupName(parts[0], "/rm <group> <member>"), member: parts[1])
        case "/mr", "/member_role":
            let parts = argument.split(separator: " ").map(String.init)
            guard parts.count == 3 else { throw CLIParseError("usage: /mr <group> <member> <role>") }
            guard let role = GroupMemberRole(rawValue: parts[2]), role >= .observer else {
                throw CLIParseError("unknown role \(parts[2]): observer, author, member, moderator, admin or owner")
            }
            return .changeRole(group: try groupName(parts[0], "/mr <group> <member> <role>"), member: parts[1], role: role)
        case "/block" where argument.hasPrefix("for all "): return try blockForAll(argument, blocked: true)
        case "/unblock" where argument.hasPrefix("for all "): return try blockForAll(argument, blocked: false)
        case "/report": return try report(argument)
        case "/help", "/h": return .help
        case "/q", "/quit": return .quit
        default: throw CLIParseError("unknown command \(words[0]): type /help")
        }
    }

    private static func groupName(_ argument: String, _ usage: String) throws(CLIParseError) -> String {
        let name = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
        guard !name.isEmpty, !name.contains(" ") else { throw CLIParseError("usage: \(usage)") }
        return name
    }

    /// `#team rest` (or `team rest`) → (team, rest).
    static func groupAndRest(_ text: String) throws(CLIParseError) -> (String, String) {
        let body = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let space = body.firstIndex(of: " ") else { return (body, "") }
        return (
            String(body[..<space]), body[body.index(after: space)...].trimmingCharacters(in: .whitespaces)
        )
    }

    private static func name(_ argument: String, _ usage: String) throws(CLIParseError) -> String {
        let name = argument.hasPrefix("@") ? String(argument.dropFirst()) : argument
        guard !name.isEmpty, !name.contains(" ") else { throw CLIParseError("usage: \(usage)") }
        return name
    }

    /// `@name rest` (or `@'name with spaces' rest`) → (name, rest).
    static func nameAndRest(_ text: String) throws(CLIParseError) -> (String, String) {
        var body = Substring(text)
        if body.hasPrefix("@") { body = body.dropFirst() }
        if body.hasPrefix("'") {
            guard let close = body.dropFirst().firstIndex(of: "'") else {
                throw CLIParseError("unclosed quote in the name")
            }
            let name = String(body[body.index(after: body.startIndex)..<close])
            return (name, body[body.index(after: close)...].trimmingCharacters(in: .whitespaces))
        }
        guard let space = body.firstIndex(of: " ") else {
            guard !body.isEmpty else { throw CLIParseError("a name is missing after @") }
            return (String(body), "")
        }
        return (
            String(body[..<space]), body[body.index(after: space)...].trimmingCharacters(in: .whitespaces)
        )
    }

    /// `@name (quoted text) reply`.
    /// `> #team @bob (quoted text) reply`, `>#team (quoted text) reply` (SimpleX `SendGroupMessageQuote`).
    private static func groupReply(_ text: String) throws(CLIParseError) -> CLICommand {
        let usage = "> #group [@member] (quoted text) reply"
        let body = String(text.dropFirst()).trimmingCharacters(in: .whitespaces)
        let (name, rest) = try groupAndRest(body)
        guard !name.isEmpty else { throw CLIParseError("usage: \(usage)") }
        var member: String?
        var quotedPart = rest
        if rest.hasPrefix("@") {
            let (memberName, after) = try nameAndRest(rest)
            member = memberName
            quotedPart = after
        }
        let (quoted, reply) = try parenthesised(quotedPart, usage: usage)
        return .replyGroup(name, member: member, quoted: quoted, text: reply)
    }

    private static func reply(_ text: String) throws(CLIParseError) -> CLICommand {
        let (name, rest) = try nameAndRest(text)
        let (quoted, reply) = try parenthesised(rest, usage: ">@name (quoted text) reply")
        return .reply(to: name, quoted: quoted, text: reply)
    }

    /// `@name (old text) new text`.
    private static func edit(_ text: String) throws(CLIParseError) -> CLICommand {
        let (name, rest) = try nameAndRest(text)
        let (old, new) = try parenthesised(rest, usage: "! @name (old text) new text")
        return .edit(in: name, old: old, new: new)
    }

    private static func parenthesised(_ text: String, usage: String) throws(CLIParseError) -> (String, String)
    {
        guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else {
            throw CLIParseError("usage: \(usage)")
        }
        let inner = String(text[text.index(after: text.startIndex)..<close])
        let after = text[text.index(after: close)...].trimmingCharacters(in: .whitespaces)
        guard !inner.isEmpty, !after.isEmpty else { throw CLIParseError("usage: \(usage)") }
        return (inner, after)
    }

    public static let helpText = """
        /c                      create a one-time invitation link
        /c <link>               connect by an invitation or a contact address link
        /ad                     show (or create) your contact address
        /sa, /da                show, delete your contact address (contacts made stay)
        /ac <name>, /rc <name>  accept or reject a contact request (/ac incognito <name>: show a random profile)
        @<name> <message>       send a message (a bare line goes to the last chat)
        >@<name> (text) reply   reply, quoting the message that starts with text
        ! @<name> (text) new    edit your message that starts with text
        \\ @<name> text          delete your message that starts with text, for everyone
        +1 @<name> text         react 👍 (also -1 👎, +😀 +😂 +😢 +❤️ +🚀 +✅)
        @<to> <- @<from> text   forward the message that starts with text
        /tail [@name] [n]       the last n messages (of one chat, or of all)
        /search [@name] text    messages with these words (the last one as typed so far)
        /chats                  your chats, most recent first, with unread counts
        /i @<name> text         message info: status and edit history
        /p <name> [full name]   change your profile (sent to your contacts)
        /alias @<name> <alias>  show a contact by another name
        /f @<name> <path>       send a file (up to 8 MiB)
        /fr <id> [<dir>/|<path>] receive a file (to the group directory's files/ by default)
        /fc <id>, /fs <id>      cancel a file transfer, show its status
        /fsave <id> <dir>/|<path> save a received or sent file's contents there (decrypted)
        /files [delete]         files and media stored here, with their size; delete them all
        /ttl [none|day|week|month|year]  delete messages after (shown without an argument)
        /clear @<name>          delete every message of a chat, on this device only
        /d @<name>              delete a contact
        /g <group> [full name]  create a group (you are its owner)
        /a <group> <name> [role] invite a contact (observer, author, member, moderator, admin, owner)
        /j <group>              accept a group invitation
        #<group> <message>      send a message to the group
        ! #<group> (text) new   edit your message in the group that starts with text
        \\ #<group> text         delete your message in the group that starts with text, for everyone
        /tail #<group> [n]      the group's last n messages
        > #<group> @<member> (text) reply   reply to the member's message that starts with text
        +1 #<group> text        react to the group's message that starts with text (-1, +❤️, ...)
        /f #<group> <path>      offer a file to every member of the group
        /mr <group> <name> <role>  change a member's role
        /rm <group> <name>      remove a member from the group
        /l <group>              leave the group
        /d #<group>             delete the group (for everyone when you own it)
        /ms <group>             the group's members, with roles and status
        \\ #<group> @<name> text  delete a member's message for everyone (moderators)
        /block for all #<group> <name>    block a member for everyone (moderators); /unblock for all
        /report #<group> [@<name>] <reason> text  report a member's message to the moderators
        /create link #<group> [observer|member]  a link anyone can join the group by (/show link, /delete link)
        /gp <group> <name> [full name]  change the group's name (owners; /gp <group> shows its profile)
        /set welcome #<group> <text>  the message each new member is sent (/delete welcome #<group>)
        /set files|direct|delete|reactions|voice|history #<group> on|off [role]  the group's preferences
        @#<group> <member> <text>  a message to a member, in a direct chat made for it
        /smp <smp://...> ...    set your relays (used for new connections)
        /set receipts contacts on|off   send delivery receipts to contacts (new messages only)
        /receipts @<name> on|off|default  delivery receipts to one contact
        /set voice|calls|delete|reactions always|yes|no  what you allow of a feature
        /set disappear yes|no   whether you allow disappearing messages
        /mute @<name>, /unmute @<name>  no notifications from a chat, or again (#<group> too)
        /unmute mentions #<group>       notify only the group's messages that mention you
        /q                      quit
        """
}

/// A line the line mode cannot read: one sentence saying what is wrong.
public struct CLIParseError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
