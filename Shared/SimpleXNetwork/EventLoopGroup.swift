import Glibc
import SimpleXSystem
import Synchronization

/// N event loops (by default one per core) that new connections are spread over round-robin.
public final class EventLoopGroup: Sendable {
    /// The loops, each with its own thread.
    public let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// The number of online cores (at least 1).
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Starts `loopCount` loops.
    public init(loopCount: Int = EventLoopGroup.coreCount, name: String = "event-loop") throws(SystemError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, loopCount) {
            do {
                loops.append(try EventLoop(name: "\(name)-\(index)"))
            } catch {
                for loop in loops { loop.shutdown() }
                throw error
            }
        }
        self.loops = loops
    }

    /// The next loop in round-robin order.
    public func next() -> EventLoop {
        loops[nextIndex.add(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Stops every loop.
    public func shutdown() {
        for loop in loops { loop.shutdown() }
    }
}
