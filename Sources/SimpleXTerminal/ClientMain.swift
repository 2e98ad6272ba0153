import Foundation
import Glibc
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// The `simplex-chat` program: parses the command line and runs the command against the group
/// directory. The executable's main only calls `run` and exits with its status.
public struct ClientMain: Sendable {
    public static let version = "0.1.0"

    let environment: [String: String]
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void

    public init(
        environment: [String: String] = ProcessEnvironment.current,
        output: @escaping @Sendable (String) -> Void = ClientMain.standardOutput,
        errors: @escaping @Sendable (String) -> Void = ClientMain.standardError
    ) {
        self.environment = environment
        self.output = output
        self.errors = errors
    }

    /// Runs the command in `arguments` (without the program name); returns the exit status.
    public func run(_ arguments: [String]) async -> Int32 {
        let command: ClientCommand
        do {
            command = try ClientCommand.parse(arguments)
        } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.usage
        }
        switch command {
        case .help:
            output(ClientCommand.usage)
            return ExitStatus.ok
        case .version:
            output("simplex-chat \(Self.version)")
            return ExitStatus.ok
        case .lineMode(let servers, let open, let connect):
            return await LineMode(
                environment: environment, servers: servers, open: open, connect: connect, output: output,
                errors: errors
            ).run()
        case .fullScreen(let servers, let open, let connect):
            return await TUIMode(environment: environment, servers: servers, open: open, connect: connect, errors: errors).run()
        case .notifications(let mode):
            return await NotificationsCommand(environment: environment, output: output, errors: errors).run(mode)
        case .execute(let text, let servers):
            // `-e -`: the command from standard input, which keeps a passphrase off the command line.
            var command = text
            if text == "-" {
                command = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                while command.last?.isNewline == true { command.removeLast() }
            }
            return await ExecuteCommand(
                environment: environment, text: command, servers: servers, output: output, errors: errors,
                fromCommandLine: text != "-"
            ).run()
        case .export(let file):
            return await ArchiveCommand(environment: environment, output: output, errors: errors).export(to: file)
        case .importArchive(let file, let replace):
            return await ArchiveCommand(environment: environment, output: output, errors: errors).import(from: file, replace: replace)
        case .deleteDatabase(let confirmed):
            return await ArchiveCommand(environment: environment, output: output, errors: errors).deleteDatabase(confirmed: confirmed)
        case .status:
            return await StatusCommand(environment: environment, output: output, errors: errors).run()
        case .defaultsList, .defaultsGet, .defaultsSet, .defaultsReset:
            return runDefaults(command)
        }
    }

    private func runDefaults(_ command: ClientCommand) -> Int32 {
        let container: GroupContainer
        do {
            container = try GroupContainer.open(environment: environment)
        } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.failure
        }
        let defaults = DefaultsCommand(
            defaults: GroupDefaults(container: container) { [errors] problem in errors("simplex-chat: \(problem)") })
        do {
            switch command {
            case .defaultsList: defaults.list().forEach(output)
            case .defaultsGet(let key): output(try defaults.get(key))
            case .defaultsSet(let key, let value): output(try defaults.set(key, value))
            case .defaultsReset(let key): output(try defaults.reset(key))
            default: break
            }
            return ExitStatus.ok
        } catch let error as GroupDefaultsInputError {
            errors("simplex-chat: \(error)")
            return ExitStatus.usage
        } catch {
            errors("simplex-chat: cannot save settings: \(error)")
            return ExitStatus.failure
        }
    }

    /// Standard output, one unbuffered write per line, so a pipe (a script, a test) gets each
    /// line as soon as it is printed.
    public static let standardOutput: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Exit statuses (sysexits.h where one fits).
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
}
