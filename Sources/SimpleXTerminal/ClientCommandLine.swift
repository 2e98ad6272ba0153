import SimpleXChat

/// The `simplex-chat` command line: what to do, parsed from the arguments.
public enum ClientCommand: Equatable, Sendable {
    /// Open the group directory, keychain and database, and report their state.
    case status
    case defaultsList
    case defaultsGet(String)
    case defaultsSet(String, String)
    case defaultsReset(String)
    case help
    case version
    /// The line mode, with relays given by `-s` (kept for the user); `open` is a chat to open at
    /// start (`--open @12`, as a notification click starts it); `connect` a `simplex:` link to
    /// connect to at start (the desktop file's `%u`, a link clicked in a browser).
    case lineMode(servers: [String], open: String? = nil, connect: String? = nil)
    /// `notifications [instant|periodic|off]`: show or set background receiving.
    case notifications(NotificationMode?)
    /// `-e '<command>'`: runs one chat command (SimpleX syntax) and prints its JSON response.
    case execute(String, servers: [String])
    /// `export FILE`, `import FILE [--replace]`, `delete-database --yes`: the whole chat as one
    /// sealed archive, and back; or erased.
    case export(String)
    case importArchive(String, replace: Bool)
    case deleteDatabase(confirmed: Bool)
    /// No command: the full-screen client, with the same options as the line mode.
    case fullScreen(servers: [String], open: String? = nil, connect: String? = nil)

    /// Parses the arguments after the program name; a mistake is a one-line `UsageError`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ClientCommand {
        if arguments.contains("--cli") || arguments.contains("-e") || arguments.contains("--execute") {
            return try chatSession(arguments)
        }
        if let first = arguments.first, first.hasPrefix("-s") || first == "--server" || first == "--open" || isChatLink(first) {
            guard case .lineMode(let servers, let open, let connect) = try chatSession(["--cli"] + arguments) else {
                throw UsageError("unexpected arguments: see simplex-chat --help")
            }
            return .fullScreen(servers: servers, open: open, connect: connect)
        }
        switch arguments.first {
        case nil: return .fullScreen(servers: [])
        case "status": return try noMore(arguments.dropFirst(), .status)
        case "export":
            guard arguments.count == 2, !arguments[1].hasPrefix("-") else { throw UsageError("usage: simplex-chat export FILE") }
            return .export(arguments[1])
        case "import":
            let rest = arguments.dropFirst().filter { $0 != "--replace" }
            guard rest.count == 1, let file = rest.first, !file.hasPrefix("-") else {
                throw UsageError("usage: simplex-chat import FILE [--replace]")
            }
            return .importArchive(file, replace: arguments.contains("--replace"))
        case "delete-database":
            let rest = Array(arguments.dropFirst())
            guard rest.isEmpty || rest == ["--yes"] else { throw UsageError("usage: simplex-chat delete-database --yes") }
            return .deleteDatabase(confirmed: rest == ["--yes"])
        case "-h", "--help", "help": return .help
        case "--version": return .version
        case "notifications":
            let rest = Array(arguments.dropFirst())
            guard let word = rest.first else { return .notifications(nil) }
            guard rest.count == 1, let mode = NotificationMode(rawValue: word) else {
                throw UsageError("usage: simplex-chat notifications [instant | periodic | off]")
            }
            return .notifications(mode)
        case "defaults":
            let rest = Array(arguments.dropFirst())
            switch rest.first {
            case nil, "list": return try noMore(rest.dropFirst(), .defaultsList)
            case "get":
                guard rest.count == 2 else { throw UsageError("usage: simplex-chat defaults get <key>") }
                return .defaultsGet(rest[1])
            case "set":
                guard rest.count == 3 else { throw UsageError("usage: simplex-chat defaults set <key> <value>") }
                return .defaultsSet(rest[1], rest[2])
            case "reset":
                guard rest.count == 2 else { throw UsageError("usage: simplex-chat defaults reset <key>") }
                return .defaultsReset(rest[1])
            case let other?:
                throw UsageError("unknown defaults command '\(other)': use list, get, set or reset")
            }
        case let other?:
            throw UsageError("unknown command or option '\(other)': see simplex-chat --help")
        }
    }

    /// `--cli` or `-e <command>`, each with any number of `-s <relay>`.
    private static func chatSession(_ arguments: [String]) throws(UsageError) -> ClientCommand {
        var servers: [String] = []
        var lineMode = false
        var command: String?
        var open: String?
        var connect: String?
        var rest = arguments[...]
        while let option = rest.first {
            rest = rest.dropFirst()
            switch option {
            case "--cli":
                lineMode = true
            case "-e", "--execute":
                guard let text = rest.first else { throw UsageError("\(option) needs a chat command, e.g. -e '/_get chats 1 pcc=on'") }
                guard command == nil else { throw UsageError("only one -e command at a time") }
                command = text
                rest = rest.dropFirst()
            case "--open":
                guard let chat = rest.first, chat.hasPrefix("@"), Int64(chat.dropFirst()) != nil else {
                    throw UsageError("--open needs a chat, e.g. --open @12")
                }
                open = chat
                rest = rest.dropFirst()
            case "-s", "--server":
                guard let server = rest.first else { throw UsageError("\(option) needs a relay address (smp://...)") }
                servers.append(server)
                rest = rest.dropFirst()
            case let link where isChatLink(link):
                guard connect == nil else { throw UsageError("only one link at a time") }
                connect = link
            default:
                throw UsageError("unexpected argument '\(option)' with \(command == nil ? "--cli" : "-e"): see simplex-chat --help")
            }
        }
        if let command {
            guard !lineMode else { throw UsageError("--cli and -e cannot be used together") }
            guard open == nil else { throw UsageError("--open goes with --cli, not -e") }
            guard connect == nil else { throw UsageError("a link goes with --cli, not -e (or -e '/c <link>')") }
            return .execute(command, servers: servers)
        }
        return .lineMode(servers: servers, open: open, connect: connect)
    }

    /// A SimpleX invitation or address link, as a browser or the desktop file passes it.
    static func isChatLink(_ text: String) -> Bool {
        text.hasPrefix("simplex:") || text.hasPrefix("https://simplex.chat/")
    }

    private static func noMore(_ rest: ArraySlice<String>, _ command: ClientCommand) throws(UsageError) -> ClientCommand {
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)': see simplex-chat --help") }
        return command
    }

    public static let usage = """
        usage: simplex-chat [command]

        SimpleX Chat for Linux: private messaging in the terminal.

        commands:
          (none) [-s smp://...]... [--open @12] [simplex:/...]
                                      the full-screen client: chat list, chats, compose (F1 or ? inside
                                      lists the keys); options as for --cli
          --cli [-s smp://...]... [simplex:/...]
                                      the chat in line mode, as the SimpleX terminal CLI (-s/--server:
                                      your relays, repeatable, kept for next time; /help inside;
                                      --open @12 opens that chat at start, as a notification click does;
                                      a simplex: link connects to it, as /c does)
          -e '<command>' [-s ...]     run one chat command in SimpleX's syntax (/u, /_get chats 1 pcc=on,
                                      /_get chat @1 count=20, /_send @1 json [...], ...) and print its
                                      JSON response; exit 1 when the command fails, 64 when it is not
                                      a command (run --cli first to make your profile); -e - reads the
                                      command from standard input (a passphrase command must come so:
                                      /_db encryption {"currentKey":"…","newKey":"…"}, /db key A B)
          notifications [instant | periodic | off]
                                      show or set background receiving while the client is closed:
                                      instant (the service stays connected), periodic (it checks every
                                      10 minutes), off; enables the systemd user units to match
          status                      open the group directory, keychain and database and show their state
          export FILE                 the whole chat (databases, files, their keys) into one archive
                                      sealed with a passphrase you type (twice in a terminal, one line
                                      from a pipe); the chat is stopped meanwhile
          import FILE [--replace]     the chat of an archive made by export, here (--replace: instead
                                      of the chat this machine has); asks the archive passphrase
          delete-database --yes       erase every chat, contact and file here (SimpleX Lock and the
                                      settings stay); the next start makes a new profile
          defaults [list]             show the shared settings (GroupDefaults) and process states
          defaults get <key>          print one setting
          defaults set <key> <value>  change one setting
          defaults reset <key>        return a setting to its default
          --help                      this text
          --version                   the version

        environment:
          SIMPLEX_GROUP_DIR   the group data directory (default $XDG_DATA_HOME/simplex,
                              else ~/.local/share/simplex)
          XDG_CONFIG_HOME     where the keychain key file lives when no Secret Service runs
          SIMPLEX_SYSTEMCTL   the systemctl that notifications runs (default /usr/bin/systemctl)
        """
}

/// A mistake on the command line: printed as one line, exit status 64 (EX_USAGE).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
