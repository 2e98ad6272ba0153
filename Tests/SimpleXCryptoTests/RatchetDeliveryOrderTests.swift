import SimpleXCrypto
import Testing

/// Out-of-order and lost messages, and the limits on skipped message keys.
struct RatchetDeliveryOrderTests {
    @Test func outOfOrderWithinOneChain() throws {
        var pair = try RatchetPair()
        let sealed = try (0..<6).map { try pair.joiner.seal(plaintext("joiner", $0)) }
        for index in [4, 1, 5, 0, 3, 2] {
            #expect(try pair.initiator.decrypt(sealed[index]) == plaintext("joiner", index))
        }
        #expect(pair.initiator.skippedMessageKeyCount == 0)
    }

    /// Late messages from a chain the receiver has already ratcheted past still decrypt.
    @Test func outOfOrderAcrossRatchetSteps() throws {
        var pair = try RatchetPair()
        let a0 = try pair.joiner.seal(plaintext("joiner", 0))
        let a1 = try pair.joiner.seal(plaintext("joiner", 1))
        let a2 = try pair.joiner.seal(plaintext("joiner", 2))
        #expect(try pair.initiator.decrypt(a2) == plaintext("joiner", 2))
        #expect(pair.initiator.skippedMessageKeyCount == 2)

        let b0 = try pair.initiator.seal(plaintext("initiator", 0))
        let b1 = try pair.initiator.seal(plaintext("initiator", 1))
        #expect(try pair.joiner.decrypt(b1) == plaintext("initiator", 1))
        let a3 = try pair.joiner.seal(plaintext("joiner", 3))
        let a4 = try pair.joiner.seal(plaintext("joiner", 4))

        // The initiator's next chain starts with a4; a3 and the old chain's a0, a1 come later.
        #expect(try pair.initiator.decrypt(a4) == plaintext("joiner", 4))
        #expect(pair.initiator.skippedMessageKeyCount == 3)
        #expect(try pair.initiator.decrypt(a0) == plaintext("joiner", 0))
        #expect(try pair.initiator.decrypt(a3) == plaintext("joiner", 3))
        #expect(try pair.initiator.decrypt(a1) == plaintext("joiner", 1))
        #expect(try pair.joiner.decrypt(b0) == plaintext("initiator", 0))
        #expect(pair.initiator.skippedMessageKeyCount == 0)
        #expect(pair.joiner.skippedMessageKeyCount == 0)

        // And the conversation goes on after all of that.
        let b2 = try pair.initiator.seal(plaintext("initiator", 2))
        #expect(try pair.joiner.decrypt(b2) == plaintext("initiator", 2))
    }

    /// Messages that never arrive do not stop later ones, in the same chain or after DH steps.
    @Test func lostMessagesDoNotBlockLaterOnes() throws {
        var pair = try RatchetPair()
        for round in 0..<20 {
            // Every third message of each burst is lost.
            for index in 0..<5 {
                let sealed = try pair.joiner.seal(plaintext("joiner", round * 5 + index))
                if index % 3 != 1 {
                    #expect(try pair.initiator.decrypt(sealed) == plaintext("joiner", round * 5 + index))
                }
            }
            let reply = try pair.initiator.seal(plaintext("initiator", round))
            if round % 4 != 3 {
                #expect(try pair.joiner.decrypt(reply) == plaintext("initiator", round))
            }
        }
        // Two of each burst of five are lost, but the last burst's final loss is not known yet:
        // nothing after it has arrived. Of the replies lost (rounds 3, 7, 11, 15, 19) the joiner
        // learns of four, when the following reply arrives.
        #expect(pair.initiator.skippedMessageKeyCount == 39)
        #expect(pair.joiner.skippedMessageKeyCount == 4)
    }

    @Test func exactly512SkippedKeysAreAccepted() throws {
        var pair = try RatchetPair()
        let sealed = try (0...RatchetState.maxSkip).map { try pair.joiner.seal(plaintext("joiner", $0)) }
        #expect(try pair.initiator.decrypt(sealed[512]) == plaintext("joiner", 512))
        #expect(pair.initiator.skippedMessageKeyCount == 512)
        // Every skipped message still decrypts, and uses up its key.
        for index in stride(from: 511, through: 0, by: -1) {
            #expect(try pair.initiator.decrypt(sealed[index]) == plaintext("joiner", index))
        }
        #expect(pair.initiator.skippedMessageKeyCount == 0)
    }

    @Test func skipping513KeysFailsAndChangesNothing() throws {
        var pair = try RatchetPair()
        let sealed = try (0...513).map { try pair.joiner.seal(plaintext("joiner", $0)) }
        pair.initiator.expectFailure(sealed[513], .tooManySkipped(513))
        #expect(try pair.initiator.decrypt(sealed[0]) == plaintext("joiner", 0))
        // One message later the gap is 512 again, which is allowed.
        #expect(try pair.initiator.decrypt(sealed[513]) == plaintext("joiner", 513))
    }

    /// The limit counts the rest of the old chain and the start of the new one together.
    @Test(arguments: [211, 212]) func skippedLimitSpansARatchetStep(lostInNextChain: Int) throws {
        var pair = try RatchetPair()
        let first = try pair.joiner.seal(plaintext("joiner", 0))
        _ = try pair.initiator.decrypt(first)
        #expect(
            try pair.joiner.decrypt(try pair.initiator.seal(plaintext("initiator", 0)))
                == plaintext("initiator", 0))
        // 301 lost in the initiator's chain after the one the joiner got, then more in its next:
        // 211 more make 512 keys at once, which is allowed; 212 make 513, which is not.
        _ = try pair.initiator.seal(plaintext("initiator", 1))
        for index in 0..<300 { _ = try pair.initiator.seal(plaintext("initiator", 2 + index)) }
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 1)))
        for index in 0..<lostInNextChain { _ = try pair.initiator.seal(plaintext("initiator", 400 + index)) }
        let late = try pair.initiator.seal(plaintext("initiator", 999))
        if lostInNextChain == 211 {
            #expect(try pair.joiner.decrypt(late) == plaintext("initiator", 999))
            #expect(pair.joiner.skippedMessageKeyCount == 512)
        } else {
            pair.joiner.expectFailure(late, .tooManySkipped(513))
        }
    }

    /// At most 512 skipped keys are kept in total: the oldest go first.
    @Test func storedSkippedKeysAreCapped() throws {
        var pair = try RatchetPair()
        var firstChain: [[UInt8]] = []
        for index in 0..<301 { firstChain.append(try pair.joiner.seal(plaintext("joiner", index))) }
        _ = try pair.initiator.decrypt(firstChain[300])
        #expect(pair.initiator.skippedMessageKeyCount == 300)
        _ = try pair.joiner.decrypt(try pair.initiator.seal(plaintext("initiator", 0)))
        var secondChain: [[UInt8]] = []
        for index in 0..<301 { secondChain.append(try pair.joiner.seal(plaintext("joiner", 1000 + index))) }
        _ = try pair.initiator.decrypt(secondChain[300])
        #expect(pair.initiator.skippedMessageKeyCount == 512)
        // The 88 oldest keys of the first chain were dropped; its later ones and all of the second remain.
        pair.initiator.expectFailure(firstChain[87], .duplicateMessage)
        #expect(try pair.initiator.decrypt(firstChain[88]) == plaintext("joiner", 88))
        #expect(try pair.initiator.decrypt(secondChain[0]) == plaintext("joiner", 1000))
    }
}
