// The notification service (issue 21), measured with the built binaries: the real relay, the
// release `simplex-nse` and `simplex-chat` as Alice's processes on a private session bus, and a
// notification server in this process that stamps each Notify. Alice has 1,000 contacts (made
// through the relay by her chat core in this process before her binaries start); Bob, in this
// process, is on the other end of every one of them.
//
// SIMPLEX_BENCH_NSE_CONTACTS, _MESSAGES, _HANDOFFS and _PASSES change the sizes (1,000, 1,000, 10
// and 3).
import Foundation
import SimpleXChat
import TestSupport

func nseBenchmarkLines() async throws -> [String] {
    #if DEBUG
        let build = "debug build (figures not representative: make bench builds release)"
    #else
        let build = "release build"
    #endif
    var lines = [
        "machine: \(machineDescription()); \(build) of simplex-nse, simplex-chat and smp-server in \(BuiltProducts.directory)"
    ]
    for product in ["smp-server", "simplex-nse", "simplex-chat"] {
        guard (try? BuiltProducts.path(product)) != nil else {
            return lines + [
                "not measured: no \(product) beside simplex-bench (swift build -c release --product \(product))"
            ]
        }
    }
    let environment = ProcessInfo.processInfo.environment
    func size(_ name: String, _ fallback: Int) -> Int {
        environment["SIMPLEX_BENCH_NSE_\(name)"].flatMap { Int($0) }.map { max(1, $0) } ?? fallback
    }
    let contacts = size("CONTACTS", 1_000)
    let messages = size("MESSAGES", 1_000)
    let handoffs = size("HANDOFFS", 10)
    let passes = size("PASSES", 3)

    let world = try await NotificationServiceBenchWorld.make(contacts: contacts)
    lines.append(
        "setup: \(grouped(Double(contacts))) contacts connected through the relay by Alice's and Bob's chat cores in this process "
            + "(16 handshakes at a time) in \(format(world.setupTime.seconds, 1)) s; Alice has \(world.queues) receive queues"
    )
    let bench = NotificationServiceBench(world: world, contacts: contacts)
    do {
        lines += try await bench.run(messages: messages, handoffs: handoffs, passes: passes)
    } catch {
        lines += bench.lines
        lines.append("stopped by an error: \(error)")
    }
    await bench.stopService()
    await world.close()
    return lines
}

/// The phases, in the order they run, each appending its lines.
final class NotificationServiceBench {
    let world: NotificationServiceBenchWorld
    let contacts: Int
    private(set) var lines: [String] = []
    private var service: ChildProcess?
    /// A different text each run, so no Notify is taken for another run's.
    private let nonce = String(UInt32.random(in: 0...UInt32.max), radix: 36)

    init(world: NotificationServiceBenchWorld, contacts: Int) {
        self.world = world
        self.contacts = contacts
    }

    func run(messages: Int, handoffs: Int, passes: Int) async throws -> [String] {
        try await startService()
        try await latency(messages: messages)
        try await burst(messages: messages)
        try await handoff(runs: handoffs)
        try await periodicPass(runs: passes, pending: 100)
        return lines
    }

    // MARK: - The service

    /// Starts `simplex-nse` (instant mode) and waits until the relay has its SUB for every queue;
    /// then its idle memory.
    private func startService() async throws {
        let subscriptions = world.subscriptions
        let before = try await subscriptions.current()
        let start = ContinuousClock.now
        let service = try world.start("simplex-nse")
        self.service = service
        let subscribed = try await subscriptions.wait(until: before + world.queues)
        // Whatever the handshakes left to deliver arrives now, and is not measured.
        try await Task.sleep(for: .seconds(2))
        let idle = try await idleMemory(of: service)
        lines.append(
            "service start (simplex-nse, instant mode) → every queue subscribed (the relay has answered its \(world.queues) SUBs): "
                + "\(grouped((subscribed - start).seconds * 1000)) ms")
        lines.append(
            "service memory, idle with \(grouped(Double(contacts))) contacts subscribed (largest of 50 samples over 1 s): "
                + "\(idle.description) (goal private dirty ≤ 12 MB); \(memoryMappings(pid: service.pid))")
    }

    /// The largest of each figure over 50 samples a second apart by 20 ms.
    private func idleMemory(of service: ChildProcess) async throws -> MemoryFigures {
        var peak = MemoryFigures()
        for _ in 0..<50 {
            guard let sample = MemoryFigures(pid: service.pid) else {
                throw TestSupportError("simplex-nse is gone: \(service.allErrors.suffix(5))")
            }
            peak = peak.maximum(sample)
            try await Task.sleep(for: .milliseconds(20))
        }
        return peak
    }

    func stopService() async {
        guard let service, service.isRunning else { return }
        service.kill(SIGTERM)
        _ = try? await service.wait(timeout: .seconds(30))
        self.service = nil
    }

    // MARK: - 1. Message sent → Notify

    /// One message at a time, each to the next contact: from Bob's send to the Notify of its text.
    private func latency(messages: Int) async throws {
        var latencies: [Duration] = []
        var sendCalls: [Duration] = []
        var lost = 0
        for index in 0..<messages {
            let text = "latency \(index) \(nonce)"
            let start = ContinuousClock.now
            _ = try await world.bob.send(to: world.bobContacts[index % world.bobContacts.count], .text(text))
            sendCalls.append(ContinuousClock.now - start)
            guard let arrived = await world.notifications.arrival(ofBody: text, timeout: .seconds(10)) else {
                lost += 1
                continue
            }
            latencies.append(arrived - start)
        }
        let baseline = try await inProcessBaseline(messages: min(messages, 200))
        lines.append(
            "message sent → Notify received by the notification server, service in instant mode, \(grouped(Double(contacts))) "
                + "contacts subscribed, \(grouped(Double(messages))) messages one at a time (each to the next contact): "
                + "\(Percentiles(latencies).summary) (goal p50 ≤ 30 ms, p99 ≤ 150 ms)"
                + (lost > 0 ? "; \(lost) not notified within 10 s" : ""))
        lines.append(
            "  of which Bob's send call (stored, queued to his agent): \(Percentiles(sendCalls).summary); baseline on the same run: "
                + "Bob → Carol, a chat core in this process (no service, no D-Bus), message sent → its item stored, "
                + "\(baseline.count) messages: \(Percentiles(baseline).summary)")
    }

    /// Bob → Carol, both in this process: the relay and two chat cores, without the service.
    private func inProcessBaseline(messages: Int) async throws -> [Duration] {
        var latencies: [Duration] = []
        for index in 0..<messages {
            let text = "baseline \(index) \(nonce)"
            let start = ContinuousClock.now
            _ = try await world.bob.send(to: "carol", .text(text))
            if let arrived = await world.carolEvents.first("item:\(text)", timeout: .seconds(10)) {
                latencies.append(arrived - start)
            }
        }
        return latencies
    }

    // MARK: - 4. Memory at the peak of a burst

    /// `messages` messages sent back to back, one to each contact in turn, with the service's
    /// smaps_rollup sampled every 20 ms until the last is notified.
    private func burst(messages: Int) async throws {
        guard let service else { throw TestSupportError("no service running") }
        let notifications = world.notifications
        let before = notifications.count
        let sampler = MemorySampler(pid: service.pid)
        var sentAt: [String: ContinuousClock.Instant] = [:]
        let start = ContinuousClock.now
        for index in 0..<messages {
            let text = "burst \(index) \(nonce)"
            sentAt[text] = .now
            _ = try await world.bob.send(to: world.bobContacts[index % world.bobContacts.count], .text(text))
        }
        let sent = ContinuousClock.now
        // What arrives together is one notification (the chat's latest, or a joint one for several
        // chats), so fewer than `messages` come: the burst is over when none has come for 3 s.
        await notifications.waitForCount(before + messages, idle: .seconds(3))
        let end = ContinuousClock.now
        let (peak, samples) = sampler.stop()
        var latencies: [Duration] = []
        for call in notifications.received.dropFirst(before) {
            if let start = sentAt[call.body] { latencies.append(call.arrived - start) }
        }
        let notified = latencies.count
        let calls = notifications.count - before
        try await Task.sleep(for: .seconds(2))
        let after = try await idleMemory(of: service)
        lines.append(
            "service memory at the peak of a \(grouped(Double(messages)))-message burst (the largest of \(samples) samples of "
                + "smaps_rollup, every 20 ms): \(peak.description) (goal private dirty ≤ 24 MB); idle 2 s after: \(after.description), "
                + memoryMappings(pid: service.pid))
        lines.append(
            "  the burst: Bob sent them in \(format((sent - start).seconds, 2)) s; \(calls) Notify calls in "
                + "\(format((end - start).seconds, 2)) s from the first send, the last 3 s idle (a batch is one notification: "
                + "\(notified) showed their own message, the rest were joint ones); sent → Notify of its own text "
                + "\(Percentiles(latencies).summary)")
    }

    // MARK: - 2. The client's handoff

    /// `simplex-chat --cli` starts while the service runs, then quits; each run from its start to
    /// the service suspended, to the client ready, to every queue subscribed; then back.
    private func handoff(runs: Int) async throws {
        let subscriptions = world.subscriptions
        let queues = world.queues
        var suspended: [Duration] = []
        var ready: [Duration] = []
        var subscribed: [Duration] = []
        var resumed: [Duration] = []
        for _ in 0..<runs {
            let before = try await subscriptions.current()
            let start = ContinuousClock.now
            let client = try world.start("simplex-chat", ["--cli"])
            guard
                let suspendedAt = await world.serviceStates.first(
                    "suspended", after: start, timeout: .seconds(10))
            else {
                throw TestSupportError("the service did not say it suspended: \(client.allErrors.suffix(5))")
            }
            suspended.append(suspendedAt - start)
            ready.append(try await line(of: client, startingWith: "Current user:") - start)
            subscribed.append(try await subscriptions.wait(until: before + queues) - start)
            // Back: the client quits and the service subscribes everything again.
            client.send("/q")
            let quit = ContinuousClock.now
            let status = try await client.wait(timeout: .seconds(30))
            guard status == 0 else {
                throw TestSupportError("simplex-chat exited \(status): \(client.allErrors.suffix(5))")
            }
            resumed.append(try await subscriptions.wait(until: before + 2 * queues) - quit)
            try await Task.sleep(for: .seconds(1))
        }
        lines.append(
            "client handoff with \(grouped(Double(contacts))) contacts, simplex-chat --cli started while the service holds "
                + "them, \(runs) runs (p99 is the slowest run): start → service suspended → every queue subscribed (the relay "
                + "has answered all \(queues) of the client's SUBs, read from its statistics line): "
                + "\(Percentiles(subscribed).summary) (goal p99 ≤ 300 ms; iOS allows 5 s)")
        lines.append(
            "  of which start → the service says it is suspended (StateChanged): \(Percentiles(suspended).summary); "
                + "start → the client is ready (its \"Current user:\" line, printed after chat.start(), which starts the "
                + "subscriptions without waiting for them): \(Percentiles(ready).summary)")
        lines.append(
            "  and back: the client's /q → the service has subscribed every queue again: \(Percentiles(resumed).summary)"
        )
    }

    /// When `client` printed a line starting with `prefix` (polled every millisecond).
    private func line(of client: ChildProcess, startingWith prefix: String) async throws
        -> ContinuousClock.Instant
    {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if client.allOutput.contains(where: { $0.hasPrefix(prefix) }) { return .now }
            guard client.isRunning else {
                throw TestSupportError("simplex-chat exited: \(client.allErrors.suffix(5))")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw TestSupportError("simplex-chat printed no \(prefix) line: \(client.allOutput.suffix(5))")
    }

    // MARK: - 3. simplex-nse --once

    /// Periodic mode with the service stopped: `pending` messages wait on the relay, and
    /// `simplex-nse --once` runs to its end; its wall time, first with nothing waiting.
    private func periodicPass(runs: Int, pending: Int) async throws {
        await stopService()
        try world.defaults.set(.notificationMode, .periodic)
        let empty = try await pass()
        var times: [Duration] = []
        var outcomes: [String] = []
        for run in 0..<runs {
            let sentBefore = world.bobEvents.count("sent")
            for index in 0..<pending {
                let contact = world.bobContacts[(run * pending + index) % world.bobContacts.count]
                _ = try await world.bob.send(to: contact, .text("pending \(run) \(index) \(nonce)"))
            }
            // On the relay: the SENT statuses stop coming (one may overtake its item's insert, so
            // the wait ends on silence too).
            await world.bobEvents.wait(for: "sent", count: sentBefore + pending, idle: .seconds(3))
            let result = try await pass()
            times.append(result.time)
            outcomes.append("\(result.received) received, \(result.notified) Notify calls")
        }
        let seconds = times.map { format($0.seconds, 2) }.joined(separator: ", ")
        lines.append(
            "simplex-nse --once (periodic mode), \(grouped(Double(contacts))) contacts, \(pending) messages waiting on the relay: "
                + "wall time of the process p50 \(format(Percentiles(times).p50 / 1000, 2)) s over \(runs) runs (\(seconds) s; "
                + "\(outcomes.joined(separator: "; "))) (goal ≤ 1.5 s); with nothing waiting: \(format(empty.time.seconds, 2)) s"
        )
    }

    /// One `simplex-nse --once`: its wall time, what it said it received, and the Notify calls.
    private func pass() async throws -> (time: Duration, received: Int, notified: Int) {
        let before = world.notifications.count
        let start = ContinuousClock.now
        // The pass alone: without --linger 0 it would stay a minute for clicks on its notifications.
        let process = try world.start("simplex-nse", ["--once", "--linger", "0"])
        // Polled every millisecond (`wait` polls every 10).
        let deadline = start + .seconds(120)
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let time = ContinuousClock.now - start
        let status = try await process.wait(timeout: .seconds(10))
        guard status == 0 else {
            throw TestSupportError("simplex-nse --once exited \(status): \(process.allErrors.suffix(5))")
        }
        let received =
            process.allErrors.lazy.compactMap { $0.firstMatch(of: /received (\d+) waiting/) }.first
            .flatMap { Int($0.1) } ?? -1
        return (time, received, world.notifications.count - before)
    }
}
