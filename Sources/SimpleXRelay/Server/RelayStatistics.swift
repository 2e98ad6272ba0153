/// Counters the relay logs periodically and on SIGUSR1.
struct RelayStatistics {
    var connectionsOpen = 0
    var connectionsTotal = 0
    var queuesCreated = 0
    var queuesDeleted = 0
    var messagesIn = 0
    var messagesOut = 0
    var quotaExceeded = 0
    var badBlocks = 0
    var authFailures = 0
    /// SUB commands, the subscriptions they ended elsewhere (END sent), and GET commands.
    var subscriptions = 0
    var subscriptionsEnded = 0
    var gets = 0

    func line(queues: Int, storedMessages: Int) -> String {
        "stats: connections \(connectionsOpen) open / \(connectionsTotal) total, queues \(queues) "
            + "(+\(queuesCreated) -\(queuesDeleted)), messages in \(messagesIn) out \(messagesOut) "
            + "stored \(storedMessages), quota refusals \(quotaExceeded), bad blocks \(badBlocks), "
            + "auth failures \(authFailures), subscriptions \(subscriptions) (ended \(subscriptionsEnded)), "
            + "gets \(gets)"
    }
}
