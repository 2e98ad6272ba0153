internal import CNotify
import Foundation
import Synchronization

/// The one thread in the process that calls libnotify, running a GMainLoop on its own GMainContext.
///
/// libnotify keeps process-wide state (one GDBusProxy, the list of live notifications) without locks,
/// makes the proxy on first use and delivers `ActionInvoked` / `NotificationClosed` to the GMainContext
/// that was thread-default when the proxy was made. So every libnotify call of every presenter runs
/// here, and this thread's loop is what dispatches the signals. Swift callers post work and `await` it;
/// they never block.
final class NotifyThread: Sendable {
    /// Shared by all presenters: a second thread would race the first on libnotify's globals.
    static let shared = NotifyThread()

    private let context: MainContext

    private init() {
        let context = MainContext(g_main_context_new())
        self.context = context
        let thread = Thread {
            g_main_context_push_thread_default(context.pointer)
            let loop = g_main_loop_new(context.pointer, 0)
            g_main_loop_run(loop)  // runs for the life of the process
        }
        thread.name = "libnotify"
        thread.start()
    }

    /// True on the notify thread while its loop runs (the loop owns the context).
    var isCurrent: Bool { g_main_context_is_owner(context.pointer) != 0 }

    /// Runs `work` on the notify thread, after the work posted before it.
    func post(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(WorkItem(work)).toOpaque()
        // An idle source on our context (or a direct call when already on the thread); FIFO at one priority.
        g_main_context_invoke_full(
            context.pointer, 0 /* G_PRIORITY_DEFAULT */,
            { data in
                guard let data else { return 0 }
                Unmanaged<WorkItem>.fromOpaque(data).takeRetainedValue().work()
                return 0  // G_SOURCE_REMOVE
            }, box, nil)
    }

    /// Runs `work` on the notify thread and returns its result, or throws `.timedOut` once `timeout`
    /// has passed even if `work` is stuck in a synchronous D-Bus call. Work whose caller has given up
    /// (timed out or cancelled) before it started does not run; work that finishes after its caller
    /// gave up passes its value to `late` (to undo a notification nobody holds a handle to).
    func run<Value: Sendable>(
        _ what: String, timeout: Duration,
        _ work: @escaping @Sendable () throws(NotificationError) -> Value,
        late: @escaping @Sendable (Value) -> Void = { _ in }
    ) async throws -> Value {
        let reply = Reply<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard reply.install(continuation) else { return }
                let deadline = Task {
                    try await Task.sleep(for: timeout)
                    reply.resume(
                        .failure(
                            NotificationError(
                                .timedOut,
                                "\(what): no answer from the notification server within \(timeout)")))
                }
                post {
                    guard reply.isWaiting else { return }
                    let result: Result<Value, any Error>
                    do { result = .success(try work()) } catch { result = .failure(error) }
                    deadline.cancel()
                    if !reply.resume(result), case .success(let value) = result { late(value) }
                }
            }
        } onCancel: {
            reply.resume(.failure(CancellationError()))
        }
    }
}

/// GMainContext is thread-safe for what we do from other threads (invoke, is_owner).
private struct MainContext: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

private final class WorkItem {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
}

/// A continuation resumed exactly once: by the work, by the deadline, or by cancellation.
private final class Reply<Value: Sendable>: Sendable {
    private enum State {
        case initial
        case waiting(CheckedContinuation<Value, any Error>)
        case finished
    }
    private let state = Mutex<State>(.initial)

    /// Stores the continuation; false (and the continuation resumed) when cancellation came first.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let installed = state.withLock { state -> Bool in
            guard case .initial = state else { return false }
            state = .waiting(continuation)
            return true
        }
        if !installed { continuation.resume(throwing: CancellationError()) }
        return installed
    }

    var isWaiting: Bool {
        state.withLock { if case .waiting = $0 { true } else { false } }
    }

    /// Resumes the caller unless someone already did; returns whether this call did.
    @discardableResult
    func resume(_ result: Result<Value, any Error>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .initial:
                state = .finished  // cancelled before the continuation existed
                return nil
            case .finished:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation.resume(with: result)
        return true
    }
}
