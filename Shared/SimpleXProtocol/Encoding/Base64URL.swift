/// base64url with padding, SimpleX's text form of keys and ids in addresses and links.
///
/// Written out rather than through Foundation's base64 and string replacement: ids are encoded
/// and decoded for every message the agent stores, and the detour cost more than the query.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let word = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output += [alphabet[Int(word >> 18)], alphabet[Int(word >> 12 & 63)], alphabet[Int(word >> 6 & 63)], alphabet[Int(word & 63)]]
            index += 3
        }
        switch input.count - index {
        case 1:
            let word = UInt32(input[index]) << 16
            output += [alphabet[Int(word >> 18)], alphabet[Int(word >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        case 2:
            let word = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output += [alphabet[Int(word >> 18)], alphabet[Int(word >> 12 & 63)], alphabet[Int(word >> 6 & 63)], UInt8(ascii: "=")]
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Accepts padded or unpadded base64url; nil when the text is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var characters = Array(text.utf8)
        var padding = 0
        while characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        guard padding <= 2, characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xff else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
