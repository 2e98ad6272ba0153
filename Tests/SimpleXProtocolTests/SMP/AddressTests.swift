import Testing

@testable import SimpleXProtocol

@Suite struct AddressTests {
    typealias V = SMPTestValues
    let keyHash = [UInt8](0..<32)
    var keyHashText: String { Base64URL.encode(keyHash) }

    @Test func serverAddressWithDefaultPortAndSeveralHosts() throws {
        let address = try SMPServerAddress("smp://\(keyHashText)@relay.example.com")
        #expect(address.keyHash == keyHash)
        #expect(address.hosts == ["relay.example.com"])
        #expect(address.port == 5223)
        #expect(address.description == "smp://\(keyHashText)@relay.example.com")

        let multi = try SMPServerAddress("smp://\(keyHashText)@a.example,bbbbbbbb.onion:7000")
        #expect(multi.hosts == ["a.example", "bbbbbbbb.onion"])
        #expect(multi.port == 7000)
        #expect(try SMPServerAddress(multi.description) == multi)
        #expect(try SMPServerAddress("smp://\(keyHashText)@127.0.0.1:5224").port == 5224)
        let ipv6 = try SMPServerAddress("smp://\(keyHashText)@[::1]:443")
        #expect(ipv6.hosts == ["[::1]"] && ipv6.port == 443)
        #expect(try SMPServerAddress("smp://\(keyHashText)@[::1]").port == 5223)
        // Unpadded base64url is read too.
        #expect(
            try SMPServerAddress("smp://\(keyHashText.replacingOccurrences(of: "=", with: ""))@h").keyHash
                == keyHash)
    }

    @Test func serverAddressMalformationsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("http://\(keyHashText)@h", "smp://"),
            ("smp://\(keyHashText)h", "'@'"),
            ("smp://@h", "base64url"),
            ("smp://a+b=@h", "base64url"),
            ("smp://\(Base64URL.encode([1, 2, 3]))@h", "3 bytes"),
            ("smp://\(keyHashText)@", "empty host"),
            ("smp://\(keyHashText)@h,", "empty host"),
            ("smp://\(keyHashText)@h:", "port"),
            ("smp://\(keyHashText)@h:99999", "port"),
            ("smp://\(keyHashText)@h:12x", "port"),
            ("smp://\(keyHashText)@h:0", "port 0"),
            ("smp://\(keyHashText)@bad host", "host"),
        ]
        for (text, fragment) in cases {
            do {
                _ = try SMPServerAddress(text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.description.contains(fragment), "\(text): \(error)")
            }
        }
    }

    @Test func queueURIRoundTripsWithModes() throws {
        let server = try SMPServerAddress(keyHash: keyHash, hosts: ["relay.example"], port: 5223)
        for mode in [SMPQueueMode.messaging, .contact, nil] {
            let uri = try SMPQueueURI(
                server: server, senderID: EntityID(V.id24), versionRange: try VersionRange(min: 1, max: 4),
                dhPublicKey: V.x25519Raw, queueMode: mode)
            #expect(try SMPQueueURI(uri.description) == uri)
        }
        let uri = try SMPQueueURI(
            server: server, senderID: EntityID(V.id24), versionRange: try VersionRange(min: 1, max: 4),
            dhPublicKey: V.x25519Raw, queueMode: .messaging)
        let dh = Base64URL.encode(V.x25519Prefix + V.x25519Raw).replacingOccurrences(of: "=", with: "%3D")
        #expect(
            uri.description
                == "smp://\(keyHashText)@relay.example/\(Base64URL.encode(V.id24))#/?v=1-4&dh=\(dh)&q=m&k=s")
        #expect(uri.senderCanSecure)
    }

    @Test func queueURIAcceptsSimplexVariants() throws {
        let dh = Base64URL.encode(V.x25519Prefix + V.x25519Raw)
        let sender = Base64URL.encode(V.id24)
        // Unescaped '=', a trailing slash after the id, '#?' without '/', unknown parameters, k=s alone.
        let uri = try SMPQueueURI("smp://\(keyHashText)@h:5000/\(sender)/#?v=2&dh=\(dh)&k=s&x=1")
        #expect(uri.server.port == 5000)
        #expect(uri.senderID == EntityID(V.id24))
        #expect(uri.versionRange == VersionRange(2))
        #expect(uri.queueMode == .messaging)
        #expect(
            try SMPQueueURI("smp://\(keyHashText)@h/\(sender)#/?v=1-4&dh=\(dh)&q=c").queueMode == .contact)
    }

    @Test func queueURIMalformationsThrow() {
        let dh = Base64URL.encode(V.x25519Prefix + V.x25519Raw)
        let sender = Base64URL.encode(V.id24)
        let base = "smp://\(keyHashText)@h/\(sender)"
        let cases: [(String, String)] = [
            ("\(base)?v=1&dh=\(dh)", "'#'"),
            ("smp://\(keyHashText)@h#/?v=1&dh=\(dh)", "sender id"),
            ("smp://\(keyHashText)@h/!!#/?v=1&dh=\(dh)", "sender id"),
            ("\(base)#/v=1&dh=\(dh)", "'?'"),
            ("\(base)#/?dh=\(dh)", "version"),
            ("\(base)#/?v=4-1&dh=\(dh)", "version range"),
            ("\(base)#/?v=1", "DH key"),
            ("\(base)#/?v=1&dh=@@", "base64url"),
            ("\(base)#/?v=1&dh=\(Base64URL.encode(V.x448SPKI))", "X448"),
            ("\(base)#/?v=1&dh=\(Base64URL.encode(V.ed25519Prefix + V.ed25519Raw))", "X25519"),
            ("\(base)#/?v=1&dh=\(dh)&q=z", "queue mode"),
            ("smp://\(Base64URL.encode([1]))@h/\(sender)#/?v=1&dh=\(dh)", "key hash"),
        ]
        for (text, fragment) in cases {
            do {
                _ = try SMPQueueURI(text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.description.contains(fragment), "\(text): \(error)")
            }
        }
    }

    @Test func versionRangesInTextAndBinary() throws {
        #expect(try VersionRange(text: "1-18") == VersionRange(min: 1, max: 18))
        #expect(try VersionRange(text: "3") == VersionRange(3))
        #expect(try VersionRange(min: 1, max: 18).description == "1-18")
        #expect(VersionRange(3).description == "3")
        #expect(try VersionRange(text: "0-65535") == VersionRange(min: 0, max: 65535))
        #expect(try VersionRange(text: "007-08") == VersionRange(min: 7, max: 8))
        #expect(try VersionRange(text: "4-4") == VersionRange(4))
        for bad in [
            "", "-", "1-", "-2", "a", "1-2-3", "5-1", "70000", " 1", "1 ", "1--2", "65536", "1-65536", "+1",
            "1-+2",
            "٣", "99999999999999999999",
        ] {
            #expect(throws: ProtocolError.self, "\(bad)") { try VersionRange(text: bad) }
        }
        var writer = ByteWriter()
        try VersionRange(min: 6, max: 18).encode(to: &writer)
        #expect(writer.bytes == [0, 6, 0, 18])
        var reader = ByteReader(writer.bytes)
        #expect(try VersionRange.decode(&reader) == VersionRange(min: 6, max: 18))
        var inverted = ByteReader([0, 9, 0, 1])
        #expect(throws: ProtocolError.self) { try VersionRange.decode(&inverted) }

        let ours = try VersionRange(min: 1, max: 4)
        #expect(ours.intersection(try VersionRange(min: 3, max: 18)) == (try VersionRange(min: 3, max: 4)))
        #expect(ours.intersection(try VersionRange(min: 5, max: 18)) == nil)
        #expect(ours.intersection(VersionRange(4)) == VersionRange(4))
        #expect(ours.contains(2) && !ours.contains(5))
    }
}
