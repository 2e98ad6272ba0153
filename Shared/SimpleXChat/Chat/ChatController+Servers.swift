import SimpleXProtocol

extension ChatController {
    /// The user's relays, as stored.
    public func servers() throws(ChatError) -> [String] {
        try store.servers(user)
    }

    /// Sets the user's relays in the database and for the running agent: new connections use
    /// them at once.
    public func setServers(_ servers: [SMPServerAddress]) async throws(ChatError) {
        try store.setServers(user, servers.map(\.description))
        await agent.setServers(servers)
    }

    /// Whether the relay at `address` answers: a connection and handshake of its own; nil when
    /// it worked, else the reason in one line.
    public static func testServer(_ address: SMPServerAddress) async -> String? {
        await Agent.testServer(address)
    }
}
