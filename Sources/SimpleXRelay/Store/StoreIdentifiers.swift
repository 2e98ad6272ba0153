/// A 24-byte value (queue id, message id) held as three words rather than a `[UInt8]`, so a million
/// queues cost no per-id heap allocation and hash/compare in three word operations.
public protocol Bytes24Value: Hashable, Sendable, CustomStringConvertible {
    var w0: UInt64 { get }
    var w1: UInt64 { get }
    var w2: UInt64 { get }
    init(w0: UInt64, w1: UInt64, w2: UInt64)
}

extension Bytes24Value {
    /// The value of exactly 24 bytes (nil for any other length).
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 24 else { return nil }
        let words = Array(bytes).withUnsafeBytes { raw in
            (0..<3).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
        self.init(w0: words[0], w1: words[1], w2: words[2])
    }

    /// The 24 bytes, in the order they were given.
    public var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: 24)
        result.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: w0.littleEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: w1.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: w2.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        return result
    }

    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// A queue id as the store keeps it (an SMP recipient or sender id: 24 random bytes) in three
/// words, so a million queues cost no per-id heap allocation.
public struct QueueID: Bytes24Value {
    public let w0: UInt64
    public let w1: UInt64
    public let w2: UInt64
    public init(w0: UInt64, w1: UInt64, w2: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
    }
}

/// A message id (24 random bytes chosen by the server; also the nonce of the delivered MSG).
public struct MessageID: Bytes24Value {
    public let w0: UInt64
    public let w1: UInt64
    public let w2: UInt64
    public init(w0: UInt64, w1: UInt64, w2: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
    }
}

/// 32 key bytes (an Ed25519 or X25519 public key, or a DH shared secret) held as four words.
public struct Key32: Hashable, Sendable {
    public let w0: UInt64
    public let w1: UInt64
    public let w2: UInt64
    public let w3: UInt64

    public init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
        self.w3 = w3
    }

    /// The key of exactly 32 bytes (nil for any other length).
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        let words = Array(bytes).withUnsafeBytes { raw in
            (0..<4).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
        self.init(w0: words[0], w1: words[1], w2: words[2], w3: words[3])
    }

    /// Calls `body` with the 32 bytes in a stack copy, in the order they were given (no heap array).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var words = (w0.littleEndian, w1.littleEndian, w2.littleEndian, w3.littleEndian)
        return try Swift.withUnsafeBytes(of: &words) { try body($0) }
    }

    /// The 32 bytes, in the order they were given.
    public var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        result.withUnsafeMutableBytes { raw in
            for (i, word) in [w0, w1, w2, w3].enumerated() {
                raw.storeBytes(of: word.littleEndian, toByteOffset: i * 8, as: UInt64.self)
            }
        }
        return result
    }
}

/// A queue authorization key: the recipient's (NEW) or the sender's (KEY/SKEY).
/// SMP allows Ed25519 (signatures) and X25519 (authenticators over a DH secret).
public struct AuthKey: Hashable, Sendable {
    public enum Algorithm: UInt8, Sendable {
        case ed25519 = 1
        case x25519 = 2
    }

    public let algorithm: Algorithm
    public let key: Key32

    public init(algorithm: Algorithm, key: Key32) {
        self.algorithm = algorithm
        self.key = key
    }
}
