import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// The `simplex-nse` program; the executable's main only calls `run`.
public enum ServiceMain {
    static let usage = """
        usage: simplex-nse [status | --help]

        The background receiving service of SimpleX Chat for Linux (the iOS Notification Service
        Extension's counterpart). With no arguments it serves on the session bus as
        chat.simplex.NotificationService: while notificationMode is instant and the client is not
        running, it keeps the chat's subscriptions, receives messages and shows notifications whose
        text follows ntfPreviewMode (hidden, contact or message). When the client starts, it asks the
        service to suspend and takes the chat over; when the client quits, the service resumes.

          status    what the service is doing (its state, the modes, who holds core.lock)
          --help    this text

        The group directory is SIMPLEX_GROUP_DIR, else $XDG_DATA_HOME/simplex, else
        ~/.local/share/simplex, as for simplex-chat.
        """

    /// Runs the command line; serving returns only when the service stops (SIGTERM / SIGINT).
    public static func run(_ arguments: [String], environment: [String: String] = ProcessEnvironment.current) async
        -> Int32
    {
        switch arguments {
        case []:
            return await serve(environment: environment)
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

    private static func serve(environment: [String: String]) async -> Int32 {
        let log: @Sendable (String) -> Void = { standardError("simplex-nse: \($0)") }
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
        do { try await bus.requestName(names.service) } catch {
            let owner = await ServiceStatus.ownerDescription(of: names.service, on: bus)
            log("already running\(owner) for \(container.path)")
            return 1
        }
        let defaults = GroupDefaults(container: container) { log("\($0)") }
        guard defaults[.notificationMode] == .instant else {
            log(
                "notificationMode is \(defaults[.notificationMode].rawValue): nothing to receive in the background "
                    + "(simplex-chat notifications instant turns it on)")
            return 0
        }
        let service = NotificationService(
            container: container, bus: bus, environment: environment,
            // A notification server may be slow (a busy desktop): each call waits up to 10 s, off the
            // receive path, before the notification is given up and that is logged.
            presenter: NotificationPresenter(appName: "SimpleX Chat", timeout: .seconds(10)), log: log)
        do { try await service.start() } catch {
            log("cannot serve on the session bus: \(error)")
            return 1
        }
        log("serving \(container.path) as \(names.service)")
        await waitForTermination(bus: bus)
        await service.shutdown()
        log("stopped")
        return 0
    }

    /// Returns on SIGTERM or SIGINT, or when the session bus goes away.
    private static func waitForTermination(bus: DBusConnection) async {
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.yield() }
            source.resume()
            sources.append(source)
        }
        let watcher = Task {
            while bus.isConnected, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(200)) }
            stop.yield()
        }
        for await _ in stopped { break }
        watcher.cancel()
        sources.forEach { $0.cancel() }
    }

    static func standardOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
