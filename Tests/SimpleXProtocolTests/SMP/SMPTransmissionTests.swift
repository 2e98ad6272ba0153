import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct SMPTransmissionTests {
    typealias V = SMPTestValues
    let sessionID = [UInt8](repeating: 0x5a, count: 32)

    @Test func transmissionLayoutIsAuthZeroCorrIdEntityIdCommand() throws {
        let transmission = SMPTransmission(
            authorization: [7, 7], correlationID: CorrelationID(V.id24), entityID: EntityID(V.id24b),
            command: V.ascii("SUB"))
        let bytes = try transmission.encode()
        #expect(bytes == [2, 7, 7] + V.ascii("0") + [24] + V.id24 + [24] + V.id24b + V.ascii("SUB"))
        #expect(try SMPTransmission.decode(bytes) == transmission)
        let event = try SMPTransmission.response(.end, correlationID: .empty, entityID: EntityID(V.id24))
        #expect(try event.encode() == [0] + V.ascii("0") + [0, 24] + V.id24 + V.ascii("END"))
    }

    @Test func signedBytesIncludeTheSessionIDAndExcludeTheAuthorization() throws {
        let transmission = SMPTransmission(
            authorization: [1, 2, 3], correlationID: CorrelationID(V.id24), entityID: EntityID(V.id24b),
            command: V.ascii("GET"))
        let signed = transmission.signedBytes(sessionID: sessionID)
        #expect(signed == [32] + sessionID + [24] + V.id24 + [24] + V.id24b + V.ascii("GET"))
        // It is the encoding after the authorization and the '0', prefixed with the session id.
        #expect(Array(signed.dropFirst(33)) == Array(try transmission.encode().dropFirst(1 + 3 + 1)))
        var reauthorized = transmission
        reauthorized.authorization = [9]
        #expect(reauthorized.signedBytes(sessionID: sessionID) == signed)
        #expect(transmission.signedBytes(sessionID: [UInt8](repeating: 1, count: 32)) != signed)
    }

    @Test func clientCommandIsSignedOverSignedBytesAndVerifies() throws {
        let keys = Ed25519.generateKeyPair()
        let transmission = try SMPTransmission.command(
            .sub, correlationID: CorrelationID(V.id24), entityID: EntityID(V.id24b), sessionID: sessionID
        ) { try Ed25519.sign($0, secretKey: keys.secretKey) }
        #expect(transmission.authorization.count == 64)
        let received = try SMPTransmission.decode(transmission.encode())
        try Ed25519.verify(
            received.authorization, for: received.signedBytes(sessionID: sessionID), publicKey: keys.publicKey
        )
        // The same transmission replayed in another session does not verify.
        #expect(throws: (any Error).self) {
            try Ed25519.verify(
                received.authorization,
                for: received.signedBytes(sessionID: [UInt8](repeating: 0, count: 32)),
                publicKey: keys.publicKey)
        }
        #expect(received.decodeCommand() == .success(.sub))
    }

    @Test func oversizedIdsAreRefusedBeforeSigning() {
        var signed = false
        #expect(throws: ProtocolError.self) {
            try SMPTransmission.command(
                .sub, correlationID: CorrelationID(V.id24),
                entityID: EntityID([UInt8](repeating: 1, count: 256)),
                sessionID: sessionID
            ) { _ in
                signed = true
                return []
            }
        }
        #expect(!signed)
    }

    @Test func serverDecodingAnswersErrorsInsteadOfDropping() throws {
        func server(_ command: [UInt8], auth: [UInt8] = [1], entity: EntityID = EntityID(V.id24)) -> Result<
            SMPCommand, SMPErrorType
        > {
            SMPTransmission(
                authorization: auth, correlationID: CorrelationID(V.id24), entityID: entity, command: command
            )
            .decodeCommand()
        }
        #expect(server(V.ascii("FLY")) == .failure(.cmd(.unknown)))
        #expect(server([]) == .failure(.cmd(.unknown)))
        #expect(server(V.ascii("ACK ") + [30, 1]) == .failure(.cmd(.syntax)))
        #expect(server(V.ascii("SUB")) == .success(.sub))
        #expect(server(V.ascii("SUB"), auth: []) == .failure(.cmd(.noAuth)))
        #expect(server(V.ascii("PING"), auth: [], entity: .empty) == .success(.ping))
        #expect(server(V.ascii("PING"), auth: [], entity: EntityID(V.id24)) == .failure(.cmd(.hasAuth)))
        #expect(server(V.ascii("SEND F x"), auth: []) == .success(.send(flags: .noFlags, body: V.ascii("x"))))
        #expect(server(V.ascii("SEND F x"), auth: [], entity: .empty) == .failure(.cmd(.noEntity)))
        // A server reply in the client->server direction is not a command.
        #expect(server(V.ascii("OK")) == .failure(.cmd(.unknown)))
    }

    @Test func responseHelpersRoundTripOnTheClient() throws {
        for response in V.allResponses {
            let transmission = try SMPTransmission.response(
                response, correlationID: CorrelationID(V.id24), entityID: EntityID(V.id24b))
            #expect(transmission.authorization.isEmpty)
            let received = try SMPTransmission.decode(transmission.encode())
            #expect(received.correlationID == CorrelationID(V.id24))
            #expect(try received.decodeResponse() == response)
        }
    }

    @Test func malformedTransmissionsThrow() throws {
        let good = try SMPTransmission.response(.ok, correlationID: CorrelationID(V.id24), entityID: .empty)
            .encode()
        let cases: [[UInt8]] = [
            [], [5, 1, 2], [0], [0] + V.ascii("1") + [0, 0], [0] + V.ascii("X") + [0, 0],
            [0] + V.ascii("0") + [24, 1],
            Array(good.prefix(20)), [0] + V.ascii("0") + [0],
        ]
        for bytes in cases {
            #expect(throws: ProtocolError.self, "\(bytes)") { try SMPTransmission.decode(bytes) }
        }
    }

    @Test func idsAreRandomAndPrintAsBase64URL() {
        let a = EntityID.random(), b = EntityID.random()
        #expect(a.bytes.count == 24 && a != b)
        #expect(CorrelationID.random().bytes.count == 24)
        #expect(EntityID([0xfb, 0xff]).description == "-_8=")
        #expect(EntityID.empty.isEmpty && CorrelationID.empty.isEmpty)
    }
}

@Suite struct TransportBlockTests {
    @Test func blockIsCountThenLargeStringsPaddedToThePayloadSize() throws {
        let block = try TransportBlock.encode([[1, 2], [3]])
        #expect(block.count == TransportBlock.encryptedPayloadSize)
        #expect(TransportBlock.encryptedPayloadSize + 16 == TransportBlock.size)
        // Padding length 8, count 2, Large [1,2], Large [3], then '#'.
        #expect(Array(block.prefix(11)) == [0, 8, 2, 0, 2, 1, 2, 0, 1, 3, UInt8(ascii: "#")])
        #expect(try TransportBlock.decode(block) == [[1, 2], [3]])
    }

    @Test func countLimitsAndSizeLimits() throws {
        #expect(throws: ProtocolError.self) { try TransportBlock.encode([]) }
        #expect(throws: ProtocolError.self) { try TransportBlock.encode(Array(repeating: [1], count: 256)) }
        #expect(
            try TransportBlock.decode(TransportBlock.encode(Array(repeating: [1], count: 255))).count == 255)
        // The largest single transmission: payload 16,368 − 2 (padding) − 1 (count) − 2 (Large) = 16,363.
        let largest = [UInt8](repeating: 7, count: 16_363)
        #expect(TransportBlock.fits(largest))
        #expect(try TransportBlock.decode(TransportBlock.encode([largest])) == [largest])
        #expect(!TransportBlock.fits(largest + [0]))
        #expect(throws: ProtocolError.tooLarge("message of 16367 bytes for a padded size of 16368")) {
            try TransportBlock.encode([largest + [0]])
        }
    }

    @Test func malformedBlocksThrow() throws {
        let good = try TransportBlock.encode([[1, 2, 3]])
        var zeroCount = good
        zeroCount[2] = 0
        var overlong = good
        overlong[1] = 200  // the padded length covers filler the count does not account for
        var badLarge = good
        badLarge[4] = 9
        for bytes in [[], Array(good.dropLast()), good + [0], zeroCount, overlong, badLarge] {
            #expect(throws: ProtocolError.self) { try TransportBlock.decode(bytes) }
        }
    }

    @Test func batchPacksInOrderAndSplitsWhenFull() throws {
        #expect(TransportBlock.batch([]).isEmpty)
        let small = (0..<300).map { [UInt8(truncatingIfNeeded: $0)] }
        let counts = TransportBlock.batch(small).map(\.count)
        #expect(counts == [255, 45])
        #expect(TransportBlock.batch(small).flatMap { $0 } == small)

        let big = [UInt8](repeating: 1, count: 8_000)
        let batches = TransportBlock.batch([big, big, big, [2]])
        #expect(batches.map(\.count) == [2, 2])
        for batch in batches { #expect(try TransportBlock.decode(TransportBlock.encode(batch)) == batch) }

        let tooBig = [UInt8](repeating: 3, count: 20_000)
        let withOversized = TransportBlock.batch([[1], tooBig, [2]])
        #expect(withOversized == [[[1]], [tooBig], [[2]]])
        #expect(throws: ProtocolError.self) { try TransportBlock.encode(withOversized[1]) }
    }
}
