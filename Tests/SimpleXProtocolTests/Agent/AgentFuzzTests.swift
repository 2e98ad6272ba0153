import Testing

@testable import SimpleXProtocol

/// Truncated, mutated and random inputs to every agent-layer decoder: each must throw its typed
/// error or decode to a value that survives its own round trip — never trap. Seeded, so a failure
/// reproduces.
@Suite struct AgentFuzzTests {
    typealias A = AgentTestValues

    static let iterations = 10_000

    func binarySeeds() throws -> [[UInt8]] {
        var seeds = try A.allAgentMessages.map { try $0.encoded() }
        seeds += try A.allEnvelopes.map { try $0.encoded() }
        seeds += try A.allClientMessages.map { try $0.encoded() }
        seeds += try A.allClientEnvelopes.map { try $0.encoded() }
        seeds.append(try A.e2eParams.encoded())
        return seeds
    }

    func textSeeds() throws -> [[UInt8]] {
        let twoQueues = try ConnectionLink(
            mode: .invitation(A.e2eURI), queues: [A.queue(), A.queue(.contact, server: A.otherServer)],
            clientData: "x y")
        return [
            try A.invitation.description, try A.contact.text(scheme: .simplexChat), twoQueues.description,
            try A.e2eURI.description, ConnectionLinkTests.simplexInvitation,
            ConnectionLinkTests.simplexContact,
        ].map { Array($0.utf8) }
    }

    func mutate(_ bytes: [UInt8], text: Bool, _ rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        // Characters that matter to the link grammar, so text mutations reach past the scheme.
        let interesting = Array("%&;=#?/:,-+3DF0".utf8)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !out.isEmpty: out.removeLast(Int.random(in: 1...out.count, using: &rng))
            case 1 where !out.isEmpty:
                out[Int.random(in: 0..<out.count, using: &rng)] =
                    text ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            case 2 where !out.isEmpty: out.remove(at: Int.random(in: 0..<out.count, using: &rng))
            case 3:
                let byte =
                    text ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                out.insert(byte, at: Int.random(in: 0...out.count, using: &rng))
            default:
                // A length or count byte set to something large or zero.
                if !out.isEmpty {
                    out[Int.random(in: 0..<out.count, using: &rng)] = [0, 1, 0xff].randomElement(using: &rng)!
                }
            }
        }
        return out
    }

    /// Feeds one input to every binary decoder; returns how many decoded.
    func feedBinary(_ bytes: [UInt8]) -> Int {
        var decoded = 0
        func attempt(_ body: () throws(ProtocolError) -> Void) {
            do {
                try body()
                decoded += 1
            } catch {}
        }
        attempt { () throws(ProtocolError) in
            let m = try AgentMessage.decode(bytes); #expect(try AgentMessage.decode(m.encoded()) == m)
        }
        attempt { () throws(ProtocolError) in
            let e = try AgentMsgEnvelope.decode(bytes); #expect(try AgentMsgEnvelope.decode(e.encoded()) == e)
        }
        attempt { () throws(ProtocolError) in
            let c = try ClientMessage.decode(bytes); #expect(try ClientMessage.decode(c.encoded()) == c)
            _ = try c.envelope()
        }
        attempt { () throws(ProtocolError) in
            let c = try ClientMsgEnvelope.decode(bytes);
            #expect(try ClientMsgEnvelope.decode(c.encoded()) == c)
        }
        attempt { () throws(ProtocolError) in
            let p = try E2ERatchetParams.decode(bytes); #expect(try E2ERatchetParams.decode(p.encoded()) == p)
        }
        attempt { () throws(ProtocolError) in
            var reader = ByteReader(bytes)
            let m = try AMessage.decode(&reader)
            var writer = ByteWriter()
            try m.encode(to: &writer)
            var again = ByteReader(writer.bytes)
            #expect(try AMessage.decode(&again) == m)
        }
        attempt { () throws(ProtocolError) in
            var reader = ByteReader(bytes)
            let q = try SMPQueueInfo.decode(&reader)
            var writer = ByteWriter()
            try q.encode(to: &writer)
            var again = ByteReader(writer.bytes)
            #expect(try SMPQueueInfo.decode(&again) == q)
        }
        return decoded
    }

    /// Feeds one input to the link parsers; returns how many parsed.
    func feedText(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        var parsed = 0
        do {
            let link = try ConnectionLink(text)
            parsed += 1
            #expect(try ConnectionLink(link.description) == link)
            #expect(try ConnectionLink(link.text(scheme: .simplexChat)) == link)
        } catch {}
        do {
            let e2e = try E2ERatchetParamsURI(text)
            parsed += 1
            #expect(try E2ERatchetParamsURI(e2e.description) == e2e)
        } catch {}
        // Links from SimpleX's own version space, parsed as if we spoke it, exercise the rest of the grammar.
        do {
            let wide = try VersionRange(min: 1, max: 1000)
            let link = try ConnectionLink(text, supportedAgentVersions: wide, supportedE2EVersions: wide)
            parsed += 1
            #expect(
                try ConnectionLink(link.description, supportedAgentVersions: wide, supportedE2EVersions: wide)
                    == link)
        } catch {}
        return parsed
    }

    @Test func mutatedEnvelopesNeverTrap() throws {
        var rng = SeededGenerator(state: 0x5eed_a9e7)
        let seeds = try binarySeeds()
        var decoded = 0
        var rejected = 0
        for iteration in 0..<Self.iterations {
            let input: [UInt8]
            if iteration % 10 == 9 {
                input = (0..<Int.random(in: 0...64, using: &rng)).map { _ in
                    UInt8.random(in: 0...255, using: &rng)
                }
            } else {
                input = mutate(seeds.randomElement(using: &rng)!, text: false, &rng)
            }
            let count = feedBinary(input)
            decoded += count
            if count == 0 { rejected += 1 }
        }
        // Both outcomes happen, so the mutations are neither all harmless nor all fatal.
        #expect(decoded > Self.iterations / 10)
        #expect(rejected > Self.iterations / 10)
    }

    @Test func mutatedLinksNeverTrap() throws {
        var rng = SeededGenerator(state: 0x11_4c5)
        let seeds = try textSeeds()
        var parsed = 0
        var rejected = 0
        for _ in 0..<Self.iterations {
            let count = feedText(mutate(seeds.randomElement(using: &rng)!, text: true, &rng))
            parsed += count
            if count == 0 { rejected += 1 }
        }
        #expect(parsed > Self.iterations / 50)
        #expect(rejected > Self.iterations / 10)
    }
}
