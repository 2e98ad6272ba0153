import Foundation
import SimpleXProtocol
import Testing

@testable import SimpleXChat

/// Timestamps, base64 ids and version ranges: the small values inside chat messages.
@Suite struct ChatProtocolValueTests {
    @Test func timestampsAreWrittenAsAesonWritesUTCTime() {
        #expect(ChatTimestamp(seconds: 0).description == "1970-01-01T00:00:00Z")
        #expect(ChatTimestamp(seconds: 1, picoseconds: 1000).description == "1970-01-01T00:00:01.000000001Z")
        #expect(
            ChatTimestamp(seconds: 1_709_901_296, picoseconds: 500_000_000_000).description
                == "2024-03-08T12:34:56.5Z")
        #expect(
            ChatTimestamp(seconds: 951_868_799, picoseconds: 1).description
                == "2000-02-29T23:59:59.000000000001Z")
        #expect(ChatTimestamp(seconds: -1).description == "1969-12-31T23:59:59Z")
        #expect(ChatTimestamp(seconds: 0, picoseconds: -1).description == "1969-12-31T23:59:59.999999999999Z")
    }

    @Test func timestampsAreReadInTheFormsAesonAccepts() throws {
        let reference = ChatTimestamp(seconds: 1_709_856_000)  // 2024-03-08T00:00:00Z
        #expect(ChatTimestamp(iso8601: "2024-03-08T00:00:00Z") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-08 00:00:00Z") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-08T00:00Z") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-08T00:00:00") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-08T01:30:00+01:30") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-07T19:00:00-0500") == reference)
        #expect(ChatTimestamp(iso8601: "2024-03-08T02:00:00+02") == reference)
        let precise = try #require(ChatTimestamp(iso8601: "1970-01-01T00:00:01.0000000010009Z"))
        #expect(
            precise == ChatTimestamp(seconds: 1, picoseconds: 1000), "digits past picoseconds are dropped")
        for bad in [
            "", "2024-03-08", "2024-3-08T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
            "2024-03-08T24:00:00Z", "2024-03-08T00:00:00.Z", "2024-03-08T00:00:00Zjunk",
            "2024-03-08X00:00:00Z",
        ] {
            #expect(ChatTimestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func timestampsConvertToAndFromDates() {
        let date = Date(timeIntervalSince1970: 1_709_901_296.25)
        let timestamp = ChatTimestamp(date)
        #expect(timestamp == ChatTimestamp(seconds: 1_709_901_296, picoseconds: 250_000_000_000))
        #expect(timestamp.date == date)
        #expect(ChatTimestamp(seconds: 5) < ChatTimestamp(seconds: 5, picoseconds: 1))
    }

    @Test func idsAreBase64URLWithPadding() throws {
        #expect(SharedMsgID(bytes: [1, 2, 3, 4]).base64 == "AQIDBA==")
        #expect(MemberID(bytes: [0xFB, 0xFF, 0xBF]).base64 == "-_-_", "url-safe alphabet")
        #expect(SharedMsgID(base64: "AQIDBA==") == SharedMsgID(bytes: [1, 2, 3, 4]))
        #expect(
            SharedMsgID(base64: "AQIDBA") == SharedMsgID(bytes: [1, 2, 3, 4]),
            "padding is optional when reading")
        #expect(SharedMsgID(base64: "AQ+DBA==") == nil, "standard base64 is not base64url")
        var generator = SystemRandomNumberGenerator()
        let id = SharedMsgID.random(using: &generator)
        #expect(id.bytes.count == 12)
        #expect(id.base64.count == 16 && !id.base64.contains("="))
    }

    @Test func versionRangesAreWrittenAsSimplexWritesThem() throws {
        #expect(ChatVersions.supported.json == "1000")
        #expect(try VersionRange(min: 1, max: 18).json == "1-18")
        #expect(try VersionRange(json: "2-7", path: "v") == VersionRange(min: 2, max: 7))
        #expect(throws: ChatProtocolError.invalidValue(path: "v", reason: "not a version range: 18-1")) {
            try VersionRange(json: "18-1", path: "v")
        }
        #expect(throws: ChatProtocolError.wrongType(path: "v", expected: "string", found: "number")) {
            try VersionRange(json: 18, path: "v")
        }
    }
}
