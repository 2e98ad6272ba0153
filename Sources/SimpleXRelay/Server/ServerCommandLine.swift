/// The `smp-server` command line.
public enum ServerCommand: Equatable, Sendable {
    /// Create the identity and the config file, print the address.
    case initialize(configDirectory: String?, host: String?, port: UInt16?)
    /// Serve until stopped.
    case start(configDirectory: String?, port: UInt16?)
    /// Print the address again.
    case address(configDirectory: String?)
    case help

    public static func parse(_ arguments: [String]) throws(ServerUsageError) -> ServerCommand {
        guard let verb = arguments.first else { throw ServerUsageError("missing command: see smp-server --help") }
        var options = try Options(Array(arguments.dropFirst()))
        let command: ServerCommand
        switch verb {
        case "-h", "--help", "help": return .help
        case "init":
            command = .initialize(
                configDirectory: options.take("--config"), host: options.take("--host"),
                port: try options.port())
        case "start":
            command = .start(configDirectory: options.take("--config"), port: try options.port())
        case "address":
            command = .address(configDirectory: options.take("--config"))
        default:
            throw ServerUsageError("unknown command '\(verb)': see smp-server --help")
        }
        if let extra = options.values.keys.sorted().first {
            throw ServerUsageError("option \(extra) does not apply to '\(verb)'")
        }
        return command
    }

    public static let usage = """
        usage: smp-server <command> [options]

        The SimpleX-shaped relay: clients create queues on it and send each other messages through it.

        commands:
          init [--config DIR] [--host H] [--port P]   create the server identity and config, print the address
          start [--config DIR] [--port P]             serve (--port 0 picks a free port and prints it)
          address [--config DIR]                      print the server address again

        DIR defaults to $XDG_CONFIG_HOME/smp-server (~/.config/smp-server). Logs go to standard error;
        send SIGUSR1 for a statistics line.
        """

    /// `--name value` pairs.
    private struct Options {
        var values: [String: String] = [:]

        init(_ arguments: [String]) throws(ServerUsageError) {
            var index = 0
            while index < arguments.count {
                let name = arguments[index]
                guard name.hasPrefix("--") else { throw ServerUsageError("unexpected argument '\(name)'") }
                guard index + 1 < arguments.count else { throw ServerUsageError("option \(name) needs a value") }
                values[name] = arguments[index + 1]
                index += 2
            }
        }

        mutating func take(_ name: String) -> String? { values.removeValue(forKey: name) }

        mutating func port() throws(ServerUsageError) -> UInt16? {
            guard let text = take("--port") else { return nil }
            guard let port = UInt16(text) else { throw ServerUsageError("invalid port '\(text)': use 0–65535") }
            return port
        }
    }
}

/// A mistake on the command line: one line, exit status 64.
public struct ServerUsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
