import Dispatch
import Glibc
import Synchronization

/// Under `SyncPolicy.interval`, fdatasyncs the journal on a thread of its own, so the relay's loop
/// goes on serving while the disk flushes: under load a flush takes a millisecond or more (over
/// 10 ms at times), and made inline every 10 ms it held up every connection of the relay for that
/// long. A sync covers what was written before it started; one runs at a time.
final class JournalSyncer: Sendable {
    private struct State {
        /// A duplicate of the journal's descriptor (the journal may be replaced meanwhile).
        var descriptor: Int32
        var path: String
        var failure: QueueStoreError?
    }

    private let state: Mutex<State>
    private let idle = DispatchSemaphore(value: 1)
    private let queue = DispatchQueue(label: "smp-server-journal-sync")
    /// `fdatasync` of a descriptor (and its path, for errors).
    private let syncFile: @Sendable (Int32, String) throws(QueueStoreError) -> Void

    init(
        following journal: Journal, syncFile: @escaping @Sendable (Int32, String) throws(QueueStoreError) -> Void
    ) throws(QueueStoreError) {
        state = Mutex(State(descriptor: try journal.duplicateDescriptor(), path: journal.path))
        self.syncFile = syncFile
    }

    deinit {
        let descriptor = state.withLock { $0.descriptor }
        if descriptor >= 0 { close(descriptor) }
    }

    /// Starts a sync of everything written so far; false when one is still running (ask again).
    func start() -> Bool {
        guard idle.wait(timeout: .now()) == .success else { return false }
        let (descriptor, path) = state.withLock { ($0.descriptor, $0.path) }
        queue.async { [self] in
            var failure: QueueStoreError?
            do throws(QueueStoreError) { try syncFile(descriptor, path) } catch { failure = error }
            if let failure {
                state.withLock { state in if state.failure == nil { state.failure = failure } }
            }
            idle.signal()
        }
        return true
    }

    /// Waits for a running sync to end.
    func waitUntilIdle() {
        idle.wait()
        idle.signal()
    }

    /// A sync that failed since the last call: the kernel may have dropped the pages, so what was
    /// acknowledged may not be on disk.
    func takeFailure() -> QueueStoreError? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    /// Follows `journal` (after a compaction), once a running sync of the previous one has ended.
    func follow(_ journal: Journal) throws(QueueStoreError) {
        let descriptor = try journal.duplicateDescriptor()
        idle.wait()
        let previous = state.withLock { state in
            defer {
                state.descriptor = descriptor
                state.path = journal.path
            }
            return state.descriptor
        }
        idle.signal()
        close(previous)
    }
}
