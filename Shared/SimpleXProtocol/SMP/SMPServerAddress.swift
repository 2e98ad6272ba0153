/// A relay's address, `smp://<base64url keyHash>@host1[,host2][:port]`: the hash is the SHA-256
/// fingerprint of the server's identity key, which the client checks in the handshake.
public struct SMPServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The port when the address has none.
    public static let defaultPort: UInt16 = 5223
    /// Bytes of the identity fingerprint.
    public static let keyHashCount = 32

    /// SHA-256 of the server identity.
    public let keyHash: [UInt8]
    /// One or more names of the same server (e.g. a public name and an onion name), tried in order.
    public let hosts: [String]
    public let port: UInt16

    /// An address; throws for a key hash that is not 32 bytes, no hosts or an invalid host name.
    public init(keyHash: [UInt8], hosts: [String], port: UInt16 = defaultPort) throws(ProtocolError) {
        guard keyHash.count == Self.keyHashCount else {
            throw .invalid("server key hash of \(keyHash.count) bytes (expected \(Self.keyHashCount))")
        }
        guard !hosts.isEmpty else { throw .invalid("server address without a host") }
        for host in hosts where !Self.isValidHost(host) {
            throw .invalid("server host \(host.debugDescription)")
        }
        guard port != 0 else { throw .invalid("server port 0") }
        self.keyHash = keyHash
        self.hosts = hosts
        self.port = port
    }

    /// Parses `smp://<keyHash>@host1[,host2][:port]`.
    public init(_ text: some StringProtocol) throws(ProtocolError) {
        let text = String(text)
        guard text.hasPrefix("smp://") else { throw .invalid("server address: it must start with smp://") }
        let rest = text.dropFirst("smp://".count)
        guard let at = rest.firstIndex(of: "@") else {
            throw .invalid("server address: no '@' between the key hash and the host")
        }
        guard let keyHash = Base64URL.decode(rest[..<at]), !rest[..<at].isEmpty else {
            throw .invalid("server address: the key hash is not base64url")
        }
        var authority = rest[rest.index(after: at)...]
        var port = Self.defaultPort
        // The port is after the last ':' unless that colon is inside a bracketed IPv6 address.
        if let colon = authority.lastIndex(of: ":"), authority[colon...].firstIndex(of: "]") == nil {
            let digits = authority[authority.index(after: colon)...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = UInt16(digits)
            else {
                throw .invalid("server address: port \(String(digits).debugDescription)")
            }
            port = number
            authority = authority[..<colon]
        }
        let hosts = authority.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !hosts.contains(where: \.isEmpty) else { throw .invalid("server address: empty host name") }
        try self.init(keyHash: keyHash, hosts: hosts, port: port)
    }

    /// The text form; the port is left out when it is the default, as SimpleX does.
    public var description: String {
        let port = port == Self.defaultPort ? "" : ":\(port)"
        return "smp://\(Base64URL.encode(keyHash))@\(hosts.joined(separator: ","))\(port)"
    }

    /// DNS names, IPv4 and onion addresses, or a bracketed IPv6 address.
    static func isValidHost(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 {
            return host.dropFirst().dropLast().allSatisfy {
                $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".")
            }
        }
        return !host.isEmpty && host.count <= 253
            && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
