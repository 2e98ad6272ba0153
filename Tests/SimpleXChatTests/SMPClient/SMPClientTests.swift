import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// The client's transport mechanics against a scripted peer on loopback.
@Suite struct SMPClientTests {
    /// A fresh client loop per test; `body` gets the loop and the loop is stopped afterwards.
    private func withLoop(_ body: (EventLoop) async throws -> Void) async throws {
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        try await body(loop)
    }

    @Test func pingGetsPongOverTheEncryptedSession() async throws {
        let relay = try ScriptedRelay { peer, received in
            if received.command == .ping { peer.reply(.pong, to: received.transmission) }
        }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            try await client.ping()
            let received = try #require(relay.received.first)
            #expect(received.transmission.authorization.isEmpty)
            #expect(received.transmission.entityID.isEmpty)
            #expect(received.transmission.correlationID.bytes.count == CorrelationID.count)
        }
    }

    @Test func refusesAServerWithAnotherIdentity() async throws {
        let relay = try ScriptedRelay { _, _ in }
        defer { relay.stop() }
        let expected = ServerIdentity.generate()
        let address = try SMPServerAddress(
            keyHash: expected.fingerprint, hosts: ["127.0.0.1"], port: relay.server.port)
        try await withLoop { loop in
            await #expect(throws: SMPClientError.identityMismatch) {
                _ = try await SMPClient.connect(to: address, loop: loop)
            }
        }
        #expect(relay.received.isEmpty)
    }

    @Test func aServerThatSendsNoHelloTimesOut() async throws {
        let relay = try ScriptedRelay(sendingHello: false) { _, _ in }
        defer { relay.stop() }
        try await withLoop { loop in
            await #expect(throws: SMPClientError.timeout) {
                _ = try await SMPClient.connect(
                    to: relay.address, loop: loop,
                    options: SMPClientOptions(connectTimeout: .milliseconds(200)))
            }
        }
        #expect(relay.connectionCount == 1)
    }

    @Test func unreachableServerIsAConnectionFailure() async throws {
        // Bind a port, then close the socket at once, so nothing listens there.
        let port = try TCPSocket.listen(host: "127.0.0.1", port: 0, backlog: 1).localAddress().port
        let address = try SMPServerAddress(
            keyHash: ServerIdentity.generate().fingerprint, hosts: ["127.0.0.1"], port: port)
        try await withLoop { loop in
            do {
                _ = try await SMPClient.connect(to: address, loop: loop)
                Issue.record("connected to a port nobody listens on")
            } catch {
                guard case .connectionFailed? = error as? SMPClientError else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
        }
    }

    @Test func repliesAreMatchedByCorrelationIDWhenTheyComeOutOfOrder() async throws {
        // The peer holds three GETs and answers them last-first, each with a MSG naming its queue.
        let relay = try ScriptedRelay { peer, received in
            peer.held.append(received.transmission)
            guard peer.held.count == 3 else { return }
            for transmission in peer.held.reversed() {
                let queue = transmission.entityID.bytes
                peer.reply(.msg(messageID: queue, encryptedBody: queue + queue), to: transmission)
            }
        }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            let key = QueueAuthKey.generate(.ed25519)
            let queues = (0..<3).map { _ in EntityID.random() }
            async let first = client.get(recipientID: queues[0], key: key)
            async let second = client.get(recipientID: queues[1], key: key)
            async let third = client.get(recipientID: queues[2], key: key)
            let messages = try await [first, second, third]
            for (queue, message) in zip(queues, messages) {
                #expect(
                    message
                        == SMPDeliveredMessage(
                            messageID: queue.bytes, encryptedBody: queue.bytes + queue.bytes))
            }
        }
    }

    @Test func aBatchTravelsInOneBlockAndSplitsWhenItDoesNotFit() async throws {
        let relay = try ScriptedRelay { peer, received in peer.reply(.ok, to: received.transmission) }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            let key = QueueAuthKey.generate(.ed25519)
            let small = (0..<3).map { _ in SMPRequest(.sub, entityID: .random(), key: key) }
            let smallResults = await client.sendBatch(small)
            #expect(smallResults.map { try? $0.get() } == [.ok, .ok, .ok])
            #expect(relay.received.map(\.block) == [0, 0, 0])
            #expect(relay.received.map(\.transmission.entityID) == small.map(\.entityID))

            // Two 7,000-byte SENDs fit a 16 KB block, the third needs another.
            let body = [UInt8](repeating: 0x41, count: 7_000)
            let large = (0..<3).map { _ in SMPRequest(.send(flags: .noFlags, body: body), entityID: .random())
            }
            let largeResults = await client.sendBatch(large)
            #expect(largeResults.map { try? $0.get() } == [.ok, .ok, .ok])
            #expect(relay.received.dropFirst(3).map(\.block) == [1, 1, 2])
        }
    }

    @Test func aCommandTooLargeForABlockFailsAloneBeforeSending() async throws {
        let relay = try ScriptedRelay { peer, received in peer.reply(.ok, to: received.transmission) }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            let results = await client.sendBatch([
                SMPRequest(
                    .send(flags: .noFlags, body: [UInt8](repeating: 0, count: 17_000)), entityID: .random()),
                SMPRequest(.send(flags: .noFlags, body: [1, 2, 3]), entityID: .random()),
            ])
            guard case .failure(.invalidCommand) = results[0] else {
                Issue.record("got \(results[0])")
                return
            }
            #expect(try results[1].get() == .ok)
            #expect(relay.received.count == 1)
        }
    }

    @Test func aMSGReplyIsTheCommandsResultAndServerPushesAreEvents() async throws {
        let queue = EntityID.random()
        let relay = try ScriptedRelay { peer, received in
            guard received.command == .sub else { return }
            peer.reply(.msg(messageID: [1], encryptedBody: [10]), to: received.transmission)
            peer.event(.msg(messageID: [2], encryptedBody: [20]), entityID: queue)
            peer.event(.end, entityID: queue)
            peer.event(.deld, entityID: queue)
            peer.event(.err(.internal), entityID: .empty)
        }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            let log = EventLog(client)
            let first = try await client.subscribe(recipientID: queue, key: .generate(.ed25519))
            #expect(first == SMPDeliveredMessage(messageID: [1], encryptedBody: [10]))
            #expect(await eventually { log.events.count == 4 })
            #expect(
                log.events == [
                    .message(recipientID: queue, messageID: [2], encryptedBody: [20]),
                    .end(recipientID: queue),
                    .deleted(recipientID: queue), .unexpected(entityID: .empty, response: .err(.internal)),
                ])
        }
    }

    @Test func serverErrorsAreThrown() async throws {
        let relay = try ScriptedRelay { peer, received in peer.reply(.err(.auth), to: received.transmission) }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            await #expect(throws: SMPClientError.server(.auth)) {
                try await client.delete(recipientID: .random(), key: .generate(.ed25519))
            }
        }
    }

    @Test func aCommandWithoutReplyTimesOutAndALateMSGBecomesAnEvent() async throws {
        let relay = try ScriptedRelay { peer, received in
            switch received.command {
            case .get: peer.held.append(received.transmission)
            case .ping:
                // Answer the abandoned GET first: its MSG still needs an ACK, so it must not be lost.
                for held in peer.held { peer.reply(.msg(messageID: [7], encryptedBody: [8]), to: held) }
                peer.reply(.pong, to: received.transmission)
            default: break
            }
        }
        defer { relay.stop() }
        try await withLoop { loop in
            let options = SMPClientOptions(commandTimeout: .milliseconds(200))
            let client = try await SMPClient.connect(to: relay.address, loop: loop, options: options)
            defer { client.close() }
            let log = EventLog(client)
            let queue = EntityID.random()
            await #expect(throws: SMPClientError.timeout) {
                try await client.get(recipientID: queue, key: .generate(.ed25519))
            }
            try await client.ping()
            #expect(await eventually { !log.events.isEmpty })
            #expect(log.events == [.message(recipientID: queue, messageID: [7], encryptedBody: [8])])
        }
    }

    @Test func aCancelledCallerStopsWaiting() async throws {
        let relay = try ScriptedRelay { _, _ in }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            defer { client.close() }
            let waiting = Task { try await client.get(recipientID: .random(), key: .generate(.ed25519)) }
            #expect(await eventually { relay.received.count == 1 })
            waiting.cancel()
            await #expect(throws: SMPClientError.cancelled) { try await waiting.value }
        }
    }

    @Test func closeFailsCommandsInFlightAndFinishesEvents() async throws {
        let relay = try ScriptedRelay { _, _ in }
        defer { relay.stop() }
        try await withLoop { loop in
            let client = try await SMPClient.connect(to: relay.address, loop: loop)
            let log = EventLog(client)
            let waiting = Task { try await client.get(recipientID: .random(), key: .generate(.ed25519)) }
            #expect(await eventually { relay.received.count == 1 })
            client.close()
            await #expect(throws: SMPClientError.closed) { try await waiting.value }
            await #expect(throws: SMPClientError.closed) { try await client.ping() }
            #expect(await eventually { log.finished })
            #expect(log.events.isEmpty)
            #expect(relay.connectionCount == 1)
        }
    }
}
