/// The random profile shown to a contact accepted incognito (SimpleX's `randomIncognitoProfile`):
/// an adjective and a noun, so the contact sees a name, never the user's.
enum IncognitoProfile {
    static let adjectives = [
        "Agile", "Bold", "Brave", "Bright", "Calm", "Clever", "Cosmic", "Curious", "Daring", "Eager", "Gentle", "Glad",
        "Golden", "Happy", "Honest", "Humble", "Jolly", "Keen", "Kind", "Lively", "Lucky", "Merry", "Mighty", "Noble",
        "Patient", "Polite", "Proud", "Quick", "Quiet", "Rapid", "Silent", "Smart", "Steady", "Sunny", "Swift",
        "Thoughtful", "Vivid", "Warm", "Wise", "Witty",
    ]
    static let nouns = [
        "Badger", "Bear", "Cedar", "Cloud", "Comet", "Crane", "Dolphin", "Eagle", "Falcon", "Fern", "Fox", "Glacier",
        "Harbor", "Hawk", "Heron", "Lake", "Lark", "Lynx", "Maple", "Meadow", "Moon", "Oak", "Otter", "Owl", "Panda",
        "Pine", "Planet", "Rabbit", "River", "Robin", "Sparrow", "Star", "Stone", "Swan", "Tiger", "Valley", "Whale",
        "Willow", "Wolf", "Wren",
    ]

    static func random<G: RandomNumberGenerator>(using generator: inout G) -> Profile {
        let name = adjectives.randomElement(using: &generator)! + nouns.randomElement(using: &generator)!
        return Profile(displayName: name, fullName: "")
    }

    static func random() -> Profile {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}
