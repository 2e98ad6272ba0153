import Foundation
import SimpleXCrypto

/// Bytes from a hex string in a test vector; whitespace is ignored so long vectors can wrap.
func hex(_ string: String) -> [UInt8] {
    let digits = string.filter { !$0.isWhitespace }.map { UInt8($0.hexDigitValue!) }
    precondition(digits.count.isMultiple(of: 2), "odd-length hex vector")
    return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
}

extension Sequence<UInt8> {
    /// Lower-case hex, for comparing against vectors with readable failure messages.
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

extension SecureBytes {
    /// The contents as an array, for test assertions only.
    var array: [UInt8] { withUnsafeBytes { Array($0) } }
}

/// `bytes` with bit 0 of the byte at `index` flipped.
func flippingBit(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 1
    return copy
}
