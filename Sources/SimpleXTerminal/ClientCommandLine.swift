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
    /// The line mode, with relays given by `-s` (kept for the user).
    case lineMode(servers: [String])

    /// Parses the arguments after the program name; a mistake is a one-line `UsageError`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ClientCommand {
        if arguments.contains("--cli") {
            var servers: [String] = []
            var rest = arguments.filter { $0 != "--cli" }[...]
            while let option = rest.first {
                rest = rest.dropFirst()
                guard option == "-s" || option == "--server" else {
                    throw UsageError("unexpected argument '\(option)' with --cli: see simplex-chat --help")
                }
                guard let server = rest.first else { throw UsageError("\(option) needs a relay address (smp://...)") }
                servers.append(server)
                rest = rest.dropFirst()
            }
            return .lineMode(servers: servers)
        }
        switch arguments.first {
        case nil, "status": return try noMore(arguments.dropFirst(), .status)
        case "-h", "--help", "help": return .help
        case "--version": return .version
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

    private static func noMore(_ rest: ArraySlice<String>, _ command: ClientCommand) throws(UsageError) -> ClientCommand {
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)': see simplex-chat --help") }
        return command
    }

    public static let usage = """
        usage: simplex-chat [command]

        SimpleX Chat for Linux: private messaging in the terminal.

        commands:
          --cli [-s smp://...]...     the chat in line mode, as the SimpleX terminal CLI (-s/--server:
                                      your relays, repeatable, kept for next time; /help inside)
          status                      open the group directory, keychain and database and show their state
                                      (the default)
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
        """
}

/// A mistake on the command line: printed as one line, exit status 64 (EX_USAGE).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
