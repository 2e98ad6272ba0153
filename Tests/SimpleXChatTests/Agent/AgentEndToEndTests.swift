import Foundation
import Testing
import TestSupport

/// Two agents in separate processes, connected through a real relay process on loopback.
@Suite(.serialized)
struct AgentEndToEndTests {
    /// Connects `alice` and `bob` by an invitation; returns (alice's id, bob's id) of the connection.
    static func connect(_ alice: AgentPeerProcess, _ bob: AgentPeerProcess) async throws -> (String, String) {
        alice.send("invite")
        let invitation = try await alice.expectWords("invitation ")
        bob.send("join \(invitation[2]) bob")
        let bobID = try await bob.expectWords("joined ")[1]
        let confirmation = try await alice.expectWords("event confirmation ")
        #expect(confirmation == ["event", "confirmation", invitation[1], "bob"])
        alice.send("allow \(invitation[1]) alice")
        try await alice.expect("event connected \(invitation[1])")
        #expect(try await bob.expectWords("event info ") == ["event", "info", bobID, "alice"])
        try await bob.expect("event connected \(bobID)")
        return (invitation[1], bobID)
    }

    /// The texts `peer`'s app committed on `connection`, in order.
    static func texts(_ peer: AgentPeerProcess, on connection: String) throws -> [String] {
        try peer.receivedLog().filter { $0.hasPrefix(connection + " ") }.map {
            String($0.split(separator: " ", maxSplits: 3)[3])
        }
    }

    /// Polls (the log is a file another process writes) until `count` messages are in it.
    static func waitForLog(
        _ peer: AgentPeerProcess, connection: String, count: Int, timeout: Duration = .seconds(120)
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try texts(peer, on: connection).count < count {
            guard ContinuousClock.now < deadline else {
                throw TestSupportError(
                    "\(try texts(peer, on: connection).count) of \(count) messages arrived")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func invitationConnectsAndAThousandMessagesEachWayArriveOnceInOrder() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)

        alice.send("sendmany \(aliceID) 1000 a")
        bob.send("sendmany \(bobID) 1000 b")
        try await Self.waitForLog(bob, connection: bobID, count: 1000)
        try await Self.waitForLog(alice, connection: aliceID, count: 1000)
        #expect(try Self.texts(bob, on: bobID) == (1...1000).map { "a-\($0)" })
        #expect(try Self.texts(alice, on: aliceID) == (1...1000).map { "b-\($0)" })
        // Every message passed the id and hash-chain checks.
        #expect(try bob.receivedLog().allSatisfy { $0.split(separator: " ")[2] == "ok" })
        #expect(try alice.receivedLog().allSatisfy { $0.split(separator: " ")[2] == "ok" })
        // Receipts come back: the sender sees its last message delivered.
        try await alice.expect("event delivered \(aliceID)")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func contactAddressRequestsAreAcceptedOrRejected() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let carol = try await AgentPeerProcess(servers: relay.address)
        alice.send("address")
        let address = try await alice.expectWords("address ")
        #expect(address[2].hasPrefix("simplex:/contact#/?v="))

        bob.send("join \(address[2]) bob")
        let bobID = try await bob.expectWords("joined ")[1]
        let request = try await alice.expectWords("event request ")
        #expect(request[2] == address[1] && request[4] == "bob")
        alice.send("accept \(request[3]) alice")
        let aliceID = try await alice.expectWords("accepted ")[1]
        // Bob's invitation, carried by the request, gets Alice's confirmation.
        #expect(
            try await bob.expectWords("event confirmation ") == ["event", "confirmation", bobID, "alice"])
        bob.send("allow \(bobID) bob")
        try await bob.expect("event connected \(bobID)")
        try await alice.expect("event connected \(aliceID)")
        bob.send("send \(bobID) hi-alice")
        try await Self.waitForLog(alice, connection: aliceID, count: 1)
        #expect(try Self.texts(alice, on: aliceID) == ["hi-alice"])

        carol.send("join \(address[2]) carol")
        _ = try await carol.expectWords("joined ")
        let carolRequest = try await alice.expectWords("event request ")
        #expect(carolRequest[4] == "carol")
        alice.send("reject \(carolRequest[3])")
        try await alice.expect("rejected \(carolRequest[3])")
        // A rejected request is gone: accepting it now is an error, and Carol hears nothing.
        alice.send("accept \(carolRequest[3]) alice")
        #expect(try await alice.expect("error accept").contains("not found"))
        try await Task.sleep(for: .milliseconds(500))
        #expect(!carol.output.contains { $0.hasPrefix("event confirmation") })
        for peer in [alice, bob, carol] { try await peer.quit() }
    }

    @Test func relayKilledAndRestartedMidStreamLosesAndRepeatsNothing() async throws {
        let port = try freeLoopbackPort()
        var relay = try await RelayProcess(extraConfig: ["port": "\(port)"])
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)

        alice.send("sendmany \(aliceID) 1000 a")
        try await Self.waitForLog(bob, connection: bobID, count: 150)
        try await relay.kill()
        try await Task.sleep(for: .milliseconds(300))
        relay = try await RelayProcess(directory: relay.directory)
        try await Self.waitForLog(bob, connection: bobID, count: 1000)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try Self.texts(bob, on: bobID) == (1...1000).map { "a-\($0)" })
        try await alice.quit()
        try await bob.quit()
    }

    @Test func receiverKilledMidStreamAndRestartedGetsEachMessageOnceInOrder() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        var bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)

        alice.send("sendmany \(aliceID) 1000 a")
        try await Self.waitForLog(bob, connection: bobID, count: 200)
        try await bob.kill()
        let before = try Self.texts(bob, on: bobID).count
        bob = try await AgentPeerProcess(directory: bob.directory, servers: relay.address)
        try await Self.waitForLog(bob, connection: bobID, count: 1000)
        try await Task.sleep(for: .milliseconds(300))
        #expect(before < 1000)
        #expect(try Self.texts(bob, on: bobID) == (1...1000).map { "a-\($0)" })
        try await alice.quit()
        try await bob.quit()
    }

    /// The sender records what the relay accepted a little after the fact (with its next
    /// transaction); killed before that, it sends those messages again, and the receiver must
    /// drop the copies by their hash.
    @Test func senderKilledMidStreamAndRestartedDeliversEachMessageOnceInOrder() async throws {
        let relay = try await RelayProcess()
        var alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)

        alice.send("sendmany \(aliceID) 1000 a")
        try await alice.expect("queued-all \(aliceID) 1000")
        try await Self.waitForLog(bob, connection: bobID, count: 300)
        try await alice.kill()
        #expect(try Self.texts(bob, on: bobID).count < 1000)
        alice = try await AgentPeerProcess(directory: alice.directory, servers: relay.address)
        try await Self.waitForLog(bob, connection: bobID, count: 1000)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try Self.texts(bob, on: bobID) == (1...1000).map { "a-\($0)" })
        try await alice.quit()
        try await bob.quit()
    }

    @Test func tamperedAndReplayedMessagesAreDetectedAndDropped() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)
        alice.send("send \(aliceID) one")
        try await Self.waitForLog(bob, connection: bobID, count: 1)

        alice.send("replay \(aliceID)")
        try await bob.expect("event receiveFailed \(bobID) duplicate message")
        alice.send("tamper \(aliceID)")
        #expect(try await bob.expect("event receiveFailed \(bobID)").contains("cannot decrypt"))
        // Neither reached the app, and the connection still works.
        alice.send("send \(aliceID) two")
        try await Self.waitForLog(bob, connection: bobID, count: 2)
        #expect(try Self.texts(bob, on: bobID) == ["one", "two"])
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aDeletedConnectionStopsReceiving() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)
        alice.send("send \(aliceID) before")
        try await Self.waitForLog(bob, connection: bobID, count: 1)

        bob.send("delete \(bobID)")
        try await bob.expect("deleted \(bobID)")
        alice.send("send \(aliceID) after")
        // The relay refuses: the queue is gone; Alice's agent says so, and Bob gets nothing.
        try await alice.expect("event sendFailed \(aliceID)")
        #expect(try Self.texts(bob, on: bobID) == ["before"])
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aLostMessageIsReportedAsSkippedAndLaterOnesStillDecrypt() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)
        alice.send("send \(aliceID) one")
        try await Self.waitForLog(bob, connection: bobID, count: 1)
        alice.send("lose \(aliceID) two")
        try await alice.expect("lost \(aliceID)")
        alice.send("send \(aliceID) three")
        try await Self.waitForLog(bob, connection: bobID, count: 2)
        let log = try bob.receivedLog().map { $0.split(separator: " ").dropFirst().map(String.init) }
        // Ids: "one" is 1, the lost "two" is 2 (Bob's receipt for "one" does not use Alice's ids).
        #expect(log == [["1", "ok", "one"], ["3", "skipped", "2-2", "three"]])
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aConnectionSpansTwoRelaysAndTheUsersEachHaveTheirOwn() async throws {
        let relayA = try await RelayProcess()
        let relayB = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relayA.address)
        let bob = try await AgentPeerProcess(servers: relayB.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)
        alice.send("sendmany \(aliceID) 50 a")
        bob.send("sendmany \(bobID) 50 b")
        try await Self.waitForLog(bob, connection: bobID, count: 50)
        try await Self.waitForLog(alice, connection: aliceID, count: 50)
        #expect(try Self.texts(bob, on: bobID) == (1...50).map { "a-\($0)" })
        #expect(try Self.texts(alice, on: aliceID) == (1...50).map { "b-\($0)" })
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aSecondProcessSubscribingTakesOverAndTheFirstStopsQuietly() async throws {
        let relay = try await RelayProcess()
        let alice = try await AgentPeerProcess(servers: relay.address)
        let bob = try await AgentPeerProcess(servers: relay.address)
        let (aliceID, bobID) = try await Self.connect(alice, bob)
        // Another process on Bob's group directory subscribes to the same queues.
        let bobAgain = try await AgentPeerProcess(directory: bob.directory, servers: relay.address)
        try await bob.expect("event end \(bobID)")
        alice.send("send \(aliceID) after-takeover")
        try await bobAgain.expect("event message \(bobID)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!bob.output.contains { $0.hasPrefix("event message") })
        #expect(try Self.texts(bobAgain, on: bobID) == ["after-takeover"])
        try await alice.quit()
        try await bob.quit()
        try await bobAgain.quit()
    }

    @Test func malformedAndForeignLinksAreRefusedWithAClearError() async throws {
        let relay = try await RelayProcess()
        let bob = try await AgentPeerProcess(servers: relay.address)
        bob.send("join simplex:/invitation#/?v=1000&smp=nonsense bob")
        #expect(try await bob.expect("error join").contains("smp"))
        // A real SimpleX Chat invitation: X448 keys.
        let x448 = "MEIwBQYDK2VvAzkA" + String(repeating: "A", count: 75)
        let simplex =
            "simplex:/invitation#/?v=2-7&smp=smp%3A%2F%2Fu2dS9sG8nMNURyZwqASV4yROM28Er0luVTx5X1CsMrU%3D%40smp4.simplex.im%2FabcdefghijklmnopqrstuvwxyzABCDEF%23%2F%3Fv%3D1-4%26dh%3D\(x448)&e2e=v%3D2-3%26x3dh%3D\(x448)%2C\(x448)"
        bob.send("join \(simplex) bob")
        #expect(try await bob.expect("error join").contains("X448"))
        try await bob.quit()
    }
}
