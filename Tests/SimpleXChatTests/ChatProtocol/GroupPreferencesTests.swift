import Testing

@testable import SimpleXChat

/// A group's preferences: SimpleX's defaults for what a profile leaves out, roles and durations,
/// the lines the CLI shows, and unknown members written back as they came.
@Suite struct GroupPreferencesTests {
    @Test func absentFeaturesTakeSimpleXDefaults() {
        let none = GroupPreferences()
        #expect(!none.isOn(.directMessages) && !none.isOn(.fullDelete) && !none.isOn(.history))
        #expect(none.isOn(.files) && none.isOn(.reactions) && none.isOn(.voice))
        // A group made here has direct messages and history on, as SimpleX's CLI makes it.
        #expect(GroupPreferences.newGroup.isOn(.directMessages) && GroupPreferences.newGroup.isOn(.history))
    }

    @Test func aRoleLimitsWhoMayUseAFeature() throws {
        let preferences = try GroupPreferences(json: ["files": ["enable": "on", "role": "admin"]])
        #expect(preferences.allows(.files, role: .owner))
        #expect(!preferences.allows(.files, role: .member))
        #expect(preferences.text(.files) == "Files and media: on for admins")
        let off = try GroupPreferences(json: ["files": ["enable": "off", "role": "admin"]])
        #expect(!off.allows(.files, role: .owner))
        #expect(off.text(.files) == "Files and media: off")
    }

    @Test func disappearingMessagesShowTheirDuration() throws {
        for (ttl, text) in [
            (1, "1 sec"), (30, "30 sec"), (300, "5 min"), (86_400, "1 day"), (604_800, "1 week"),
        ] {
            let preferences = try GroupPreferences(json: [
                "timedMessages": ["enable": "on", "ttl": .number(JSONNumber(ttl))]
            ])
            #expect(preferences.text(.timedMessages) == "Disappearing messages: on (\(text))")
        }
    }

    @Test func unknownMembersAreKeptAndWrittenBackSorted() throws {
        let text =
            #"{"voice":{"enable":"off","extra":1},"newFeature":{"enable":"on"},"files":{"role":"member","enable":"on"}}"#
        let json = try JSON(parsing: text)
        let preferences = try GroupPreferences(json: json)
        #expect(preferences.json == json.sortedRecursively())
        #expect(!preferences.isOn(.voice))
    }

    @Test func aMalformedPreferenceIsAnErrorNamingIt() {
        #expect(
            throws: ChatProtocolError.invalidValue(
                path: "groupPreferences.files.enable", reason: "not on or off: maybe")
        ) {
            try GroupPreferences(json: ["files": ["enable": "maybe"]])
        }
    }
}
