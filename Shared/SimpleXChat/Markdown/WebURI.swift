/// Which web addresses markdown shows as links (Markdown.hs `parseUri`): an RFC 3986 URI, read as
/// `URI.ByteString`'s lax options read it, whose scheme is `http` or `https` and whose host has a
/// dot. Path, user info and fragment take ASCII characters only; the query, read laxly, anything
/// but `#`. Anything else stays plain text.
enum WebURI {
    /// Whether `text` is such an address.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let scheme: Int
        if bytes.starts(with: Array("https://".utf8)) {
            scheme = "https://".utf8.count
        } else if bytes.starts(with: Array("http://".utf8)) {
            scheme = "http://".utf8.count
        } else {
            return false
        }
        var index = scheme
        let authorityEnd =
            bytes[index...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }
            ?? bytes.endIndex
        guard isValidAuthority(bytes[index..<authorityEnd]) else { return false }
        index = authorityEnd
        while index < bytes.count && bytes[index] == UInt8(ascii: "/") {
            index = skip(bytes, from: index + 1, allowing: isPathCharacter)
            guard index >= 0 else { return false }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: "?") {
            index = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: "#") {
            index = skip(bytes, from: index + 1) {
                isPathCharacter($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?")
            }
            guard index >= 0 else { return false }
        }
        return index == bytes.count
    }

    /// `[userinfo@]host[:port]` with a host that has a dot.
    private static func isValidAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostPart = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            let userInfo = authority[..<at]
            let end = skip(Array(userInfo), from: 0) { isRegNameCharacter($0) || $0 == UInt8(ascii: ":") }
            guard end == userInfo.count else { return false }
            hostPart = authority[(at + 1)...]
        }
        var host = hostPart
        if hostPart.first == UInt8(ascii: "[") {
            // An IP literal has no dot in the sense Markdown.hs checks, unless IPv4-mapped.
            guard let close = hostPart.firstIndex(of: UInt8(ascii: "]")) else { return false }
            host = hostPart[hostPart.startIndex...close]
            let rest = hostPart[(close + 1)...]
            guard rest.isEmpty || isValidPort(rest) else { return false }
            let inside = hostPart[(hostPart.startIndex + 1)..<close]
            guard !inside.isEmpty,
                inside.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return false }
        } else {
            if let colon = hostPart.lastIndex(of: UInt8(ascii: ":")) {
                guard isValidPort(hostPart[colon...]) else { return false }
                host = hostPart[..<colon]
            }
            let end = skip(Array(host), from: 0, allowing: isRegNameCharacter)
            guard end == host.count else { return false }
        }
        return !host.isEmpty && host.contains(UInt8(ascii: "."))
    }

    /// `:` and one or more digits.
    private static func isValidPort(_ port: ArraySlice<UInt8>) -> Bool {
        port.count > 1 && port.first == UInt8(ascii: ":")
            && port.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The index after the characters from `start` that `allowed` accepts, percent escapes
    /// included; -1 for a malformed escape.
    private static func skip(
        _ bytes: some RandomAccessCollection<UInt8>, from start: Int, allowing allowed: (UInt8) -> Bool
    )
        -> Int
    {
        let bytes = Array(bytes)
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
                else { return -1 }
                index += 3
            } else if allowed(byte) {
                index += 1
            } else {
                return index
            }
        }
        return index
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// RFC 3986 unreserved and sub-delims.
    private static func isRegNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("-._~!$&'()*+,;=".utf8).contains(byte)
        }
    }

    /// RFC 3986 `pchar` without percent escapes.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isRegNameCharacter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }
}
