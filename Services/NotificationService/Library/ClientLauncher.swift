import Foundation
import SimpleXSystem

/// Starts `simplex-chat --cli --open <chat>` in a terminal emulator, for a notification clicked
/// while the client is not running.
///
/// The terminal is `SIMPLEX_TERMINAL` when set (a program taking `-e <command> <arguments>...`),
/// else Debian's `x-terminal-emulator` alternative (every terminal it points to takes `-e`), else
/// `xterm`. It is started through `setsid --fork`, so it lives in a session of its own and the
/// service leaves no child behind.
struct ClientLauncher {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let environment: [String: String]

    /// The command line that opens `ref` (`@12`), without `setsid`.
    func commandLine(open ref: String) throws(Failure) -> [String] {
        guard let terminal = terminal() else {
            throw Failure(
                description: "cannot open the chat: no terminal emulator found (set SIMPLEX_TERMINAL, or install one)")
        }
        return [terminal, "-e", client(), "--cli", "--open", ref]
    }

    func launch(open ref: String) throws(Failure) {
        let arguments = ["setsid", "--fork"] + (try commandLine(open: ref))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/usr/bin/setsid", nil, nil, argv, env)
        guard spawned == 0 else {
            throw Failure(description: "cannot open the chat: starting \(arguments[2]): \(SystemError(errno: spawned, call: "posix_spawn"))")
        }
        // setsid --fork returns at once; the terminal runs on in its own session.
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    private func terminal() -> String? {
        if let chosen = environment["SIMPLEX_TERMINAL"], !chosen.isEmpty { return chosen }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in ["x-terminal-emulator", "xterm"] {
            for directory in path where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    /// `simplex-chat` beside this program (they are installed together), else from PATH.
    private func client() -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let beside = (exe as NSString).deletingLastPathComponent + "/simplex-chat"
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : "simplex-chat"
    }
}
