import SimpleXCrypto
import Testing

/// Replays, tampering and malformed input: typed errors, and the state left exactly as it was.
struct RatchetTamperingTests {
    /// Offsets in a message (see RatchetWire): header nonce, header tag, header ciphertext, body tag, body.
    static let tamperedOffsets = [3, 27, 44, 100, 131, 132, 147, 148, 148 + testPaddedLength - 1]

    @Test func replayInTheCurrentChainIsADuplicate() throws {
        var pair = try RatchetPair()
        let first = try pair.joiner.seal(plaintext("joiner", 0))
        let second = try pair.joiner.seal(plaintext("joiner", 1))
        _ = try pair.initiator.decrypt(first)
        pair.initiator.expectFailure(first, .duplicateMessage)
        _ = try pair.initiator.decrypt(second)
        pair.initiator.expectFailure(first, .duplicateMessage)
        pair.initiator.expectFailure(second, .duplicateMessage)
    }

    @Test func replayOfALateMessageIsADuplicate() throws {
        var pair = try RatchetPair()
        let first = try pair.joiner.seal(plaintext("joiner", 0))
        let second = try pair.joiner.seal(plaintext("joiner", 1))
        let third = try pair.joiner.seal(plaintext("joiner", 2))
        _ = try pair.initiator.decrypt(third)
        _ = try pair.initiator.decrypt(first)
        // `second`'s key is still kept; `first`'s was used and dropped.
        pair.initiator.expectFailure(first, .duplicateMessage)
        #expect(try pair.initiator.decrypt(second) == plaintext("joiner", 1))
        pair.initiator.expectFailure(second, .duplicateMessage)
    }

    @Test func replayFromThePreviousChainIsADuplicate() throws {
        var pair = try RatchetPair()
        let old = try pair.joiner.seal(plaintext("joiner", 0))
        _ = try pair.initiator.decrypt(old)
        _ = try pair.joiner.decrypt(try pair.initiator.seal(plaintext("initiator", 0)))
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 1)))
        pair.initiator.expectFailure(old, .duplicateMessage)
    }

    @Test(arguments: tamperedOffsets) func tamperedByteIsRejected(offset: Int) throws {
        var pair = try RatchetPair()
        let sealed = try pair.joiner.seal(plaintext("joiner", 0))
        let expected: RatchetError = offset < 132 ? .headerDecryptionFailed : .decryptionFailed
        pair.initiator.expectFailure(flippingBit(sealed, at: offset), expected)
        // The genuine message still decrypts afterwards.
        #expect(try pair.initiator.decrypt(sealed) == plaintext("joiner", 0))
    }

    /// The body is bound to its own encrypted header (associated data = AD ‖ encrypted header).
    @Test func bodyUnderAnotherHeaderIsRejected() throws {
        var pair = try RatchetPair()
        let first = try pair.joiner.seal(plaintext("joiner", 0))
        let second = try pair.joiner.seal(plaintext("joiner", 1))
        pair.initiator.expectFailure(Array(first[..<148] + second[148...]), .decryptionFailed)
        pair.initiator.expectFailure(Array(second[..<148] + first[148...]), .decryptionFailed)
        #expect(try pair.initiator.decrypt(first) == plaintext("joiner", 0))
    }

    /// A receiver whose associated data differs (other first keys) opens nothing.
    @Test func differentAssociatedDataIsRejected() throws {
        var pair = try RatchetPair()
        var encoded = pair.initiator.snapshot
        // After format, version, flags, three counters and the length: the associated data.
        encoded[18] ^= 1
        var receiver = try RatchetState(decoding: encoded)
        #expect(receiver.associatedData != pair.initiator.associatedData)
        let sealed = try pair.joiner.seal(plaintext("joiner", 0))
        receiver.expectFailure(sealed, .headerDecryptionFailed)
        #expect(try pair.initiator.decrypt(sealed) == plaintext("joiner", 0))
    }

    @Test func messageForAnotherConnectionIsRejected() throws {
        var pair = try RatchetPair()
        var other = try RatchetPair()
        pair.initiator.expectFailure(try other.joiner.seal(plaintext("joiner", 0)), .headerDecryptionFailed)
    }

    @Test func malformedMessagesAreTypedErrors() throws {
        var pair = try RatchetPair()
        let sealed = try pair.joiner.seal(plaintext("joiner", 0))
        for truncated in [[], Array(sealed[..<2]), Array(sealed[..<149])] {
            let before = pair.initiator.snapshot
            #expect {
                try pair.initiator.decrypt(truncated)
            } throws: { error in
                guard case .malformedMessage = error as? RatchetError else { return false }
                return true
            }
            #expect(pair.initiator.snapshot == before)
        }
        // SimpleX's e2e version 2, and our next one, which this build does not read.
        for version: UInt16 in [2, 1001] {
            var otherVersion = sealed
            otherVersion[1] = UInt8(version >> 8)
            otherVersion[2] = UInt8(version & 0xFF)
            pair.initiator.expectFailure(otherVersion, .unsupportedVersion(version))
        }
        var wrongLength = sealed
        wrongLength[0] = 130
        #expect {
            try pair.initiator.decrypt(wrongLength)
        } throws: { error in
            guard case .malformedMessage = error as? RatchetError else { return false }
            return true
        }
        #expect(try pair.initiator.decrypt(sealed) == plaintext("joiner", 0))
    }
}
