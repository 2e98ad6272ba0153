extension Agent {
    /// Whether messages are still waiting to go to a relay (a delivery worker is running), so a
    /// short-lived process (`simplex-chat -e`) can let them leave before it stops.
    public var hasPendingDeliveries: Bool { !workers.isEmpty }
}
