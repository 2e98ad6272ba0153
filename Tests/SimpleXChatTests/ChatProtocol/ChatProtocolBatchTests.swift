import Testing

@testable import SimpleXChat

/// Batches: several messages in one agent message, as SimpleX's `batchMessages` makes them.
@Suite struct ChatProtocolBatchTests {
    @Test func batchesAreJSONArraysOfWholeMessages() throws {
        let messages = (0..<3).map {
            ChatMessage(
                msgId: SharedMsgID(bytes: [UInt8($0)]), event: .msgNew(MsgContainer(content: .text("m\($0)")))
            )
        }
        let encoded = try messages.map { try $0.encoded() }
        let batches = ChatMessage.batch(encoded)
        #expect(batches.count == 1)
        guard case .body(let body, let positions) = batches.first else {
            Issue.record("no body")
            return
        }
        #expect(positions == [0, 1, 2])
        #expect(
            body == [UInt8(ascii: "[")] + encoded[0] + [UInt8(ascii: ",")] + encoded[1] + [UInt8(ascii: ",")]
                + encoded[2] + [UInt8(ascii: "]")])
        #expect(ChatMessage.decodeBody(body).map { try? $0.get() } == messages)
    }

    @Test func batchesSplitAtTheLimitAndReportMessagesTooLargeAlone() throws {
        let small = Array(#"{"event":"x.ok","params":{}}"#.utf8)  // 28 bytes
        let large = [UInt8](repeating: UInt8(ascii: " "), count: 70)
        // Two small ones fit in 28 + 28 + 3 = 59 bytes; a third would need 88.
        let batches = ChatMessage.batch([small, small, small, large, small], maxLength: 59)
        #expect(
            batches == [
                .body(
                    [UInt8(ascii: "[")] + small + [UInt8(ascii: ",")] + small + [UInt8(ascii: "]")],
                    messages: [0, 1]),
                .body(small, messages: [2]),
                .tooLarge(message: 3, size: 70),
                .body(small, messages: [4]),
            ])
        #expect(ChatMessage.batch([]) == [])
        #expect(
            ChatMessage.batch([small, small], maxLength: 58) == [
                .body(small, messages: [0]), .body(small, messages: [1]),
            ])
    }

    @Test func aBadMessageInABatchDoesNotSpoilTheOthers() throws {
        let body =
            #"[{"event":"x.ok","params":{}},{"event":"x.msg.new","params":{}},7,{"event":"x.direct.del","params":{}}]"#
        let results = ChatMessage.decodeBody(Array(body.utf8))
        #expect(results.count == 4)
        #expect(try results[0].get().event == .ok)
        #expect(throws: ChatProtocolError.missingField("[1].params.content")) { try results[1].get() }
        #expect(throws: ChatProtocolError.wrongType(path: "[2]", expected: "object", found: "number")) {
            try results[2].get()
        }
        #expect(try results[3].get().event == .directDel)
        #expect(
            ChatMessage.decodeBody(Array("[{}".utf8)).count == 1, "an array that is not JSON is one error")
        #expect(ChatMessage.decodeBody([]).count == 1)
    }
}
