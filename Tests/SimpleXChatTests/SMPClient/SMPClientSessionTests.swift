import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// Authorization, keep-alive and reconnection against a scripted peer on loopback.
@Suite struct SMPClientSessionTests {
    @Test(arguments: [PublicKeyAlgorithm.ed25519, .x25519])
    func commandsAreAuthorizedWithTheQueueKey(algorithm: PublicKeyAlgorithm) async throws {
        // The peer registers the key NEW carries and answers AUTH to anything it does not authorize.
        let keys = Locked<[EntityID: AuthPublicKey]>([:])
        let serverDH = X25519.generateKeyPair().publicKey
        let relay = try ScriptedRelay { peer, received in
            let transmission = received.transmission
            if case .new(let authKey, _, _, let mode) = received.command {
                guard peer.isAuthorized(transmission, by: authKey) else {
                    return peer.reply(.err(.auth), to: transmission)
                }
                let recipientID = EntityID.random()
                keys.update { $0[recipientID] = authKey }
                return peer.reply(
                    .ids(
                        recipientID: recipientID, senderID: .random(), serverDHKey: serverDH, queueMode: mode),
                    to: transmission)
            }
            guard let key = keys.value[transmission.entityID], peer.isAuthorized(transmission, by: key) else {
                return peer.reply(.err(.auth), to: transmission)
            }
            peer.reply(.ok, to: transmission)
        }
        defer { relay.stop() }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let client = try await SMPClient.connect(to: relay.address, loop: loop)
        defer { client.close() }

        let key = QueueAuthKey.generate(algorithm)
        let ids = try await client.createQueue(
            recipientKey: key, recipientDHKey: X25519.generateKeyPair().publicKey)
        #expect(keys.value[ids.recipientID] == key.publicKey)
        #expect(ids.serverDHKey == serverDH)
        #expect(ids.queueMode == .messaging)
        #expect(try await client.subscribe(recipientID: ids.recipientID, key: key) == nil)
        try await client.secure(
            recipientID: ids.recipientID, key: key, senderKey: QueueAuthKey.generate(.ed25519).publicKey)
        // The same queue with another key of the same kind is refused: the peer really checks.
        await #expect(throws: SMPClientError.server(.auth)) {
            try await client.suspend(recipientID: ids.recipientID, key: .generate(algorithm))
        }
        // X25519 keys need a per-session authenticator key, computed once per queue key.
        #expect(await client.cachedAuthenticatorKeyCount() == (algorithm == .x25519 ? 2 : 0))
    }

    @Test func pingsWhileIdleAndStaysConnected() async throws {
        let relay = try ScriptedRelay { peer, received in
            if received.command == .ping { peer.reply(.pong, to: received.transmission) }
        }
        defer { relay.stop() }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let options = SMPClientOptions(pingInterval: .milliseconds(50), pingTimeout: .seconds(5))
        let client = try await SMPClient.connect(to: relay.address, loop: loop, options: options)
        defer { client.close() }
        let log = EventLog(client)
        #expect(await eventually { relay.received.count >= 3 })
        #expect(relay.received.allSatisfy { $0.command == .ping && $0.connection == 0 })
        #expect(log.events.isEmpty)
    }

    @Test func aMissedPongDropsTheConnectionAndReconnects() async throws {
        // The first connection never answers PING; later ones do.
        let relay = try ScriptedRelay { peer, received in
            if received.command == .ping && peer.index > 0 { peer.reply(.pong, to: received.transmission) }
        }
        defer { relay.stop() }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let sleeps = RecordedSleeps()
        // The PONG deadline is generous so that a loaded machine answers in time on the later
        // connections; the first never answers, whatever the deadline.
        let options = SMPClientOptions(
            pingInterval: .milliseconds(500), pingTimeout: .seconds(1),
            backoff: SMPBackoff(initial: .milliseconds(10), maximum: .milliseconds(40)))
        let client = try await SMPClient.connect(
            to: relay.address, loop: loop, options: options, environment: sleeps.environment)
        defer { client.close() }
        let log = EventLog(client)
        #expect(await eventually { log.events.count >= 2 })
        #expect(log.events.prefix(2) == [.disconnected(reason: .pingTimeout), .reconnected])
        // The reconnected session answers commands.
        var answered = false
        for _ in 0..<50 where !answered {
            answered = (try? await client.ping()) != nil
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered)
        #expect(relay.connectionCount >= 2)
    }

    @Test func afterADropPendingCommandsFailAndTheClientReconnectsWithBackoff() async throws {
        // Connection 0 drops on GET; connections 1–3 are dropped on accept; connection 4 works.
        let relay = try ScriptedRelay(refuse: [1, 2, 3]) { peer, received in
            switch received.command {
            case .get: peer.drop()
            case .ping: peer.reply(.pong, to: received.transmission)
            default: break
            }
        }
        defer { relay.stop() }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let sleeps = RecordedSleeps(random: 0.5)
        let options = SMPClientOptions(
            backoff: SMPBackoff(initial: .milliseconds(10), maximum: .milliseconds(40)))
        let client = try await SMPClient.connect(
            to: relay.address, loop: loop, options: options, environment: sleeps.environment)
        defer { client.close() }
        let log = EventLog(client)

        await #expect(throws: SMPClientError.disconnected) {
            try await client.get(recipientID: .random(), key: .generate(.ed25519))
        }
        // Generous: on CI's two loaded cores the peer's accepts have been seen to lag by 20 s.
        #expect(await eventually(timeout: .seconds(90)) { log.events.count == 2 })
        #expect(log.events == [.disconnected(reason: .connectionClosed(.peerClosed)), .reconnected])
        // Half of each cap (the jitter is fixed at 0.5): caps 10, 20, 40, 40 ms.
        #expect(sleeps.recorded.map(\.milliseconds) == [5, 10, 20, 20])
        #expect(relay.connectionCount == 5)
        try await client.ping()
        // The GET was not resent on the new connection: the agent decides what to resend.
        #expect(relay.received.filter { $0.command == .get }.count == 1)
    }

    @Test func closeDuringReconnectionStopsIt() async throws {
        let relay = try ScriptedRelay(refuse: Set(1..<1000)) { peer, _ in peer.drop() }
        defer { relay.stop() }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let sleeps = RecordedSleeps()
        let options = SMPClientOptions(
            backoff: SMPBackoff(initial: .milliseconds(2), maximum: .milliseconds(4)))
        let client = try await SMPClient.connect(
            to: relay.address, loop: loop, options: options, environment: sleeps.environment)
        let log = EventLog(client)
        await #expect(throws: SMPClientError.disconnected) { try await client.ping() }
        #expect(await eventually { relay.connectionCount >= 3 })
        client.close()
        #expect(await eventually { log.finished })
        let attempts = sleeps.recorded.count
        try await Task.sleep(for: .milliseconds(50))
        #expect(sleeps.recorded.count <= attempts + 1)
        #expect(log.events == [.disconnected(reason: .connectionClosed(.peerClosed))])
    }
}

@Suite struct SMPClientBackoffTests {
    @Test func capsGrowByTheMultiplierUpToTheMaximum() {
        let backoff = SMPBackoff(initial: .milliseconds(100), maximum: .seconds(1), multiplier: 3)
        #expect((0..<5).map { backoff.cap(attempt: $0).milliseconds } == [100, 300, 900, 1000, 1000])
        #expect(backoff.cap(attempt: 10_000) == .seconds(1))
    }

    @Test func fullJitterSpansZeroToTheCap() {
        let backoff = SMPBackoff(initial: .seconds(2), maximum: .seconds(8), multiplier: 2)
        #expect(backoff.delay(attempt: 1, random: 0) == .zero)
        #expect(backoff.delay(attempt: 1, random: 0.25).milliseconds == 1000)
        #expect(backoff.delay(attempt: 3, random: 1).milliseconds == 8000)
        #expect(backoff.delay(attempt: 3, random: 7).milliseconds == 8000)
    }
}

extension Duration {
    /// Whole milliseconds, rounded, so Double-derived durations compare exactly.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + Int64((Double(attoseconds) / 1e15).rounded())
    }
}
