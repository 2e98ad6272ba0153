import Foundation
import Glibc
@testable import SimpleXNetwork
import Testing
import TestSupport


@Suite struct BlockConnectionTests {
    @Test(arguments: [1024, 4096, 16_384])
    func blocksRoundTripExactly(blockSize: Int) async throws {
        let server = try EchoServer(blockSize: blockSize)
        defer { server.stop() }
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let client = try await TestClient(port: server.port, blockSize: blockSize, loop: loop)
        let sent = (0..<8).map { patternBlock(size: blockSize, seed: $0) }
        for block in sent { client.connection.sendFromAnyThread(block) }
        #expect(await eventually { client.log.blocks.count == sent.count })
        #expect(client.log.blocks == sent)
        #expect(client.log.closes.isEmpty)
    }

    @Test func oneBlockWrittenOneByteAtATime() async throws {
        let blockSize = 16_384
        let server = try EchoServer(blockSize: blockSize)
        defer { server.stop() }
        let raw = try RawClient(port: server.port)
        let block = patternBlock(size: blockSize, seed: 7)
        for (index, byte) in block.enumerated() {
            try raw.write([byte])
            // A pause mid-block makes sure the server sees the block in separate reads.
            if index == blockSize / 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(raw.read(count: blockSize) == block)
    }

    @Test func manyBlocksInOneWriteAndAPartialTail() async throws {
        let blockSize = 16_384
        let server = try EchoServer(blockSize: blockSize)
        defer { server.stop() }
        let raw = try RawClient(port: server.port)
        let blocks = (0..<5).map { patternBlock(size: blockSize, seed: 100 + $0) }
        // Four and a half blocks in one write, the rest of the fifth later.
        let all = blocks.flatMap { $0 }
        try raw.write(all[0..<(4 * blockSize + 1000)])
        #expect(raw.read(count: 4 * blockSize) == Array(all[0..<(4 * blockSize)]))
        try raw.write(all[(4 * blockSize + 1000)...])
        #expect(raw.read(count: blockSize) == blocks[4])
    }

    /// A reader slower than the writer: the echo's blocks queue up and go out in partial writes
    /// (cut mid-block, resumed from there), and every byte arrives once, in order.
    @Test func blocksQueuedBehindASlowReaderArriveWholeAndInOrder() async throws {
        let blockSize = 16_384
        // More than the kernel's socket buffers take (4 MB at most here), all let queue up.
        let server = try EchoServer(blockSize: blockSize, limits: .init(maxQueuedBytes: 16 << 20), loops: 1)
        defer { server.stop() }
        let raw = try RawClient(port: server.port, receiveBuffer: 4096)
        let all = (0..<400).flatMap { patternBlock(size: blockSize, seed: 300 + $0) }
        let fd = raw.fd
        // Written from a thread of its own, so the test can wait before reading.
        let written = DispatchSemaphore(value: 0)
        Thread {
            var offset = 0
            while offset < all.count {
                let count = all.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + offset, min(4096, all.count - offset), Int32(MSG_NOSIGNAL))
                }
                if count <= 0 { break }
                offset += count
            }
            written.signal()
        }.start()
        try await Task.sleep(for: .milliseconds(200))
        let echoed = RawClient.read(fd, count: all.count)
        // Compared without printing megabytes on failure.
        let whole = echoed == all
        let firstDifference = whole ? all.count : zip(echoed, all).prefix { $0 == $1 }.count
        #expect(whole, "\(echoed.count) of \(all.count) bytes echoed, the first wrong at \(firstDifference)")
        written.wait()
        #expect(server.closes.closes.isEmpty)
    }

    @Test func twoHundredConnectionsAllGetTheirEchoes() async throws {
        let blockSize = 4096
        let server = try EchoServer(blockSize: blockSize)
        defer { server.stop() }
        let clientLoops = try EventLoopGroup(loopCount: 2, name: "clients")
        defer { clientLoops.shutdown() }
        let clients = try await withThrowingTaskGroup(of: TestClient.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await TestClient(port: server.port, blockSize: blockSize, loop: clientLoops.next())
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await eventually { server.server.connectionCount == 200 })
        for (index, client) in clients.enumerated() {
            for block in 0..<50 {
                client.connection.sendFromAnyThread(patternBlock(size: blockSize, seed: index * 1000 + block))
            }
        }
        #expect(await eventually { clients.allSatisfy { $0.log.blocks.count == 50 } })
        for (index, client) in clients.enumerated() {
            #expect(
                client.log.blocks == (0..<50).map { patternBlock(size: blockSize, seed: index * 1000 + $0) })
        }
    }

    @Test func peerCloseIsReportedOnBothSides() async throws {
        let server = try EchoServer(blockSize: 1024)
        defer { server.stop() }
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let client = try await TestClient(port: server.port, blockSize: 1024, loop: loop)
        #expect(await eventually { server.server.connectionCount == 1 })
        client.connection.close()
        #expect(await eventually { server.closes.closes == [.peerClosed] })
        #expect(client.log.closes == [.local])
        #expect(await eventually { server.server.connectionCount == 0 })
    }

    @Test func serverRefusesConnectionsBeyondItsLimit() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try BlockServer(port: 0, blockSize: 64, group: group, maxConnections: 1) { connection in
            connection.start(onBlock: { _, _ in }, onClose: { _, _ in })
        }
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let first = try await TestClient(port: server.port, blockSize: 64, loop: loop)
        #expect(await eventually { server.connectionCount == 1 })
        let second = try await TestClient(port: server.port, blockSize: 64, loop: loop)
        #expect(await eventually { second.log.closes == [.peerClosed] })
        #expect(first.log.closes.isEmpty)
        #expect(server.connectionCount == 1)
    }
}
