import SimpleXCrypto

/// The decrypted contents of the keychain: item name → secret. Values stay in sodium memory;
/// the serialized form is built directly in sodium memory too.
///
///     count (u32 LE) | per item: name length (u16 LE) | name (UTF-8) | value length (u32 LE) | value
struct KeychainItems {
    var values: [String: SecureBytes] = [:]

    init() {}

    init?(decoding plaintext: SecureBytes) {
        let decoded: [String: SecureBytes]? = plaintext.withUnsafeBytes { bytes in
            var offset = 0
            func integer(_ width: Int) -> Int? {
                guard bytes.count - offset >= width else { return nil }
                var value = 0
                for i in 0..<width { value |= Int(bytes[offset + i]) << (8 * i) }
                offset += width
                return value
            }
            guard let count = integer(4) else { return nil }
            var result: [String: SecureBytes] = [:]
            for _ in 0..<count {
                guard let nameCount = integer(2), bytes.count - offset >= nameCount else { return nil }
                let name = String(decoding: bytes[offset..<offset + nameCount], as: UTF8.self)
                offset += nameCount
                guard let valueCount = integer(4), bytes.count - offset >= valueCount else { return nil }
                result[name] = SecureBytes(
                    copying: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + valueCount]))
                offset += valueCount
            }
            return offset == bytes.count ? result : nil
        }
        guard let decoded else { return nil }
        values = decoded
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
