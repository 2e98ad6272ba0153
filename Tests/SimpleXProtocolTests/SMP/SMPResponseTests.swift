import Testing

@testable import SimpleXProtocol

@Suite struct SMPResponseTests {
    typealias V = SMPTestValues

    @Test func responsesHaveSimplexBytes() throws {
        let ids = SMPResponse.ids(
            recipientID: EntityID(V.id24), senderID: EntityID(V.id24b), serverDHKey: V.x25519Raw,
            queueMode: .contact)
        #expect(
            try ids.encoded()
                == V.ascii("IDS ") + [24] + V.id24 + [24] + V.id24b + [44] + V.x25519Prefix + V.x25519Raw
                + V.ascii("C"))
        #expect(
            try SMPResponse.msg(messageID: V.id24, encryptedBody: [9, 8]).encoded() == V.ascii("MSG ") + [24]
                + V.id24 + [9, 8])
        #expect(try SMPResponse.err(.cmd(.syntax)).encoded() == V.ascii("ERR CMD SYNTAX"))
        #expect(try SMPResponse.err(.auth).encoded() == V.ascii("ERR AUTH"))
        #expect(try SMPResponse.err(.noMsg).encoded() == V.ascii("ERR NO_MSG"))
        #expect(try SMPResponse.err(.largeMsg).encoded() == V.ascii("ERR LARGE_MSG"))
        #expect(try SMPResponse.err(.cmd(.noEntity)).encoded() == V.ascii("ERR CMD NO_ENTITY"))
        for (response, text) in [(SMPResponse.ok, "OK"), (.end, "END"), (.deld, "DELD"), (.pong, "PONG")] {
            #expect(try response.encoded() == V.ascii(text))
        }
    }

    @Test func everyResponseAndErrorRoundTrips() throws {
        for response in V.allResponses {
            #expect(try SMPResponse.decode(response.encoded()) == response)
        }
    }

    @Test func unknownErrorsKeepTheirText() throws {
        #expect(
            try SMPResponse.decode(V.ascii("ERR PROXY NO_SESSION")) == .err(.unrecognized("PROXY NO_SESSION"))
        )
        #expect(try SMPResponse.decode(V.ascii("ERR CMD WHATEVER")) == .err(.unrecognized("CMD WHATEVER")))
        // SimpleX's older name for NO_ENTITY.
        #expect(try SMPResponse.decode(V.ascii("ERR CMD NO_QUEUE")) == .err(.cmd(.noEntity)))
        #expect(SMPErrorType.unrecognized("X").description == "X")
    }

    @Test func malformedResponsesThrow() throws {
        let ids = try V.allResponses[0].encoded()
        let cases: [[UInt8]] = [
            [], V.ascii("NOPE"), V.ascii("OKAY"), V.ascii("PONG x"), V.ascii("ERR "), V.ascii("ERR"),
            Array(ids.dropLast()), ids + [0], Array(ids.dropLast()) + V.ascii("X"), V.ascii("MSG "),
            V.ascii("MSG ") + [5, 1],
        ]
        for bytes in cases {
            #expect(throws: ProtocolError.self, "\(bytes)") { try SMPResponse.decode(bytes) }
        }
    }
}
