import Testing

@testable import SimpleXProtocol

@Suite struct AgentEnvelopeTests {
    typealias A = AgentTestValues
    typealias V = SMPTestValues

    static let x25519 = A.hex(V.x25519Prefix)
    static let relayExample =
        "01" + "0d" + A.hex(Array("relay.example".utf8)) + "00" + "20" + A.hex([UInt8](0..<32))

    @Test func everyStructureRoundTrips() throws {
        for message in try A.allAMessages {
            var writer = ByteWriter()
            try message.encode(to: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(try AMessage.decode(&reader) == message)
            #expect(reader.isAtEnd)
        }
        for message in try A.allAgentMessages {
            #expect(try AgentMessage.decode(message.encoded()) == message)
        }
        for envelope in try A.allEnvelopes {
            #expect(try AgentMsgEnvelope.decode(envelope.encoded()) == envelope)
        }
        for message in try A.allClientMessages {
            #expect(try ClientMessage.decode(message.encoded()) == message)
        }
        for (message, envelope) in zip(try A.allClientMessages, try A.allEnvelopes) {
            #expect(try message.envelope() == envelope)
        }
        for envelope in try A.allClientEnvelopes {
            #expect(try ClientMsgEnvelope.decode(envelope.encoded()) == envelope)
        }
        for server in [
            try A.server, try A.otherServer,
            try SMPServerAddress(keyHash: [UInt8](0..<32), hosts: ["[::1]"], port: 1),
        ] {
            var writer = ByteWriter()
            try server.encode(to: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(try SMPServerAddress.decode(&reader) == server)
        }
    }

    @Test func confirmationEnvelopeBytes() throws {
        let envelope = AgentMsgEnvelope(
            agentVersion: 1000,
            content: .confirmation(e2eParams: try A.e2eParams, encryptedConnInfo: [1, 2, 3]))
        let expected =
            "03e8" + "43" + "31" + "03e8" + "2c" + Self.x25519 + String(repeating: "33", count: 32)
            + "2c" + Self.x25519 + String(repeating: "44", count: 32) + "010203"
        #expect(A.hex(try envelope.encoded()) == expected)
        #expect(try AgentMsgEnvelope.decode(A.bytes(hex: expected)) == envelope)
        // The inviter's confirmation has no ratchet params.
        let reply = AgentMsgEnvelope(
            agentVersion: 1000, content: .confirmation(e2eParams: nil, encryptedConnInfo: [7]))
        #expect(A.hex(try reply.encoded()) == "03e8" + "43" + "30" + "07")
        #expect(
            A.hex(
                try AgentMsgEnvelope(agentVersion: 1000, content: .message(encryptedAgentMessage: [9]))
                    .encoded()) == "03e84d09")
    }

    @Test func invitationEnvelopeCarriesTheLinkAsLargeText() throws {
        let link = try A.invitation
        let envelope = AgentMsgEnvelope(
            agentVersion: 1000, content: .invitation(connectionRequest: link, connInfo: [0x7b, 0x7d]))
        let text = Array(link.description.utf8)
        let expected =
            [0x03, 0xe8, UInt8(ascii: "I"), UInt8(text.count >> 8), UInt8(text.count & 0xff)] + text + [
                0x7b, 0x7d,
            ]
        #expect(try envelope.encoded() == expected)
        // A contact address where an invitation belongs is refused both ways.
        let contact = AgentMsgEnvelope(
            agentVersion: 1000, content: .invitation(connectionRequest: try A.contact, connInfo: []))
        #expect(throws: ProtocolError.self) { try contact.encoded() }
        var writer = ByteWriter()
        writer.append([0x03, 0xe8, UInt8(ascii: "I")])
        try writer.appendLarge(Array(try A.contact.description.utf8))
        #expect(throws: ProtocolError.invalid("invitation link: a contact address")) {
            try AgentMsgEnvelope.decode(writer.bytes)
        }
    }

    @Test func perQueueLayerBytes() throws {
        let envelope = try ClientMsgEnvelope(
            header: PubHeader(version: 4, senderDHKey: V.x25519Raw), nonce: A.nonce, ciphertext: [1, 2, 3])
        let expected =
            "0004" + "31" + "2c" + Self.x25519 + String(repeating: "22", count: 32) + A.hex(A.nonce)
            + "010203"
        #expect(A.hex(try envelope.encoded()) == expected)
        let plain = try ClientMsgEnvelope(
            header: PubHeader(version: 4, senderDHKey: nil), nonce: A.nonce, ciphertext: [])
        #expect(A.hex(try plain.encoded()) == "0004" + "30" + A.hex(A.nonce))
        #expect(throws: ProtocolError.self) {
            try ClientMsgEnvelope(header: plain.header, nonce: [1], ciphertext: [])
        }

        let confirmation = ClientMessage(
            privateHeader: .confirmation(senderKey: V.edKey), body: [0x03, 0xe8, 0x4d])
        #expect(
            A.hex(try confirmation.encoded()) == "4b" + "2c" + A.hex(V.ed25519Prefix)
                + String(repeating: "11", count: 32) + "03e84d")
        #expect(try ClientMessage(privateHeader: .empty, body: [1]).encoded() == [UInt8(ascii: "_"), 1])

        // The padded sizes leave every SEND body within SMP's limit.
        let fullConfirmation = try ClientMsgEnvelope(
            header: envelope.header, nonce: A.nonce,
            ciphertext: [UInt8](repeating: 0, count: ClientMsgEnvelope.paddedConfirmationLength + 16))
        let fullMessage = try ClientMsgEnvelope(
            header: plain.header, nonce: A.nonce,
            ciphertext: [UInt8](repeating: 0, count: ClientMsgEnvelope.paddedMessageLength + 16))
        #expect(try fullConfirmation.encoded().count == 15_992)
        #expect(try fullMessage.encoded().count == 16_043)
        #expect(try fullMessage.encoded().count <= ReceivedMessageBody.maxBodySize)
    }

    @Test func agentMessageBytes() throws {
        let receipt = AgentMessage.message(
            APrivHeader(sndMsgID: 5, prevMsgHash: [1, 2, 3]),
            .receipts([AMessageReceipt(agentMsgID: 5, msgHash: [0xaa, 0xbb], receiptInfo: Array("ok".utf8))]))
        let expectedReceipt =
            "4d" + "0000000000000005" + "03010203" + "56" + "01" + "0000000000000005" + "02aabb" + "00026f6b"
        #expect(A.hex(try receipt.encoded()) == expectedReceipt)

        let reply = AgentMessage.connInfoReply(queues: [try A.queueInfo], connInfo: Array("{}".utf8))
        let expectedReply =
            "44" + "01" + "0004" + Self.relayExample + "18" + A.hex(V.id24b) + "2c" + Self.x25519
            + String(repeating: "22", count: 32) + "4d" + "7b7d"
        #expect(A.hex(try reply.encoded()) == expectedReply)

        let header = APrivHeader(sndMsgID: 1, prevMsgHash: [])
        let queueContinue = AgentMessage.message(header, .queueContinue(try A.address))
        let otherServer =
            "02" + "09" + A.hex(Array("a.example".utf8)) + "0e" + A.hex(Array("bbbbbbbb.onion".utf8))
            + "04" + A.hex(Array("7000".utf8)) + "20" + A.hex([UInt8](32..<64))
        #expect(
            A.hex(try queueContinue.encoded()) == "4d" + "0000000000000001" + "00" + "5143" + otherServer
                + "18" + A.hex(V.id24))
        let ready = AgentMessage.message(header, .ratchetReady(lastDecryptedMessageID: 258))
        #expect(A.hex(try ready.encoded()) == "4d" + "0000000000000001" + "00" + "45" + "0000000000000102")
        #expect(
            A.hex(try AgentMessage.message(header, .hello).encoded()) == "4d" + "0000000000000001" + "00"
                + "48")
        #expect(A.hex(try AgentMessage.connInfo([1]).encoded()) == "4901")
    }

    @Test func messageHashIsSHA256OfTheEncoding() throws {
        #expect(
            A.hex(AgentMessage.hash(ofEncoded: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        for message in try A.allAgentMessages {
            let hash = try message.hash()
            #expect(hash.count == 32)
            #expect(hash == AgentMessage.hash(ofEncoded: try message.encoded()))
        }
        let first = AgentMessage.message(APrivHeader(sndMsgID: 1, prevMsgHash: []), .message(body: [1]))
        let second = AgentMessage.message(APrivHeader(sndMsgID: 1, prevMsgHash: []), .message(body: [2]))
        #expect(try first.hash() != second.hash())
    }

    @Test func unknownTagsAreTypedErrors() throws {
        let header = "4d" + "0000000000000001" + "00"
        let cases: [([UInt8], (([UInt8]) throws -> Void), ProtocolError)] = [
            (
                [0x03, 0xe8, UInt8(ascii: "Z")], { _ = try AgentMsgEnvelope.decode($0) },
                .unknownTag("agent envelope tag \"Z\"")
            ),
            (
                [UInt8(ascii: "X")], { _ = try AgentMessage.decode($0) },
                .unknownTag("agent message tag \"X\"")
            ),
            (
                A.bytes(hex: header + "5a"), { _ = try AgentMessage.decode($0) },
                .unknownTag("message tag \"Z\"")
            ),
            (
                A.bytes(hex: header + "515a"), { _ = try AgentMessage.decode($0) },
                .unknownTag("message tag \"QZ\"")
            ),
            (
                [UInt8(ascii: "X"), 1], { _ = try ClientMessage.decode($0) },
                .unknownTag("private header \"X\"")
            ),
        ]
        for (bytes, decode, expected) in cases {
            #expect(throws: expected, "\(A.hex(bytes))") { try decode(bytes) }
        }
        #expect(ProtocolError.unknownTag("message tag \"QZ\"").description == "unknown message tag \"QZ\"")
    }

    @Test func malformedFieldsAreErrors() throws {
        let header = "4d" + "0000000000000001" + "00"
        let cases: [(String, (([UInt8]) throws -> Void))] = [
            // An empty receipt list, an empty reply-queue list, trailing bytes after HELLO,
            // a queue with no mode, a port that is not digits, a Maybe that is neither '0' nor '1'.
            (header + "5600", { _ = try AgentMessage.decode($0) }),
            ("4400", { _ = try AgentMessage.decode($0) }),
            (header + "4800", { _ = try AgentMessage.decode($0) }),
            (
                "4401" + "0004" + Self.relayExample + "18" + A.hex(V.id24b) + "2c" + Self.x25519
                    + String(repeating: "22", count: 32),
                { _ = try AgentMessage.decode($0) }
            ),
            (
                header + "5143" + "01" + "01" + "61" + "02" + "3a3a" + "20" + A.hex([UInt8](0..<32)) + "00",
                { _ = try AgentMessage.decode($0) }
            ),
            ("03e8" + "43" + "32", { _ = try AgentMsgEnvelope.decode($0) }),
            ("0004" + "32" + A.hex(A.nonce), { _ = try ClientMsgEnvelope.decode($0) }),
            ("0004" + "30" + A.hex([UInt8](A.nonce.dropLast())), { _ = try ClientMsgEnvelope.decode($0) }),
        ]
        for (hex, decode) in cases {
            #expect(throws: ProtocolError.self, "\(hex)") { try decode(A.bytes(hex: hex)) }
        }
        #expect(throws: ProtocolError.truncated("agent version")) { try AgentMsgEnvelope.decode([3]) }
        #expect(throws: ProtocolError.truncated("agent message tag")) { try AgentMessage.decode([]) }
        #expect(throws: ProtocolError.self) {
            try AgentMessage.connInfoReply(queues: [], connInfo: []).encoded()
        }
    }

    /// Every strict prefix of an encoding either throws or is itself a valid, shorter value
    /// (a shorter tail); structures without a tail reject every prefix.
    @Test func truncatedEncodingsThrowOrStayConsistent() throws {
        func check(_ bytes: [UInt8], tailless: Bool, _ decode: ([UInt8]) throws(ProtocolError) -> [UInt8]) {
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                do {
                    let reencoded = try decode(prefix)
                    #expect(!tailless, "prefix \(length) of \(A.hex(bytes)) decoded")
                    #expect(reencoded == prefix)
                } catch {
                    // A ProtocolError, as the typed throw guarantees.
                }
            }
        }
        for message in try A.allAgentMessages {
            var tailless = true
            switch message {
            case .message(_, .message), .connInfo, .connInfoReply, .ratchetInfo: tailless = false
            default: break
            }
            check(try message.encoded(), tailless: tailless) { (b) throws(ProtocolError) in
                try AgentMessage.decode(b).encoded()
            }
        }
        for envelope in try A.allEnvelopes {
            check(try envelope.encoded(), tailless: false) { (b) throws(ProtocolError) in
                try AgentMsgEnvelope.decode(b).encoded()
            }
        }
        for envelope in try A.allClientEnvelopes {
            check(try envelope.encoded(), tailless: false) { (b) throws(ProtocolError) in
                try ClientMsgEnvelope.decode(b).encoded()
            }
        }
        for message in try A.allClientMessages {
            check(try message.encoded(), tailless: false) { (b) throws(ProtocolError) in
                try ClientMessage.decode(b).encoded()
            }
        }
        // The fixed part of a confirmation cannot be cut.
        let confirmation = try A.allEnvelopes[0].encoded()
        for length in 0..<(confirmation.count - 3) {
            #expect(throws: ProtocolError.self) {
                try AgentMsgEnvelope.decode(Array(confirmation[..<length]))
            }
        }
    }

    @Test func queueInfoFromALinkQueue() throws {
        let info = SMPQueueInfo(try A.queue(nil), clientVersion: 4)
        #expect(info.queueMode == .messaging)
        #expect(info.address == SenderQueueAddress(server: try A.server, senderID: EntityID(V.id24)))
        #expect(SMPQueueInfo(try A.queue(.contact), clientVersion: 4).queueMode == .contact)
        #expect(throws: ProtocolError.self) {
            try SMPQueueInfo(
                clientVersion: 4, server: A.server, senderID: EntityID(V.id24), dhPublicKey: [1],
                queueMode: .contact)
        }
    }
}
