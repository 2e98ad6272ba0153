import Foundation
import SimpleXProtocol

/// How an agent is set up: where its database is, which relays it makes new queues on, and how
/// it retries.
public struct AgentConfig: Sendable {
    /// The SMP client version range put in queue URIs (`v=1-4`, as SimpleX's).
    public static let queueVersionRange: VersionRange = {
        do { return try VersionRange(min: 1, max: 4) } catch { preconditionFailure("1-4 is a valid range") }
    }()

    /// `simplex_v1_agent.db` in the group directory, usually.
    public var databasePath: String
    /// The user's relays; new queues go to one of them, chosen at random.
    public var servers: [SMPServerAddress]
    /// Timeouts, keep-alive and reconnection of the relay connections.
    public var clientOptions: SMPClientOptions
    /// Waits between delivery attempts while a relay is away (full jitter, as the client's reconnects).
    public var retry: SMPBackoff
    /// SUB commands sent together when subscribing at start.
    public var subscriptionBatchSize: Int
    /// How long the records of messages done with are kept (`Agent.deleteExpiredRecords`).
    public var messageRecordsTTL: Duration
    /// How long the delivery receipts the app asks for are gathered before they are queued, so a
    /// run of messages from one contact is confirmed in one A_RCVD; the sender sees its delivered
    /// marks this much later.
    public var receiptsGathering: Duration
    /// The key the agent database's pages are sealed with; nil for a plain database.
    public var databaseKey: DatabaseKey?

    public init(
        databasePath: String, servers: [SMPServerAddress],
        clientOptions: SMPClientOptions = SMPClientOptions(),
        retry: SMPBackoff = SMPBackoff(initial: .milliseconds(200), maximum: .seconds(30)),
        subscriptionBatchSize: Int = 100, messageRecordsTTL: Duration = .seconds(30 * 86_400),
        receiptsGathering: Duration = .milliseconds(100), databaseKey: DatabaseKey? = nil
    ) {
        self.databasePath = databasePath
        self.servers = servers
        self.clientOptions = clientOptions
        self.retry = retry
        self.subscriptionBatchSize = subscriptionBatchSize
        self.messageRecordsTTL = messageRecordsTTL
        self.receiptsGathering = receiptsGathering
        self.databaseKey = databaseKey
    }

    /// The agent database in a group directory.
    public static func databasePath(groupDirectory: String) -> String {
        groupDirectory + "/simplex_v1_agent.db"
    }
}
