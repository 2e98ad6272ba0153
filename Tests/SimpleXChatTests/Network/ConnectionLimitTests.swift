import Glibc
import Synchronization
import Testing

@testable import SimpleXChat

@Suite struct ConnectionLimitTests {
    @Test func slowConsumerIsClosedWithoutHurtingOthers() async throws {
        let blockSize = 16_384
        let limits = BlockConnectionLimits(maxQueuedBytes: 64 * 1024, slowConsumerTimeout: .milliseconds(300), idleTimeout: nil)
        let server = try EchoServer(blockSize: blockSize, limits: limits, loops: 1)
        defer { server.stop() }
        // Never reads its echoes; a small receive buffer makes the server's queue fill sooner.
        let slow = try RawClient(port: server.port, receiveBuffer: 4096)
        _ = fcntl(slow.fd, F_SETFL, fcntl(slow.fd, F_GETFL) | O_NONBLOCK)
        let block = patternBlock(size: blockSize, seed: 1)
        let cap = 256 * 1024 * 1024
        var written = 0
        var stalledSince: ContinuousClock.Instant?
        var stalledWhileOpen = false
        while written < cap {
            let result = block.withUnsafeBytes { Glibc.send(slow.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if result > 0 {
                written += result
                stalledSince = nil
                continue
            }
            if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The server stopped reading us: its queue is full and our send buffer too.
                if stalledSince == nil { stalledSince = .now }
                if server.closes.closes.isEmpty { stalledWhileOpen = true }
                if ContinuousClock.now - stalledSince! > .seconds(20) { break }
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            break  // EPIPE or ECONNRESET: the server closed us
        }
        #expect(stalledWhileOpen)
        #expect(written < cap)
        #expect(await eventually { server.closes.closes == [.slowConsumer] })

        // Meanwhile a reading client on the same server loop is served normally.
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let client = try await TestClient(port: server.port, blockSize: blockSize, loop: loop)
        let sent = (0..<20).map { patternBlock(size: blockSize, seed: 50 + $0) }
        for block in sent { client.connection.sendFromAnyThread(block) }
        #expect(await eventually { client.log.blocks.count == sent.count })
        #expect(client.log.blocks == sent)
        #expect(server.closes.closes == [.slowConsumer])
    }

    @Test func backpressureDoesNotCloseAClientThatCatchesUp() async throws {
        let blockSize = 16_384
        let limits = BlockConnectionLimits(maxQueuedBytes: 32 * 1024, slowConsumerTimeout: .seconds(30), idleTimeout: nil)
        let server = try EchoServer(blockSize: blockSize, limits: limits, loops: 1)
        defer { server.stop() }
        let raw = try RawClient(port: server.port, receiveBuffer: 4096)
        let blocks = (0..<200).map { patternBlock(size: blockSize, seed: $0) }
        // Write everything from another task while this one reads slowly: the server must pause and resume.
        let writer = Task.detached { [fd = raw.fd] in
            for block in blocks {
                var offset = 0
                while offset < block.count {
                    let sent = block.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                    if sent <= 0 { return false }
                    offset += sent
                }
            }
            return true
        }
        var received: [[UInt8]] = []
        for _ in blocks {
            received.append(raw.read(count: blockSize))
            if received.count % 20 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let echoes = received
        #expect(await writer.value)
        #expect(echoes == blocks)
        #expect(server.closes.closes.isEmpty)
    }

    @Test func idleConnectionIsClosed() async throws {
        let limits = BlockConnectionLimits(idleTimeout: .milliseconds(200))
        let server = try EchoServer(blockSize: 1024, limits: limits)
        defer { server.stop() }
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let client = try await TestClient(port: server.port, blockSize: 1024, loop: loop)
        #expect(await eventually { server.closes.closes == [.idleTimeout] })
        #expect(await eventually { client.log.closes == [.peerClosed] })
    }

    @Test func pingsKeepAConnectionAlivePastTheIdleTimeout() async throws {
        let limits = BlockConnectionLimits(idleTimeout: .milliseconds(1000))
        let server = try EchoServer(blockSize: 1024, limits: limits)
        defer { server.stop() }
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let client = try await TestClient(port: server.port, blockSize: 1024, loop: loop)
        // 30 pings 100 ms apart span three idle timeouts. A timer on the client's loop sends them:
        // a test task can be starved for seconds when other suites hog the cooperative threads.
        let ping = patternBlock(size: 1024, seed: 0)
        let pings = 30
        let connection = client.connection
        @Sendable func sendPing(_ remaining: Int) {
            guard remaining > 0 else { return }
            connection.send(ping)
            loop.schedule(after: .milliseconds(100)) { sendPing(remaining - 1) }
        }
        loop.execute { sendPing(pings) }
        #expect(await eventually { client.log.blocks.count == pings || !client.log.closes.isEmpty })
        #expect(client.log.blocks.count == pings)
        #expect(server.closes.closes.isEmpty)
        #expect(client.log.closes.isEmpty)
        #expect(await eventually { server.closes.closes == [.idleTimeout] })
    }
}
