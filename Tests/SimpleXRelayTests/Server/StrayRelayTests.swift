import Foundation
import SimpleXProtocol
import Testing
import TestSupport

/// A relay or a private session bus left running by a crashed test run (its parent gone, adopted
/// by init) is reaped by the next run; one whose test is still running is left alone. Serialized:
/// each test's reaping would take the other's orphans.
@Suite(.serialized) struct StrayRelayTests {
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
        while isRunning(orphan) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!isRunning(orphan))
        #expect(StrayChildren.find().isEmpty)
        // The live relay still answers.
        let client = try await RawRelayClient.connected(to: live)
        #expect(try await client.command(.ping) == .pong)
        #expect(try await live.stop() == 0)
    }

    @Test func aBusAndItsClientOrphanedByACrashedRunAreReapedAndALiveBusIsNot() async throws {
        StrayChildren.reapOnce()
        let directory = try TemporaryDirectory("bus")
        let address = "unix:path=\(directory.path)/bus"
        // A test bus and a process on it (as the mock notification server), started by a shell
        // that exits at once, as a test process that crashed.
        let shell = try ChildProcess(
            "/bin/sh",
            [
                "-c",
                """
                /usr/bin/dbus-daemon --session --nofork --nopidfile --address="$0" >/dev/null 2>&1 & echo $!
                DBUS_SESSION_BUS_ADDRESS="$0" sleep 600 >/dev/null 2>&1 & echo $!
                """,
                address,
            ])
        let bus = try #require(Int32(try await shell.line()))
        let client = try #require(Int32(try await shell.line()))
        defer { for pid in [bus, client] { kill(pid, SIGKILL) } }
        let adopted = ContinuousClock.now + .seconds(10)
        while [bus, client].contains(where: { StrayChildren.parent(of: $0) != 1 })
            && ContinuousClock.now < adopted
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        let live = try await TestBus()

        #expect(Set(StrayChildren.find()) == [bus, client])
        #expect(Set(StrayChildren.reap()) == [bus, client])
        let deadline = ContinuousClock.now + .seconds(10)
        while (isRunning(bus) || isRunning(client)) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!isRunning(bus) && !isRunning(client))
        #expect(StrayChildren.find().isEmpty)
        // The live bus still answers.
        let ping = try ChildProcess(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetId",
            ],
            environment: live.environment)
        #expect(try await ping.wait() == 0)
    }

    /// Running: present and not a zombie waiting for init to collect it.
    private func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
