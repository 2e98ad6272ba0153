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

    func line(queues: Int, storedMessages: Int) -> String {
        "stats: connections \(connectionsOpen) open / \(connectionsTotal) total, queues \(queues) "
            + "(+\(queuesCreated) -\(queuesDeleted)), messages in \(messagesIn) out \(messagesOut) "
            + "stored \(storedMessages), quota refusals \(quotaExceeded), bad blocks \(badBlocks), "
            + "auth failures \(authFailures)"
    }
}
