import Foundation
import Glibc
@testable import SimpleXNetwork
import Synchronization
import Testing
import TestSupport


@Suite struct ConnectionLimitTests {
    @Test func slowConsumerIsClosedWithoutHurtingOthers() async throws {
        let blockSize = 16_384
        let limits = BlockConnectionLimits(
            maxQueuedBytes: 64 * 1024, slowConsumerTimeout: .milliseconds(300), idleTimeout: nil)
        let server = try EchoServer(blockSize: blockSize, limits: limits, loops: 1)
        defer { server.stop() }
        // Never reads its echoes; a small receive buffer makes the server's queue fill sooner.
        let slow = try RawClient(port: server.port, receiveBuffer: 4096)
        _ = fcntl(slow.fd, F_SETFL, fcntl(slow.fd, F_GETFL) | O_NONBLOCK)
        let block = patternBlock(size: blockSize, seed: 1)
        let cap = 256 * 1024 * 1024
        var written = 0
        var stalledSince: ContinuousClock.Instant?
        while written < cap {
            let result = block.withUnsafeBytes {
                Glibc.send(slow.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if result > 0 {
                written += result
                stalledSince = nil
                continue
            }
            if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The server stopped reading us: its queue is full and our send buffer too.
                if stalledSince == nil { stalledSince = .now }
                if ContinuousClock.now - stalledSince! > .seconds(20) { break }
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            break  // EPIPE or ECONNRESET: the server closed us
        }
        // Had the server kept reading, the whole 256 MB would have gone through.
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
        let limits = BlockConnectionLimits(
            maxQueuedBytes: 32 * 1024, slowConsumerTimeout: .seconds(30), idleTimeout: nil)
        let server = try EchoServer(blockSize: blockSize, limits: limits, loops: 1)
        defer { server.stop() }
        let raw = try RawClient(port: server.port, receiveBuffer: 4096)
        let blocks = (0..<200).map { patternBlock(size: blockSize, seed: $0) }
        // Write everything from one thread while another reads slowly: the server must pause and
        // resume. Plain threads, not tasks: blocking socket calls on the few cooperative threads
        // starve each other (and every other test) on a loaded 2-core machine.
        let wroteAll = Shared<Bool?>(nil)
        Thread.detachNewThread { [fd = raw.fd] in
            var ok = true
            for block in blocks where ok {
                var offset = 0
                while offset < block.count {
                    let sent = block.withUnsafeBytes {
                        Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                    }
                    if sent <= 0 {
                        ok = false
                        break
                    }
                    offset += sent
                }
            }
            wroteAll.withLock { $0 = ok }
        }
        let echoes: [[UInt8]] = await withCheckedContinuation { [fd = raw.fd] done in
            Thread.detachNewThread {
                var received: [[UInt8]] = []
                for _ in blocks {
                    received.append(RawClient.read(fd, count: blockSize))
                    if received.count % 20 == 0 { usleep(5_000) }
                }
                done.resume(returning: received)
            }
        }
        #expect(await eventually { wroteAll.withLock { $0 } != nil })
        #expect(wroteAll.withLock { $0 } == true)
        let same = echoes == blocks
        #expect(same, "echoed \(echoes.filter { $0.count == blockSize }.count) whole blocks of \(blocks.count); first mismatch at \(zip(echoes, blocks).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
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
        // 30 pings 100 ms apart span three idle timeouts. A plain thread sends them from the moment it
        // connects: a test task can be starved for seconds while other suites hold the cooperative threads.
        let pings = 30
        let echoes = Shared<(count: Int, done: Bool)>((0, false))
        let port = server.port
        let ping = patternBlock(size: 1024, seed: 0)
        Thread {
            defer { echoes.withLock { $0.done = true } }
            guard let raw = try? RawClient(port: port) else { return }
            for _ in 0..<pings {
                guard (try? raw.write(ping)) != nil, raw.read(count: ping.count) == ping else { return }
                echoes.withLock { $0.count += 1 }
                usleep(100_000)
            }
            // Stay connected, silent, until the server closes us (or the 10 s read timeout).
            _ = raw.read(count: 1)
        }.start()
        #expect(await eventually { echoes.withLock { $0.done } })
        #expect(echoes.withLock { $0.count } == pings)
        #expect(await eventually { server.closes.closes == [.idleTimeout] })
    }
}
