internal import CDBus
import Foundation
import Synchronization

/// Owns one private libdbus connection and the one thread that ever touches it.
///
/// The thread polls the connection's socket and an eventfd. Swift callers never call libdbus:
/// they append a `Job` to `inbox` (a `Mutex`) and write the eventfd; the thread wakes, runs the
/// jobs, reads and writes the socket without blocking, handles incoming messages, and expires
/// call deadlines. Callers await continuations that the thread resumes, so no cooperative thread
/// ever blocks on the bus.
final class DBusLoop: @unchecked Sendable {
    // @unchecked Sendable: `inbox` and `exports` are `Mutex`es; `wakeFD` is immutable; every other
    // stored property is confined to the loop thread (touched only in `run` and the jobs and
    // message handlers it calls), so it needs no lock.

    /// Work for the loop thread, or, when the connection is already closed, its failure.
    struct Job: Sendable {
        let run: @Sendable (DBusLoop) -> Void
        let fail: @Sendable (DBusError) -> Void
    }

    private struct Inbox {
        var jobs: [Job] = []
        /// Set once, when the loop stops; later jobs fail with it at once.
        var closedError: DBusError?
    }

    /// Reply continuation for one outgoing call; runs on the loop thread.
    typealias Completion = (Result<OpaquePointer, DBusError>) -> Void

    struct PendingCall {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let timeout: Duration
        let what: String
        let complete: Completion
    }

    private let inbox = Mutex(Inbox())
    private let wakeFD: Int32
    private let nextIDs = Atomic<UInt64>(1)
    /// Exported methods by path, then interface, then member; read by the loop, written by callers.
    let exports = Mutex<[String: [String: [String: DBusMethodHandler]]]>([:])

    // Loop-thread state.
    var connection: OpaquePointer?
    var pending: [UInt32: PendingCall] = [:]
    var pendingSerials: [UInt64: UInt32] = [:]
    var cancelledBeforeStart: Set<UInt64> = []
    var subscriptions:
        [UInt64: (filter: DBusSignalFilter, continuation: AsyncStream<DBusSignal>.Continuation)] = [:]
    /// Unique owners of the well-known names used as signal senders, with how many subscriptions use them.
    var watchedNames: [String: (owner: String?, uses: Int)] = [:]
    var handlerTasks: [UInt64: Task<Void, Never>] = [:]
    private var stopped = false

    private init(wakeFD: Int32) {
        self.wakeFD = wakeFD
    }

    deinit { Glibc.close(wakeFD) }

    /// Connects to the bus at `address` on a new thread and registers (Hello); returns the loop and
    /// our unique name once registered.
    static func start(address: String) async throws -> (DBusLoop, String) {
        let fd = CDBus_makeWakeFD()
        guard fd >= 0 else { throw DBusError.failed("eventfd failed: errno \(errno)") }
        let loop = DBusLoop(wakeFD: fd)
        let uniqueName: String = try await withCheckedThrowingContinuation { started in
            let thread = Thread {
                let result = loop.connect(address: address)
                started.resume(with: result)
                if case .success = result { loop.run() }
            }
            thread.name = "dbus-loop"
            thread.start()
        }
        return (loop, uniqueName)
    }

    /// A process-unique id for calls, subscriptions and handler tasks.
    func makeID() -> UInt64 { nextIDs.add(1, ordering: .relaxed).oldValue }

    /// Queues `job` for the loop thread, or fails it at once when the connection is closed.
    func enqueue(_ job: Job) {
        let closed: DBusError? = inbox.withLock { inbox in
            if let error = inbox.closedError { return error }
            inbox.jobs.append(job)
            // Written under the lock so that no wake-up races the fd being closed in deinit.
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
            return nil
        }
        if let closed { job.fail(closed) }
    }

    /// Queues `body` for the loop thread, ignoring it when the connection is closed.
    func enqueue(_ body: @escaping @Sendable (DBusLoop) -> Void) {
        enqueue(Job(run: body, fail: { _ in }))
    }

    var isClosed: Bool { inbox.withLock { $0.closedError != nil } }

    /// Closes the connection from any thread: from now on new jobs fail with `error`; the loop
    /// thread wakes, fails pending calls with it and stops.
    func close(_ error: DBusError) {
        inbox.withLock { inbox in
            guard inbox.closedError == nil else { return }
            inbox.closedError = error
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
    }

    // MARK: - Loop thread

    private func connect(address: String) -> Result<String, DBusError> {
        _ = dbus_threads_init_default()
        var error = CDBus_Error()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            return .failure(.noBus("cannot connect to the bus at \(address): \(Self.message(error))"))
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0, let unique = dbus_bus_get_unique_name(connection)
        else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return .failure(.noBus("cannot register with the bus at \(address): \(Self.message(error))"))
        }
        self.connection = connection
        return .success(String(cString: unique))
    }

    private func run() {
        guard let connection else { return }
        var socket: Int32 = -1
        guard dbus_connection_get_unix_fd(connection, &socket) != 0 else {
            shutdown(.disconnected("libdbus has no socket for the connection"))
            return
        }
        var fds = [
            pollfd(fd: socket, events: 0, revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while !stopped {
            runJobs()
            if stopped { break }
            readMessages()
            if stopped { break }
            expireDeadlines()
            if dbus_connection_get_is_connected(connection) == 0 {
                shutdown(.disconnected("the bus closed the connection"))
                break
            }
            let wantsWrite = dbus_connection_has_messages_to_send(connection) != 0
            fds[0].events = Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0)
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, pollTimeout())
            if ready < 0 {
                if errno == EINTR { continue }
                shutdown(.disconnected("poll failed: errno \(errno)"))
                break
            }
            if fds[1].revents != 0 {
                var count: UInt64 = 0
                _ = Glibc.read(wakeFD, &count, 8)
            }
            if fds[0].revents != 0 {
                // Timeout 0: read what is there and write what we can, never block.
                _ = dbus_connection_read_write(connection, 0)
            }
        }
    }

    private func runJobs() {
        let (jobs, closed) = inbox.withLock { inbox in
            defer { inbox.jobs.removeAll(keepingCapacity: true) }
            return (inbox.jobs, inbox.closedError)
        }
        if let closed {
            for job in jobs { job.fail(closed) }
            return shutdown(closed)
        }
        for job in jobs where !stopped { job.run(self) }
    }

    private func readMessages() {
        guard let connection else { return }
        while !stopped, let message = dbus_connection_pop_message(connection) {
            handleIncoming(message)
            dbus_message_unref(message)
        }
    }

    /// Milliseconds until the nearest call deadline (rounded up), or -1 (wait for I/O) when none.
    private func pollTimeout() -> Int32 {
        guard let nearest = pending.values.map(\.deadline).min() else { return -1 }
        let left = ContinuousClock.now.duration(to: nearest)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: ms)
    }

    /// Stops the loop: every queued job, pending call and signal stream ends with `error`.
    func shutdown(_ error: DBusError) {
        guard !stopped else { return }
        stopped = true
        let (jobs, error) = inbox.withLock { inbox in
            if inbox.closedError == nil { inbox.closedError = error }
            defer { inbox.jobs = [] }
            return (inbox.jobs, inbox.closedError ?? error)
        }
        for job in jobs { job.fail(error) }
        let calls = pending.values
        pending = [:]
        pendingSerials = [:]
        for call in calls { call.complete(.failure(error)) }
        for subscription in subscriptions.values { subscription.continuation.finish() }
        subscriptions = [:]
        for task in handlerTasks.values { task.cancel() }
        handlerTasks = [:]
        // Handlers often capture their connection, which owns this loop: dropping them breaks the cycle.
        exports.withLock { $0 = [:] }
        if let connection {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            self.connection = nil
        }
    }

    static func message(_ error: CDBus_Error) -> String {
        guard error.name != nil else { return "unknown error" }
        let name = error.name.map { String(cString: $0) } ?? ""
        let text = error.message.map { String(cString: $0) } ?? ""
        return "\(name): \(text)"
    }
}
