// Echo throughput over loopback: a measurement, not a test. Runs in the test target behind
// SIMPLEX_NET_BENCH=1, and builds standalone with -O (see measureEchoThroughput's doc) for release figures.
#if canImport(SimpleXChat)
    import SimpleXChat
#endif
import Synchronization

/// One client's blocks in flight, confined to its loop.
private final class EchoWindow {
    var sent = 0
    var received = 0
}

/// Sends `blocksPerConnection` blocks over each of `connections` connections to an echo server,
/// keeping `window` blocks in flight per connection; returns echoed MB/s and blocks/s.
///
/// Release build without the test target:
/// `swiftc -O -parse-as-library -I Shared/CSystem Shared/SimpleXChat/Network/*.swift
///  Shared/SimpleXChat/Files/SystemError.swift Tests/SimpleXChatTests/Network/EchoThroughput.swift main.swift`
/// with a main.swift that awaits this function and prints the result.
func measureEchoThroughput(
    connections: Int = 4, blocksPerConnection: Int = 20_000, window: Int = 32, blockSize: Int = 16_384
) async throws -> (megabytesPerSecond: Double, blocksPerSecond: Double, received: Int) {
    let serverLoops = try EventLoopGroup(loopCount: 2, name: "bench-server")
    let clientLoops = try EventLoopGroup(loopCount: 2, name: "bench-client")
    defer {
        serverLoops.shutdown()
        clientLoops.shutdown()
    }
    let server = try BlockServer(
        port: 0, blockSize: blockSize, group: serverLoops, limits: .init(idleTimeout: nil)
    ) {
        $0.start(onBlock: { connection, block in connection.send(block) }, onClose: { _, _ in })
    }
    defer { server.close() }
    let finished = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let block = [UInt8](repeating: 0x5A, count: blockSize)
    var clients: [BlockConnection] = []
    for _ in 0..<connections {
        clients.append(
            try await BlockConnection.connect(
                host: "127.0.0.1", port: server.port, blockSize: blockSize, on: clientLoops.next()))
    }
    let start = ContinuousClock.now
    for client in clients {
        client.loop.execute {
            let state = EchoWindow()
            client.start(
                onBlock: { connection, _ in
                    state.received += 1
                    received.add(1, ordering: .relaxed)
                    if state.sent < blocksPerConnection {
                        state.sent += 1
                        connection.send(block)
                    } else if state.received == blocksPerConnection {
                        finished.add(1, ordering: .relaxed)
                    }
                },
                onClose: { _, _ in finished.add(1, ordering: .relaxed) })
            while state.sent < min(window, blocksPerConnection) {
                state.sent += 1
                client.send(block)
            }
        }
    }
    while finished.load(ordering: .relaxed) < connections { try await Task.sleep(for: .milliseconds(1)) }
    let elapsed = start.duration(to: .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let blocks = received.load(ordering: .relaxed)
    for client in clients { client.close() }
    return (Double(blocks * blockSize) / seconds / 1_000_000, Double(blocks) / seconds, blocks)
}
