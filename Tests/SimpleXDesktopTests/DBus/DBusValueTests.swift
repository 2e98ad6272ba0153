import SimpleXDesktop
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DBusValueTests {
    static let everyType: [DBusValue] = [
        .byte(0), .byte(255), .bool(true), .bool(false),
        .int16(.min), .uint16(.max), .int32(-42), .uint32(.max), .int64(.min), .uint64(.max),
        .double(-3.25), .double(.pi),
        .string(""), .string("hello, мир ✓ 🙂"),
        .objectPath("/"), .objectPath("/chat/simplex/Chat"), .signature("a{sv}"), .signature(""),
        .stringArray([]), .stringArray(["a", "b"]), .byteArray([]), .byteArray([0, 1, 2, 255]),
        .array(elementSignature: "(ib)", [.structure([.int32(1), .bool(true)])]),
        .array(elementSignature: "av", []),
        .variantDictionary([:]),
        .variantDictionary([
            "text": .string("hi"),
            "count": .uint32(3),
            "nested": .variantDictionary(["deep": .variant(.stringArray(["x"]))]),
            "pair": .structure([.objectPath("/a"), .byteArray([9])]),
        ]),
        .dictionary(
            keySignature: "u", valueSignature: "a{ss}",
            [
                DBusDictionaryEntry(key: .uint32(1), value: .stringDictionary(["k": "v"])),
                DBusDictionaryEntry(key: .uint32(2), value: .stringDictionary([:])),
            ]),
        .structure([
            .string("s"), .array(elementSignature: "a{sv}", [.variantDictionary([:])]), .variant(.int64(7)),
        ]),
        .variant(.variant(.double(1.5))),
    ]

    @Test func everyTypeSurvivesARoundTripThroughTheBus() async throws {
        let pair = try await DBusPair()
        let seen = SeenArguments()
        try pair.export([
            "Echo": { call in
                seen.record(call.arguments.map(\.signature).joined())
                return call.arguments
            }
        ])
        let reply = try await pair.call("Echo", Self.everyType)
        #expect(reply == Self.everyType)
        // The handler saw the same types the client sent, so empty containers kept their signatures.
        #expect(seen.last == Self.everyType.map(\.signature).joined())
    }

    @Test func emptyContainersKeepTheirSignatures() {
        #expect(DBusValue.stringArray([]).signature == "as")
        #expect(DBusValue.variantDictionary([:]).signature == "a{sv}")
        #expect(DBusValue.structure([.int32(1), .stringArray([])]).signature == "(ias)")
    }

    @Test func accessorsReadTheirOwnCaseOnly() {
        #expect(DBusValue.uint32(5).uint32 == 5)
        #expect(DBusValue.uint32(5).int32 == nil)
        #expect(DBusValue.string("x").string == "x")
        #expect(DBusValue.byteArray([1, 2]).byteArray == [1, 2])
        #expect(DBusValue.stringArray(["a"]).stringArray == ["a"])
        #expect(
            DBusValue.variantDictionary(["a": .bool(true)]).stringKeyedDictionary == [
                "a": .variant(.bool(true))
            ])
        #expect(DBusValue.int32(1).stringKeyedDictionary == nil)
    }

    @Test(arguments: [
        DBusValue.array(elementSignature: "s", [.int32(1)]),
        .objectPath("not/a/path"),
        .objectPath("/trailing/"),
        .string("nul\u{0}inside"),
        .signature("a{"),
        .structure([]),
        .dictionary(keySignature: "v", valueSignature: "s", []),
        .dictionary(
            keySignature: "s", valueSignature: "s",
            [DBusDictionaryEntry(key: .string("k"), value: .uint32(1))]),
    ])
    func unsendableValuesAreRejectedWithInvalidArgs(_ value: DBusValue) async throws {
        let pair = try await DBusPair()
        let called = Flag()
        try pair.export([
            "Echo": { call in
                called.set(); return call.arguments
            }
        ])
        let error = await dbusError { _ = try await pair.call("Echo", [.string("before"), value]) }
        #expect(error?.name == "chat.simplex.Error.InvalidArgs")
        #expect(!called.isSet)
        // The connection is still usable afterwards.
        #expect(try await pair.call("Echo", [.string("after")]) == [.string("after")])
    }
}

/// The last argument signature a handler saw.
final class SeenArguments: Sendable {
    private let value = Mutex<String?>(nil)
    func record(_ signature: String) { value.withLock { $0 = signature } }
    var last: String? { value.withLock { $0 } }
}
