import SimpleXChat
import SimpleXCrypto

/// Two agents of this process driven through the agent API: `inviter` makes an invitation,
/// `joiner` joins it, the inviter allows the joiner's confirmation, and the joiner is connected.
/// Both agents must be started, with `inviterEvents` and `joinerEvents` their event iterators
/// (the handshake's events are consumed). Returns the connection's id on each side.
public func connectAgents(
    _ inviter: Agent, _ joiner: Agent,
    inviterEvents: inout AsyncStream<AgentEvent>.Iterator, joinerEvents: inout AsyncStream<AgentEvent>.Iterator
) async throws -> (inviter: AgentConnectionID, joiner: AgentConnectionID) {
    let (inviterID, link) = try await inviter.createInvitation()
    let joinerID = try await joiner.joinConnection(link, connInfo: Array("joiner".utf8))
    while let event = await inviterEvents.next() { if case .confirmation = event { break } }
    try await inviter.allowConnection(inviterID, connInfo: Array("inviter".utf8))
    while let event = await joinerEvents.next() { if case .connected = event { break } }
    return (inviterID, joinerID)
}

/// Two agents of this process, alice and bob, with their databases in `directory` and fresh
/// secrets, started and connected by an invitation from alice (`connectAgents`).
public struct AgentPair {
    public let alice: Agent
    public let bob: Agent
    public let aliceID: AgentConnectionID
    public let bobID: AgentConnectionID
    /// The agents' events after the handshake's.
    public var aliceEvents: AsyncStream<AgentEvent>.Iterator
    public var bobEvents: AsyncStream<AgentEvent>.Iterator
    private let directory: TemporaryDirectory
    private let config: (String) -> AgentConfig
    private let secrets: [String: AgentSecrets]

    /// `config` makes each agent's configuration from its database path.
    public static func connected(in directory: TemporaryDirectory, config: @escaping (String) -> AgentConfig)
        async throws -> AgentPair
    {
        let secrets = [
            "alice": try AgentSecrets(key: SecureBytes.random(count: 32)),
            "bob": try AgentSecrets(key: SecureBytes.random(count: 32)),
        ]
        func open(_ name: String) async throws -> Agent {
            try await Agent.open(config: config(directory.appending("\(name).db")), secrets: secrets[name]!)
        }
        let alice = try await open("alice")
        let bob = try await open("bob")
        var aliceEvents = alice.events.makeAsyncIterator()
        var bobEvents = bob.events.makeAsyncIterator()
        await alice.start()
        await bob.start()
        let (aliceID, bobID) = try await connectAgents(
            alice, bob, inviterEvents: &aliceEvents, joinerEvents: &bobEvents)
        return AgentPair(
            alice: alice, bob: bob, aliceID: aliceID, bobID: bobID, aliceEvents: aliceEvents, bobEvents: bobEvents,
            directory: directory, config: config, secrets: secrets)
    }

    /// A new agent over "alice"'s or "bob"'s database, with its secrets, as the app opens it again
    /// after a restart (stop the one before); not started.
    public func reopen(_ name: String) async throws -> Agent {
        try await Agent.open(config: config(directory.appending("\(name).db")), secrets: secrets[name]!)
    }
}
