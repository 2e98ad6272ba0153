import Testing

@testable import SimpleXChat

@Suite struct ChatProtocolReactionTests {
    @Test func theEmojiSetIsSimplexsScalarForScalar() {
        // 👍 👎 😀 😂 😢 ❤ 🚀 ✅ — each one scalar; the heart without U+FE0F.
        let scalars = MsgReactionEmoji.allCases.map { $0.rawValue.unicodeScalars.map(\.value) }
        #expect(
            scalars == [[0x1F44D], [0x1F44E], [0x1F600], [0x1F602], [0x1F622], [0x2764], [0x1F680], [0x2705]])
    }

    @Test func eachEmojiRoundTripsInSimplexShape() throws {
        for emoji in MsgReactionEmoji.allCases {
            let reaction = MsgReaction.emoji(emoji)
            let expected = #"{"emoji":""# + emoji.rawValue + #"","type":"emoji"}"#
            #expect(reaction.json.compactText == expected)
            #expect(try MsgReaction(json: JSON(parsing: expected)) == reaction)
        }
    }

    @Test func theHeartShowsWithTheVariationSelector() {
        #expect(MsgReaction.emoji(.heart).displayText == "\u{2764}\u{FE0F}")
        #expect(MsgReaction.emoji(.thumbsUp).displayText == "👍")
    }

    @Test func emojiOutsideTheSetAreKeptAsUnknown() throws {
        // The heart as most keyboards type it (with U+FE0F) is two scalars: SimpleX's one-Char
        // emoji does not read it, so neither do we; it is kept, not rewritten.
        let heartWithSelector = "{\"emoji\":\"\u{2764}\u{FE0F}\",\"type\":\"emoji\"}"
        let reaction = try MsgReaction(json: JSON(parsing: heartWithSelector))
        guard case .unknown(let type, _) = reaction else {
            Issue.record("read as \(reaction)")
            return
        }
        #expect(type == "emoji")
        #expect(reaction.displayText == "?")
        #expect(reaction.json.compactText == heartWithSelector)

        let unicorn = #"{"type":"emoji","emoji":"🦄"}"#
        #expect(try MsgReaction(json: JSON(parsing: unicorn)).json.compactText == unicorn)
        let sticker = #"{"type":"sticker","id":5}"#
        #expect(
            try MsgReaction(json: JSON(parsing: sticker))
                == .unknown(type: "sticker", json: ["type": "sticker", "id": 5]))
        let noEmoji = #"{"type":"emoji"}"#
        #expect(
            try MsgReaction(json: JSON(parsing: noEmoji)) == .unknown(type: "emoji", json: ["type": "emoji"]))
    }

    @Test func aReactionNeedsAType() {
        #expect(throws: ChatProtocolError.missingField("reaction.type")) {
            try MsgReaction(json: JSON(parsing: #"{"emoji":"👍"}"#))
        }
        #expect(throws: ChatProtocolError.wrongType(path: "reaction", expected: "object", found: "string")) {
            try MsgReaction(json: "👍")
        }
    }
}
