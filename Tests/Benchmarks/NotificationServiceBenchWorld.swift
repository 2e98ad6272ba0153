// The notification service bench's world (the share bench's too): a private session bus with the bench's notification
// server, the real relay, Alice's group directory (the user whose service and client run as the
// built binaries) with `contacts` contacts, and the peers in this process: Bob, on the other end
// of every one of Alice's contacts, and Carol, one contact of Bob's, for the in-process baseline.
import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXDesktop
import SimpleXProtocol
import TestSupport

final class NotificationServiceBenchWorld {
    let bus: TestBus
    let notifications: BenchNotificationServer
    let relay: RelayProcess
    let subscriptions: RelaySubscriptions
    let alice: TemporaryDirectory
    /// Alice's processes' environment (group and config directories, the private bus).
    let environment: [String: String?]
    let names: CoordinationNames
    let defaults: GroupDefaults
    let connection: DBusConnection
    let serviceStates: ServiceStateLog
    let bob: ChatController
    /// Bob's events: "connected", "sent" for each message the relay took, "item:<text>" for each
    /// received, and "file offered" (accepted at once), "file started" (its connection up), "file received" and "file failed".
    let bobEvents: TimedChatEvents
    /// Bob's names of his contacts with Alice, one per contact of hers.
    let bobContacts: [String]
    let carol: ChatController
    /// Carol's events: "item:<text>" for each message received.
    let carolEvents: TimedChatEvents
    /// Alice's active receive queues: how many SUBs a process of hers makes.
    let queues: Int
    let setupTime: Duration
    private let peers: TemporaryDirectory

    private init(
        bus: TestBus, notifications: BenchNotificationServer, relay: RelayProcess, alice: TemporaryDirectory,
        environment: [String: String?], names: CoordinationNames, defaults: GroupDefaults,
        connection: DBusConnection,
        serviceStates: ServiceStateLog, bob: ChatController, bobEvents: TimedChatEvents,
        bobContacts: [String],
        carol: ChatController, carolEvents: TimedChatEvents, queues: Int, setupTime: Duration,
        peers: TemporaryDirectory
    ) {
        self.bus = bus
        self.notifications = notifications
        self.relay = relay
        subscriptions = RelaySubscriptions(relay)
        self.alice = alice
        self.environment = environment
        self.names = names
        self.defaults = defaults
        self.connection = connection
        self.serviceStates = serviceStates
        self.bob = bob
        self.bobEvents = bobEvents
        self.bobContacts = bobContacts
        self.carol = carol
        self.carolEvents = carolEvents
        self.queues = queues
        self.setupTime = setupTime
        self.peers = peers
    }

    /// Makes the world; Alice's contacts are connected through the relay by her chat core in this
    /// process (`parallel` handshakes at a time), which is then stopped: her group directory is
    /// as her own client would have left it, with her keychain's agent key.
    static func make(contacts: Int, parallel: Int = 16) async throws -> NotificationServiceBenchWorld {
        let start = ContinuousClock.now
        let bus = try await TestBus()
        let notifications = try await BenchNotificationServer(busAddress: bus.address)
        let relay = try await RelayProcess()
        let server = try SMPServerAddress(relay.address)

        // Alice's directory, keychain and profile, opened as her processes open them.
        let alice = try TemporaryDirectory("nse-bench-alice")
        let environment = CLIUser.environment(alice, bus: bus)
        var processEnvironment = ProcessInfo.processInfo.environment
        for (key, value) in environment { processEnvironment[key] = value }
        let container = try GroupContainer.open(environment: processEnvironment)
        let keychain = try await DesktopKeychain.open(
            container: container, bus: nil, environment: processEnvironment)
        let aliceSecrets = try AgentSecrets.load(from: keychain)
        _ = try ChatController.createUser(
            groupDirectory: container.path, profile: Profile(displayName: "alice", fullName: ""))
        try ChatController.setServers(groupDirectory: container.path, [server])

        let peers = try TemporaryDirectory("nse-bench-peers")
        func peer(_ name: String) async throws -> ChatController {
            let directory = peers.appending(name)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            _ = try ChatController.createUser(
                groupDirectory: directory, profile: Profile(displayName: name, fullName: ""))
            try ChatController.setServers(groupDirectory: directory, [server])
            return try await ChatController.open(
                groupDirectory: directory, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        }
        let bob = try await peer("bob")
        // Bob accepts every file offered to him as soon as the offer arrives (the share bench's
        // files), into a directory of his own.
        let bobDownloads = peers.appending("bob-received") + "/"
        try FileManager.default.createDirectory(atPath: bobDownloads, withIntermediateDirectories: true)
        let bobEvents = TimedChatEvents(bob.events) { event in
            switch event {
            case .contactConnected: return "connected"
            case .itemStatus(_, let item) where item.status == .sndSent: return "sent"
            case .newItem(_, let item):
                if let file = item.file, file.status == .rcvInvitation {
                    Task { _ = try? await bob.receiveFile(file.fileId, to: bobDownloads) }
                    return "file offered"
                }
                return "item:\(item.text)"
            case .file(.rcvStarted): return "file started"
            case .file(.rcvComplete): return "file received"
            case .file(.rcvError), .file(.rcvCancelledBySender): return "file failed"
            default: return nil
            }
        }
        let carol = try await peer("carol")
        let carolEvents = TimedChatEvents(carol.events) { event in
            switch event {
            case .contactConnected: "connected"
            case .newItem(_, let item): "item:\(item.text)"
            default: nil
            }
        }
        let aliceChat = try await ChatController.open(groupDirectory: container.path, secrets: aliceSecrets)
        let aliceEvents = TimedChatEvents(aliceChat.events) { event in
            if case .contactConnected = event { "connected" } else { nil }
        }
        await aliceChat.start()
        await bob.start()
        await carol.start()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<parallel {
                group.addTask {
                    for _ in stride(from: worker, to: contacts, by: parallel) {
                        try await bob.connect(link: try await aliceChat.createInvitation())
                    }
                }
            }
            group.addTask { try await carol.connect(link: try await bob.createInvitation()) }
            try await group.waitForAll()
        }
        let aliceConnected = await aliceEvents.wait(for: "connected", count: contacts, idle: .seconds(30))
        let bobConnected = await bobEvents.wait(for: "connected", count: contacts + 1, idle: .seconds(30))
        guard aliceConnected == contacts, bobConnected == contacts + 1,
            await carolEvents.wait(for: "connected", count: 1, idle: .seconds(30)) == 1
        else {
            throw TestSupportError(
                "connected \(aliceConnected) of Alice's \(contacts) contacts, \(bobConnected) of Bob's \(contacts + 1)"
            )
        }
        await aliceChat.stop()
        let bobContacts = try await bob.contacts().filter { $0.profile.displayName == "alice" }.map(
            \.localDisplayName)
        let queues = try activeReceiveQueues(groupDirectory: container.path)

        let connection = try await DBusConnection(address: bus.address)
        let names = CoordinationNames(container: container, environment: processEnvironment)
        let serviceStates = try await ServiceStateLog(connection: connection, names: names)
        return NotificationServiceBenchWorld(
            bus: bus, notifications: notifications, relay: relay, alice: alice, environment: environment,
            names: names,
            defaults: GroupDefaults(container: container), connection: connection,
            serviceStates: serviceStates,
            bob: bob, bobEvents: bobEvents, bobContacts: bobContacts, carol: carol, carolEvents: carolEvents,
            queues: queues, setupTime: ContinuousClock.now - start, peers: peers)
    }

    /// The receive queues Alice's agent subscribes when it starts.
    private static func activeReceiveQueues(groupDirectory: String) throws -> Int {
        let database = try Database(path: AgentConfig.databasePath(groupDirectory: groupDirectory))
        defer { try? database.close() }
        return try database.fetchValue(Int.self, "SELECT count(*) FROM rcv_queues WHERE status = 'active'")
            ?? 0
    }

    /// Starts one of Alice's binaries (`simplex-nse`, `simplex-chat`) on the bus.
    func start(_ product: String, _ arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess(try BuiltProducts.path(product), arguments, environment: environment)
    }

    /// Stops the peers, the relay and the notification server.
    func close() async {
        await bob.stop()
        await carol.stop()
        _ = try? await relay.stop()
        notifications.close()
        connection.close()
    }
}
