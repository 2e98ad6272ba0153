/// CRC-32 (IEEE 802.3, as zlib's `crc32`), slicing-by-8: it checksums every journal record,
/// 16 KB message bodies included, at the relay's message rate.
enum CRC32 {
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            tables[n] = c
        }
        for n in 0..<256 {
            var c = tables[n]
            for k in 1..<8 {
                c = tables[Int(c & 0xFF)] ^ (c >> 8)
                tables[k * 256 + n] = c
            }
        }
        return tables
    }()

    /// The CRC of `bytes`, continuing from `crc` (0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        guard var p = bytes.baseAddress else { return crc }
        var count = bytes.count
        tables.withUnsafeBufferPointer { t in
            while count >= 8 {
                let lo = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ c
                let hi = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                p += 8
                count -= 8
            }
            while count > 0 {
                c = t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (c >> 8)
                p += 1
                count -= 1
            }
        }
        return ~c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
