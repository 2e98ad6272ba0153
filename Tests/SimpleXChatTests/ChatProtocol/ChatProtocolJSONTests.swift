import Testing

@testable import SimpleXChat

@Suite struct ChatProtocolJSONTests {
    private func parse(_ text: String) throws -> JSON { try JSON(parsing: text) }

    private func parseError(_ text: String) -> JSONParseError? {
        do {
            _ = try JSON(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func objectsKeepMemberOrderAndRepeatedKeys() throws {
        let json = try parse(#"{"b":1,"a":2,"b":3}"#)
        let object = try #require(json.objectValue)
        #expect(object.keys == ["b", "a", "b"])
        #expect(json["b"] == 3, "a repeated key reads as its last value, as aeson does")
        #expect(json.compactText == #"{"b":1,"a":2,"b":3}"#)
    }

    @Test func whitespaceIsReadAndNotWritten() throws {
        let json = try parse(" {\n\t\"a\" : [ 1 , true , null , \"x\" ] ,\r\n \"b\" : { } } ")
        #expect(json.compactText == #"{"a":[1,true,null,"x"],"b":{}}"#)
    }

    @Test func numbersKeepTheirText() throws {
        let json = try parse(#"[0,-0,1.50,-2.5e+10,3E2,12345678901234567890]"#)
        #expect(json.compactText == #"[0,-0,1.50,-2.5e+10,3E2,12345678901234567890]"#)
        let numbers = try #require(json.arrayValue)
        #expect(numbers[2].intValue == nil)
        #expect(numbers[4].intValue == 300, "3E2 is the whole number 300, as aeson reads an Int")
        #expect(try parse("5.0").intValue == 5)
        #expect(numbers[5].intValue == nil, "too large for Int")
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "-12.5e-3")?.doubleValue == -0.0125)
    }

    @Test func stringsAreEscapedAsAesonWritesThem() {
        let text = "q\"b\\n\nr\rt\tb\u{8}f\u{C}u\u{1F}del\u{7F}/é👍"
        #expect(JSON.string(text).compactText == #""q\"b\\n\nr\rt\tb\u0008f\u000cu\u001fdel"# + "\u{7F}/é👍\"")
    }

    @Test func escapesAreRead() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u00e9\u00E9""#) == .string("\"\\/\u{8}\u{C}\n\r\téé"))
        #expect(try parse(#""\ud83d\udc4d""#) == .string("👍"), "a surrogate pair is one character")
        #expect(try parse(#""a\ud800b""#) == .string("a\u{FFFD}b"), "a lone surrogate is U+FFFD")
        #expect(try parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(try parse("\"é👍\"") == .string("é👍"))
    }

    @Test func malformedInputIsATypedErrorWithItsOffset() {
        #expect(parseError("") == JSONParseError(.unexpectedEnd, at: 0))
        #expect(parseError(#"{"a":1"#) == JSONParseError(.unexpectedEnd, at: 6))
        #expect(parseError(#"{"a":1,}"#) == JSONParseError(.unexpectedByte(UInt8(ascii: "}")), at: 7))
        #expect(parseError(#"{a:1}"#) == JSONParseError(.unexpectedByte(UInt8(ascii: "a")), at: 1))
        #expect(parseError(#"[1 2]"#) == JSONParseError(.unexpectedByte(UInt8(ascii: "2")), at: 3))
        #expect(parseError("{} x") == JSONParseError(.trailingContent, at: 3))
        #expect(parseError("tru") == JSONParseError(.unexpectedEnd, at: 3))
        #expect(parseError("nul1") == JSONParseError(.unexpectedByte(UInt8(ascii: "1")), at: 0))
        #expect(parseError("01") == JSONParseError(.invalidNumber, at: 0))
        #expect(parseError("-") == JSONParseError(.invalidNumber, at: 0))
        #expect(parseError("1.") == JSONParseError(.invalidNumber, at: 0))
        #expect(parseError("1e+") == JSONParseError(.invalidNumber, at: 0))
        #expect(parseError(#""\x""#) == JSONParseError(.invalidEscape, at: 1))
        #expect(parseError(#""\u12G4""#) == JSONParseError(.invalidEscape, at: 1))
        #expect(parseError("\"a\nb\"") == JSONParseError(.controlCharacterInString, at: 2))
        #expect(parseError(#""abc"#) == JSONParseError(.unexpectedEnd, at: 4))
    }

    @Test func invalidUTF8InAStringIsAnError() {
        #expect(throws: JSONParseError(.invalidUTF8, at: 0)) { try JSON(parsing: [0x22, 0x61, 0xFF, 0x22]) }
        #expect(throws: JSONParseError(.invalidUTF8, at: 0)) {
            try JSON(parsing: [0x22, 0xED, 0xA0, 0x80, 0x22])
        }
    }

    @Test func nestingIsLimited() throws {
        let deepest =
            String(repeating: "[", count: JSONParser.maxDepth)
            + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(try parse(deepest).compactText == deepest)
        let tooDeep =
            String(repeating: "[", count: JSONParser.maxDepth + 1)
            + String(repeating: "]", count: JSONParser.maxDepth + 1)
        #expect(parseError(tooDeep) == JSONParseError(.tooDeep, at: JSONParser.maxDepth))
        let hostile = String(repeating: #"{"a":"#, count: 10_000)
        #expect(parseError(hostile)?.reason == .tooDeep)
    }

    @Test func sortedObjectsOrderKeysByUTF8Bytes() {
        let object = JSONObject.sorted([("b", 1), ("a", nil), ("Z", 2), ("é", 3), ("aa", 4), ("a", 5)])
        #expect(
            object.keys == ["Z", "a", "aa", "b", "é"], "nil members are left out; upper case sorts first")
        let nested: JSON = ["z": ["y": 1, "x": 2], "a": [["d": 1, "c": 2]]]
        #expect(nested.sortedRecursively().compactText == #"{"a":[{"c":2,"d":1}],"z":{"x":2,"y":1}}"#)
    }

    @Test func settingAMemberReplacesItInPlaceOrAppends() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "x"
        object["c"] = true
        #expect(JSON.object(object).compactText == #"{"a":"x","b":2,"c":true}"#)
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
    }

    @Test func convertsToAndFromGroupDefaultsValues() throws {
        let json = try parse(#"{"b":[1,2.5,"s",null,false],"a":{"x":1}}"#)
        let value = json.jsonValue
        #expect(
            value
                == .object([
                    "b": .array([.int(1), .double(2.5), .string("s"), .null, .bool(false)]),
                    "a": .object(["x": .int(1)]),
                ]))
        #expect(JSON(value).compactText == #"{"a":{"x":1},"b":[1,2.5,"s",null,false]}"#)
    }
}
