import Foundation
import Testing

@testable import SimpleXProtocol

@Suite struct EncodingTests {
    @Test func primitivesRoundTripInSimplexEncoding() throws {
        var writer = ByteWriter()
        writer.appendWord16(0x0102)
        writer.appendWord32(0x0304_0506)
        writer.appendInt64(-2)
        writer.appendBool(true)
        writer.appendBool(false)
        try writer.appendShortString(Array("abc".utf8))
        try writer.appendLarge([UInt8](repeating: 7, count: 300))
        try writer.appendMaybe(nil as UInt16?) { w, v in w.appendWord16(v) }
        try writer.appendMaybe(UInt16(9)) { w, v in w.appendWord16(v) }
        try writer.appendList([UInt16(1), 2]) { w, v in w.appendWord16(v) }
        writer.append(ascii: "END")
        #expect(Array(writer.bytes[0..<6]) == [1, 2, 3, 4, 5, 6])
        #expect(Array(writer.bytes[6..<14]) == [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe])
        #expect(Array(writer.bytes[14..<16]) == Array("TF".utf8))
        #expect(Array(writer.bytes[16..<20]) == [3] + Array("abc".utf8))

        var reader = ByteReader(writer.bytes)
        #expect(try reader.readWord16() == 0x0102)
        #expect(try reader.readWord32() == 0x0304_0506)
        #expect(try reader.readInt64() == -2)
        #expect(try reader.readBool() == true)
        #expect(try reader.readBool() == false)
        #expect(try reader.readShortString() == Array("abc".utf8))
        #expect(try reader.readLarge() == [UInt8](repeating: 7, count: 300))
        #expect(try reader.readMaybe("m") { try $0.readWord16() } == nil)
        #expect(try reader.readMaybe("m") { try $0.readWord16() } == 9)
        #expect(try reader.readList("l") { try $0.readWord16() } == [1, 2])
        try reader.expect(ascii: "END", "tag")
        try reader.expectEnd("test")
    }

    @Test func truncatedAndInvalidInputThrowInsteadOfTrapping() {
        var reader = ByteReader([5, 1, 2])
        #expect(throws: ProtocolError.truncated("short string")) { try reader.readShortString() }
        var bools = ByteReader(Array("X".utf8))
        #expect(throws: ProtocolError.invalid("Bool")) { try bools.readBool() }
        var empty = ByteReader([])
        #expect(throws: ProtocolError.truncated("Int64")) { try empty.readInt64() }
        var writer = ByteWriter()
        #expect(throws: ProtocolError.tooLarge("short string of 256 bytes")) {
            try writer.appendShortString([UInt8](repeating: 0, count: 256))
        }
    }

    @Test func paddingHidesTheLengthAndRoundTrips() throws {
        let padded = try Padding.pad(Array("hello".utf8), to: 16)
        #expect(padded == [0, 5] + Array("hello".utf8) + Array("#########".utf8))
        #expect(try Padding.unpad(padded) == Array("hello".utf8))
        #expect(throws: ProtocolError.self) { try Padding.pad([UInt8](repeating: 0, count: 15), to: 16) }
        #expect(throws: ProtocolError.invalid("padded length 200 beyond the data")) { try Padding.unpad([0, 200, 1]) }
    }

    @Test func base64URLWithAndWithoutPadding() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8=")
        #expect(Base64URL.decode("-_8=") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("+/8=") == nil)
        #expect(Base64URL.decode("a===") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab=c") == nil)
        #expect(Base64URL.decode("") == [])
    }

    @Test func base64URLAgreesWithFoundationsBase64() {
        var generator = SystemRandomNumberGenerator()
        for count in 0..<200 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            let url = String(standard.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            #expect(Base64URL.encode(bytes) == url)
            #expect(Base64URL.decode(url) == bytes)
            #expect(Base64URL.decode(url.replacingOccurrences(of: "=", with: "")) == bytes)
        }
    }

    @Test func publicKeysAsSPKI() throws {
        let raw = [UInt8](repeating: 0x42, count: 32)
        let der = try PublicKeyAlgorithm.x25519.spki(raw)
        #expect(der.count == 44)
        #expect(Array(der[0..<12]) == [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00])
        #expect(try PublicKeyAlgorithm.x25519.raw(fromSPKI: der) == raw)
        // An Ed25519 key where an X25519 key is expected, or an X448 key (SimpleX's own), is refused.
        #expect(throws: ProtocolError.self) { try PublicKeyAlgorithm.x25519.raw(fromSPKI: PublicKeyAlgorithm.ed25519.spki(raw)) }
        let x448 = [0x30, 0x42, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6f, 0x03, 0x39, 0x00] + [UInt8](repeating: 1, count: 56)
        #expect(throws: ProtocolError.self) { try PublicKeyAlgorithm.x25519.raw(fromSPKI: x448) }
    }
}
