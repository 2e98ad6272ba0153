import Foundation
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXShareService

/// The terminal chat picker: its lines, and the real thing in a terminal driven through tmux.
@Suite(.timeLimit(.minutes(3)))
struct ChatPickerTests {
    func contact(_ id: Int64, _ name: String, alias: String = "", ready: Bool = true) -> ChatContact {
        ChatContact(
            contactId: id, localDisplayName: name, profile: Profile(displayName: name, fullName: ""), localAlias: alias,
            agentConnectionID: "c\(id)", ready: ready)
    }

    @Test func itListsMostRecentFirstFiltersAndMarksWhatCannotBeChosen() {
        let picker = ChatPicker(contacts: [contact(3, "carol"), contact(1, "bob", alias: "Bobby"), contact(4, "dave", ready: false)])
        let all = picker.lines(.init())
        #expect(all.dropFirst() == ["> @3 carol", "  @1 Bobby (bob)", "  @4 dave  — still connecting"])
        #expect(picker.lines(.init(filter: "BOB", selected: 0)).dropFirst() == ["> @1 Bobby (bob)"])
        #expect(picker.lines(.init(filter: "zz", selected: 0)).dropFirst() == ["  no chat matches"])
        #expect(!ChatPicker.selectable(contact(4, "dave", ready: false)))
    }

    /// tmux on a private socket, running `command` in a 100×20 terminal.
    struct Terminal {
        let socket: String
        func tmux(_ arguments: [String]) async throws -> [String] {
            let process = try ChildProcess("/usr/bin/tmux", ["-S", socket] + arguments)
            _ = try await process.wait(timeout: .seconds(10))
            return process.allOutput
        }
        func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-t", "picker"]).joined(separator: "\n") }
    }

    @Test func inATerminalTheUserTypesToFilterMovesAndSends() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let carol = try await CLIUser("carol", relay: relay)
        try await CLIUser.connect(alice, bob)
        try await CLIUser.connect(alice, carol)
        try await alice.quit()
        let home = try TemporaryDirectory("tmux")
        let terminal = Terminal(socket: home.appending("tmux.socket"))
        let environment = CLIUser.environment(alice.directory).compactMapValues { $0 }
            .map { "\($0.key)=\($0.value)" }.sorted()
        let command = ["env"] + environment + [try BuiltProducts.path("simplex-share"), "--text", "picked in a terminal"]
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        _ = try await terminal.tmux(["new-session", "-d", "-s", "picker", "-x", "100", "-y", "20", quoted + "; echo EXIT=$?; sleep 30"])
        defer { Task { _ = try? await terminal.tmux(["kill-server"]) } }
        #expect(await eventually { ((try? await terminal.screen()) ?? "").contains("Send to which chat?") })
        let first = try await terminal.screen()
        // Most recent first: carol was connected last.
        #expect(first.contains("> @2 carol"), "\(first)")
        #expect(first.contains("  @1 bob"), "\(first)")
        _ = try await terminal.tmux(["send-keys", "-t", "picker", "b"])
        #expect(await eventually { ((try? await terminal.screen()) ?? "").contains("> @1 bob") })
        _ = try await terminal.tmux(["send-keys", "-t", "picker", "BSpace", "Down", "Up", "Down", "Enter"])
        let exited = await eventually { ((try? await terminal.screen()) ?? "").contains("EXIT=0") }
        let last = try await terminal.screen()
        #expect(exited, "\(last)")
        #expect(last.contains("sent 1 item to bob"), "\(last)")
        try await bob.expectLine(#"\d\d:\d\d alice> picked in a terminal"#)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!carol.process.allOutput.contains { $0.contains("picked in a terminal") })
        // The session's shell would linger a while after the helper: the server goes now.
        _ = try await terminal.tmux(["kill-server"])
        try await bob.quit()
        try await carol.quit()
    }
}
