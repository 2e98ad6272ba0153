/// The parts of a received message, as views into its bytes.
struct ReceivedRatchetMessage {
    let encryptedHeader: UnsafeRawBufferPointer
    let headerNonce: UnsafeRawBufferPointer
    let headerTag: UnsafeRawBufferPointer
    let headerCiphertext: UnsafeRawBufferPointer
    let bodyTag: UnsafeRawBufferPointer
    let body: UnsafeRawBufferPointer

    /// Views into `bytes`, which `RatchetWire.validate` accepted.
    init(_ bytes: UnsafeRawBufferPointer) {
        func view(_ range: Range<Int>, in buffer: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: buffer[range])
        }
        encryptedHeader = view(RatchetWire.encryptedHeaderRange, in: bytes)
        headerNonce = view(RatchetWire.headerNonceRange, in: encryptedHeader)
        headerTag = view(RatchetWire.headerTagRange, in: encryptedHeader)
        headerCiphertext = view(RatchetWire.headerBodyRange, in: encryptedHeader)
        bodyTag = view(RatchetWire.bodyTagRange, in: bytes)
        body = view(RatchetWire.bodyOffset..<bytes.count, in: bytes)
    }
}

extension RatchetState {
    /// Decrypts a message (Ratchet.hs `rcDecrypt`) and returns it without its padding.
    ///
    /// Tries the current receiving header key, then the next one (which means the sender made a
    /// DH ratchet step), then the header keys of chains with skipped message keys. Keys for messages
    /// skipped on the way are kept for when they arrive (at most `maxSkip`, oldest dropped first).
    /// Throws without changing anything when the message does not decrypt: `duplicateMessage`
    /// for a key already used, `tooManySkipped`, `headerDecryptionFailed`, `decryptionFailed`, ...
    public mutating func decrypt(_ message: [UInt8]) throws(RatchetError) -> [UInt8] {
        try message.withBytes { (bytes: UnsafeRawBufferPointer) throws(RatchetError) -> [UInt8] in
            try RatchetWire.validate(bytes)
            return try decrypt(ReceivedRatchetMessage(bytes))
        }
    }

    private mutating func decrypt(_ message: ReceivedRatchetMessage) throws(RatchetError) -> [UInt8] {
        if hasReceivingChain, let header = try openHeader(message, slot: .receiveHeaderKey) {
            if skipped.count > 0,
                let (chain, entry) = skippedEntry(slot: .receiveHeaderKey, number: header.number)
            {
                return try decryptSkipped(message, chain: chain, entry: entry)
            }
            return try receiveInCurrentChain(message, number: header.number)
        }
        if let header = try openHeader(message, slot: .nextReceiveHeaderKey) {
            return try receiveAfterRatchetStep(message, header: header)
        }
        for chain in skipped.chains.indices {
            let opened = try skipped.chains[chain].headerKey.withBytes { key throws(RatchetError) in
                try openHeader(message, key: key)
            }
            guard let header = opened else { continue }
            // The chain's keys past the last message received were all skipped, so a number without
            // a key was decrypted before (or its key was dropped by the cap, which looks the same).
            guard let entry = skipped.chains[chain].numbers.firstIndex(of: header.number) else {
                throw .duplicateMessage
            }
            return try decryptSkipped(message, chain: chain, entry: entry)
        }
        if hasPreviousReceiveHeaderKey, try openHeader(message, slot: .previousReceiveHeaderKey) != nil {
            throw .duplicateMessage
        }
        throw .headerDecryptionFailed
    }

    /// A message in the current receiving chain, at or after the next expected number.
    private mutating func receiveInCurrentChain(_ message: ReceivedRatchetMessage, number: UInt32)
        throws(RatchetError)
        -> [UInt8]
    {
        guard number >= receiveCount else { throw .duplicateMessage }
        let gap = Int(number - receiveCount)
        guard gap <= Self.maxSkip else { throw .tooManySkipped(gap) }
        if gap == 0 { return try receiveNext(message) }
        var next = self
        next.skipReceiving(until: number)
        let plaintext = try next.receiveNext(message)
        self = next
        return plaintext
    }

    /// A message under the next header key: skip the rest of the current chain, make the DH
    /// ratchet step with the header's key, skip to the message's number in the new chain.
    private mutating func receiveAfterRatchetStep(
        _ message: ReceivedRatchetMessage, header: RatchetWire.Header
    )
        throws(RatchetError) -> [UInt8]
    {
        var skipCount = Int(header.number)
        if hasReceivingChain {
            // PN counts the messages of the chain this side has been receiving: never fewer than it got.
            guard header.previousCount >= receiveCount else {
                throw .malformedMessage(
                    "previous chain length \(header.previousCount) below \(receiveCount) received")
            }
            skipCount += Int(header.previousCount - receiveCount)
        }
        guard skipCount <= Self.maxSkip else { throw .tooManySkipped(skipCount) }
        var next = self
        if next.hasReceivingChain { next.skipReceiving(until: header.previousCount) }
        try next.ratchetStep(peerRatchetKey: header.ratchetKey)
        next.skipReceiving(until: header.number)
        let plaintext = try next.receiveNext(message)
        self = next
        return plaintext
    }

    /// Decrypts the message numbered `receiveCount` and advances the chain, only if it authenticates.
    private mutating func receiveNext(_ message: ReceivedRatchetMessage) throws(RatchetError) -> [UInt8] {
        // A copy, if needed, holds the same bytes: a failure below still leaves the state as it was.
        makeSecretsUnique()
        let plaintext = try secrets.withMutableBytes { slots throws(RatchetError) -> [UInt8] in
            try withUnsafeTemporaryAllocation(byteCount: RatchetKDF.chainOutputCount, alignment: 16) {
                chain throws(RatchetError) -> [UInt8] in
                defer { zero(chain) }
                RatchetKDF.chain(chainKey: Self.read(slots, .receiveChainKey), into: chain)
                let plaintext = try openBody(
                    message, key: UnsafeRawBufferPointer(rebasing: chain[RatchetKDF.messageKeyRange]),
                    nonce: UnsafeRawBufferPointer(rebasing: chain[RatchetKDF.messageNonceRange]))
                Self.slot(slots, .receiveChainKey).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: chain[RatchetKDF.chainKeyRange]))
                return plaintext
            }
        }
        receiveCount += 1
        return plaintext
    }

    /// Decrypts with a skipped key, which is dropped once it has been used.
    private mutating func decryptSkipped(_ message: ReceivedRatchetMessage, chain: Int, entry: Int)
        throws(RatchetError) -> [UInt8]
    {
        let plaintext = try skipped.chains[chain].keys.withBytes { keys throws(RatchetError) -> [UInt8] in
            let start = entry * SkippedMessageKeys.entryCount
            return try openBody(
                message, key: UnsafeRawBufferPointer(rebasing: keys[start..<start + 32]),
                nonce: UnsafeRawBufferPointer(
                    rebasing: keys[start + 32..<start + SkippedMessageKeys.entryCount]))
        }
        skipped.remove(chain: chain, entry: entry)
        return plaintext
    }

    /// The skipped chain and entry for `number` under the header key in `slot`.
    private func skippedEntry(slot: Slot, number: UInt32) -> (chain: Int, entry: Int)? {
        let chain = secrets.withUnsafeMutableBytes { skipped.chainIndex(headerKey: Self.read($0, slot)) }
        guard let chain, let entry = skipped.chains[chain].numbers.firstIndex(of: number) else { return nil }
        return (chain, entry)
    }

    private func openHeader(_ message: ReceivedRatchetMessage, slot: Slot) throws(RatchetError) -> RatchetWire
        .Header?
    {
        try secrets.withMutableBytes { slots throws(RatchetError) in
            try openHeader(message, key: Self.read(slots, slot))
        }
    }

    /// The header opened with `key`, nil when `key` does not open it.
    private func openHeader(_ message: ReceivedRatchetMessage, key: UnsafeRawBufferPointer)
        throws(RatchetError)
        -> RatchetWire.Header?
    {
        try withUnsafeTemporaryAllocation(byteCount: RatchetWire.paddedHeaderCount, alignment: 16) {
            padded throws(RatchetError) -> RatchetWire.Header? in
            let opened = associatedData.withUnsafeBytes { associated in
                RatchetAEAD.open(
                    message.headerCiphertext, into: padded, tag: message.headerTag,
                    associatedData: associated,
                    nonce: message.headerNonce, key: key)
            }
            guard opened else { return nil }
            return try RatchetWire.parseHeader(UnsafeRawBufferPointer(padded))
        }
    }

    /// Opens the body with associated data = `associatedData` ‖ encrypted header, and unpads it.
    private func openBody(
        _ message: ReceivedRatchetMessage, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer
    )
        throws(RatchetError) -> [UInt8]
    {
        let adCount = associatedData.count + message.encryptedHeader.count
        return try withUnsafeTemporaryAllocation(byteCount: adCount, alignment: 16) {
            ad throws(RatchetError) -> [UInt8] in
            associatedData.withUnsafeBytes { ad.copyMemory(from: $0) }
            UnsafeMutableRawBufferPointer(rebasing: ad[associatedData.count...]).copyMemory(
                from: message.encryptedHeader)
            let padded = message.body.count
            return try [UInt8](unsafeUninitializedCapacity: padded) {
                buffer, initialized throws(RatchetError) in
                let out = UnsafeMutableRawBufferPointer(buffer)
                guard
                    RatchetAEAD.open(
                        message.body, into: out, tag: message.bodyTag,
                        associatedData: UnsafeRawBufferPointer(ad),
                        nonce: nonce, key: key)
                else { throw .decryptionFailed }
                let length = Int(out[0]) << 8 | Int(out[1])
                guard length <= padded - 2 else {
                    throw .malformedMessage("padded length \(length) of \(padded)")
                }
                if length > 0 { out.baseAddress!.copyMemory(from: out.baseAddress! + 2, byteCount: length) }
                initialized = length
            }
        }
    }
}
