import Foundation
import Glibc

/// A user of the full-screen client (`simplex-chat` with no arguments) in a tmux terminal of
/// its own, driven by keys and read through `capture-pane` as a user would.
public final class TUIUser: Sendable {
    public let name: String
    public let directory: TemporaryDirectory
    /// tmux's socket: a private server per user, so tests never share one.
    let socket: String
    let session = "tui"
    /// The pane's shell: the leader of the process group the client runs in.
    let panePID: Int32
    /// The pane's command line (the client, then its exit status and the tty mode).
    let shell: String

    /// Starts the client on `relay` in a `width`×`height` terminal and answers the first run's
    /// name prompt (`environment` adds to the user's own).
    public init(
        _ name: String, relay: RelayProcess, width: Int = 120, height: Int = 36, bus: TestBus? = nil,
        arguments: [String] = [], environment extra: [String: String] = [:]
    ) async throws {
        self.name = name
        directory = try TemporaryDirectory("tui-\(name)")
        socket = directory.appending("tmux.socket")
        var environment = CLIUser.environment(directory, bus: bus).compactMapValues { $0 }
        environment["TERM"] = "xterm-256color"
        environment["HOME"] = directory.path
        environment["LANG"] = "C.UTF-8"
        // The test runner sets NO_COLOR; a user's terminal has colours.
        environment["NO_COLOR"] = ""
        environment.merge(extra) { $1 }
        let command =
            ["env"] + environment.map { "\($0.key)=\($0.value)" }.sorted()
            + [try BuiltProducts.path("simplex-chat"), "-s", relay.address] + arguments
        // After the client: its exit status and whether the terminal is back in cooked mode.
        shell = Self.quoted(command) + "; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon' | sed 's/^/TTY=/'; sleep 600"
        _ = try await Self.run(socket, ["new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", shell])
        panePID = Int32(try await Self.run(socket, ["display-message", "-p", "-t", session, "#{pane_pid}"]).first ?? "") ?? 0
        _ = try await tmux(["set-option", "-g", "set-clipboard", "on"])
        try await waitFor("Your display name")
        try await type(name)
        try await press("Enter")
        try await waitFor("Welcome, \(name)!")
    }

    deinit {
        // The client and its shell go with their terminal, whatever state the test left them in.
        if panePID > 0 { kill(-panePID, SIGKILL) }
        _ = try? ChildProcess("/usr/bin/tmux", ["-S", socket, "kill-server"])
    }

    static func run(_ socket: String, _ arguments: [String]) async throws -> [String] {
        let process = try ChildProcess("/usr/bin/tmux", ["-S", socket] + arguments)
        _ = try await process.wait(timeout: .seconds(10))
        return process.allOutput
    }

    static func quoted(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    @discardableResult
    public func tmux(_ arguments: [String]) async throws -> [String] {
        try await Self.run(socket, arguments)
    }

    /// What the terminal shows now.
    public func screen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", session]).joined(separator: "\n")
    }

    /// Keys by tmux's names (`Enter`, `C-n`, `Up`, `M-Enter`, `PPage`).
    public func press(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", session] + keys)
        // A lone Escape is told from the start of a sequence by a pause (as a terminal's user
        // never types faster than it): the next key waits for it.
        if keys.last == "Escape" { try await Task.sleep(for: .milliseconds(80)) }
    }

    /// Text typed literally.
    public func type(_ text: String) async throws {
        try await tmux(["send-keys", "-t", session, "-l", text])
    }

    /// Text pasted as a terminal pastes it (bracketed paste).
    /// From now on, appends what the client writes to its terminal to the file at `path`, raw:
    /// graphics sequences included, which tmux neither draws nor shows in `capture-pane`.
    public func recordOutput(to path: String) async throws {
        try await tmux(["pipe-pane", "-o", "-t", session, "cat >> " + Self.quoted([path])])
    }

    public func paste(_ text: String) async throws {
        try await tmux(["set-buffer", "--", text])
        try await tmux(["paste-buffer", "-p", "-t", session])
    }

    /// Waits until the screen shows `text`; fails with the screen when it does not.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration = .seconds(30)) async throws -> String {
        var last = ""
        let found = await eventually(timeout: timeout, every: .milliseconds(100)) {
            last = (try? await screen()) ?? ""
            return last.contains(text)
        }
        guard found else { throw TestSupportError("\(name)'s screen never showed “\(text)”:\n\(last)") }
        return last
    }

    /// Waits until `condition` holds for the screen.
    @discardableResult
    public func waitUntil(
        _ what: String, timeout: Duration = .seconds(30), _ condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        var last = ""
        let found = await eventually(timeout: timeout, every: .milliseconds(100)) {
            last = (try? await screen()) ?? ""
            return condition(last)
        }
        guard found else { throw TestSupportError("\(name)'s screen never showed \(what):\n\(last)") }
        return last
    }

    /// Ctrl+N: the one-time invitation link, read out of its box on the screen.
    public func invitationLink() async throws -> String {
        try await press("C-n")
        // The box's last row: tmux may be read in the middle of a frame, and the link's rows
        // are drawn above it.
        let screen = try await waitFor("Enter opens it")
        try await press("Escape")
        return Self.boxedText(screen, after: "One-time invitation", before: "Enter opens it")
    }

    /// The text inside a dialog box between the line with `after` and the line with `before`.
    static func boxedText(_ screen: String, after: String, before: String) -> String {
        var text = ""
        var inside = false
        for line in screen.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains(after) {
                inside = true
                continue
            }
            guard inside else { continue }
            if line.contains(before) { break }
            let parts = line.split(separator: "│", omittingEmptySubsequences: false)
            // The box's inner text sits between its two borders, the last two │ of the line.
            guard parts.count >= 3 else { continue }
            text += parts[parts.count - 2].trimmingCharacters(in: .whitespaces)
        }
        return text
    }

    /// Connects `alice` to `bob` by a link alice makes and bob pastes into Ctrl+O.
    public static func connect(_ alice: TUIUser, _ bob: TUIUser) async throws {
        let link = try await alice.invitationLink()
        guard link.hasPrefix("simplex:/invitation#") else { throw TestSupportError("no link on alice's screen: \(link)") }
        try await bob.press("C-o")
        try await bob.waitFor("Connect via link")
        try await bob.paste(link)
        try await bob.press("Enter")
        try await alice.waitFor("\(bob.name) is connected")
        try await bob.waitFor("\(alice.name) is connected")
    }

    /// Starts the client again in the same terminal, on the same group directory (after `quit`).
    public func restart() async throws {
        _ = try await tmux(["respawn-pane", "-k", "-t", session, shell])
    }

    /// Ctrl+Q; returns the screen after the client exited (its status and the tty mode).
    @discardableResult
    public func quit() async throws -> String {
        try await press("C-q")
        return try await waitFor("TTY=")
    }
}
