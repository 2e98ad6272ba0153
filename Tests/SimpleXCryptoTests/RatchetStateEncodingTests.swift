import SimpleXCrypto
import Testing

/// The state the agent stores with each message: encode, decode, carry on.
struct RatchetStateEncodingTests {
    @Test func roundTripMidConversation() throws {
        var pair = try RatchetPair()
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 0)))
        _ = try pair.joiner.decrypt(try pair.initiator.seal(plaintext("initiator", 0)))
        // Leave skipped keys on both sides, so they are part of what is stored.
        let lateToInitiator = try pair.joiner.seal(plaintext("joiner", 1))
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 2)))
        let lateToJoiner = try pair.initiator.seal(plaintext("initiator", 1))
        _ = try pair.joiner.decrypt(try pair.initiator.seal(plaintext("initiator", 2)))
        #expect(pair.initiator.skippedMessageKeyCount == 1)
        #expect(pair.joiner.skippedMessageKeyCount == 1)

        let storedInitiator = pair.initiator.encoded()
        let storedJoiner = pair.joiner.encoded()
        var initiator = try RatchetState(decoding: storedInitiator)
        var joiner = try RatchetState(decoding: storedJoiner)
        #expect(initiator.encoded() == storedInitiator)
        #expect(joiner.encoded() == storedJoiner)
        #expect(initiator.skippedMessageKeyCount == 1)
        #expect(initiator.canSend && joiner.canSend)

        #expect(try initiator.decrypt(lateToInitiator) == plaintext("joiner", 1))
        #expect(try joiner.decrypt(lateToJoiner) == plaintext("initiator", 1))
        for round in 0..<10 {
            #expect(
                try initiator.decrypt(try joiner.seal(plaintext("joiner", 10 + round)))
                    == plaintext("joiner", 10 + round))
            // Store and reload the receiver every round, as the agent does per message.
            joiner = try RatchetState(decoding: joiner.encoded())
            #expect(
                try joiner.decrypt(try initiator.seal(plaintext("initiator", 10 + round)))
                    == plaintext("initiator", 10 + round))
            initiator = try RatchetState(decoding: initiator.encoded())
        }
    }

    /// The initiator's state before its first message is stored too (between link and confirmation).
    @Test func freshStatesRoundTrip() throws {
        let pair = try RatchetPair()
        var initiator = try RatchetState(decoding: pair.initiator.encoded())
        var joiner = try RatchetState(decoding: pair.joiner.encoded())
        #expect(!initiator.canSend)
        #expect(try initiator.decrypt(try joiner.seal(plaintext("joiner", 0))) == plaintext("joiner", 0))
    }

    @Test func invalidEncodingsAreTypedErrors() throws {
        var pair = try RatchetPair()
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 1)))
        _ = try pair.joiner.seal(plaintext("joiner", 2))
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 3)))
        let good = pair.initiator.snapshot
        #expect(pair.initiator.skippedMessageKeyCount == 1)

        func expectInvalid(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(sourceLocation: sourceLocation) {
                try RatchetState(decoding: bytes)
            } throws: { error in
                switch error as? RatchetError {
                case .invalidState, .unsupportedVersion: return true
                default: return false
                }
            }
        }
        expectInvalid([])
        expectInvalid(Array(good.dropLast()))
        expectInvalid(good + [0])
        var format = good
        format[0] = 9
        expectInvalid(format)
        var version = good
        version[2] = 9
        expectInvalid(version)
        var flags = good
        flags[3] = 0x80
        expectInvalid(flags)
        // Every prefix is refused, never a crash.
        for length in stride(from: 0, to: good.count, by: 7) { expectInvalid(Array(good[..<length])) }
    }

    @Test func descriptionShowsNoSecrets() throws {
        var pair = try RatchetPair()
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 0)))
        let text = "\(pair.initiator) \(String(reflecting: pair.initiator))"
        var dumped = ""
        dump(pair.initiator, to: &dumped)
        #expect(text.contains("Nr 1"))
        // No 8-byte run of the stored keys (after the counters, associated data and public key)
        // appears in hex or as numbers.
        let stored = pair.initiator.snapshot
        for start in stride(from: 18 + 64 + 32, to: stored.count - 8, by: 8) {
            let window = stored[start..<start + 8]
            let hexWindow = window.map { String($0, radix: 16) }.joined()
            let decimalWindow = window.map { String($0) }.joined(separator: ", ")
            if window.allSatisfy({ $0 == 0 }) { continue }
            #expect(!(text + dumped).contains(hexWindow))
            #expect(!(text + dumped).contains(decimalWindow))
        }
    }
}
