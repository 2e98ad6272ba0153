// Groups, issue 24's figures: a message to a 50-member group until every member has stored it;
// the sender's CPU per member send beside one direct send; opening a group chat of 100,000 items;
// the receive pipeline in a group with 20 active members beside the direct pipeline.
//
// The members are chat cores of this process (each its own group directory, agent and relay
// connections) on one local relay in its own process: the mesh is made as users make it (contacts,
// `addMember`, `joinGroup`, the host's introductions). SIMPLEX_BENCH_GROUP_MEMBERS changes the
// group's size (50) and SIMPLEX_BENCH_GROUP_ACTIVE the active members (20).
import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXProtocol
import Synchronization
import TestSupport

func groupBenchmarkLines() async throws -> [String] {
    var lines = ["machine: \(machineDescription())"]
    lines += try await groupOpenLines(items: 100_000)
    guard let serverPath = RelayBench.serverPath else {
        return lines + ["group delivery: not measured (no release smp-server beside simplex-bench)"]
    }
    let environment = ProcessInfo.processInfo.environment
    let size = environment["SIMPLEX_BENCH_GROUP_MEMBERS"].flatMap { Int($0) }.map { max(3, $0) } ?? 50
    let active = environment["SIMPLEX_BENCH_GROUP_ACTIVE"].flatMap { Int($0) }.map { max(1, min($0, size - 2)) } ?? 20
    let world: GroupBenchWorld
    do { world = try await GroupBenchWorld.make(serverPath: serverPath, members: size) } catch {
        return lines + ["group delivery: not measured, the group was not made: \(error)"]
    }
    do {
        lines.append(
            "setup: \(size) members (\(size - 1) contacts of the host, then invited and joined), every pair "
                + "connected, in \(format(world.setupSeconds, 1)) s")
        lines += try await world.deliveryLines()
        lines += try await world.senderCPULines()
        lines += try await world.receiveLines(active: active)
    } catch {
        lines.append("stopped by an error: \(error)")
    }
    await world.close()
    return lines
}

// MARK: - Opening a group chat

/// A group "team" of 20 members and the user with `items` items, written straight to the schema
/// in one transaction (through the core it would take hours of fsyncs).
private func buildGroupDatabase(items: Int) throws -> (TemporaryDirectory, ChatUser) {
    let directory = try TemporaryDirectory("group-open-bench")
    let user = try ChatController.createUser(
        groupDirectory: directory.path, profile: Profile(displayName: "alice", fullName: ""))
    let database = try ChatSchema.openChatDatabase(path: directory.appending("simplex_v1_chat.db"))
    try database.execute("PRAGMA synchronous = OFF")
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    var random = SystemRandomNumberGenerator()
    try database.transaction {
        try database.makeStatement(
            "INSERT INTO group_profiles (user_id, display_name, full_name, created_at, updated_at) VALUES (?, 'team', '', ?, ?)"
        ).execute(arguments: [user.userId, start, start])
        let profileId = database.lastInsertRowID
        let group = try database.makeStatement(
            "INSERT INTO groups (user_id, local_display_name, group_profile_id, chat_ts, created_at, updated_at) VALUES (?, 'team', ?, ?, ?, ?)"
        )
        try group.execute(arguments: [user.userId, profileId, start, start, start])
        let groupId = database.lastInsertRowID
        let profile = try database.makeStatement(
            "INSERT INTO contact_profiles (user_id, display_name, full_name, created_at, updated_at) VALUES (?, ?, '', ?, ?)"
        )
        let member = try database.makeStatement(
            """
            INSERT INTO group_members (group_id, member_id, member_role, member_category, member_status,
              local_display_name, member_profile_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var members: [Int64] = []
        for index in 0...20 {
            let name = index == 0 ? "alice" : "member\(index)"
            try profile.execute(arguments: [user.userId, name, start, start])
            let memberId = (0..<12).map { _ in UInt8.random(in: 0...255, using: &random) }
            try member.execute(arguments: [
                groupId, memberId, index == 0 ? "owner" : "member", index == 0 ? "user" : "post",
                index == 0 ? "creator" : "connected", name, database.lastInsertRowID, start, start,
            ])
            if index > 0 { members.append(database.lastInsertRowID) }
        }
        let item = try database.makeStatement(
            """
            INSERT INTO chat_items (user_id, group_id, group_member_id, item_sent, item_ts, item_content, item_text,
              item_status, shared_msg_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for index in 0..<items {
            let sent = index % 10 == 0
            let text = (0..<Int.random(in: 3...16, using: &random)).map { _ in
                ChatDatabaseBuilder.words.randomElement(using: &random) ?? ""
            }
            .joined(separator: " ")
            let time = start.addingTimeInterval(Double(index) / 100)
            let shared = (0..<12).map { _ in UInt8.random(in: 0...255, using: &random) }
            try item.execute(arguments: [
                user.userId, groupId, sent ? nil : members[index % members.count], sent, time,
                MsgContent.text(text).json.compactText, text, sent ? "snd_rcvd" : "rcv_read", shared, time, time,
            ])
        }
    }
    try database.close()
    return (directory, user)
}

/// Its last 50 items as the client opens the chat (`groupItems("team", count: 50)`: the group
/// looked up by name, then the page), 1,000 times after 50 to warm up.
private func groupOpenLines(items: Int) async throws -> [String] {
    let (directory, _) = try buildGroupDatabase(items: items)
    let chat = try await ChatController.open(
        groupDirectory: directory.path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
    var samples: [Duration] = []
    for run in 0..<1_050 {
        let began = ContinuousClock.now
        let page = try await chat.groupItems("team", count: 50)
        precondition(page.count == 50)
        if run >= 50 { samples.append(ContinuousClock.now - began) }
    }
    await chat.stop()
    return [
        "open a group chat of \(grouped(Double(items))) items from 20 members, its last 50 items as the client opens it "
            + "(groupItems(\"team\", count: 50), the group looked up by name, then the page; 1,000 runs): "
            + "\(Percentiles(samples).summary) (goal as direct chats: p99 ≤ 2 ms)"
    ]
}

// MARK: - The group on a relay

/// The host ("m0") and its members, every pair connected through one relay.
final class GroupBenchWorld {
    let directory: TemporaryDirectory
    let relay: RelayChild
    let address: SMPServerAddress
    var chats: [ChatController?]
    var events: [EventCounter<ChatEvent>?]
    let secrets: [AgentSecrets]
    let probes: ProbeArrivals
    var setupSeconds = 0.0
    let size: Int

    private init(directory: TemporaryDirectory, relay: RelayChild, size: Int) throws {
        self.directory = directory
        self.relay = relay
        self.size = size
        address = try SMPServerAddress(keyHash: relay.keyHash, hosts: ["127.0.0.1"], port: relay.port)
        chats = Array(repeating: nil, count: size)
        events = Array(repeating: nil, count: size)
        secrets = try (0..<size).map { _ in try AgentSecrets(key: SecureBytes.random(count: 32)) }
        probes = ProbeArrivals()
    }

    static func make(serverPath: String, members size: Int) async throws -> GroupBenchWorld {
        let directory = try TemporaryDirectory("group-bench")
        let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
        let world = try GroupBenchWorld(directory: directory, relay: relay, size: size)
        let began = ContinuousClock.now
        for index in 0..<size {
            let path = directory.appending("m\(index)")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            _ = try ChatController.createUser(groupDirectory: path, profile: Profile(displayName: "m\(index)", fullName: ""))
            try ChatController.setServers(groupDirectory: path, [world.address])
            try await world.open(index)
        }
        try await world.connectMesh()
        world.setupSeconds = (ContinuousClock.now - began).seconds
        return world
    }

    func open(_ index: Int) async throws {
        let chat = try await ChatController.open(groupDirectory: directory.appending("m\(index)"), secrets: secrets[index])
        let probes = self.probes
        events[index] = EventCounter(chat.events) { event in
            if case .group(.newItem(_, let item)) = event, let probe = ProbeArrivals.probe(item.content.text) {
                probes.arrived(probe)
            }
        }
        chats[index] = chat
        await chat.start()
    }

    func stop(_ index: Int) async {
        await chats[index]?.stop()
        chats[index] = nil
        events[index] = nil
    }

    func chat(_ index: Int) throws -> ChatController {
        guard let chat = chats[index] else { throw RelayBenchError("m\(index) is not running") }
        return chat
    }

    func close() async {
        for index in 0..<size { await stop(index) }
        relay.process.signal(SIGTERM)
    }

    /// The host's contacts, the group, the invitations and joins, then the introductions until
    /// every member has every other connected.
    private func connectMesh() async throws {
        let host = try chat(0)
        for index in 1..<size { try await chat(index).connect(link: try await host.createInvitation()) }
        try await waitUntil("the host's \(size - 1) contacts connected", timeout: .seconds(120)) {
            try await host.contacts().filter(\.ready).count == self.size - 1
        }
        _ = try await host.createGroup(GroupProfile(displayName: "team"))
        for index in 1..<size { _ = try await host.addMember("team", contact: "m\(index)", role: .member) }
        for index in 1..<size {
            let member = try chat(index)
            try await waitUntil("m\(index)'s invitation", timeout: .seconds(60)) {
                (try? await member.group(named: "team")) != nil
            }
            _ = try await member.joinGroup("team")
        }
        do {
            try await waitUntil("every pair of the \(size) members connected", timeout: .seconds(max(90, 6 * size))) {
                for index in 0..<self.size {
                    let (_, members) = try await self.chat(index).members(of: "team")
                    let connected = members.filter { $0.status == .connected || $0.status == .complete }
                    if connected.count < self.size - 1 { return false }
                }
                return true
            }
        } catch {
            // Who is missing whom, for the error.
            var missing: [String] = []
            for index in 0..<size {
                let (_, members) = try await chat(index).members(of: "team")
                for member in members where member.status != .connected && member.status != .complete {
                    missing.append("m\(index) has \(member.localDisplayName) \(member.status.rawValue)")
                }
            }
            throw RelayBenchError("\(error); not connected: \(missing.joined(separator: ", "))")
        }
    }

    private func waitUntil(_ what: String, timeout: Duration, _ done: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !done() {
            guard ContinuousClock.now < deadline else { throw RelayBenchError("\(what): not within \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: Figures

    /// The host sends probes one at a time; each takes until every other member stored it.
    func deliveryLines() async throws -> [String] {
        let host = try chat(0)
        var times: [Duration] = []
        for probe in 0..<25 {
            let began = ContinuousClock.now
            _ = try await host.sendGroup("team", .text(ProbeArrivals.text(probe)))
            let deadline = began + .seconds(30)
            while probes.count(probe) < size - 1 {
                guard ContinuousClock.now < deadline else {
                    throw RelayBenchError("probe \(probe) reached \(probes.count(probe)) of \(size - 1) members in 30 s")
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            let last = probes.last(probe) ?? .now
            if probe >= 5 { times.append(last - began) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return [
            "a message to the \(size)-member group, sent → stored by every other member (chat item in each member's database), "
                + "\(times.count) messages one at a time, all members in this process on 2 cores: "
                + "\(Percentiles(times).summary) (goal ≤ 500 ms)"
        ]
    }

    /// The host's CPU for group messages (each sent to every member) and for as many direct
    /// messages, one to each member, while the members are stopped (their messages wait at the
    /// relay), so this process's CPU is the sender's.
    func senderCPULines() async throws -> [String] {
        for index in 1..<size { await stop(index) }
        let host = try chat(0)
        let rounds = 20
        let text = String(repeating: "a message of about a hundred bytes, as chat messages mostly are. ", count: 2)
        func cpu(_ body: () async throws -> Void) async throws -> Double {
            let before = BenchClock.now(serverPID: relay.process.pid)
            try await body()
            guard await host.waitForDeliveries(timeout: .seconds(120)) else {
                throw RelayBenchError("the host's messages were not all sent within 120 s")
            }
            return BenchClock.now(serverPID: relay.process.pid).process - before.process
        }
        // Warm-up of both paths.
        _ = try await host.sendGroup("team", .text("warm-up \(text)"))
        _ = try await host.send(to: "m1", .text("warm-up \(text)"))
        _ = await host.waitForDeliveries(timeout: .seconds(60))
        let group = try await cpu {
            for round in 0..<rounds { _ = try await host.sendGroup("team", .text("\(round) \(text)")) }
        }
        let direct = try await cpu {
            for round in 0..<rounds {
                for index in 1..<size { _ = try await host.send(to: "m\(index)", .text("\(round) \(text)")) }
            }
        }
        let sends = Double(rounds * (size - 1))
        return [
            "the sender's CPU, \(rounds) group messages to \(size - 1) members (\(Int(sends)) member sends) beside "
                + "\(Int(sends)) direct messages, one to each member, members stopped: "
                + "\(format(group / sends * 1e6, 0)) µs per member send, \(format(direct / sends * 1e6, 0)) µs per direct "
                + "send; ratio \(format(group / direct, 2)) (goal ≤ 1.2)"
        ]
    }

    /// `active` members send while the receiver (m1) is away and the others are stopped; m1
    /// starts and receives them all; then the same members, as m1's contacts, send direct
    /// messages while it is away: the two rates.
    func receiveLines(active: Int) async throws -> [String] {
        for index in 0..<size { await stop(index) }
        let senders = Array(2..<(2 + active))
        // Each sender becomes m1's contact for the direct pipeline.
        try await open(1)
        for index in senders {
            try await open(index)
            try await chat(1).connect(link: try await chat(index).createInvitation())
        }
        // m1's contacts: the host, and the senders.
        try await waitUntil("m1's \(active) new contacts connected", timeout: .seconds(120)) {
            try await self.chat(1).contacts().filter(\.ready).count == active + 1
        }
        // What the host sent m1 while it was stopped arrives first; not counted below.
        try await events[1]?.wait(for: .max, idle: .seconds(2)) { _ in false }
        await stop(1)
        // m1 as each sender's contact (its local name may differ from "m1" where a member has it).
        var receiverName: [Int: String] = [:]
        for index in senders {
            receiverName[index] = try await chat(index).contacts().first { $0.profile.displayName == "m1" }?.localDisplayName
        }
        let perSender = 40
        let text = String(repeating: "a message of about a hundred bytes, as chat messages mostly are. ", count: 2)
        func receive(direct: Bool) async throws -> (Int, Double) {
            // Stopped after the last run: started again, and given a moment to take what the
            // others sent them meanwhile.
            if chats[senders[0]] == nil {
                for index in senders { try await open(index) }
                try await Task.sleep(for: .seconds(2))
            }
            for index in senders {
                let sender = try chat(index)
                for round in 0..<perSender {
                    if direct {
                        _ = try await sender.send(to: receiverName[index] ?? "m1", .text("\(round) \(text)"))
                    } else {
                        _ = try await sender.sendGroup("team", .text("\(round) \(text)"))
                    }
                }
            }
            for index in senders {
                guard try await chat(index).waitForDeliveries(timeout: .seconds(120)) else {
                    throw RelayBenchError("m\(index)'s messages were not all sent within 120 s")
                }
            }
            // The senders stop, so only the receiver runs while it is measured (they receive each
            // other's group messages when they start again).
            for index in senders { await stop(index) }
            let total = senders.count * perSender
            let chat = try await ChatController.open(groupDirectory: directory.appending("m1"), secrets: secrets[1])
            let counter = EventCounter(chat.events)
            let began = ContinuousClock.now
            await chat.start()
            let received = try await counter.wait(for: total, idle: .seconds(10)) { event in
                switch event {
                case .group(.newItem): !direct
                case .newItem: direct
                default: false
                }
            }
            let seconds = ((counter.lastMatch ?? .now) - began).seconds
            await chat.stop()
            return (received, seconds)
        }
        var groupRuns: [(Int, Double)] = []
        var directRuns: [(Int, Double)] = []
        for _ in 0..<benchRounds {
            groupRuns.append(try await receive(direct: false))
            directRuns.append(try await receive(direct: true))
        }
        let (groupMedian, groupRates) = medianRound(groupRuns) { Double($0.0) / $0.1 }
        let (directMedian, directRates) = medianRound(directRuns) { Double($0.0) / $0.1 }
        let groupRate = Double(groupMedian.0) / groupMedian.1
        let directRate = Double(directMedian.0) / directMedian.1
        return [
            "receive pipeline in the group, \(active) active members sending \(perSender) messages each while the receiver is "
                + "away (the other members stopped): \(grouped(groupRate)) msg/s, median of \(benchRounds) (\(groupRates)); "
                + "the same members as contacts, direct: \(grouped(directRate)) msg/s (\(directRates)); "
                + "ratio \(format(groupRate / directRate * 100, 0)) % (goal ≥ 80 %)"
        ]
    }
}

/// When each probe reached each member: how many have it and when the last did.
final class ProbeArrivals: Sendable {
    private let state = Mutex<[Int: (count: Int, last: ContinuousClock.Instant)]>([:])

    static func text(_ probe: Int) -> String { "group bench probe \(probe)" }

    static func probe(_ text: String) -> Int? {
        guard text.hasPrefix("group bench probe ") else { return nil }
        return Int(text.dropFirst("group bench probe ".count))
    }

    func arrived(_ probe: Int) {
        let now = ContinuousClock.now
        state.withLock { $0[probe] = (($0[probe]?.count ?? 0) + 1, now) }
    }

    func count(_ probe: Int) -> Int { state.withLock { $0[probe]?.count ?? 0 } }
    func last(_ probe: Int) -> ContinuousClock.Instant? { state.withLock { $0[probe]?.last } }
}
