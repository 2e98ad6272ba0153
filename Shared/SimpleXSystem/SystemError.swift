import Glibc

/// A failed POSIX call: the errno, the call, and the path it was about (swift-nio's `IOError`).
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let errno: Int32
    public let call: String
    public let path: String?

    public init(errno: Int32, call: String, path: String? = nil) {
        self.errno = errno
        self.call = call
        self.path = path
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let path { return "\(call) \(path): \(reason)" }
        return "\(call): \(reason)"
    }
}

/// Runs a system call, retrying on EINTR; a -1 result becomes a `SystemError`. Inlinable: the
/// network layer calls it for every read and write, from another module.
@inlinable @discardableResult
public func retryingOnInterrupt<T: FixedWidthInteger & SignedInteger>(
    _ call: String, path: String? = nil, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(errno: code, call: call, path: path)
    }
}
