// What the notification service's figures are measured with: the relay's SUB counter read from
// outside, the service's memory from /proc, chat events with their arrival times, and the
// service's state signals.
import Foundation
import SimpleXChat
import SimpleXDesktop
import Synchronization
import TestSupport

/// The relay's count of SUB commands, read through its statistics line (SIGUSR1): how the bench
/// sees, from outside every client, that a process has subscribed all its queues.
final class RelaySubscriptions: Sendable {
    private let relay: RelayProcess
    /// How many of the relay's log lines have been looked at.
    private let seen = Locked(0)

    init(_ relay: RelayProcess) { self.relay = relay }

    /// The SUB commands the relay has answered so far, asked for now.
    func current(timeout: Duration = .seconds(5)) async throws -> Int {
        // Only a line printed after this request counts (not one an earlier request left).
        let before = relay.log.count
        seen.withLock { $0 = max($0, before) }
        relay.requestStatistics()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let log = relay.log
            let start = seen.withLock { seen in
                defer { seen = log.count }
                return min(seen, log.count)
            }
            if let line = log[start...].last(where: { $0.contains("stats: ") }),
                let match = line.firstMatch(of: /subscriptions (\d+) \(ended/), let count = Int(match.1)
            {
                return count
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw TestSupportError("the relay printed no statistics within \(timeout)")
    }

    /// Asks until the relay has answered `target` SUB commands; when it first said so (within a
    /// poll, about a millisecond, of when it did).
    func wait(until target: Int, timeout: Duration = .seconds(60)) async throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + timeout
        var last = 0
        while ContinuousClock.now < deadline {
            last = try await current()
            if last >= target { return .now }
        }
        throw TestSupportError(
            "the relay answered \(last) SUB commands in all, not \(target), within \(timeout)")
    }
}

/// A value behind a lock, shared by reference (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}

/// Private dirty, Rss and Pss of a process (kB), from /proc/<pid>/smaps_rollup.
struct MemoryFigures: Sendable {
    var privateDirty = 0
    var rss = 0
    var pss = 0

    init() {}

    init?(pid: Int32) {
        guard let text = procFile("/proc/\(pid)/smaps_rollup") else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            switch fields[0] {
            case "Rss:": rss = kilobytes
            case "Pss:": pss = kilobytes
            case "Private_Dirty:": privateDirty = kilobytes
            default: break
            }
        }
    }

    /// Each figure's larger value.
    func maximum(_ other: MemoryFigures) -> MemoryFigures {
        var result = MemoryFigures()
        result.privateDirty = max(privateDirty, other.privateDirty)
        result.rss = max(rss, other.rss)
        result.pss = max(pss, other.pss)
        return result
    }

    var description: String {
        "private dirty \(megabytes(privateDirty)) MB (Rss \(megabytes(rss)) MB, Pss \(megabytes(pss)) MB)"
    }

    private func megabytes(_ kilobytes: Int) -> String { format(Double(kilobytes) / 1024, 1) }
}

/// A /proc file whole (its size reads as 0, so Foundation's file reading can stop short).
func procFile(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}

/// The process's memory mappings (VMAs), and the kernel's limit on them: every `sodium_malloc`
/// allocation (a `SecureBytes`) is a mapping of its own, split in four by its guard pages.
func memoryMappings(pid: Int32) -> String {
    let count =
        procFile("/proc/\(pid)/maps").map { $0.utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count } ?? 0
    let limit = procFile("/proc/sys/vm/max_map_count").flatMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return "\(grouped(Double(count))) memory mappings"
        + (limit.map { " (vm.max_map_count \(grouped(Double($0))))" } ?? "")
}

/// Samples a process's smaps_rollup on a thread of its own every `interval` (so a busy
/// cooperative pool does not thin the samples out), keeping each figure's maximum.
final class MemorySampler: Sendable {
    private struct State {
        var peak = MemoryFigures()
        var samples = 0
        var running = true
    }
    private let state = Locked(State())

    init(pid: Int32, interval: Duration = .milliseconds(20)) {
        let state = self.state
        let microseconds = useconds_t(interval.seconds * 1e6)
        Thread.detachNewThread {
            while state.withLock({ $0.running }) {
                if let sample = MemoryFigures(pid: pid) {
                    state.withLock {
                        $0.peak = $0.peak.maximum(sample)
                        $0.samples += 1
                    }
                }
                usleep(microseconds)
            }
        }
    }

    /// Stops sampling; the peaks and how many samples were taken.
    func stop() -> (peak: MemoryFigures, samples: Int) {
        state.withLock {
            $0.running = false
            return ($0.peak, $0.samples)
        }
    }
}

/// A chat core's events that matter to the bench, under a key each (`classify`), with when each
/// arrived; read by a task of its own, so none is missed between waits.
final class TimedChatEvents: Sendable {
    private let arrivals = Locked<[String: [ContinuousClock.Instant]]>([:])
    private let reader: Task<Void, Never>

    init(_ events: AsyncStream<ChatEvent>, classify: @escaping @Sendable (ChatEvent) -> String?) {
        let arrivals = self.arrivals
        reader = Task {
            for await event in events {
                guard let key = classify(event) else { continue }
                let now = ContinuousClock.now
                arrivals.withLock { $0[key, default: []].append(now) }
            }
        }
    }

    deinit { reader.cancel() }

    func count(_ key: String) -> Int { arrivals.withLock { $0[key]?.count ?? 0 } }

    /// When the first event under `key` arrived, waiting up to `timeout` for one.
    func first(_ key: String, timeout: Duration) async -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let first = arrivals.withLock({ $0[key]?.first }) { return first }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// When the first event under `key` arrived after `since`, waiting up to `timeout` for one.
    func first(_ key: String, after since: ContinuousClock.Instant, timeout: Duration) async
        -> ContinuousClock.Instant?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = arrivals.withLock({ $0[key]?.first { $0 >= since } }) { return found }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// Waits until `count` events under `key` have arrived in all, or none has for `idle`; the count.
    @discardableResult
    func wait(for key: String, count: Int, idle: Duration) async -> Int {
        var last = self.count(key)
        var quietSince = ContinuousClock.now
        while true {
            let now = self.count(key)
            if now >= count { return now }
            if now != last {
                last = now
                quietSince = .now
            }
            if ContinuousClock.now - quietSince > idle { return now }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The `StateChanged` signals of a user's notification service, with when each arrived.
final class ServiceStateLog: Sendable {
    private let states = Locked<[(ContinuousClock.Instant, String)]>([])
    private let reader: Task<Void, Never>

    init(connection: DBusConnection, names: CoordinationNames) async throws {
        let signals = try await connection.signals(
            path: CoordinationNames.servicePath, interface: CoordinationNames.serviceInterface,
            member: CoordinationNames.stateChanged, sender: names.service)
        let states = self.states
        reader = Task {
            for await signal in signals {
                let now = ContinuousClock.now
                if let state = signal.arguments.first?.string { states.withLock { $0.append((now, state)) } }
            }
        }
    }

    deinit { reader.cancel() }

    /// When the service first said `state` after `since`, waiting up to `timeout`.
    func first(_ state: String, after since: ContinuousClock.Instant, timeout: Duration) async
        -> ContinuousClock.Instant?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = states.withLock({ $0.first { $0.0 >= since && $0.1 == state }?.0 }) {
                return found
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }
}

/// Percentiles of durations (nearest rank), in milliseconds.
struct Percentiles {
    let sorted: [Double]

    init(_ durations: [Duration]) { sorted = durations.map { $0.seconds * 1000 }.sorted() }

    func at(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var p50: Double { at(0.5) }
    var p99: Double { at(0.99) }
    var max: Double { sorted.last ?? .nan }

    /// "p50 12.3 ms, p99 45.6 ms, max 78.9 ms".
    var summary: String { "p50 \(format(p50, 1)) ms, p99 \(format(p99, 1)) ms, max \(format(max, 1)) ms" }
}

/// The machine, for the section's first line: cores and `uname -m`.
func machineDescription() -> String {
    var name = utsname()
    uname(&name)
    let machine = withUnsafeBytes(of: &name.machine) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(machine), Linux \(kernel)"
}
