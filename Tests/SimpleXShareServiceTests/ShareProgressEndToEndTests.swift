import Foundation
import SimpleXDesktop
import Testing
import TestSupport

/// A file shared with nothing of Alice's running: the helper stays while Bob accepts and the
/// file goes to the relay, and shows how far it is — a bar on a terminal, else a notification.
@Suite(.timeLimit(.minutes(3)))
struct ShareProgressEndToEndTests {
    static func randomFile(at path: String, size: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        FileManager.default.createFile(atPath: path, contents: bytes)
        return bytes
    }

    /// Bob accepts the first file offered to him as soon as he sees it.
    static func bobAccepts(_ users: ShareEndToEndTests.Users) async throws {
        try await users.bob.expect("alice> sends file")
        users.bob.send("/fr 1")
    }

    @Test func onATerminalABarShowsTheBytesHandedOverAndEndsWithANewline() async throws {
        let users = try await ShareEndToEndTests.Users()
        let album = users.alice.appending("album.bin")
        let bytes = Self.randomFile(at: album, size: 2 * 1_048_576)
        let home = try TemporaryDirectory("tmux")
        let terminal = ChatPickerTests.Terminal(socket: home.appending("tmux.socket"))
        var environment = CLIUser.environment(users.alice, bus: users.bus).compactMapValues { $0 }
        environment["SIMPLEX_SHARE_ACCEPT_WAIT_MS"] = "60000"
        let command =
            ["env"] + environment.map { "\($0.key)=\($0.value)" }.sorted()
            + [try BuiltProducts.path("simplex-share"), "--to", "bob", album]
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        // Everything the helper writes to the terminal, the redraws included, goes to a log too.
        let log = home.appending("pane.log")
        _ = try await terminal.tmux([
            "new-session", "-d", "-s", "picker", "-x", "100", "-y", "20",
            // The pipe is attached before the helper starts, even on a loaded machine.
            "sleep 2; " + quoted + "; echo EXIT=$?; sleep 30",
        ])
        defer { Task { _ = try? await terminal.tmux(["kill-server"]) } }
        _ = try await terminal.tmux(["pipe-pane", "-t", "picker", "-o", "cat >> '\(log)'"])
        try await Self.bobAccepts(users)
        let exited = await eventually(timeout: .seconds(60)) {
            ((try? await terminal.screen()) ?? "").contains("EXIT=")
        }
        let screen = try await terminal.screen()
        #expect(exited && screen.contains("EXIT=0"), "\(screen)")
        try await users.bob.expectLine(#"completed receiving file 1 \(album\.bin\) from alice"#)
        #expect(try await users.bob.savedFile(1) == [UInt8](bytes))

        // The bar was drawn in place (carriage returns), its percentage going up to 100.
        let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        let percentages = written.matches(of: #/\] +(\d+)% /#).compactMap { Int($0.1) }
        #expect(percentages.count >= 3, "\(written.debugDescription)")
        #expect(percentages == percentages.sorted() && percentages.last == 100, "\(percentages)")
        // (The wait before bob accepts is drawn only when a frame comes before the acceptance: the
        // display draws the latest state, so on a loaded machine it may go straight to the bar;
        // ShareProgressTests checks that line.)
        #expect(written.contains("\r["))
        // Finished with a newline: the outcome is a line of its own under the full bar.
        let lines = screen.split(separator: "\n").map(String.init)
        let done = try #require(lines.firstIndex { $0.hasPrefix("sent 1 item to bob") }, "\(screen)")
        #expect(done > 0 && lines[done - 1].contains("100% 2.0 MiB of 2.0 MiB to bob"), "\(screen)")
        #expect(lines[done] == "sent 1 item to bob")
        _ = try await terminal.tmux(["kill-server"])
        try await users.bob.quit()
    }

    @Test func withoutATerminalANotificationShowsTheProgressAndSlowNetwork() async throws {
        let users = try await ShareEndToEndTests.Users()
        let album = users.alice.appending("album.bin")
        let bytes = Self.randomFile(at: album, size: 2 * 1_048_576)
        var environment = CLIUser.environment(users.alice, bus: users.bus)
        environment["PATH"] = users.alice.path
        environment["SIMPLEX_SHARE_ACCEPT_WAIT_MS"] = "60000"
        // "Slow network?" after 1 ms rather than 30 s.
        environment["SIMPLEX_SHARE_SLOW_AFTER_MS"] = "1"
        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--to", "bob", album], environment: environment)
        share.closeInput()
        try await Self.bobAccepts(users)
        #expect(try await share.wait(timeout: .seconds(60)) == 0, "\(share.allErrors)")
        // Nothing on standard error or output but the outcome: scripts' output stays clean.
        #expect(share.allErrors.isEmpty, "\(share.allErrors)")
        #expect(share.allOutput == ["sent 1 item to bob"])
        try await users.bob.expectLine(#"completed receiving file 1 \(album\.bin\) from alice"#)
        #expect(try await users.bob.savedFile(1) == [UInt8](bytes))

        let calls = try await users.server.notifyCalls()
        let progress = calls.filter { $0.hints["value"] != nil }
        let values = progress.compactMap { $0.hints["value"].flatMap { Int($0.dropFirst(2)) } }
        #expect(progress.allSatisfy { $0.hints["value"]?.hasPrefix("i:") == true }, "\(progress)")
        #expect(Set(values).count >= 3 && values == values.sorted() && values.last == 100, "\(values)")
        #expect(progress.allSatisfy { $0.summary == "SimpleX Chat: sending to bob" })
        #expect(progress.contains { $0.body.hasSuffix("\nSlow network?") }, "\(progress.map { $0.body })")
        #expect(progress.last?.body == "album.bin: 100% (2.0 MiB of 2.0 MiB)\nSlow network?")
        // One notification, replaced as the transfer goes, and by the outcome at the end.
        let outcome = try #require(calls.last)
        #expect(outcome.body == "Sent 1 item to bob" && outcome.hints["value"] == nil)
        #expect(calls.first?.replacesID == 0)
        #expect(
            calls.dropFirst().allSatisfy { $0.replacesID != 0 && $0.replacesID == calls[1].replacesID },
            "\(calls)")
        try await users.bob.quit()
    }

    /// Bob does not accept in time: the file stays offered, the helper says so and goes, and
    /// the file is sent by the client when it runs and Bob accepts.
    @Test func aFileNotAcceptedInTimeStaysOfferedAndTheHelperSaysSo() async throws {
        let users = try await ShareEndToEndTests.Users()
        let notes = try users.file("notes.txt", "later")
        var environment = CLIUser.environment(users.alice, bus: users.bus)
        environment["PATH"] = users.alice.path
        environment["SIMPLEX_SHARE_ACCEPT_WAIT_MS"] = "300"
        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--to", "bob", notes], environment: environment)
        share.closeInput()
        #expect(try await share.wait(timeout: .seconds(60)) == 0, "\(share.allErrors)")
        #expect(share.allOutput == ["sent 1 item to bob (the file goes when bob accepts)"])
        let calls = try await users.server.notifyCalls()
        #expect(
            calls.first?.body == "notes.txt: waiting for bob to accept"
                && calls.first?.hints["value"] == "i:0")
        #expect(calls.last?.body == "Sent 1 item to bob (the file goes when bob accepts)")
        let client = try await users.client()
        try await Self.bobAccepts(users)
        try await users.bob.expectLine(#"completed receiving file 1 \(notes\.txt\) from alice"#)
        try await client.quit()
        try await users.bob.quit()
    }
}
