internal import CSodium

// Raw-buffer views as the `unsigned char *` libsodium takes. Bytes are layout-compatible with
// UInt8, so assuming the binding is sound and avoids rebinding caller memory.

extension UnsafeRawBufferPointer {
    /// The start as `const unsigned char *`; nil for an empty buffer.
    var bytes: UnsafePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    /// The start as `unsigned char *`; nil for an empty buffer.
    var bytes: UnsafeMutablePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}

/// Calls `body` with `buffer`'s start, or with a 1-byte scratch when `buffer` is empty: some libsodium
/// functions dereference their output pointer's validity even when they write nothing.
func withNonNullOutput<R>(
    _ buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeMutablePointer<UInt8>) throws -> R
) rethrows -> R {
    if let start = buffer.bytes { return try body(start) }
    var scratch: UInt8 = 0
    return try withUnsafeMutablePointer(to: &scratch) { try body($0) }
}

/// Calls `body` with `buffer`'s start, or with a 1-byte scratch when `buffer` is empty, for
/// parameters libsodium declares non-null (an empty HMAC key, an empty passphrase).
func withNonNullInput<R>(
    _ buffer: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>) throws -> R
) rethrows -> R {
    if let start = buffer.bytes { return try body(start) }
    var scratch: UInt8 = 0
    return try withUnsafePointer(to: &scratch) { try body($0) }
}

/// Constant-time equality of two byte buffers; different lengths are unequal (the length is not secret).
func constantTimeEqual(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return sodium_memcmp(left, right, lhs.count) == 0
}
