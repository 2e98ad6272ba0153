import Foundation
import SimpleXProtocol
import Synchronization

/// The chat core: turns agent connections into contacts, chats and items (SimpleX's chat
/// controller), with a typed command API and an event stream.
public actor ChatController {
    public nonisolated let events: AsyncStream<ChatEvent>
    let sink: AsyncStream<ChatEvent>.Continuation
    let store: ChatStore
    let agent: Agent
    public internal(set) var user: ChatUser
    /// Where received files go (`files/`) and are assembled (`tmp/`), and the settings are.
    let groupDirectory: String
    var agentEvents: Task<Void, Never>?
    /// Deletes disappearing items when their time comes (ChatController+Reading).
    var expiry = ExpiryTimer()
    /// While a run of members' messages is stored in one transaction, the events it makes wait
    /// here for its commit (nil: events go out at once).
    var heldEvents: [ChatEvent]?

    private init(store: ChatStore, agent: Agent, user: ChatUser, groupDirectory: String) {
        self.store = store
        self.agent = agent
        self.user = user
        self.groupDirectory = groupDirectory
        (events, sink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Opens the chat and agent databases in `groupDirectory` for `user` (made by `createUser`
    /// first), with the relays stored for the user.
    ///
    /// With a `databaseKey`, both databases are sealed with it (plain ones are encrypted first,
    /// once: `encryptDatabases`); the caller holds the core, so no other process writes them.
    public static func open(
        groupDirectory: String, secrets: AgentSecrets, databaseKey: DatabaseKey? = nil
    ) async throws(ChatError) -> ChatController {
        if let databaseKey { try encryptDatabases(groupDirectory: groupDirectory, key: databaseKey) }
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        guard let user = try store.activeUser() else { throw .noUser }
        var servers: [SMPServerAddress] = []
        for text in try store.servers(user) {
            do { servers.append(try SMPServerAddress(text)) } catch {
                throw .invalidCommand("stored relay \(text): \(error)")
            }
        }
        let agent: Agent
        do {
            agent = try await Agent.open(
                config: AgentConfig(
                    databasePath: AgentConfig.databasePath(groupDirectory: groupDirectory), servers: servers,
                    databaseKey: databaseKey),
                secrets: secrets)
        } catch {
            throw .agent("\(error)")
        }
        return ChatController(store: store, agent: agent, user: user, groupDirectory: groupDirectory)
    }

    /// Encrypts the group's plain databases with `key`, once and crash-safely
    /// (`DatabaseEncryption`); encrypted or missing ones are left alone. Only the process that
    /// holds the core may call it: a write to a plain file by another process during the copy
    /// would be lost.
    public static func encryptDatabases(groupDirectory: String, key: DatabaseKey) throws(ChatError) {
        for path in [
            groupDirectory + "/simplex_v1_chat.db", AgentConfig.databasePath(groupDirectory: groupDirectory),
        ] {
            do { try DatabaseEncryption.encryptIfPlain(path: path, key: key) } catch {
                throw .store("cannot encrypt \(path): \(error)")
            }
        }
    }

    /// The active user, if one has been made.
    public static func activeUser(groupDirectory: String, databaseKey: DatabaseKey? = nil) throws(ChatError)
        -> ChatUser?
    {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        return try store.activeUser()
    }

    /// Makes the user profile (first run).
    public static func createUser(groupDirectory: String, profile: Profile, databaseKey: DatabaseKey? = nil)
        throws(ChatError) -> ChatUser
    {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        if let existing = try store.activeUser() { return existing }
        return try store.createUser(profile)
    }

    /// Sets the user's relays (kept in the database; new queues use them from the next start).
    public static func setServers(
        groupDirectory: String, _ servers: [SMPServerAddress], databaseKey: DatabaseKey? = nil
    ) throws(ChatError) {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        guard let user = try store.activeUser() else { throw .noUser }
        try store.setServers(user, servers.map(\.description))
    }

    /// The active user's contacts, most recently active first (or in the order they were made,
    /// which needs no chat list: what a chat named on the command line is looked up in), read from
    /// the database without running the core (the share helper chooses the chat before it takes
    /// the core, or hands the content to the client).
    public static func contacts(
        groupDirectory: String, databaseKey: DatabaseKey? = nil, recentFirst: Bool = true
    ) throws(ChatError) -> [ChatContact] {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        guard let user = try store.activeUser() else { throw .noUser }
        return recentFirst ? try store.chatList(user).map(\.contact) : try store.contacts(user)
    }

    public static func servers(groupDirectory: String, databaseKey: DatabaseKey? = nil) throws(ChatError)
        -> [String]
    {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        guard let user = try store.activeUser() else { throw .noUser }
        return try store.servers(user)
    }

    /// Starts receiving: subscriptions, delivery, and agent events turned into chat events.
    public func start() async {
        startEvents()
        await agent.start()
        await resumeFileTransfers()
        startExpiry()
    }

    /// Sending only (the share helper): messages waiting and what is sent now go to their relays,
    /// but nothing is subscribed, so the subscriptions of the process that receives (the service,
    /// suspended) are never ended. `waitForDeliveries`, then `stop`.
    public func startSending() async {
        startEvents()
        await agent.startDeliveries()
    }

    /// With `startSending`: receives on `contact`'s connection too (and on the connections made
    /// from now on), so the share helper gets the acceptance of a file it offered and sends the
    /// file itself; every other chat stays unsubscribed.
    public func receive(from contact: ChatContact) async {
        guard let connection = contact.agentConnectionID else { return }
        await agent.subscribe([connection])
    }

    /// The periodic mode's pass (`simplex-nse --once`): what waits on the relays is taken with GET,
    /// never SUB (another process's subscriptions stay), and turned into chat events as when
    /// subscribed. Nothing else starts (no file transfers, no expiry); `stop` after it returns
    /// waits until every event this led to is handled.
    public func receivePending() async -> Agent.PendingReceipt {
        startEvents()
        return await agent.receivePending()
    }

    /// Agent events, turned into chat events, until the agent stops.
    private func startEvents() {
        guard agentEvents == nil else { return }
        let agent = self.agent
        // Events are taken in batches, as many as have arrived: the received messages of a
        // batch are stored with one commit (ChatController+Receive).
        let inbox = AgentEventInbox()
        let (doorbell, ring) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Off the actor: appending an event needs no turn of it.
        let pump = Task.detached {
            for await event in agent.events {
                inbox.append(event)
                ring.yield()
            }
            ring.finish()
        }
        agentEvents = Task {
            for await _ in doorbell { await self.handle(batch: inbox.takeAll()) }
            await self.handle(batch: inbox.takeAll())
            await pump.value
        }
    }

    public func stop() async {
        stopExpiry()
        await agent.stop()
        await agentEvents?.value
        store.close()
        sink.finish()
    }

    func emit(_ event: ChatEvent) {
        if heldEvents != nil { heldEvents?.append(event) } else { sink.yield(event) }
    }

    /// The user's profile as sent to contacts (x.info).
    var profileInfo: [UInt8] {
        (try? ChatMessage(event: .info(user.profile)).encoded()) ?? []
    }

    func contact(named name: String) throws(ChatError) -> ChatContact {
        try store.contact(named: name.hasPrefix("@") ? String(name.dropFirst()) : name, user)
    }
}

/// Agent events waiting for the chat core, taken all at once.
final class AgentEventInbox: Sendable {
    private let events = Mutex<[AgentEvent]>([])

    func append(_ event: AgentEvent) { events.withLock { $0.append(event) } }

    func takeAll() -> [AgentEvent] {
        events.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }
}
