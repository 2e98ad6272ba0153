import Foundation
import SimpleXChat

/// Background receiving as the user chooses it (`simplex-chat notifications [mode]`): GroupDefaults
/// `notificationMode`, and the systemd user units that carry it out where systemd runs the
/// session — `simplex-nse.service` for instant, `simplex-nse-periodic.timer` for periodic, neither
/// for off. Where systemd does not run, or the units serve another directory, it says what to run
/// instead. Each step it takes is reported in a line, as the user would want to read it.
public struct BackgroundReceiving: Sendable {
    public static let serviceUnit = "simplex-nse.service"
    public static let timerUnit = "simplex-nse-periodic.timer"

    public let defaults: GroupDefaults
    public let names: CoordinationNames
    let container: GroupContainer
    let environment: [String: String]

    public init(container: GroupContainer, environment: [String: String]) {
        self.container = container
        self.environment = environment
        defaults = GroupDefaults(container: container) { _ in }
        names = CoordinationNames(container: container, environment: environment)
    }

    /// What each mode means, in one line.
    public static func meaning(_ mode: NotificationMode) -> String {
        switch mode {
        case .instant:
            return "the service stays connected while the client is closed and notifies at once"
        case .periodic:
            return "the service checks for new messages every 10 minutes while the client is closed"
        case .off:
            return "nothing is received while the client is closed; messages arrive when you open it"
        }
    }

    /// The current mode and what runs for it.
    public func report() async -> [String] {
        let mode = defaults[.notificationMode]
        var lines = ["notifications: \(mode.rawValue): \(Self.meaning(mode))"]
        if let systemd = systemd() {
            for unit in [Self.serviceUnit, Self.timerUnit] {
                let enabled = await systemd.run(["is-enabled", unit]).output.first ?? "unknown"
                let active = await systemd.run(["is-active", unit]).output.first ?? "unknown"
                lines.append("\(unit): \(enabled), \(active)")
            }
        } else {
            lines.append(noSystemdAdvice(mode))
        }
        return lines
    }

    /// Sets the mode, then makes the units follow it; returns what it did, and whether every step
    /// worked (the mode is saved either way: the service reads it at each start and pass).
    ///
    /// Without systemd, the session bus does what it can: instant asks the service to resume (D-Bus
    /// activation starts it when it does not run), and periodic or off asks a running service to
    /// suspend, after which it exits (it stays only while the mode is instant).
    public func set(_ mode: NotificationMode, bus: DBusConnection?) async throws -> (lines: [String], ok: Bool) {
        try defaults.set(.notificationMode, mode)
        var lines = ["notifications: \(mode.rawValue): \(Self.meaning(mode))"]
        guard let systemd = systemd() else {
            if let bus, let done = await overTheBus(mode, bus) {
                lines.append(done)
            } else {
                lines.append(noSystemdAdvice(mode))
            }
            return (lines, true)
        }
        let steps: [(verb: String, unit: String)]
        switch mode {
        case .instant: steps = [("disable", Self.timerUnit), ("enable", Self.serviceUnit)]
        case .periodic: steps = [("disable", Self.serviceUnit), ("enable", Self.timerUnit)]
        case .off: steps = [("disable", Self.serviceUnit), ("disable", Self.timerUnit)]
        }
        var ok = true
        for (verb, unit) in steps {
            let result = await systemd.run([verb, "--now", unit])
            if result.status == 0 {
                lines.append("systemctl --user \(verb) --now \(unit): done")
            } else {
                ok = false
                let why = result.errors.first { !$0.isEmpty } ?? "exit status \(result.status)"
                let missing = why.contains("does not exist") || why.contains("not found")
                lines.append(
                    "systemctl --user \(verb) --now \(unit) failed: \(why)"
                        + (missing ? " (make install installs the units)" : ""))
            }
        }
        return (lines, ok)
    }

    /// `Resume` (instant) or `Suspend` (the others) on the service; what happened, or nil when
    /// nothing could be done (no service, none to activate).
    private func overTheBus(_ mode: NotificationMode, _ bus: DBusConnection) async -> String? {
        let running = (try? await bus.nameHasOwner(names.service)) == true
        if mode == .instant {
            if (try? await bus.nameHasOwner(names.client)) == true {
                return "the client runs now: the service takes over when you quit it"
            }
            do {
                // Starts it by D-Bus activation when it does not run.
                _ = try await bus.call(
                    destination: names.service, path: CoordinationNames.servicePath,
                    interface: CoordinationNames.serviceInterface, method: "Resume", timeout: .seconds(10))
                return running ? "the service receives now" : "started the service (D-Bus activation)"
            } catch {
                return nil
            }
        }
        guard running else { return "no service runs: nothing to stop" }
        _ = try? await bus.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "Suspend", arguments: [.uint32(5_000)],
            timeout: .seconds(6))
        return "asked the running service to stop receiving: it exits"
    }

    /// What to do by hand where the units cannot follow the mode.
    private func noSystemdAdvice(_ mode: NotificationMode) -> String {
        let why =
            names.service == CoordinationNames.defaultService
            ? "no systemd user manager runs this session"
            : "the installed units serve the default directory, not \(container.path)"
        let todo: String
        switch mode {
        case .instant: todo = "start simplex-nse with your session (it also starts by D-Bus activation when the client quits)"
        case .periodic: todo = "run simplex-nse --once every 10 minutes (cron: */10 * * * * simplex-nse --once)"
        case .off: todo = "stop any simplex-nse you started yourself"
        }
        return "\(why): \(todo)"
    }

    /// The user's systemd, when it runs the session and the units are for this directory.
    private func systemd() -> Systemctl? {
        guard names.service == CoordinationNames.defaultService else { return nil }
        let program = environment["SIMPLEX_SYSTEMCTL"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/bin/systemctl"
        guard FileManager.default.isExecutableFile(atPath: program) else { return nil }
        let systemctl = Systemctl(program: program, environment: environment)
        // The user manager's socket: without it, systemctl --user only fails.
        guard systemctl.reachable() else { return nil }
        return systemctl
    }
}

/// `systemctl --user`, run with the caller's environment.
struct Systemctl: Sendable {
    let program: String
    let environment: [String: String]

    struct Result: Sendable {
        let status: Int32
        let output: [String]
        let errors: [String]
    }

    /// Whether a user manager answers (`is-system-running` prints its state; offline or an error
    /// when none runs).
    func reachable() -> Bool {
        let result = runNow(["is-system-running"])
        guard let state = result.output.first else { return false }
        return ["running", "degraded", "starting", "initializing", "maintenance"].contains(state)
    }

    func run(_ arguments: [String]) async -> Result {
        await Task.detached { runNow(arguments) }.value
    }

    private func runNow(_ arguments: [String]) -> Result {
        let result = Program.run(program, ["--user"] + arguments, environment: environment)
        return Result(status: result.status, output: result.outputLines, errors: result.errorLines)
    }
}
