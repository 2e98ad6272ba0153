import SimpleXCrypto

/// The decrypted contents of the keychain: item name → secret. Values stay in sodium memory;
/// the serialized form is built directly in sodium memory too.
///
///     count (u32 LE) | per item: name length (u16 LE) | name (UTF-8) | value length (u32 LE) | value
struct KeychainItems {
    var values: [String: SecureBytes] = [:]

    init() {}

    init?(decoding plaintext: SecureBytes) {
        var result: [String: SecureBytes] = [:]
        let complete = Self.scan(plaintext) { name, value in
            result[name] = SecureBytes(copying: value)
            return true
        }
        guard complete else { return nil }
        values = result
    }

    /// The value of one item, copied into its own sodium memory; the others are not copied.
    /// nil when the item is absent; `.failure` when the contents are malformed.
    static func value(named wanted: String, in plaintext: SecureBytes) -> SecureBytes?? {
        var found: SecureBytes?
        let complete = scan(plaintext) { name, value in
            guard name == wanted else { return true }
            found = SecureBytes(copying: value)
            return false
        }
        if let found { return .some(found) }
        return complete ? .some(nil) : nil
    }

    /// Calls `visit` with each item's name and value bytes until it returns false; false when the
    /// encoding is malformed (and the scan was not stopped by `visit`).
    private static func scan(
        _ plaintext: SecureBytes, _ visit: (String, UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        plaintext.withUnsafeBytes { bytes in
            var offset = 0
            func integer(_ width: Int) -> Int? {
                guard bytes.count - offset >= width else { return nil }
                var value = 0
                for i in 0..<width { value |= Int(bytes[offset + i]) << (8 * i) }
                offset += width
                return value
            }
            guard let count = integer(4) else { return false }
            for _ in 0..<count {
                guard let nameCount = integer(2), bytes.count - offset >= nameCount else { return false }
                let name = String(decoding: bytes[offset..<offset + nameCount], as: UTF8.self)
                offset += nameCount
                guard let valueCount = integer(4), bytes.count - offset >= valueCount else { return false }
                let value = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + valueCount])
                offset += valueCount
                if !visit(name, value) { return true }
            }
            return offset == bytes.count
        }
    }

    func encoded() -> SecureBytes {
        let entries = values.sorted { $0.key < $1.key }
        let total = 4 + entries.reduce(0) { $0 + 2 + $1.key.utf8.count + 4 + $1.value.count }
        return SecureBytes(count: total) { out in
            var offset = 0
            func put(_ value: Int, _ width: Int) {
                for i in 0..<width { out[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
                offset += width
            }
            put(entries.count, 4)
            for (name, value) in entries {
                let nameBytes = Array(name.utf8)
                put(nameBytes.count, 2)
                for byte in nameBytes {
                    out[offset] = byte
                    offset += 1
                }
                put(value.count, 4)
                value.withUnsafeBytes { secret in
                    UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + secret.count]).copyMemory(from: secret)
                }
                offset += value.count
            }
        }
    }
}
