import Testing

@testable import SimpleXChat

@Suite struct ChatProtocolFileChunkTests {
    @Test func chunksAreTagNumberAndBytes() throws {
        let chunk = FileChunk.chunk(number: 0x0102_0304, bytes: [0xAA, 0xBB])
        #expect(try chunk.encoded() == [UInt8(ascii: "F"), 1, 2, 3, 4, 0xAA, 0xBB])
        #expect(try FileChunk(decoding: [UInt8(ascii: "F"), 1, 2, 3, 4, 0xAA, 0xBB]) == chunk)
        #expect(try FileChunk.cancel.encoded() == [UInt8(ascii: "C")])
        #expect(try FileChunk(decoding: [UInt8(ascii: "C")]) == .cancel)
        #expect(try FileChunk(decoding: [UInt8(ascii: "F"), 0, 0, 0, 7]) == .chunk(number: 7, bytes: []))
    }

    @Test func chunksAreLimitedTo15780Bytes() throws {
        let full = FileChunk.chunk(number: 1, bytes: [UInt8](repeating: 0x5A, count: 15_780))
        let encoded = try full.encoded()
        #expect(encoded.count == 15_785)
        #expect(try FileChunk(decoding: encoded) == full)
        #expect(throws: ChatProtocolError.tooLarge(size: 15_781, limit: 15_780)) {
            try FileChunk.chunk(number: 1, bytes: [UInt8](repeating: 0, count: 15_781)).encoded()
        }
        #expect(throws: ChatProtocolError.tooLarge(size: 15_781, limit: 15_780)) {
            try FileChunk(decoding: [UInt8(ascii: "F"), 0, 0, 0, 1] + [UInt8](repeating: 0, count: 15_781))
        }
    }

    @Test func malformedChunksAreTypedErrors() {
        #expect(throws: ChatProtocolError.invalidFileChunk("truncated tag")) { try FileChunk(decoding: []) }
        #expect(throws: ChatProtocolError.invalidFileChunk("truncated chunk number")) {
            try FileChunk(decoding: [UInt8(ascii: "F"), 0, 1])
        }
        #expect(throws: ChatProtocolError.invalidFileChunk("bytes after cancel")) {
            try FileChunk(decoding: [UInt8(ascii: "C"), 0])
        }
        #expect(throws: ChatProtocolError.invalidFileChunk("unknown tag 0x58")) {
            try FileChunk(decoding: [UInt8(ascii: "X")])
        }
    }

    @Test func inlineChunksTravelAsBinaryChatMessages() throws {
        let fileMsgId = SharedMsgID(bytes: [1, 2, 3, 4])
        let message = ChatMessage(
            event: .fileChunk(msgId: fileMsgId, chunk: .chunk(number: 3, bytes: [0x10, 0x20])))
        let body = try message.encoded()
        #expect(body == [UInt8(ascii: "F"), 0, 4, 1, 2, 3, 4, 3, 0x10, 0x20])
        let decoded = try ChatMessage(decoding: body)
        #expect(decoded.event == message.event)
        #expect(decoded.chatVRange == nil && decoded.msgId == nil, "the binary form carries neither")

        let cancel = InlineFileChunk(msgId: fileMsgId, chunk: .cancel)
        #expect(try cancel.encoded() == [UInt8(ascii: "F"), 0, 4, 1, 2, 3, 4, 0])
        #expect(try InlineFileChunk(decoding: cancel.encoded()) == cancel)
        #expect(
            ChatMessage.decodeBody(try cancel.encoded()).map { try? $0.get().event } == [
                .fileChunk(msgId: fileMsgId, chunk: .cancel)
            ])
    }

    @Test func inlineChunkNumbersAreOneByte() throws {
        let fileMsgId = SharedMsgID(bytes: [7])
        let last = InlineFileChunk(msgId: fileMsgId, chunk: .chunk(number: 255, bytes: [1]))
        #expect(try InlineFileChunk(decoding: last.encoded()) == last)
        #expect(throws: ChatProtocolError.invalidFileChunk("inline chunk number 256 is not 1-255")) {
            try InlineFileChunk(msgId: fileMsgId, chunk: .chunk(number: 256, bytes: [1])).encoded()
        }
        #expect(throws: ChatProtocolError.invalidFileChunk("inline chunk number 0 is not 1-255")) {
            try InlineFileChunk(msgId: fileMsgId, chunk: .chunk(number: 0, bytes: [1])).encoded()
        }
        #expect(throws: ChatProtocolError.invalidFileChunk("truncated file message id")) {
            try InlineFileChunk(decoding: [UInt8(ascii: "F"), 0, 4, 1, 2])
        }
        #expect(throws: ChatProtocolError.invalidFileChunk("bytes after cancel")) {
            try InlineFileChunk(decoding: [UInt8(ascii: "F"), 0, 1, 9, 0, 5])
        }
    }
}
