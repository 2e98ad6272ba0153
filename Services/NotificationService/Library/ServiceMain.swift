import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// The `simplex-nse` program; the executable's main only calls `run`.
public enum ServiceMain {
    static let usage = """
        usage: simplex-nse [--once [--linger SECONDS] | status | --help]

        The background receiving service of SimpleX Chat for Linux (the iOS Notification Service
        Extension's counterpart). With no arguments it serves on the session bus as
        chat.simplex.NotificationService: while notificationMode is instant and the client is not
        running, it keeps the chat's subscriptions, receives messages and shows notifications whose
        text follows ntfPreviewMode (hidden, contact or message). When the client starts, it asks the
        service to suspend and takes the chat over; when the client quits, the service resumes.
        In periodic mode it serves only to answer ReceiveNow, and exits when idle.

          --once    periodic mode's pass (run by simplex-nse-periodic.timer every 10 minutes):
                    receive what waits on the relays without subscribing (SMP GET, so the
                    client's subscriptions are never ended), notify, and exit; when the service
                    runs already, ask it to receive now instead. While notifications with
                    buttons it showed are on screen it stays up to --linger seconds (default
                    60) to carry out a click (Accept, Mark read, a reply), then exits
          status    what the service is doing (its state, the modes, who holds core.lock)
          --help    this text

        simplex-chat notifications [instant | periodic | off] chooses the mode.

        The group directory is SIMPLEX_GROUP_DIR, else $XDG_DATA_HOME/simplex, else
        ~/.local/share/simplex, as for simplex-chat.
        """

    /// Runs the command line; serving returns only when the service stops (SIGTERM / SIGINT).
    public static func run(_ arguments: [String], environment: [String: String] = ProcessEnvironment.current) async
        -> Int32
    {
        switch arguments {
        case []:
            return await serve(once: false, linger: .zero, environment: environment)
        case ["--once"]:
            return await serve(once: true, linger: defaultLinger, environment: environment)
        case let arguments where arguments.count == 3 && arguments[0] == "--once" && arguments[1] == "--linger":
            guard let seconds = Int(arguments[2]), (0...3600).contains(seconds) else {
                standardError("simplex-nse: --linger takes whole seconds from 0 to 3600, not '\(arguments[2])'")
                return 64
            }
            return await serve(once: true, linger: .seconds(seconds), environment: environment)
        case ["status"]:
            return await ServiceStatus(environment: environment, output: standardOutput).run()
        case ["--help"], ["-h"], ["help"]:
            standardOutput(usage)
            return 0
        default:
            standardError("simplex-nse: unknown arguments '\(arguments.joined(separator: " "))': see simplex-nse --help")
            return 64
        }
    }

    /// How long a service started in periodic mode (by D-Bus activation, for `ReceiveNow`) stays
    /// once it has nothing to do.
    static let periodicIdleExit: Duration = .seconds(10)

    /// How long `--once` stays for a click on the notifications it showed.
    static let defaultLinger: Duration = .seconds(60)

    private static func serve(once: Bool, linger: Duration, environment: [String: String]) async -> Int32 {
        let log: @Sendable (String) -> Void = { standardError("simplex-nse: \($0)") }
        let signals = TerminationSignals()
        let container: GroupContainer
        do { container = try GroupContainer.open(environment: environment) } catch {
            log("\(error)")
            return 1
        }
        let bus: DBusConnection
        do { bus = try await DBusConnection.session() } catch {
            log("cannot serve without a session bus (\(error)); messages arrive when simplex-chat runs")
            return 69  // EX_UNAVAILABLE
        }
        defer { bus.close() }
        let names = CoordinationNames(container: container, environment: environment)
        let defaults = GroupDefaults(container: container) { log("\($0)") }
        let mode = defaults[.notificationMode]
        guard mode != .off else {
            log("notificationMode is off: nothing is received in the background (simplex-chat notifications turns it on)")
            return 0
        }
        if once, (try? await bus.nameHasOwner(names.client)) == true {
            log("the client runs the chat: it receives everything itself")
            return 0
        }
        // While the desktop session is locked, notifications are made as in hidden mode.
        let sessionLock = SessionLockMonitor()
        let system = try? await DBusConnection(
            address: environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "unix:path=/run/dbus/system_bus_socket")
        defer { system?.close() }
        await sessionLock.start(session: bus, system: system)
        // A notification server may be slow (a busy desktop): each call waits up to 10 s, off the
        // receive path, before the notification is given up and that is logged. Notifications with
        // a reply field go over our own connection: the reply comes only to the caller of Notify.
        let presenter = RoutingPresenter(
            standard: NotificationPresenter(appName: "SimpleX Chat", timeout: .seconds(10)),
            replying: BusNotificationPresenter(connection: bus, appName: "SimpleX Chat", timeout: .seconds(10)))
        let service = NotificationService(
            container: container, bus: bus, environment: environment, presenter: presenter,
            sessionLock: sessionLock, log: log)
        do { try await service.exportInterface() } catch {
            log("cannot serve on the session bus: \(error)")
            return 1
        }
        do { try await bus.requestName(names.service) } catch {
            let owner = await ServiceStatus.ownerDescription(of: names.service, on: bus)
            guard once else {
                log("already running\(owner) for \(container.path)")
                return 1
            }
            // The service runs (instant mode, or a pass asked over the bus): it receives.
            _ = try? await bus.call(
                destination: names.service, path: CoordinationNames.servicePath,
                interface: CoordinationNames.serviceInterface, method: "ReceiveNow", timeout: .seconds(5))
            log("the service runs\(owner): asked it to receive now")
            return 0
        }
        do { try await service.start(startReceiving: !once && mode == .instant) } catch {
            log("cannot serve on the session bus: \(error)")
            return 1
        }
        if once {
            await service.receiveOnce()
            if linger > .zero, await service.hasActionableNotifications {
                // A click on what it showed is carried out by this process (its connection gets
                // the signal); it goes once nothing actionable is left or the time is up. A click
                // being carried out is finished first, whatever the time: the deadline cut the
                // core off mid-acceptance when a loaded machine made the pass slow.
                let deadline = ContinuousClock.now + linger
                await waitForTermination(bus: bus, signals: signals) {
                    guard await service.state.inactive else { return false }
                    guard ContinuousClock.now < deadline else { return true }
                    return !(await service.hasActionableNotifications)
                }
            }
            await service.shutdown()
            return 0
        }
        log("serving \(container.path) as \(names.service) (\(mode.rawValue) mode)")
        // Outside instant mode (now: the user may change it while it runs) it exits once idle.
        let idle: @Sendable () async -> Bool = {
            guard defaults[.notificationMode] != .instant else { return false }
            return await service.hasBeenIdle(for: periodicIdleExit)
        }
        await waitForTermination(bus: bus, signals: signals, idle: idle)
        await service.shutdown()
        log("stopped")
        return 0
    }

    /// SIGTERM and SIGINT, watched from the process's start: one that comes while the service
    /// starts is acted on once it serves. (Ignored and then watched only when it began to wait, a
    /// signal sent between the two — right after "serving" was logged — was lost, and the process
    /// never stopped.)
    private final class TerminationSignals: @unchecked Sendable {
        let stopped: AsyncStream<Void>
        let stop: AsyncStream<Void>.Continuation
        private var sources: [DispatchSourceSignal] = []

        init() {
            (stopped, stop) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            for signalNumber in [SIGTERM, SIGINT] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { [stop] in stop.yield() }
                source.resume()
                sources.append(source)
            }
        }

        deinit { sources.forEach { $0.cancel() } }
    }

    /// Returns on SIGTERM or SIGINT (also one that came earlier), when the session bus goes away,
    /// or when `idle` says so.
    private static func waitForTermination(
        bus: DBusConnection, signals: TerminationSignals, idle: @escaping @Sendable () async -> Bool
    ) async {
        let watcher = Task {
            while bus.isConnected, !Task.isCancelled {
                if await idle() { break }
                try? await Task.sleep(for: .milliseconds(200))
            }
            signals.stop.yield()
        }
        for await _ in signals.stopped { break }
        watcher.cancel()
    }

    static func standardOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
