public import Foundation

extension RatchetState {
    /// The first byte of an encoded state; a later layout gets a new one.
    static let encodingFormat: UInt8 = 1

    private enum Flag {
        static let sending: UInt8 = 1
        static let receiving: UInt8 = 2
        static let previousReceiveHeaderKey: UInt8 = 4
        static let all: UInt8 = 7
    }

    /// The whole state as bytes, for the agent to store with the message it sent or received.
    ///
    /// A secret: it holds every key of the connection, so it is returned in guarded memory.
    ///
    ///     format (1) ‖ version (Word16) ‖ flags (1) ‖ Ns, Nr, PN (Word32 each) ‖ associated data
    ///     (Word16 length + bytes) ‖ ratchet public key (32) ‖ 9 secret keys (288) ‖
    ///     skipped chain count (Word16) ‖ per chain: header key (32), key count (Word16),
    ///     then per key: number (Word32), message key (32), nonce (24)
    public func encoded() -> SecureBytes {
        SecureBytes(count: encodedCount) { out in encode(into: out) }
    }

    /// The size of `encoded()`.
    public var encodedCount: Int {
        let skippedCount = skipped.chains.reduce(0) {
            $0 + 34 + $1.numbers.count * (4 + SkippedMessageKeys.entryCount)
        }
        return 1 + 2 + 1 + 12 + 2 + associatedData.count + 32 + secrets.count + 2 + skippedCount
    }

    /// Writes `encoded()` into `out`, exactly `encodedCount` bytes: for a caller that keeps one
    /// guarded buffer for every state it stores instead of a guarded allocation per message.
    public func encode(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == encodedCount, "encoded ratchet state size")
        var writer = RawWriter(out: out)
        writer.byte(Self.encodingFormat)
        writer.word16(version)
        writer.byte(
            (hasSendingChain ? Flag.sending : 0) | (hasReceivingChain ? Flag.receiving : 0)
                | (hasPreviousReceiveHeaderKey ? Flag.previousReceiveHeaderKey : 0))
        for value in [sendCount, receiveCount, previousSendCount] { writer.word32(value) }
        writer.word16(UInt16(associatedData.count))
        associatedData.withUnsafeBytes { writer.bytes($0) }
        ratchetPublicKey.withUnsafeBytes { writer.bytes($0) }
        secrets.withUnsafeBytes { writer.bytes($0) }
        writer.word16(UInt16(skipped.chains.count))
        for chain in skipped.chains {
            chain.headerKey.withUnsafeBytes { writer.bytes($0) }
            writer.word16(UInt16(chain.numbers.count))
            chain.keys.withUnsafeBytes { keys in
                for (index, number) in chain.numbers.enumerated() {
                    writer.word32(number)
                    let start = index * SkippedMessageKeys.entryCount
                    writer.bytes(
                        UnsafeRawBufferPointer(rebasing: keys[start..<start + SkippedMessageKeys.entryCount]))
                }
            }
        }
        precondition(writer.offset == out.count, "encoded ratchet state size")
    }

    /// Restores a state from `encoded()`; throws `invalidState` for anything that is not one.
    public init(decoding bytes: some ContiguousBytes) throws(RatchetError) {
        let secretCount = Slot.allCases.count * Slot.keyCount
        let result: Result<RatchetState, RatchetError> = bytes.withUnsafeBytes { input in
            do throws(RatchetError) {
                var reader = RawReader(input: input)
                guard try reader.byte() == Self.encodingFormat else { throw .invalidState("unknown format") }
                let version = try reader.word16()
                guard RatchetVersion.supported.contains(version) else { throw .unsupportedVersion(version) }
                let flags = try reader.byte()
                guard flags & ~Flag.all == 0 else { throw .invalidState("unknown flags \(flags)") }
                let counts = (try reader.word32(), try reader.word32(), try reader.word32())
                let associatedData = Array(try reader.bytes(Int(try reader.word16())))
                let publicKey = Array(try reader.bytes(RatchetDH.keyCount))
                let secrets = SecureBuffer(count: secretCount)
                let secretBytes = try reader.bytes(secretCount)
                secrets.withUnsafeMutableBytes { $0.copyMemory(from: secretBytes) }
                var chains: [SkippedMessageKeys.Chain] = []
                var total = 0
                for _ in 0..<Int(try reader.word16()) {
                    let headerKey = SecureBytes(copying: try reader.bytes(Slot.keyCount))
                    let keyCount = Int(try reader.word16())
                    total += keyCount
                    guard keyCount > 0, total <= Self.maxSkip else {
                        throw .invalidState("skipped key count")
                    }
                    let entry = SkippedMessageKeys.entryCount
                    let block = try reader.bytes(keyCount * (4 + entry))
                    var numbers: [UInt32] = []
                    numbers.reserveCapacity(keyCount)
                    let keys = SecureBytes(count: keyCount * entry) { out in
                        for index in 0..<keyCount {
                            let start = index * (4 + entry)
                            numbers.append(
                                UInt32(block[start]) << 24 | UInt32(block[start + 1]) << 16
                                    | UInt32(block[start + 2]) << 8 | UInt32(block[start + 3]))
                            UnsafeMutableRawBufferPointer(rebasing: out[index * entry..<(index + 1) * entry])
                                .copyMemory(
                                    from: UnsafeRawBufferPointer(
                                        rebasing: block[start + 4..<start + 4 + entry]))
                        }
                    }
                    chains.append(
                        SkippedMessageKeys.Chain(headerKey: headerKey, numbers: numbers, keys: keys))
                }
                guard reader.remaining == 0 else {
                    throw .invalidState("\(reader.remaining) bytes after the state")
                }
                return .success(
                    RatchetState(
                        version: version, associatedData: associatedData, ratchetPublicKey: publicKey,
                        counts: counts, flags: flags, secrets: secrets,
                        skipped: SkippedMessageKeys(chains: chains)))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    private init(
        version: UInt16, associatedData: [UInt8], ratchetPublicKey: [UInt8], counts: (UInt32, UInt32, UInt32),
        flags: UInt8, secrets: SecureBuffer, skipped: SkippedMessageKeys
    ) {
        self.version = version
        self.associatedData = associatedData
        self.ratchetPublicKey = ratchetPublicKey
        (sendCount, receiveCount, previousSendCount) = counts
        hasSendingChain = flags & Flag.sending != 0
        hasReceivingChain = flags & Flag.receiving != 0
        hasPreviousReceiveHeaderKey = flags & Flag.previousReceiveHeaderKey != 0
        self.secrets = secrets
        self.skipped = skipped
    }
}

/// Big-endian writes into a buffer sized in advance.
private struct RawWriter {
    let out: UnsafeMutableRawBufferPointer
    var offset = 0

    mutating func byte(_ value: UInt8) {
        out[offset] = value
        offset += 1
    }

    mutating func word16(_ value: UInt16) {
        byte(UInt8(value >> 8))
        byte(UInt8(truncatingIfNeeded: value))
    }

    mutating func word32(_ value: UInt32) {
        word16(UInt16(value >> 16))
        word16(UInt16(truncatingIfNeeded: value))
    }

    mutating func bytes(_ source: UnsafeRawBufferPointer) {
        UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + source.count]).copyMemory(from: source)
        offset += source.count
    }
}

/// Big-endian reads that throw `invalidState` past the end.
private struct RawReader {
    let input: UnsafeRawBufferPointer
    var offset = 0
    var remaining: Int { input.count - offset }

    mutating func bytes(_ count: Int) throws(RatchetError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .invalidState("truncated at byte \(offset)") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: input[offset..<offset + count])
    }

    mutating func byte() throws(RatchetError) -> UInt8 { try bytes(1)[0] }

    mutating func word16() throws(RatchetError) -> UInt16 {
        let b = try bytes(2)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    mutating func word32() throws(RatchetError) -> UInt32 {
        let b = try bytes(4)
        return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }
}
