// The share helper, measured with the built binaries in the notification service bench's world
// (NotificationServiceBenchWorld: the real relay, a private session bus, Alice with 1,000 contacts
// whose processes are the release `simplex-share`, `simplex-chat` and `simplex-nse`; Bob, in this
// process, on the other end of each, accepting every file offered as soon as it arrives).
//
// The order: the service starts (instant mode); the standalone shares (the helper suspends it,
// takes core.lock, sends with its own core, resumes it); a 5 MiB file shared standalone (the
// helper stays while Bob accepts and sends the chunks itself); then
// `simplex-chat --cli` starts, and the shares through it (its D-Bus `Share`). The same file by `/f`
// typed into a `simplex-chat --cli` alternates with the file's shares, each client started for
// its run and quit after it.
//
// SIMPLEX_BENCH_SHARE_CONTACTS, _CLIENT_RUNS, _STANDALONE_RUNS and _FILE_RUNS change the sizes
// (1,000, 30, 10 and 3).
import Foundation
import SimpleXChat
import SimpleXDesktop
import TestSupport

func shareBenchmarkLines() async throws -> [String] {
    #if DEBUG
        let build = "debug build (figures not representative: make bench builds release)"
    #else
        let build = "release build"
    #endif
    var lines = [
        "machine: \(machineDescription()); \(build) of simplex-share, simplex-chat, simplex-nse and smp-server in \(BuiltProducts.directory)"
    ]
    for product in ["smp-server", "simplex-nse", "simplex-chat", "simplex-share"] {
        guard (try? BuiltProducts.path(product)) != nil else {
            return lines + [
                "not measured: no \(product) beside simplex-bench (swift build -c release --product \(product))"
            ]
        }
    }
    let environment = ProcessInfo.processInfo.environment
    func size(_ name: String, _ fallback: Int) -> Int {
        environment["SIMPLEX_BENCH_SHARE_\(name)"].flatMap { Int($0) }.map { max(1, $0) } ?? fallback
    }
    let contacts = size("CONTACTS", 1_000)
    let clientRuns = size("CLIENT_RUNS", 30)
    let standaloneRuns = size("STANDALONE_RUNS", 10)
    let fileRuns = size("FILE_RUNS", 3)

    let world = try await NotificationServiceBenchWorld.make(contacts: contacts)
    lines.append(
        "setup: \(grouped(Double(contacts))) contacts connected through the relay in \(format(world.setupTime.seconds, 1)) s; "
            + "Alice has \(world.queues) receive queues")
    let bench = try ShareBench(world: world, contacts: contacts)
    do {
        try await bench.run(clientRuns: clientRuns, standaloneRuns: standaloneRuns, fileRuns: fileRuns)
    } catch {
        bench.lines.append("stopped by an error: \(error)")
    }
    await bench.stop()
    await world.close()
    return lines + bench.lines
}

final class ShareBench {
    let world: NotificationServiceBenchWorld
    let contacts: Int
    var lines: [String] = []
    private var service: ChildProcess?
    private var client: ChildProcess?
    private let nonce = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private let files: TemporaryDirectory
    /// Alice's contact every share goes to (her first "bob"), and the file's size.
    private let contact = "@bob"
    private let fileSize = 5 * 1_048_576

    init(world: NotificationServiceBenchWorld, contacts: Int) throws {
        self.world = world
        self.contacts = contacts
        files = try TemporaryDirectory("share-bench-files")
    }

    func run(clientRuns: Int, standaloneRuns: Int, fileRuns: Int) async throws {
        let file = try makeFile()
        try await startService()
        try await standalone(runs: standaloneRuns)
        // The file's runs alternate (share, then /f in a client started for it and quit after),
        // so a load that comes and goes on the machine weighs on both sides of the ratio alike.
        var shared: [FileRun] = []
        var typed: [FileRun] = []
        for _ in 0..<fileRuns {
            shared.append(
                try await fileTransfer { [self] in
                    let share = try world.start("simplex-share", ["--to", contact, file])
                    share.closeInput()
                    let status = try await exited(of: share)
                    guard status.code == 0 else {
                        throw TestSupportError("simplex-share exited \(status.code): \(share.allErrors.suffix(5))")
                    }
                    return status.at
                })
            // The service subscribes everything again before the next run.
            try await Task.sleep(for: .seconds(1))
            try await startClient()
            typed.append(
                try await fileTransfer { [self] in
                    guard let client else { throw TestSupportError("no client running") }
                    client.send("/f \(contact) \(file)")
                    return nil
                })
            try await quitClient()
        }
        try await startClient()
        try await throughClient(runs: clientRuns)
        let sharedTimes = Percentiles(shared.map(\.received))
        let typedTimes = Percentiles(typed.map(\.received))
        func each(_ times: Percentiles) -> String { times.sorted.map { format($0, 0) }.joined(separator: ", ") }
        lines.append(
            "a \(fileSize / 1_048_576) MiB file, invocation → Bob (in this process, accepting at once) has the whole file, "
                + "median of \(fileRuns) runs each: simplex-share --to \(contact) FILE with the service running (the helper "
                + "sends the chunks itself once Bob accepts) \(format(sharedTimes.p50, 0)) ms (\(each(sharedTimes)) ms; the "
                + "share exited after \(format(Percentiles(shared.compactMap(\.exited)).p50, 0)) ms); /f \(contact) FILE typed "
                + "into the running simplex-chat --cli \(format(typedTimes.p50, 0)) ms (\(each(typedTimes)) ms); ratio "
                + "\(format(sharedTimes.p50 / typedTimes.p50, 2)) (goal ≤ 1.1)")
        func phases(_ runs: [FileRun]) -> String {
            let offered = Percentiles(runs.compactMap(\.offered))
            let started = Percentiles(runs.compactMap { run in run.started.flatMap { s in run.offered.map { s - $0 } } })
            let chunks = Percentiles(runs.compactMap { run in run.started.map { run.received - $0 } })
            return "→ the offer at Bob \(format(offered.p50, 0)) ms, → the file's connection up \(format(started.p50, 0)) ms "
                + "more, → every chunk at Bob \(format(chunks.p50, 0)) ms more"
        }
        lines.append("  simplex-share: \(phases(shared)); /f: \(phases(typed)) (medians)")
    }

    /// One file transfer's times from its start: the offer at Bob, the file's connection up at
    /// Bob (accepted and joined), the whole file at Bob, the helper's exit.
    struct FileRun {
        let offered: Duration?
        let started: Duration?
        let received: Duration
        let exited: Duration?
    }

    // MARK: - Processes

    private func startService() async throws {
        let before = try await world.subscriptions.current()
        let service = try world.start("simplex-nse")
        self.service = service
        _ = try await world.subscriptions.wait(until: before + world.queues)
        // What the handshakes left to deliver arrives now, and is not measured.
        try await Task.sleep(for: .seconds(2))
        guard try await serviceState() == "active" else {
            throw TestSupportError("simplex-nse is not active: \(service.allErrors.suffix(5))")
        }
    }

    private func startClient() async throws {
        let client = try world.start("simplex-chat", ["--cli"])
        self.client = client
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if client.allOutput.contains(where: { $0.hasPrefix("Current user:") }),
                (try? await world.connection.nameHasOwner(world.names.client)) == true
            {
                try await Task.sleep(for: .seconds(2))
                return
            }
            guard client.isRunning else { throw TestSupportError("simplex-chat exited: \(client.allErrors.suffix(5))") }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestSupportError("simplex-chat --cli was not ready within 60 s: \(client.allOutput.suffix(5))")
    }

    /// `/q` in the client; the service takes over again (its subscriptions are back) before
    /// this returns.
    private func quitClient() async throws {
        guard let client else { return }
        client.send("/q")
        _ = try await client.wait(timeout: .seconds(15))
        self.client = nil
        let deadline = ContinuousClock.now + .seconds(30)
        while try await serviceState() != "active" {
            guard ContinuousClock.now < deadline else { throw TestSupportError("simplex-nse did not resume") }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .seconds(1))
    }

    func stop() async {
        if let client, client.isRunning {
            client.send("/q")
            if (try? await client.wait(timeout: .seconds(15))) == nil { client.kill(SIGTERM) }
        }
        if let service, service.isRunning {
            service.kill(SIGTERM)
            _ = try? await service.wait(timeout: .seconds(30))
        }
        client = nil
        service = nil
    }

    /// The service's `GetState` on its bus name.
    private func serviceState() async throws -> String? {
        let reply = try await world.connection.call(
            destination: world.names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "GetState", arguments: [], timeout: .seconds(5))
        return reply.first?.string
    }

    /// When `process` exited (polled every millisecond) and its status.
    private func exited(of process: ChildProcess, timeout: Duration = .seconds(60)) async throws
        -> (at: ContinuousClock.Instant, code: Int32)
    {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let at = ContinuousClock.now
        return (at, try await process.wait(timeout: .seconds(10)))
    }

    private func share(text: String) throws -> ChildProcess {
        let share = try world.start("simplex-share", ["--to", contact, "--text", text])
        share.closeInput()
        return share
    }

    // MARK: - 1. Through the running client

    private func throughClient(runs: Int) async throws {
        var exitTimes: [Duration] = []
        var received: [Duration] = []
        var lost = 0
        // Two first runs warm the page cache and the client's bus path; not counted.
        for index in -2..<runs {
            let text = "client share \(index) \(nonce)"
            let start = ContinuousClock.now
            let share = try share(text: text)
            let status = try await exited(of: share)
            guard status.code == 0 else {
                throw TestSupportError("simplex-share exited \(status.code): \(share.allErrors.suffix(5))")
            }
            guard share.allOutput.contains(where: { $0.contains("through the running client") }) else {
                throw TestSupportError("simplex-share did not go through the client: \(share.allOutput.suffix(3))")
            }
            let arrived = await world.bobEvents.first("item:\(text)", timeout: .seconds(10))
            guard index >= 0 else { continue }
            exitTimes.append(status.at - start)
            if let arrived { received.append(arrived - start) } else { lost += 1 }
        }
        lines.append(
            "share through the running client (simplex-chat --cli, its D-Bus Share), simplex-share --to \(contact) --text ..., "
                + "\(runs) runs: invocation → the process exited 0 (item sent): \(Percentiles(exitTimes).summary) (goal p50 ≤ 100 ms)")
        lines.append(
            "  invocation → Bob's chat core (in this process) has the message: \(Percentiles(received).summary)"
                + (lost > 0 ? "; \(lost) not received within 10 s" : ""))
    }

    // MARK: - 2. Standalone, the service running

    private func standalone(runs: Int) async throws {
        var exitTimes: [Duration] = []
        var resumed: [Duration] = []
        var suspended: [Duration] = []
        var active: [Duration] = []
        var received: [Duration] = []
        var notActive = 0
        for index in -1..<runs {
            let text = "standalone share \(index) \(nonce)"
            let start = ContinuousClock.now
            let share = try share(text: text)
            let status = try await exited(of: share)
            guard status.code == 0 else {
                throw TestSupportError("simplex-share exited \(status.code): \(share.allErrors.suffix(5))")
            }
            let suspendedAt = await world.serviceStates.first("suspended", after: start, timeout: .seconds(5))
            // Back to active after it suspended (not an "active" said before the share's request).
            let activeAt = await world.serviceStates.first(
                "active", after: suspendedAt ?? start, timeout: .seconds(30))
            let arrived = await world.bobEvents.first("item:\(text)", timeout: .seconds(10))
            if try await serviceState() != "active" { notActive += 1 }
            // The service settles (subscriptions back) before the next run.
            try await Task.sleep(for: .seconds(1))
            guard index >= 0 else { continue }
            exitTimes.append(status.at - start)
            if let activeAt {
                resumed.append(max(activeAt, status.at) - start)
                active.append(activeAt - start)
            }
            if let suspendedAt { suspended.append(suspendedAt - start) }
            if let arrived { received.append(arrived - start) }
        }
        lines.append(
            "standalone share, service running (instant mode), \(grouped(Double(contacts))) contacts, \(runs) runs: "
                + "invocation → sent and the service resumed (exited 0 and its StateChanged \"active\"): "
                + "\(Percentiles(resumed).summary) (goal ≤ 600 ms)"
                + (resumed.count < runs ? "; \(runs - resumed.count) runs without \"active\" within 30 s" : "")
                + (notActive > 0 ? "; GetState not \"active\" after \(notActive) runs" : ""))
        lines.append(
            "  of which invocation → the service suspended (StateChanged): \(Percentiles(suspended).summary); → Bob has the "
                + "message: \(Percentiles(received).summary); → the service active again (StateChanged): "
                + "\(Percentiles(active).summary); → the process exited 0: \(Percentiles(exitTimes).summary)")
    }

    // MARK: - 3. A file

    private func makeFile() throws -> String {
        let path = files.appending("photo-album.bin")
        var bytes = [UInt8](repeating: 0, count: fileSize)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `send` starts a transfer (returning when its process exited, if it has one); how long
    /// until Bob has the whole file, and its phases.
    private func fileTransfer(_ send: () async throws -> ContinuousClock.Instant?) async throws -> FileRun {
        let events = world.bobEvents
        let before = events.count("file received")
        let failed = events.count("file failed")
        let start = ContinuousClock.now
        let exitedAt = try await send()
        let deadline = start + .seconds(180)
        while events.count("file received") == before {
            if events.count("file failed") > failed { throw TestSupportError("Bob's transfer of the file failed") }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError(
                    "Bob did not receive the whole file within 180 s (\(events.count("file offered")) offers in all)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        // When Bob's core said so, not when this loop saw it: a helper that exits after the
        // transfer (it stops and hands back first) would otherwise count its exit.
        let received =
            (await events.first("file received", after: start, timeout: .seconds(1)) ?? ContinuousClock.now) - start
        let offered = await events.first("file offered", after: start, timeout: .seconds(1)).map { $0 - start }
        let started = await events.first("file started", after: start, timeout: .seconds(1)).map { $0 - start }
        try await Task.sleep(for: .seconds(1))
        return FileRun(offered: offered, started: started, received: received, exited: exitedAt.map { $0 - start })
    }
}
