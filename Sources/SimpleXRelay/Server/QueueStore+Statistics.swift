extension QueueStore {
    /// Messages waiting in all queues (for the statistics line; walks every queue).
    var storedMessageCount: Int { slots.reduce(0) { $0 + $1.messages.count } }
}
