import Glibc
@testable import SimpleXNetwork
import SimpleXSystem
import Testing
import TestSupport


@Suite struct ConnectTests {
    @Test func connectToAClosedPortIsRefused() async throws {
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        // Bind a free port, then close it: nothing listens there now.
        let port = try TCPSocket.listen(host: "127.0.0.1", port: 0).localPort
        try #require(port != 0)
        let error = await #expect(throws: SystemError.self) {
            _ = try await BlockConnection.connect(
                host: "127.0.0.1", port: port, on: loop, timeout: .seconds(10))
        }
        #expect(error?.errno == ECONNREFUSED)
        #expect(error?.call == "connect")
        #expect(error?.description.contains("127.0.0.1:\(port)") == true)
    }

    /// A listener that never accepts, with backlog 0: once its accept queue is full the kernel drops
    /// further SYNs, so a connect hangs like one to a blackholed address.
    @Test func connectTimesOutAgainstAFullBacklog() async throws {
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let listener = try TCPSocket.listen(host: "127.0.0.1", port: 0, backlog: 0)
        var fillers: [TCPSocket] = []
        var timedOut = false
        for _ in 0..<8 where !timedOut {
            do {
                fillers.append(
                    try await TCPSocket.connect(
                        host: "127.0.0.1", port: listener.localPort, timeout: .milliseconds(300), on: loop))
            } catch {
                #expect(error.errno == ETIMEDOUT)
                timedOut = true
            }
        }
        #expect(timedOut)
        let error = await #expect(throws: SystemError.self) {
            _ = try await BlockConnection.connect(
                host: "127.0.0.1", port: listener.localPort, on: loop, timeout: .milliseconds(200))
        }
        #expect(error?.errno == ETIMEDOUT)
        withExtendedLifetime(fillers) {}
    }

    @Test func connectToIPv6Loopback() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try BlockServer(host: "::1", port: 0, blockSize: 32, group: group) { connection in
            connection.start(onBlock: { connection, block in connection.send(block) }, onClose: { _, _ in })
        }
        let client = try await TestClient(port: server.port, blockSize: 32, loop: group.loops[0], host: "::1")
        client.connection.sendFromAnyThread(Array(repeating: 6, count: 32))
        #expect(await eventually { client.log.blocks == [Array(repeating: 6, count: 32)] })
        #expect(client.connection.peerAddress == "[::1]:\(server.port)")
    }

    @Test func connectOnAStoppedLoopFailsInsteadOfHanging() async throws {
        let loop = try EventLoop(name: "stopped")
        loop.shutdown()
        let error = await #expect(throws: SystemError.self) {
            _ = try await TCPSocket.connect(host: "127.0.0.1", port: 9, timeout: .seconds(1), on: loop)
        }
        #expect(error?.errno == ESHUTDOWN)
    }

    @Test func listenRejectsANonNumericHost() throws {
        let error = #expect(throws: SystemError.self) {
            _ = try TCPSocket.listen(host: "relay.example", port: 0)
        }
        #expect(error?.errno == EINVAL)
    }
}
