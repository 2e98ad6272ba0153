import Foundation
import Testing

@testable import SimpleXProtocol

@Suite struct ConnectionLinkTests {
    typealias A = AgentTestValues
    typealias V = SMPTestValues

    /// Built independently of our code (Python's urllib quoting of SimpleX's nested query strings).
    static let expectedInvitation =
        "simplex:/invitation#/?v=1000&smp=smp%3A%2F%2FAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8%3D%40relay.example"
        + "%2FAAECAwQFBgcICQoLDA0ODxAREhMUFRYX%23%2F%3Fv%3D1-4%26dh%3DMCowBQYDK2VuAyEAIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIi"
        + "IiIiIiIiIiI%253D%26q%3Dm%26k%3Ds&e2e=v%3D1000%26x3dh%3DMCowBQYDK2VuAyEAMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz"
        + "MzMzMzMzM%3D%2CMCowBQYDK2VuAyEAREREREREREREREREREREREREREREREREREREREREREQ%3D"

    /// A SimpleX Chat invitation as its apps make them: agent 2-7, a queue with a legacy `srv=`
    /// onion host, and X448 ratchet keys in e2e.
    static let simplexInvitation =
        "simplex:/invitation#/?v=2-7&smp=smp%3A%2F%2FpU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw%3D%40smp8.simplex.im"
        + "%2FNGC-MSAeaf7aoO7ouZl_XHwpmf2v5ZMl%23%2F%3Fv%3D1-4%26dh%3DMCowBQYDK2VuAyEAPNZUr0361xQnoK6z_ukjL4ryIR-e5JHF"
        + "sQvstVY7_B4%253D%26q%3Dm%26k%3Ds%26srv%3Dbeccx4yfxxbvyhqypaavemqurytl6hozr47wfc7uuecacjqdvwpw2xid.onion&e2e="
        + "v%3D2-3%26x3dh%3DMEIwBQYDK2VvAzkAb5NCfsvI_ilV5c2ORtyO1LfCdk0qWk12dwb4XYaQAkrWvaNAG-nIy8zJNfbNH2EiauFTOK4aNAA"
        + "%3D%2CMEIwBQYDK2VvAzkATTO6DSRqwEyBsbryPjv57vX3nytJNK-H9VILablLDZguhbtVtnKocmN6zXRm_LYODo_xhGOw5LI%3D"

    /// A SimpleX Chat contact address on the web: X25519 queue key, no e2e, only the version is foreign.
    static let simplexContact =
        "https://simplex.chat/contact#/?v=2-7&smp=smp%3A%2F%2FpU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw%3D%40smp8"
        + ".simplex.im%2FNGC-MSAeaf7aoO7ouZl_XHwpmf2v5ZMl%23%2F%3Fv%3D1-4%26dh%3DMCowBQYDK2VuAyEAPNZUr0361xQnoK6z_ukj"
        + "L4ryIR-e5JHFsQvstVY7_B4%253D%26q%3Dc%26srv%3Dbeccx4yfxxbvyhqypaavemqurytl6hozr47wfc7uuecacjqdvwpw2xid.onion"

    @Test func invitationEncodesExactlyAsSimplexEscapesIt() throws {
        let link = try A.invitation
        #expect(link.description == Self.expectedInvitation)
        #expect(link.text(scheme: .simplex) == Self.expectedInvitation)
        let parsed = try ConnectionLink(Self.expectedInvitation)
        #expect(parsed == link)
        #expect(parsed.e2eParams == (try A.e2eURI))
        #expect(!parsed.isContactAddress)
        #expect(parsed.queues.first?.dhPublicKey == V.x25519Raw)
    }

    @Test func linksRoundTripInBothSchemes() throws {
        let twoQueues = try ConnectionLink(
            mode: .invitation(A.e2eURI),
            queues: [A.queue(), A.queue(nil, server: A.otherServer, senderID: V.id24b)],
            clientData: "{\"groupLinkId\":\"a b+c\"}")
        let links = [try A.invitation, try A.contact, twoQueues]
        for link in links {
            for scheme in [
                ConnectionLink.Scheme.simplex, .simplexChat, .https(host: "chat.example.org:8443"),
            ] {
                let text = link.text(scheme: scheme)
                #expect(try ConnectionLink(text) == link, "\(text)")
            }
        }
        #expect(try A.contact.description.hasPrefix("simplex:/contact#/?v=1000&smp=smp%3A%2F%2F"))
        #expect(
            try A.contact.text(scheme: .simplexChat).hasPrefix("https://simplex.chat/contact#/?v=1000&smp="))
        #expect(!(try A.contact.description.contains("e2e=")))
        // Several queues are ';'-separated inside the (escaped) smp value.
        #expect(twoQueues.description.contains("%3Bsmp%3A%2F%2F"))
        #expect(try ConnectionLink(twoQueues.description).queues.count == 2)
        #expect(try ConnectionLink(twoQueues.description).clientData == "{\"groupLinkId\":\"a b+c\"}")
    }

    @Test func parsingToleratesSimplexVariants() throws {
        let link = try A.invitation
        let query = Self.expectedInvitation.dropFirst("simplex:/invitation#/?".count)
        // Trailing slash after the mode, '#?' without '/', pasted whitespace, unknown parameters,
        // ';' between pairs, and '+' in place of a space in data.
        for text in [
            "simplex:/invitation/#/?\(query)", "simplex:/invitation#?\(query)",
            "  \(Self.expectedInvitation)\n",
            "\(Self.expectedInvitation)&future=1", "HTTPS://simplex.chat/invitation#/?\(query)",
            "simplex:/invitation#/?\(query.replacingOccurrences(of: "&e2e=", with: ";e2e="))",
        ] {
            #expect(try ConnectionLink(text) == link, "\(text)")
        }
        #expect(try ConnectionLink("\(Self.expectedInvitation)&data=a+b").clientData == "a b")
    }

    @Test func simplexInvitationWithX448KeysIsRefusedByName() {
        #expect(throws: ConnectionLinkError.unsupportedKeyType(algorithm: "X448", parameter: "e2e")) {
            try ConnectionLink(Self.simplexInvitation)
        }
        do {
            _ = try ConnectionLink(Self.simplexInvitation)
        } catch {
            #expect(error.description.hasPrefix("X448 keys are not supported"))
        }
        // The same link on the web.
        let web = Self.simplexInvitation.replacingOccurrences(of: "simplex:/", with: "https://simplex.chat/")
        #expect(throws: ConnectionLinkError.unsupportedKeyType(algorithm: "X448", parameter: "e2e")) {
            try ConnectionLink(web)
        }
        // An X448 key where the queue's DH key goes.
        let x448 = Base64URL.encode(V.x448SPKI).replacingOccurrences(of: "=", with: "%253D")
        let queueKey = "MCowBQYDK2VuAyEAPNZUr0361xQnoK6z_ukjL4ryIR-e5JHFsQvstVY7_B4%253D"
        #expect(throws: ConnectionLinkError.unsupportedKeyType(algorithm: "X448", parameter: "smp")) {
            try ConnectionLink(Self.simplexInvitation.replacingOccurrences(of: queueKey, with: x448))
        }
    }

    @Test func versionsAreDisjointFromSimplexBothWays() throws {
        let simplexAgent = try VersionRange(min: 2, max: 7)
        let simplexE2E = try VersionRange(min: 2, max: 3)
        #expect(AgentVersions.agent.intersection(simplexAgent) == nil)
        #expect(AgentVersions.e2e.intersection(simplexE2E) == nil)

        // Theirs here: a SimpleX contact address has nothing else wrong, and is refused by version.
        let error = ConnectionLinkError.incompatibleAgentVersion(
            offered: simplexAgent, supported: AgentVersions.agent)
        #expect(throws: error) { try ConnectionLink(Self.simplexContact) }
        #expect(error.description.contains("from SimpleX Chat"))
        // Ours there: a client supporting only SimpleX's versions refuses our links.
        #expect(
            throws: ConnectionLinkError.incompatibleAgentVersion(
                offered: AgentVersions.agent, supported: simplexAgent)
        ) {
            try ConnectionLink(A.invitation.description, supportedAgentVersions: simplexAgent)
        }
        #expect(
            throws: ConnectionLinkError.incompatibleE2EVersion(
                offered: AgentVersions.e2e, supported: simplexE2E)
        ) {
            try ConnectionLink(A.invitation.description, supportedE2EVersions: simplexE2E)
        }
        // Our keys with SimpleX's e2e versions.
        let oldE2E = try ConnectionLink(
            mode: .invitation(
                E2ERatchetParamsURI(versionRange: simplexE2E, key1: A.ratchetKey1, key2: A.ratchetKey2)),
            queues: [A.queue()])
        #expect(
            throws: ConnectionLinkError.incompatibleE2EVersion(
                offered: simplexE2E, supported: AgentVersions.e2e)
        ) {
            try ConnectionLink(oldE2E.description)
        }
    }

    @Test func malformedLinksEachGetTheirError() throws {
        let good = Self.expectedInvitation
        let query = String(good.dropFirst("simplex:/invitation#/?".count))
        let e2e = String(query[query.range(of: "&e2e=")!.lowerBound...])
        let withoutE2E = query.replacingOccurrences(of: e2e, with: "")
        let smp = String(withoutE2E.dropFirst("v=1000&".count))
        let edKey = Base64URL.encode(V.ed25519Prefix + V.ed25519Raw)
        let x25519 = Base64URL.encode(V.x25519Prefix + A.ratchetKey1)
        func e2eValue(_ text: String) -> String { "&e2e=\(LinkQuery.escape(text))" }
        let cases: [(String, ConnectionLinkError)] = [
            ("", .notALink),
            ("hello there", .notALink),
            ("simplex:/", .notALink),
            ("http://simplex.chat/invitation#/?\(query)", .unsupportedScheme("http")),
            ("mailto:someone@example.com", .unsupportedScheme("mailto")),
            ("simplex:/i#AbCd", .unknownLinkType("i")),
            ("simplex:/group#/?\(query)", .unknownLinkType("group")),
            ("simplex:invitation#/?\(query)", .malformed("no '/' after the scheme")),
            ("simplex:/invitation?\(query)", .malformed("no '#/?' before the parameters")),
            ("simplex:/invitation#\(query)", .malformed("no '#/?' before the parameters")),
            ("https://bad host/invitation#/?\(query)", .malformed("web address \"bad host\"")),
            ("simplex:/invitation#/?\(smp)\(e2e)", .missingParameter("v")),
            ("simplex:/invitation#/?v=1000\(e2e)", .missingParameter("smp")),
            ("simplex:/invitation#/?\(withoutE2E)", .missingParameter("e2e")),
            ("simplex:/invitation#/?v=1000&smp=%zz\(e2e)", .badURLEncoding(parameter: "smp")),
            ("simplex:/invitation#/?v=1000&smp=%4\(e2e)", .badURLEncoding(parameter: "smp")),
            ("simplex:/invitation#/?\(withoutE2E)&e2e=%C3%28", .badURLEncoding(parameter: "e2e")),
            (
                "simplex:/invitation#/?v=x&\(smp)\(e2e)",
                .invalidParameter(name: "v", reason: "version range \"x\"")
            ),
            (
                "simplex:/invitation#/?v=7-2&\(smp)\(e2e)",
                .invalidParameter(name: "v", reason: "version range \"7-2\"")
            ),
            (
                "simplex:/contact#/?v=1000&smp=nonsense",
                .invalidParameter(name: "smp", reason: "invalid queue URI: no '#' before the parameters")
            ),
            (
                "simplex:/contact#/?v=1000&smp=",
                .invalidParameter(name: "smp", reason: "invalid queue URI: no '#' before the parameters")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("v=1000"))",
                .invalidParameter(name: "e2e", reason: "no x3dh")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("x3dh=\(x25519),\(x25519)"))",
                .invalidParameter(name: "e2e", reason: "no v")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("v=1000&x3dh=\(x25519)"))",
                .invalidParameter(name: "e2e", reason: "x3dh has 1 keys (expected 2)")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("v=1000&x3dh=\(x25519),\(edKey)"))",
                .invalidParameter(name: "e2e", reason: "a key is not an X25519 public key")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("v=1000&x3dh=\(x25519),!!"))",
                .invalidParameter(name: "e2e", reason: "a key is not base64url")
            ),
            (
                "simplex:/invitation#/?\(withoutE2E)\(e2eValue("v=a&x3dh=\(x25519),\(x25519)"))",
                .invalidParameter(name: "e2e", reason: "version range \"a\"")
            ),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try ConnectionLink(text) }
        }
        // Every error reads as one line.
        for (_, error) in cases { #expect(!error.description.contains("\n") && !error.description.isEmpty) }
    }

    @Test func e2eParamsInBothForms() throws {
        let uri = try A.e2eURI
        let key1 = Base64URL.encode(V.x25519Prefix + A.ratchetKey1)
        let key2 = Base64URL.encode(V.x25519Prefix + A.ratchetKey2)
        #expect(uri.description == "v=1000&x3dh=\(key1),\(key2)")
        #expect(try E2ERatchetParamsURI(uri.description) == uri)
        // The version both support: the highest common one.
        let wide = try E2ERatchetParamsURI(
            versionRange: VersionRange(min: 999, max: 1003), key1: A.ratchetKey1, key2: A.ratchetKey2)
        #expect(wide.params(supported: try VersionRange(min: 1000, max: 1001))?.version == 1001)
        #expect(wide.params(supported: VersionRange(5)) == nil)
        #expect(uri.params() == (try A.e2eParams))

        let params = try A.e2eParams
        let expected =
            "03e8" + "2c" + A.hex(V.x25519Prefix) + String(repeating: "33", count: 32)
            + "2c" + A.hex(V.x25519Prefix) + String(repeating: "44", count: 32)
        #expect(A.hex(try params.encoded()) == expected)
        #expect(try E2ERatchetParams.decode(params.encoded()) == params)
        #expect(throws: ProtocolError.self) {
            try E2ERatchetParams(version: 1, key1: [1], key2: A.ratchetKey2)
        }
        #expect(throws: ProtocolError.self) { try E2ERatchetParams.decode(params.encoded() + [0]) }
        // SimpleX's X448 keys in a confirmation say what they are.
        var x448 = ByteWriter()
        x448.appendWord16(3)
        try x448.appendShortString(V.x448SPKI)
        try x448.appendShortString(V.x448SPKI)
        #expect(throws: ProtocolError.invalid("ratchet public key: X448 keys are not supported, only X25519"))
        {
            try E2ERatchetParams.decode(x448.bytes)
        }
    }

    @Test func linkQueryEscapesLikeHttpTypes() throws {
        #expect(LinkQuery.escape("aZ09-._~ =&/:;,%+#?é") == "aZ09-._~%20%3D%26%2F%3A%3B%2C%25%2B%23%3F%C3%A9")
        #expect(LinkQuery.unescape("a%20b+c%2B%c3%a9") == "a b c+é")
        #expect(LinkQuery.unescape("%") == nil)
        #expect(LinkQuery.unescape("%g0") == nil)
        #expect(LinkQuery.unescape("%ff") == nil)
        let query = try LinkQuery(parsing: "a=1&b&a=2;c=x=y")
        #expect(query.value("a") == "1")
        #expect(query.value("b") == "")
        #expect(query.value("c") == "x=y")
        #expect(query.value("d") == nil)
    }
}
