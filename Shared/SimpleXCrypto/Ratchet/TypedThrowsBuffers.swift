// Buffer access with typed throws. SecureBytes' and SecureBuffer's accessors are `rethrows`, which
// erases a typed error to `any Error`; the ratchet throws only `RatchetError`, so these carry the type.

extension SecureBuffer {
    /// `withUnsafeMutableBytes` keeping `body`'s error type.
    func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R
    {
        let result: Result<R, E> = withUnsafeMutableBytes { buffer in
            do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension SecureBytes {
    /// `withUnsafeBytes` keeping `body`'s error type.
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { buffer in
            do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping `body`'s error type (Array's own is `rethrows`).
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(E) -> R in
            try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
