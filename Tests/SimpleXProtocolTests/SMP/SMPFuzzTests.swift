import Testing

@testable import SimpleXProtocol

/// Random and mutated inputs to every decoder: each must throw `ProtocolError` or decode to a value
/// that survives its own round trip — never trap. The generator is seeded so failures reproduce.
@Suite struct SMPFuzzTests {
    typealias V = SMPTestValues

    func seeds() throws -> [[UInt8]] {
        let server = try SMPServerAddress(
            keyHash: [UInt8](0..<32), hosts: ["a.example", "b.onion"], port: 7000)
        let uri = try SMPQueueURI(
            server: server, senderID: EntityID(V.id24), versionRange: try VersionRange(min: 1, max: 4),
            dhPublicKey: V.x25519Raw, queueMode: .messaging)
        var seeds = try V.allCommands.map { try $0.encoded() } + V.allResponses.map { try $0.encoded() }
        seeds += try V.allCommands.map {
            try SMPTransmission.command($0, correlationID: CorrelationID(V.id24), entityID: EntityID(V.id24b))
                .encode()
        }
        seeds.append(
            try ReceivedMessageBody(timestamp: 7, content: .message(flags: .noFlags, body: [1, 2])).encoded())
        seeds.append(try ReceivedMessageBody(timestamp: 7, content: .quota).encoded())
        seeds += [Array(server.description.utf8), Array(uri.description.utf8), Array("1-18".utf8)]
        return seeds
    }

    func mutate(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !out.isEmpty:
                out[Int.random(in: 0..<out.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 1 where !out.isEmpty: out.removeLast(Int.random(in: 1...out.count, using: &rng))
            case 2:
                out.insert(
                    UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...out.count, using: &rng))
            default: out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "0"), 44].shuffled(using: &rng))
            }
        }
        return out
    }

    /// Feeds one input to every decoder; returns how many decoded.
    func feed(_ bytes: [UInt8]) throws -> Int {
        var decoded = 0
        func attempt(_ body: () throws -> Void) throws {
            do {
                try body()
                decoded += 1
            } catch is ProtocolError {}
        }
        try attempt {
            let c = try SMPCommand.decode(bytes); #expect(try SMPCommand.decode(c.encoded()) == c)
        }
        try attempt {
            let r = try SMPResponse.decode(bytes); #expect(try SMPResponse.decode(r.encoded()) == r)
        }
        try attempt {
            let t = try SMPTransmission.decode(bytes)
            #expect(try SMPTransmission.decode(t.encode()) == t)
            _ = t.decodeCommand()
            _ = try? t.decodeResponse()
            _ = t.signedBytes(sessionID: [1, 2, 3])
        }
        try attempt {
            let b = try ReceivedMessageBody.decode(bytes);
            #expect(try ReceivedMessageBody.decode(b.encoded()) == b)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        try attempt {
            let a = try SMPServerAddress(text); #expect(try SMPServerAddress(a.description) == a)
        }
        try attempt {
            let u = try SMPQueueURI(text); #expect(try SMPQueueURI(u.description) == u)
        }
        try attempt {
            let v = try VersionRange(text: text); #expect(try VersionRange(text: v.description) == v)
        }
        var padded =
            bytes
            + [UInt8](
                repeating: UInt8(ascii: "#"), count: max(0, TransportBlock.encryptedPayloadSize - bytes.count)
            )
        padded = Array(padded.prefix(TransportBlock.encryptedPayloadSize))
        try attempt {
            let t = try TransportBlock.decode(padded);
            #expect(try TransportBlock.decode(TransportBlock.encode(t)) == t)
        }
        return decoded
    }

    @Test func twoThousandRandomAndMutatedInputsNeverCrashADecoder() throws {
        var rng = SeededGenerator(state: 0x5EED_5AFE)
        let seeds = try seeds()
        var decodedCount = 0
        for index in 0..<2_000 {
            let input: [UInt8]
            if index % 2 == 0 {
                input = mutate(seeds[index / 2 % seeds.count], &rng)
            } else {
                input = (0..<Int.random(in: 0...64, using: &rng)).map { _ in
                    UInt8.random(in: 0...255, using: &rng)
                }
            }
            decodedCount += try feed(input)
        }
        // Mutations keep some inputs valid, so both the success and the failure paths ran.
        #expect(decodedCount > 50)
        // Every unmutated seed decodes with at least one decoder.
        for seed in seeds { #expect(try feed(seed) >= 1, "\(seed)") }
    }
}
