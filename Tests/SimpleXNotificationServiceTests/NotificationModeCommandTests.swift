import Foundation
import SimpleXChat
import SimpleXDesktop
import Testing
import TestSupport

/// `simplex-chat notifications [instant|periodic|off]`: the mode in GroupDefaults, and the systemd
/// user units made to follow it, or, without systemd, the service told over the session bus.
@Suite(.timeLimit(.minutes(3)))
struct NotificationModeCommandTests {
    /// A user whose group directory is the default one (so the installed units are theirs), with a
    /// `systemctl` that writes down each call and answers as `script` says.
    struct DefaultUser {
        let home: TemporaryDirectory
        let calls: String
        let systemctl: String

        init(systemctl script: String) throws {
            home = try TemporaryDirectory("default-user")
            calls = home.appending("systemctl-calls")
            systemctl = home.appending("systemctl")
            let program = """
                #!/bin/sh
                echo "$*" >> \(calls)
                case "$*" in
                  "--user is-system-running") echo running; exit 0 ;;
                esac
                \(script)
                """
            try program.write(toFile: systemctl, atomically: true, encoding: .utf8)
            chmod(systemctl, 0o755)
        }

        func run(_ arguments: [String]) async throws -> ChildProcess {
            let process = try ChildProcess(
                try BuiltProducts.path("simplex-chat"), arguments,
                environment: [
                    "SIMPLEX_GROUP_DIR": nil, "XDG_DATA_HOME": home.appending("data"),
                    "XDG_CONFIG_HOME": home.appending("config"), "SIMPLEX_SYSTEMCTL": systemctl,
                    "DBUS_SESSION_BUS_ADDRESS": nil,
                ])
            _ = try await process.wait()
            return process
        }

        /// The systemctl calls after the check that a user manager runs.
        var units: [String] {
            get throws {
                try String(contentsOfFile: calls, encoding: .utf8).split(separator: "\n").map(String.init)
                    .filter { $0 != "--user is-system-running" }
            }
        }

        var defaults: GroupDefaults {
            get throws { GroupDefaults(container: try GroupContainer(path: home.appending("data/simplex"))) }
        }
    }

    @Test func eachModeEnablesItsUnitAndDisablesTheOther() async throws {
        let user = try DefaultUser(systemctl: "exit 0")
        let periodic = try await user.run(["notifications", "periodic"])
        #expect(try await periodic.wait() == 0, "\(periodic.allErrors)")
        #expect(
            periodic.allOutput == [
                "notifications: periodic: the service checks for new messages every 10 minutes while the client is closed",
                "systemctl --user disable --now simplex-nse.service: done",
                "systemctl --user enable --now simplex-nse-periodic.timer: done",
            ])
        #expect(try user.defaults[.notificationMode] == .periodic)
        #expect(
            try user.units == [
                "--user disable --now simplex-nse.service", "--user enable --now simplex-nse-periodic.timer",
            ])

        let instant = try await user.run(["notifications", "instant"])
        #expect(try await instant.wait() == 0)
        #expect(try user.defaults[.notificationMode] == .instant)
        let off = try await user.run(["notifications", "off"])
        #expect(try await off.wait() == 0)
        #expect(try user.defaults[.notificationMode] == .off)
        #expect(
            try Array(user.units.dropFirst(2)) == [
                "--user disable --now simplex-nse-periodic.timer", "--user enable --now simplex-nse.service",
                "--user disable --now simplex-nse.service", "--user disable --now simplex-nse-periodic.timer",
            ])
    }

    @Test func unitsNotInstalledAreNamedAndTheCommandFails() async throws {
        let user = try DefaultUser(
            systemctl: """
                case "$*" in
                  *is-enabled*|*is-active*) echo not-found; exit 1 ;;
                  *enable*) echo "Failed to enable unit: Unit file simplex-nse.service does not exist." >&2; exit 1 ;;
                  *) exit 0 ;;
                esac
                """)
        let instant = try await user.run(["notifications", "instant"])
        #expect(try await instant.wait() == 1)
        #expect(
            instant.allOutput.last
                == "systemctl --user enable --now simplex-nse.service failed: Failed to enable unit: Unit file "
                + "simplex-nse.service does not exist. (make install installs the units)")
        // The mode is saved anyway: the service reads it whenever it starts.
        #expect(try user.defaults[.notificationMode] == .instant)
        let show = try await user.run(["notifications"])
        #expect(try await show.wait() == 0)
        #expect(show.allOutput.first == "notifications: instant: " + BackgroundReceiving.meaning(.instant))
        #expect(show.allOutput.dropFirst().allSatisfy { $0.contains("not-found") }, "\(show.allOutput)")
    }

    @Test func withoutSystemdTheRunningServiceIsToldAndExits() async throws {
        let users = try await NotificationServiceEndToEndTests.Users(notificationServer: false)
        let service = try await users.service()
        let environment = CLIUser.environment(users.alice, bus: users.bus).merging([
            "SIMPLEX_SYSTEMCTL": "/nonexistent"
        ]) { $1 }
        let periodic = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["notifications", "periodic"], environment: environment)
        #expect(try await periodic.wait() == 0, "\(periodic.allErrors)")
        #expect(periodic.allOutput.last == "asked the running service to stop receiving: it exits")
        #expect(try users.defaults[.notificationMode] == .periodic)
        // Suspended at once, gone once idle.
        #expect(try await service.process.wait(timeout: .seconds(30)) == 0)
        #expect(try users.defaults[.nseState] == .suspended)

        let show = try ChildProcess(try BuiltProducts.path("simplex-chat"), ["notifications"], environment: environment)
        #expect(try await show.wait() == 0)
        #expect(
            show.allOutput.last
                == "the installed units serve the default directory, not \(users.alice.appending("group")): "
                + "run simplex-nse --once every 10 minutes (cron: */10 * * * * simplex-nse --once)")
        try await users.bob.quit()
    }
}
