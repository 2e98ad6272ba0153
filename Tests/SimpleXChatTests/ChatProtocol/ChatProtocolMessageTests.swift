import SimpleXProtocol
import Testing

@testable import SimpleXChat

/// Whole messages: unknown events kept, tolerant reading, typed errors, the size limit.
@Suite struct ChatProtocolMessageTests {
    private func decode(_ body: String) throws(ChatProtocolError) -> ChatMessage {
        try ChatMessage(decoding: Array(body.utf8))
    }

    private func error(_ body: String) -> ChatProtocolError? {
        do {
            _ = try decode(body)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownEventsAreKeptAndWrittenBackUnchanged() throws {
        let bodies = [
            #"{"v":"1-18","msgId":"AAECAwQFBgcICQoL","event":"x.member","params":{"newMemberId":"AQID","profile":{"displayName":"carol","fullName":""}}}"#,
            #"{"v":"1-18","event":"x.call.inv","params":{"callId":"abc","invitation":{"callType":{"capabilities":{"encryption":true},"media":"video"}}}}"#,
            // Not in SimpleX's order, with a fractional number and a repeated key: still as it came.
            #"{"v":"1000","event":"x.future.thing","params":{"z":[1.50,{"b":null,"a":"\u0001é"}],"a":1,"a":2}}"#,
            #"{"event":"x.call.end","params":{}}"#,
        ]
        for body in bodies {
            let message = try decode(body)
            guard case .unknown(let event, let params) = message.event else {
                Issue.record("modelled: \(message.event)")
                continue
            }
            #expect(event == (try JSON(parsing: body))["event"]?.stringValue)
            #expect(params == (try JSON(parsing: body))["params"]?.objectValue)
            #expect(String(decoding: try message.encoded(), as: UTF8.self) == body)
        }
        #expect(try decode(bodies[0]).msgId?.bytes == Array(0..<12))
        #expect(ChatMsgEvent.simplexEventsKeptRaw.contains("x.member"))
        #expect(!ChatMsgEvent.simplexEventsKeptRaw.contains("x.grp.mem.new"))
        #expect(!ChatMsgEvent.simplexEventsKeptRaw.contains("x.msg.new"))
    }

    @Test func unknownContentInAKnownEventIsKept() throws {
        let body =
            #"{"v":"1000","msgId":"AQIDBA==","event":"x.msg.new","params":{"content":{"type":"poll","text":"Lunch?","options":["a","b"]}}}"#
        let message = try decode(body)
        guard case .msgNew(let container) = message.event else {
            Issue.record("not x.msg.new: \(message.event)")
            return
        }
        #expect(container.content.displayText == "Lunch?")
        #expect(String(decoding: try message.encoded(), as: UTF8.self) == body)
    }

    @Test func readingIsTolerantWhereSimplexIs() throws {
        // Whitespace, other key orders, null optionals, extra fields, the legacy object form of
        // `forward`, a `false` forward, and no `v`: all read.
        let body = """
            { "event" : "x.msg.new", "params" : { "forward" : {"chatName":"x"}, "ttl" : null,
              "content" : { "type" : "text", "text" : "hi", "extra" : 1 }, "future" : [] } }
            """
        let message = try decode(body)
        #expect(message.chatVRange == nil)
        #expect(message.effectiveVRange == VersionRange(1))
        #expect(message.event == .msgNew(MsgContainer(content: .text("hi"), forward: true)))
        #expect(
            String(decoding: try message.encoded(), as: UTF8.self)
                == #"{"event":"x.msg.new","params":{"content":{"text":"hi","type":"text"},"forward":true}}"#)
        let notForwarded = try decode(
            #"{"event":"x.msg.new","params":{"content":{"type":"text","text":""},"forward":false}}"#)
        #expect(notForwarded.event == .msgNew(MsgContainer(content: .text(""))))
    }

    @Test func malformedOrIncompleteMessagesAreTypedErrors() {
        #expect(error("") == .emptyBody)
        #expect(
            error(#"{"event":"x.msg.new","params":{"#)
                == .malformedJSON(JSONParseError(.unexpectedEnd, at: 31)))
        #expect(error(#"{"params":{}}"#) == .missingField("event"))
        #expect(error(#"{"event":"x.ok"}"#) == .missingField("params"))
        #expect(
            error(#"{"event":"x.ok","params":[]}"#)
                == .wrongType(path: "params", expected: "object", found: "array"))
        #expect(
            error(#"{"event":7,"params":{}}"#)
                == .wrongType(path: "event", expected: "string", found: "number"))
        #expect(
            error(#"{"v":"18-1","event":"x.ok","params":{}}"#)
                == .invalidValue(path: "v", reason: "not a version range: 18-1"))
        #expect(
            error(#"{"msgId":"AQ+D","event":"x.ok","params":{}}"#)
                == .invalidValue(path: "msgId", reason: "not base64url"))
        #expect(error(#"{"event":"x.msg.new","params":{}}"#) == .missingField("params.content"))
        #expect(
            error(#"{"event":"x.msg.new","params":{"content":{"type":"text"}}}"#)
                == .missingField("params.content.text"))
        #expect(
            error(#"{"event":"x.msg.new","params":{"content":{"type":"text","text":""},"ttl":"3600"}}"#)
                == .wrongType(path: "params.ttl", expected: "number", found: "string"))
        #expect(
            error(#"{"event":"x.msg.new","params":{"content":{"type":"text","text":""},"forward":1}}"#)
                == .wrongType(path: "params.forward", expected: "boolean or object", found: "number"))
        #expect(
            error(
                #"{"event":"x.msg.new","params":{"content":{"type":"text","text":""},"quote":{"content":{"type":"text","text":""},"msgRef":{"sent":true,"sentAt":"yesterday"}}}}"#
            ) == .invalidValue(path: "params.quote.msgRef.sentAt", reason: "not an ISO 8601 time: yesterday"))
        #expect(
            error(
                #"{"event":"x.msg.react","params":{"msgId":"AQID","reaction":{"type":"emoji","emoji":"👍"}}}"#)
                == .missingField("params.add"))
        #expect(error(#"{"event":"x.msg.del","params":{}}"#) == .missingField("params.msgId"))
        #expect(
            error(#"{"event":"x.info","params":{"profile":{"fullName":""}}}"#)
                == .missingField("params.profile.displayName"))
        #expect(
            error(
                #"{"event":"x.msg.new","params":{"content":{"type":"text","text":""},"mentions":{"bob":{}}}}"#
            )
                == .missingField("params.mentions.bob.memberId"))
        #expect(error("X\u{1}abc") == .unsupportedFormat("zstd-compressed batch (X)"))
        #expect(error("=\u{1}") == .unsupportedFormat("binary batch (=)"))
        #expect(
            error(#"[{"event":"x.ok","params":{}}]"#)
                == .unsupportedFormat("batch ([) where one message was expected"))
        #expect(error(#""x.ok""#) == .unsupportedFormat("body starting with 0x22"))
    }

    @Test func everyTruncationOfAMessageIsAnErrorNotACrash() throws {
        let body = Array(
            #"{"v":"1000","msgId":"AQIDBA==","event":"x.msg.react","params":{"add":true,"msgId":"BQYHCA==","reaction":{"emoji":"👍","type":"emoji"}}}"#
                .utf8)
        #expect(try ChatMessage(decoding: body).event.name == "x.msg.react")
        for length in 0..<body.count {
            #expect(throws: ChatProtocolError.self) { try ChatMessage(decoding: Array(body[..<length])) }
        }
    }

    @Test func whateverReadsFromMutatedBytesWritesBackToTheSameValue() throws {
        let original = Array(
            #"{"v":"1000","msgId":"AQIDBA==","event":"x.msg.new","params":{"content":{"text":"hello 👋","type":"text"},"file":{"fileName":"a.txt","fileSize":12},"ttl":30}}"#
                .utf8)
        var generator = SplitMix64(seed: 0x5EED)
        var readBack = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            for result in ChatMessage.decodeBody(bytes) {
                guard case .success(let message) = result else { continue }
                readBack += 1
                let again = try ChatMessage(decoding: message.encoded(maxLength: .max))
                #expect(again == message)
            }
        }
        #expect(readBack > 0, "some mutations (inside strings) still read")
    }

    @Test func messagesOverTheLimitAreRefused() throws {
        let overhead = try ChatMessage(
            msgId: SharedMsgID(bytes: Array(0..<12)), event: .msgNew(MsgContainer(content: .text("")))
        ).encoded()
            .count
        func message(textLength: Int) -> ChatMessage {
            ChatMessage(
                msgId: SharedMsgID(bytes: Array(0..<12)),
                event: .msgNew(MsgContainer(content: .text(String(repeating: "a", count: textLength)))))
        }
        let fitting = message(textLength: ChatMessage.maxEncodedLength - overhead)
        #expect(try fitting.encoded().count == 15_602)
        #expect(throws: ChatProtocolError.tooLarge(size: 15_603, limit: 15_602)) {
            try message(textLength: ChatMessage.maxEncodedLength - overhead + 1).encoded()
        }
        // Escapes and multi-byte characters count as the bytes they become.
        #expect(throws: ChatProtocolError.tooLarge(size: overhead + 2 * 8000, limit: 15_602)) {
            try message(textLength: 0).with(text: String(repeating: "\n", count: 8000)).encoded()
        }
        #expect(try message(textLength: 20).encoded(maxLength: overhead + 20).count == overhead + 20)
        #expect(throws: ChatProtocolError.tooLarge(size: overhead + 20, limit: overhead + 19)) {
            try message(textLength: 20).encoded(maxLength: overhead + 19)
        }
    }
}

extension ChatMessage {
    fileprivate func with(text: String) -> ChatMessage {
        var copy = self
        copy.event = .msgNew(MsgContainer(content: .text(text)))
        return copy
    }
}

/// A small seeded generator, so the mutation test is the same on every run.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
