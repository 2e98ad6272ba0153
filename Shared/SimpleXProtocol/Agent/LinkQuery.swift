/// The query string of a link, read and written as SimpleX does (simplexmq `QueryString`, which
/// uses http-types): `&` or `;` between pairs, `name=value`, percent escapes, `+` for a space.
struct LinkQuery {
    /// The decoded pairs in order; a name may repeat, the first one counts (as in SimpleX).
    var pairs: [(name: String, value: String)] = []

    init(pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// Parses `a=b&c=d`; a pair without `=` has an empty value.
    init(parsing text: some StringProtocol) throws(ConnectionLinkError) {
        for pair in text.split(whereSeparator: { $0 == "&" || $0 == ";" }) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            guard let name = Self.unescape(rawName) else { throw .badURLEncoding(parameter: rawName) }
            let rawValue = parts.count == 2 ? String(parts[1]) : ""
            guard let value = Self.unescape(rawValue) else { throw .badURLEncoding(parameter: name) }
            pairs.append((name, value))
        }
    }

    /// The first value of `name`, or nil.
    func value(_ name: String) -> String? { pairs.first(where: { $0.name == name })?.value }

    /// The first value of `name`, or `missingParameter`.
    func required(_ name: String) throws(ConnectionLinkError) -> String {
        guard let value = value(name) else { throw .missingParameter(name) }
        return value
    }

    /// `name=value&...` with every byte but the unreserved ones escaped (SimpleX `QEscape`), or
    /// nothing escaped (`QNoEscaping`, used for the e2e parameters nested inside a link).
    func rendered(escaping: Bool) -> String {
        pairs.map { escaping ? "\(Self.escape($0.name))=\(Self.escape($0.value))" : "\($0.name)=\($0.value)" }
            .joined(separator: "&")
    }

    /// Percent-encodes all but `A-Z a-z 0-9 - . _ ~`.
    static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Undoes `%XX` and `+`; nil for a bad escape or bytes that are not UTF-8.
    static func unescape(_ text: String) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue)
                else {
                    return nil
                }
                out.append(high << 4 | low)
            case UInt8(ascii: "+"): out.append(UInt8(ascii: " "))
            default: out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Public keys in links: base64url of the SPKI DER, X25519 only.
enum LinkKey {
    /// The SPKI algorithm identifiers of the keys SimpleX uses that libsodium lacks, so a SimpleX
    /// link gets a clear "not supported" instead of "malformed key".
    private static let unsupported: [(oid: [UInt8], name: String)] = [
        ([0x06, 0x03, 0x2b, 0x65, 0x6f], "X448"),
        ([0x06, 0x03, 0x2b, 0x65, 0x71], "Ed448"),
    ]

    /// The name of an unsupported algorithm the DER is a key of, or nil.
    static func unsupportedAlgorithm(_ der: [UInt8]) -> String? {
        // SEQUENCE len, SEQUENCE 05, OID ...: the algorithm OID starts at offset 4.
        guard der.count > 9, der[0] == 0x30, der[2] == 0x30 else { return nil }
        return unsupported.first(where: { der[4..<9].elementsEqual($0.oid) })?.name
    }

    /// The raw X25519 key in `text` (base64url SPKI).
    static func x25519(_ text: String, parameter: String) throws(ConnectionLinkError) -> [UInt8] {
        guard !text.isEmpty, let der = Base64URL.decode(text) else {
            throw .invalidParameter(name: parameter, reason: "a key is not base64url")
        }
        if let algorithm = unsupportedAlgorithm(der) {
            throw .unsupportedKeyType(algorithm: algorithm, parameter: parameter)
        }
        do {
            return try PublicKeyAlgorithm.x25519.raw(fromSPKI: der)
        } catch {
            throw .invalidParameter(name: parameter, reason: "a key is not an X25519 public key")
        }
    }

    /// base64url (padded) of the key's SPKI DER.
    static func text(_ raw: [UInt8]) -> String {
        Base64URL.encode(PublicKeyAlgorithm.x25519.spkiPrefix + raw)
    }
}
