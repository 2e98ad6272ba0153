import Foundation
import SimpleXProtocol
import Testing
import TestSupport

/// A relay left running by a crashed test run (its parent gone, adopted by init) is reaped by
/// the next run; a relay whose test is still running is left alone.
@Suite struct StrayRelayTests {
    @Test func aRelayOrphanedByACrashedRunIsReapedAndALiveOneIsNot() async throws {
        // This process's own once-only reaping is done first, so it cannot take the orphan below.
        StrayChildren.reapOnce()
        let server = try BuiltProducts.path("smp-server")
        let directory = try TemporaryDirectory("relay")
        let config = directory.appending("config")
        let initialize = try ChildProcess(server, ["init", "--config", config, "--port", "0"])
        #expect(try await initialize.wait() == 0)
        // Started by a shell that exits at once, as a test process that crashed: init adopts it.
        let shell = try ChildProcess(
            "/bin/sh", ["-c", "\"$0\" start --config \"$1\" >/dev/null 2>&1 & echo $!", server, config])
        let orphan = try #require(Int32(try await shell.line()))
        defer { kill(orphan, SIGKILL) }
        // (The shell's output pipe stays open in the relay it started, so it is not waited for.)
        let adopted = ContinuousClock.now + .seconds(10)
        while StrayChildren.parent(of: orphan) != 1 && ContinuousClock.now < adopted {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(StrayChildren.parent(of: orphan) == 1)
        let live = try await RelayProcess()

        #expect(StrayChildren.find() == [orphan])
        #expect(StrayChildren.reap() == [orphan])
        let deadline = ContinuousClock.now + .seconds(10)
        while isRunning(orphan) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!isRunning(orphan))
        #expect(StrayChildren.find().isEmpty)
        // The live relay still answers.
        let client = try await RawRelayClient.connected(to: live)
        #expect(try await client.command(.ping) == .pong)
        #expect(try await live.stop() == 0)
    }

    /// Running: present and not a zombie waiting for init to collect it.
    private func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
