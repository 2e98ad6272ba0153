import Dispatch
import Glibc
import Synchronization

/// Makes the agent database's commits durable before anything that depends on them leaves the
/// process. Commits are written with `synchronous = NORMAL` (into the WAL, no fsync each), which
/// survives the process being killed but not the machine losing power; so before every command
/// to a relay the agent awaits `durable()`, which syncs the WAL once for every commit made so far,
/// on its own thread, shared by all the callers waiting then (a group commit).
///
/// Without it a power loss could undo a ratchet step whose message had already been sent — the
/// next message would then be sealed with the same message key — or a received message the relay
/// had already been told to delete.
final class DurableCommits: Sendable {
    private struct State {
        /// Commits made, and how many of them a finished sync covers. Counting starts at 1: an
        /// earlier run of the process (killed, say) may have left commits in the WAL unsynced,
        /// and a message it queued may be sent now.
        var committed: UInt64 = 1
        var synced: UInt64 = 0
        var syncing = false
        var waiters: [(target: UInt64, ready: @Sendable () -> Void)] = []
        var descriptor: Int32 = -1
        var closed = false
    }

    private let walPath: String
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "simplex-agent-wal-sync")
    /// How many syncs ran (tests check that waiting callers share one).
    private let syncCount = Atomic<Int>(0)
    /// `fdatasync`, replaceable by tests.
    private let syncFile: @Sendable (Int32) -> Int32

    init(databasePath: String, syncFile: @escaping @Sendable (Int32) -> Int32 = { fdatasync($0) }) {
        walPath = databasePath + "-wal"
        self.syncFile = syncFile
    }

    var syncs: Int { syncCount.load(ordering: .relaxed) }

    /// A commit has been written (call after it returns).
    func committed() { state.withLock { $0.committed += 1 } }

    /// Returns once every commit made before the call is on disk; at once when none is pending.
    func durable() async {
        guard isPending else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenDurable { continuation.resume() }
        }
    }

    /// Runs `ready` once every commit made before the call is on disk: at once, on the caller's
    /// thread, when none is pending (or the store is closing); else on the sync thread after the
    /// sync that covers them. For callers that need not wait in a task: the agent's ACKs go out
    /// from here without a hop back into its actor.
    func whenDurable(_ ready: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool? in
            if state.synced >= state.committed || state.closed { return nil }
            state.waiters.append((state.committed, ready))
            if state.syncing { return false }
            state.syncing = true
            return true
        }
        switch start {
        case nil: ready()
        case true?: queue.async { self.run() }
        case false?: break
        }
    }

    private var isPending: Bool { state.withLock { $0.synced < $0.committed && !$0.closed } }

    /// Closes the WAL descriptor; waiting callers are let go (the agent is stopping).
    func close() {
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            if state.descriptor >= 0 && !state.syncing {
                Glibc.close(state.descriptor)
                state.descriptor = -1
            }
            defer { state.waiters = [] }
            return state.waiters.map(\.ready)
        }
        for ready in waiting { ready() }
    }

    /// The sync thread: syncs while callers wait, each sync covering every commit counted before it.
    private func run() {
        while true {
            let (goal, descriptor) = state.withLock { state -> (UInt64, Int32) in
                if state.descriptor < 0 && !state.closed {
                    state.descriptor = Glibc.open(walPath, O_RDONLY | O_CLOEXEC)
                }
                return (state.committed, state.descriptor)
            }
            // No WAL file: nothing was written since the last checkpoint, which synced the
            // database itself. A failed sync cannot be retried meaningfully (the kernel may have
            // dropped the pages); the callers go on, as SQLite's own FULL commit would have failed.
            if descriptor >= 0 {
                _ = syncFile(descriptor)
                syncCount.add(1, ordering: .relaxed)
            }
            let (ready, more) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                state.synced = max(state.synced, goal)
                let ready = state.waiters.filter { $0.target <= goal }.map(\.ready)
                state.waiters.removeAll { $0.target <= goal }
                if state.waiters.isEmpty {
                    state.syncing = false
                    if state.closed && state.descriptor >= 0 {
                        Glibc.close(state.descriptor)
                        state.descriptor = -1
                    }
                }
                return (ready, !state.waiters.isEmpty)
            }
            for waiter in ready { waiter() }
            if !more { return }
        }
    }
}
