import Glibc
@testable import SimpleXNetwork
import Synchronization
import Testing
import TestSupport


@Suite struct EventLoopTests {
    @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let fired = Shared<[String]>([])
        let record: @Sendable (String) -> Void = { name in fired.withLock { $0.append(name) } }
        loop.schedule(after: .milliseconds(60)) { record("60") }
        loop.schedule(after: .milliseconds(20)) { record("20a") }
        let cancelled = loop.schedule(after: .milliseconds(40)) { record("40-cancelled") }
        loop.schedule(after: .milliseconds(20)) { record("20b") }
        loop.schedule(after: .milliseconds(10)) { record("10") }
        cancelled.cancel()
        loop.schedule(after: .milliseconds(150)) { record("done") }
        #expect(await eventually { fired.withLock { $0.last == "done" } })
        #expect(fired.withLock { $0 } == ["10", "20a", "20b", "60", "done"])
    }

    @Test func aTimerCancelledFromItsOwnLoopBeforeItsDeadlineDoesNotFire() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let fired = Shared<[Int]>([])
        loop.execute {
            let handle = loop.schedule(after: .milliseconds(20)) { fired.withLock { $0.append(1) } }
            loop.schedule(after: .milliseconds(5)) { handle.cancel() }
            loop.schedule(after: .milliseconds(60)) { fired.withLock { $0.append(2) } }
        }
        #expect(await eventually { fired.withLock { $0 } == [2] })
    }

    @Test func executeFromManyThreadsRunsEveryJobOnceOnTheLoop() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let threads = 8
        let jobsPerThread = 2000
        let runs = Shared<(counts: [Int], offLoop: Int)>(
            (Array(repeating: 0, count: threads * jobsPerThread), 0))
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for job in 0..<jobsPerThread {
                        let id = thread * jobsPerThread + job
                        loop.execute {
                            let onLoop = loop.inEventLoop
                            runs.withLock {
                                $0.counts[id] += 1
                                if !onLoop { $0.offLoop += 1 }
                            }
                        }
                    }
                }
            }
        }
        #expect(await eventually { runs.withLock { $0.counts.reduce(0, +) } == threads * jobsPerThread })
        try await Task.sleep(for: .milliseconds(50))  // a job run twice would show up by now
        #expect(runs.withLock { $0.counts.allSatisfy { $0 == 1 } })
        #expect(runs.withLock { $0.offLoop } == 0)
        #expect(!loop.inEventLoop)
    }

    @Test func jobsFromOneThreadRunInOrder() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let order = Shared<[Int]>([])
        for index in 0..<1000 { loop.execute { order.withLock { $0.append(index) } } }
        #expect(await eventually { order.withLock { $0.count } == 1000 })
        #expect(order.withLock { $0 } == Array(0..<1000))
    }

    @Test func groupAssignsLoopsRoundRobin() throws {
        let group = try EventLoopGroup(loopCount: 3)
        defer { group.shutdown() }
        let picked = (0..<6).map { _ in group.next() }
        #expect(picked[0] === picked[3] && picked[1] === picked[4] && picked[2] === picked[5])
        #expect(picked[0] !== picked[1] && picked[1] !== picked[2] && picked[0] !== picked[2])
    }
}
