import SimpleXNetwork
import SimpleXProtocol

/// The agent's connections to its relays: one `SMPClient` per server, made on first use, whose
/// events are handed to `onEvent` one at a time per server (so a queue's messages are processed
/// in the order the relay sent them).
actor SMPServerPool {
    private let group: EventLoopGroup
    private let options: SMPClientOptions
    private var clients: [SMPServerAddress: Task<SMPClient, any Error>] = [:]
    private var eventTasks: [SMPServerAddress: Task<Void, Never>] = [:]
    private var onEvent: (@Sendable (SMPServerAddress, SMPServerEvent) async -> Void)?
    private var closed = false

    /// Clients run on `group`, which the pool shuts down when it closes.
    init(group: EventLoopGroup, options: SMPClientOptions) {
        self.group = group
        self.options = options
    }

    func setEventHandler(_ handler: @escaping @Sendable (SMPServerAddress, SMPServerEvent) async -> Void) {
        onEvent = handler
    }

    /// The connected client for `server`, connecting if needed. A failed connection is forgotten,
    /// so the next call tries again (the caller's retry loop sets the pace).
    func client(for server: SMPServerAddress) async throws(AgentError) -> SMPClient {
        guard !closed else { throw .relay("the agent is stopped") }
        let task: Task<SMPClient, any Error>
        if let existing = clients[server] {
            task = existing
        } else {
            let (group, options) = (group, options)
            task = Task { () async throws -> SMPClient in
                do {
                    return try await SMPClient.connect(to: server, group: group, options: options)
                } catch {
                    throw error
                }
            }
            clients[server] = task
        }
        do {
            let client = try await task.value
            if eventTasks[server] == nil { startEvents(client, server: server) }
            return client
        } catch {
            if clients[server] == task { clients[server] = nil }
            throw .relay("\(server.hosts.first ?? "?"):\(server.port): \(error)")
        }
    }

    /// The client for `server` if one is connected now, without connecting.
    func connectedClient(for server: SMPServerAddress) async -> SMPClient? {
        guard let task = clients[server] else { return nil }
        return try? await task.value
    }

    private func startEvents(_ client: SMPClient, server: SMPServerAddress) {
        let handler = onEvent
        eventTasks[server] = Task {
            for await event in client.events {
                await handler?(server, event)
            }
        }
    }

    /// Closes every client; events stop.
    func close() async {
        closed = true
        for task in clients.values { (try? await task.value)?.close() }
        // The clients' closes run on the loop and fail their commands in flight; a last job
        // queued behind them shows they have run before the loop stops for good.
        let loop = group.loops[0]
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !loop.execute({ continuation.resume() }) { continuation.resume() }
        }
        for task in eventTasks.values { await task.value }
        clients = [:]
        eventTasks = [:]
        group.shutdown()
    }
}
