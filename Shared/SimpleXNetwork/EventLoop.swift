internal import CSystem
import Glibc
import SimpleXSystem
import Synchronization

/// Readiness reported to a registration's handler.
public struct IOEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Readable, or the peer closed (a read then returns 0).
    public static let read = IOEvents(rawValue: 1)
    /// Writable.
    public static let write = IOEvents(rawValue: 2)
    /// An error or hang-up on the descriptor.
    public static let error = IOEvents(rawValue: 4)
}

/// One thread running epoll, level-triggered: a handler that leaves data unread is simply called
/// again on the next turn, so handlers may read a bounded amount per turn and stay fair.
///
/// Other threads talk to the loop only through `execute` (a `Mutex`'d inbox plus an eventfd
/// wake-up). Registrations, timers and everything they touch are confined to the loop thread.
public final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: `inbox` is a `Mutex` and `threadID` an `Atomic`; `epollFD` and `wakeFD`
    // are immutable; every other stored property is touched only on the loop thread.

    private struct Inbox {
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
    }

    private let inbox = Mutex(Inbox())
    private let threadID = Atomic<UInt>(0)
    private let epollFD: Int32
    private let wakeFD: Int32
    /// A loop's `execute`/timer ids; 0 is the wake-up eventfd's epoll tag.
    private let nextIDs = Atomic<UInt64>(1)

    // Loop-thread state.
    private var handlers: [UInt64: (IOEvents) -> Void] = [:]
    private var timers = TimerQueue()
    private var afterIO: [() -> Void] = []
    /// One shared read buffer for every connection on this loop: idle connections hold none.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// The time at the start of this turn, so per-block bookkeeping costs no clock call.
    package private(set) var now = ContinuousClock.now
    /// Blocks lent to this loop's connections to hold what they send until it is written, and
    /// given back then: the same few serve every turn instead of fresh memory (allocated, faulted
    /// in and copied into a growing buffer) for each; idle connections hold none.
    private var spareBlocks: [UnsafeMutableRawBufferPointer] = []
    /// The block size kept spare (SMP's), and how many at most (2 MB).
    static let spareBlockSize = 16_384
    static let spareBlockLimit = 128
    /// Room for one `sendmsg`'s vectors, shared by the loop's connections.
    let writeVectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: 64)

    /// Starts a loop and its thread.
    public init(name: String = "event-loop") throws(SystemError) {
        epollFD = try retryingOnInterrupt("epoll_create1") { CSystem_epollCreate() }
        do {
            wakeFD = try retryingOnInterrupt("eventfd") { CSystem_eventFD() }
            try retryingOnInterrupt("epoll_ctl") {
                CSystem_epollCtl(epollFD, CSystem_epollAdd, wakeFD, CSystem_epollIn, 0)
            }
        } catch {
            Glibc.close(epollFD)
            throw error
        }
        // The thread holds the loop until `shutdown` lets `run` return.
        let thread = LoopThread { self.run() }
        thread.start(name: name)
    }

    deinit {
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
        readBuffer.deallocate()
        writeVectors.deallocate()
        for block in spareBlocks { block.deallocate() }
    }

    /// A block of `size` bytes for a connection's outbound queue (contents undefined). Loop
    /// thread only.
    func takeBlock(size: Int) -> UnsafeMutableRawBufferPointer {
        if size == Self.spareBlockSize, let block = spareBlocks.popLast() { return block }
        return .allocate(byteCount: size, alignment: 16)
    }

    /// Takes back a block from `takeBlock`, written or no longer needed. Loop thread only.
    func giveBack(_ block: UnsafeMutableRawBufferPointer) {
        if block.count == Self.spareBlockSize && spareBlocks.count < Self.spareBlockLimit {
            spareBlocks.append(block)
        } else {
            block.deallocate()
        }
    }

    /// Whether the caller is on this loop's thread.
    public var inEventLoop: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Runs `job` on the loop thread, from any thread, in order; false (job dropped) after `shutdown`.
    @discardableResult
    public func execute(_ job: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.jobs.append(job)
            // Only the first job since the loop last emptied the inbox needs to wake it.
            if inbox.jobs.count == 1 { wake() }
            return true
        }
    }

    /// Stops the loop after the current turn (running the jobs already queued); registrations
    /// and timers are dropped unrun, and `execute` refuses new jobs.
    public func shutdown() {
        inbox.withLock { inbox in
            inbox.stopping = true
            wake()
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = try? retryingOnInterrupt("write(eventfd)") { Glibc.write(wakeFD, &one, 8) }
    }

    // MARK: - Loop-thread API

    /// Registers `fd` with `interest` (`.read`, `.write`); `handler` runs on the loop thread. Loop thread only.
    public func register(fd: Int32, interest: IOEvents, handler: @escaping (IOEvents) -> Void)
        throws(SystemError)
        -> UInt64
    {
        precondition(inEventLoop, "EventLoop.register off the loop thread")
        let id = nextIDs.add(1, ordering: .relaxed).oldValue
        try retryingOnInterrupt("epoll_ctl(ADD)") {
            CSystem_epollCtl(epollFD, CSystem_epollAdd, fd, Self.mask(interest), id)
        }
        handlers[id] = handler
        return id
    }

    /// Changes what a registration waits for. Loop thread only.
    public func setInterest(fd: Int32, registration: UInt64, _ interest: IOEvents) throws(SystemError) {
        try retryingOnInterrupt("epoll_ctl(MOD)") {
            CSystem_epollCtl(epollFD, CSystem_epollMod, fd, Self.mask(interest), registration)
        }
    }

    /// Removes a registration, before its descriptor is closed. Loop thread only.
    public func unregister(fd: Int32, registration: UInt64) {
        handlers[registration] = nil
        _ = try? retryingOnInterrupt("epoll_ctl(DEL)") {
            CSystem_epollCtl(epollFD, CSystem_epollDel, fd, 0, 0)
        }
    }

    /// Runs `body` on the loop thread after `delay`; timers with equal deadlines fire in scheduling order.
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> TimerHandle {
        let id = nextIDs.add(1, ordering: .relaxed).oldValue
        let handle = TimerHandle(loop: self, id: id)
        // The deadline counts from the call, not from when the loop gets to the job.
        let deadline = ContinuousClock.now + delay
        if inEventLoop {
            timers.add(id: id, deadline: deadline, body)
        } else {
            execute { self.timers.add(id: id, deadline: deadline, body) }
        }
        return handle
    }

    /// A loop-thread-only timer whose body need not be `Sendable`.
    public func scheduleLocal(after delay: Duration, _ body: @escaping () -> Void) -> TimerHandle {
        precondition(inEventLoop)
        let id = nextIDs.add(1, ordering: .relaxed).oldValue
        timers.add(id: id, deadline: now + delay, body)
        return TimerHandle(loop: self, id: id)
    }

    func cancelTimer(id: UInt64) {
        if inEventLoop { timers.cancel(id: id) } else { execute { self.timers.cancel(id: id) } }
    }

    /// Runs `body` once the events of this turn are handled (to batch writes). Loop thread only.
    public func afterThisTurn(_ body: @escaping () -> Void) { afterIO.append(body) }

    // MARK: - The loop

    private static func mask(_ interest: IOEvents) -> UInt32 {
        (interest.contains(.read) ? CSystem_epollIn | CSystem_epollRdHup : 0)
            | (interest.contains(.write) ? CSystem_epollOut : 0)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        let events = UnsafeMutablePointer<CSystem_EpollEvent>.allocate(capacity: Int(CSystem_epollMaxEvents))
        defer { events.deallocate() }
        while true {
            let count = CSystem_epollWait(
                epollFD, events, Int32(CSystem_epollMaxEvents), timers.timeoutMS(now: now))
            now = ContinuousClock.now
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                if event.data == 0 {
                    var drained: UInt64 = 0
                    _ = Glibc.read(wakeFD, &drained, 8)
                    continue
                }
                // A handler earlier in this batch may have unregistered this one.
                guard let handler = handlers[event.data] else { continue }
                var ready: IOEvents = []
                if event.events & (CSystem_epollIn | CSystem_epollRdHup) != 0 { ready.insert(.read) }
                if event.events & CSystem_epollOut != 0 { ready.insert(.write) }
                if event.events & (CSystem_epollErr | CSystem_epollHup) != 0 { ready.insert(.error) }
                handler(ready)
            }
            while let timer = timers.popDue(now: now) { timer() }
            let (jobs, stopping) = inbox.withLock { inbox in
                defer { inbox.jobs.removeAll(keepingCapacity: true) }
                return (inbox.jobs, inbox.stopping)
            }
            // Every job `execute` accepted runs, even in the last turn: a job often resumes a
            // continuation, and dropping it would leave its waiter suspended forever.
            for job in jobs { job() }
            if stopping { break }
            while !afterIO.isEmpty {
                let deferred = afterIO
                afterIO.removeAll(keepingCapacity: true)
                for body in deferred { body() }
            }
        }
        // Handlers and timers often capture their owners: dropping them lets those close their sockets.
        handlers = [:]
        timers = TimerQueue()
        afterIO = []
        inbox.withLock { $0.jobs = [] }
    }
}

/// A scheduled timer; `cancel` from any thread stops it if it has not fired yet.
public struct TimerHandle: Sendable {
    let loop: EventLoop
    let id: UInt64

    /// Cancels the timer; from another thread the cancellation races a timer that is about to fire.
    public func cancel() { loop.cancelTimer(id: id) }
}
