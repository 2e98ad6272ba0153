import SimpleXNetwork
import SimpleXProtocol

extension Agent {
    /// The relays new queues are made on, from now on (queues already made stay where they are).
    public func setServers(_ servers: [SMPServerAddress]) {
        config.servers = servers
    }

    /// Connects to `server` and completes the handshake (identity checked against the address),
    /// on a connection of its own that is closed at once; nil when it worked, else why not.
    public static func testServer(
        _ server: SMPServerAddress, options: SMPClientOptions = SMPClientOptions(connectTimeout: .seconds(10))
    )
        async -> String?
    {
        let group: EventLoopGroup
        do { group = try EventLoopGroup(loopCount: 1, name: "relay-test") } catch { return "\(error)" }
        let loop = group.next()
        let failure: String?
        do {
            let client = try await SMPClient.connect(to: server, loop: loop, options: options)
            client.close()
            failure = nil
        } catch {
            failure = "\(error)"
        }
        // The close runs on the loop: let it before the loop stops.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute { done.resume() }
        }
        group.shutdown()
        return failure
    }
}
