extension Agent {
    /// Whether a connection is established (messages can be sent on it): the app asks after a
    /// crash, when a `connected` event may have been emitted but never handled.
    public func isConnected(_ id: AgentConnectionID) throws(AgentError) -> Bool {
        let record = try store.connection(id)
        return record.status == .ready && record.mode == .invitation
    }
}
