import Foundation
import SimpleXDesktop
import SimpleXSystem

/// Starts `simplex-chat --open <chat>` (the full-screen client) in a terminal emulator, for a notification clicked
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
        return [terminal, "-e", client(), "--open", ref]
    }

    func launch(open ref: String) throws(Failure) {
        let command = try commandLine(open: ref)
        // setsid --fork returns at once; the terminal runs on in its own session.
        let result = Program.run("/usr/bin/setsid", ["--fork"] + command, environment: environment, capture: false)
        guard result.status == 0 else {
            throw Failure(description: "cannot open the chat: starting \(command[0]) failed (\(result.errors))")
        }
    }

    private func terminal() -> String? {
        if let chosen = environment["SIMPLEX_TERMINAL"], !chosen.isEmpty { return chosen }
        return ["x-terminal-emulator", "xterm"].lazy.compactMap { Program.find($0, environment: environment) }.first
    }

    /// `simplex-chat` beside this program (they are installed together), else from PATH.
    private func client() -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let beside = (exe as NSString).deletingLastPathComponent + "/simplex-chat"
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : "simplex-chat"
    }
}
