import Glibc
import SimpleXSystem

/// An IPv4 or IPv6 socket address (a `sockaddr_storage` and its length).
public struct SocketAddress: Sendable, CustomStringConvertible {
    var storage = sockaddr_storage()
    var length: socklen_t = 0

    init() {}

    /// Parses a numeric IPv4 or IPv6 host; "localhost" means 127.0.0.1. Never does DNS.
    public init(numericHost host: String, port: UInt16) throws(SystemError) {
        let host = host == "localhost" ? "127.0.0.1" : host
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        } else if inet_pton(AF_INET6, bare, &v6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            throw SystemError(errno: EINVAL, call: "inet_pton", path: host)
        }
    }

    var family: Int32 { Int32(storage.ss_family) }

    /// The port, in host byte order.
    public var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            family == AF_INET6
                ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
    }

    /// "127.0.0.1:5223" or "[::1]:5223".
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            } else {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            }
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Runs `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}
