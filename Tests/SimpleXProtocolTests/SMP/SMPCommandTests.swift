import Testing

@testable import SimpleXProtocol

@Suite struct SMPCommandTests {
    typealias V = SMPTestValues

    @Test func sendEncodesFlagSpaceAndBodyAsTail() throws {
        let send = SMPCommand.send(flags: MessageFlags(notification: true), body: V.ascii("hello"))
        #expect(try send.encoded() == V.ascii("SEND T hello"))
        let quiet = SMPCommand.send(flags: .noFlags, body: V.ascii("a b"))
        #expect(try quiet.encoded() == V.ascii("SEND F a b"))
        // The body is the rest of the transmission: spaces and trailing bytes belong to it.
        #expect(
            try SMPCommand.decode(V.ascii("SEND F a b ")) == .send(flags: .noFlags, body: V.ascii("a b ")))
    }

    @Test func newEncodesSPKIKeysAbsentBasicAuthAndModes() throws {
        let new = SMPCommand.new(
            recipientAuthKey: V.edKey, recipientDHKey: V.x25519Raw, subscriptionMode: .subscribe,
            queueMode: .messaging)
        let expected =
            V.ascii("NEW ") + [44] + V.ed25519Prefix + V.ed25519Raw + [44] + V.x25519Prefix + V.x25519Raw
            + V.ascii("0SM")
        #expect(try new.encoded() == expected)
        let contact = SMPCommand.new(
            recipientAuthKey: V.xKey, recipientDHKey: V.x25519Raw, subscriptionMode: .onlyCreate,
            queueMode: .contact)
        #expect(try contact.encoded().suffix(3) == V.ascii("0CC"))
        #expect(try contact.encoded()[5..<17] == V.x25519Prefix[...])
    }

    @Test func newWithABasicAuthFromAnotherClientIsParsedPastIt() throws {
        let bytes =
            V.ascii("NEW ") + [44] + V.ed25519Prefix + V.ed25519Raw + [44] + V.x25519Prefix + V.x25519Raw
            + V.ascii("1") + [4] + V.ascii("pass") + V.ascii("SC")
        #expect(
            try SMPCommand.decode(bytes)
                == .new(
                    recipientAuthKey: V.edKey, recipientDHKey: V.x25519Raw, subscriptionMode: .subscribe,
                    queueMode: .contact))
    }

    @Test func otherCommandsHaveSimplexBytes() throws {
        #expect(try SMPCommand.ack(messageID: V.id24).encoded() == V.ascii("ACK ") + [24] + V.id24)
        #expect(
            try SMPCommand.key(senderKey: V.xKey).encoded() == V.ascii("KEY ") + [44] + V.x25519Prefix
                + V.x25519Raw)
        #expect(
            try SMPCommand.skey(senderKey: V.edKey).encoded() == V.ascii("SKEY ") + [44] + V.ed25519Prefix
                + V.ed25519Raw)
        for (command, text) in [
            (SMPCommand.sub, "SUB"), (.get, "GET"), (.off, "OFF"), (.del, "DEL"), (.ping, "PING"),
        ] {
            #expect(try command.encoded() == V.ascii(text))
        }
    }

    @Test func everyCommandRoundTrips() throws {
        for command in V.allCommands {
            #expect(try SMPCommand.decode(command.encoded()) == command)
        }
    }

    @Test func unknownFlagBytesBeforeTheSpaceAreSkipped() throws {
        #expect(
            try SMPCommand.decode(V.ascii("SEND TXY body"))
                == .send(flags: MessageFlags(notification: true), body: V.ascii("body")))
    }

    @Test func malformedCommandsThrow() throws {
        let ack = try SMPCommand.ack(messageID: V.id24).encoded()
        let new = try V.allCommands[0].encoded()
        let cases: [[UInt8]] = [
            [], V.ascii("FOO"), V.ascii("SUBX"), V.ascii("SUB extra"), V.ascii("PING!"),
            Array(ack.dropLast()), ack + [0],  // truncated id; trailing byte
            Array(new.dropLast()), Array(new.dropLast(2)) + V.ascii("XM"),
            Array(new.dropLast()) + V.ascii("Z"),
            Array(new.prefix(30)), V.ascii("SEND X body"), V.ascii("SEND T"), V.ascii("KEY "),
            // An X448 key where an auth key is expected, and an Ed25519 key where an X25519 DH key is.
            V.ascii("KEY ") + [UInt8(V.x448SPKI.count)] + V.x448SPKI,
            V.ascii("NEW ") + [44] + V.ed25519Prefix + V.ed25519Raw + [44] + V.ed25519Prefix + V.ed25519Raw
                + V.ascii("0SM"),
            V.ascii("NEW ") + [44] + V.ed25519Prefix + V.ed25519Raw + [44] + V.x25519Prefix + V.x25519Raw
                + V.ascii("2SM"),
        ]
        for bytes in cases {
            #expect(throws: ProtocolError.self, "\(bytes)") { try SMPCommand.decode(bytes) }
        }
    }

    @Test func partiesAndAuthorizationRules() {
        #expect(SMPCommand.sub.party == .recipient)
        #expect(V.allCommands[0].party == .recipient)
        #expect(SMPCommand.skey(senderKey: V.xKey).party == .sender)
        #expect(SMPCommand.send(flags: .noFlags, body: []).party == .sender)
        #expect(SMPCommand.ping.party == SMPParty.none)
        #expect(V.allCommands[0].requiresAuthorization)
        #expect(SMPCommand.ack(messageID: V.id24).requiresAuthorization)
        #expect(!SMPCommand.send(flags: .noFlags, body: []).requiresAuthorization)
        #expect(!SMPCommand.ping.requiresAuthorization)
        let queue = EntityID(V.id24)
        #expect(V.allCommands[0].credentialsError(hasAuthorization: true, entityID: .empty) == nil)
        #expect(V.allCommands[0].credentialsError(hasAuthorization: false, entityID: .empty) == .cmd(.noAuth))
        #expect(V.allCommands[0].credentialsError(hasAuthorization: true, entityID: queue) == .cmd(.hasAuth))
        #expect(
            SMPCommand.send(flags: .noFlags, body: []).credentialsError(
                hasAuthorization: false, entityID: queue) == nil)
        #expect(
            SMPCommand.send(flags: .noFlags, body: []).credentialsError(
                hasAuthorization: false, entityID: .empty) == .cmd(.noEntity))
        #expect(SMPCommand.ping.credentialsError(hasAuthorization: false, entityID: .empty) == nil)
        #expect(SMPCommand.ping.credentialsError(hasAuthorization: false, entityID: queue) == .cmd(.hasAuth))
        #expect(SMPCommand.sub.credentialsError(hasAuthorization: false, entityID: queue) == .cmd(.noAuth))
        #expect(SMPCommand.sub.credentialsError(hasAuthorization: true, entityID: queue) == nil)
    }

    @Test func authKeysDetectTheirAlgorithmFromSPKI() throws {
        #expect(try AuthPublicKey(spki: V.ed25519Prefix + V.ed25519Raw) == V.edKey)
        #expect(try AuthPublicKey(spki: V.x25519Prefix + V.x25519Raw).algorithm == .x25519)
        #expect(throws: ProtocolError.self) { try AuthPublicKey(spki: V.x448SPKI) }
        #expect(throws: ProtocolError.self) { try AuthPublicKey(spki: V.x25519Prefix + [1, 2]) }
        #expect(throws: ProtocolError.self) { try AuthPublicKey(algorithm: .ed25519, raw: [1]) }
    }
}
