/// The main client's lifecycle, shared through GroupDefaults (iOS `AppState`).
public enum AppState: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case active, activating, bgRefresh, suspending, suspended, stopped

    /// The client holds, or is taking, the chat core.
    public var running: Bool { self == .active || self == .activating || self == .bgRefresh }
    /// The client is letting go, or has let go, of the core; `stopped` is not inactive: the user
    /// stopped chat and nothing may receive.
    public var inactive: Bool { self == .suspending || self == .suspended }
    public var canSuspend: Bool { running }
}

/// The background receiving service's core state (iOS `NSEState`).
public enum NSEState: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case created, starting, active, suspending, suspended

    public var inactive: Bool { self == .created || self == .suspended }
    public var canSuspend: Bool { self == .active }
}

/// The share helper's state (iOS `seState`).
public enum ShareState: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case inactive, sendingMessage
}

/// What a notification may show (iOS `NotificationPreviewMode`).
public enum NotificationPreviewMode: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    /// Neither the sender nor the text: "Contact hidden:" / "new message".
    case hidden
    /// The sender's name, not the text.
    case contact
    /// Sender and text.
    case message
}

/// How messages are received while the client is not running (seed 002, DESIGN §4).
public enum NotificationMode: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    /// No background receiving: messages arrive when the client runs.
    case off
    /// A timer runs the service every 10 minutes to fetch pending messages.
    case periodic
    /// The service stays connected while the client is not active.
    case instant
}

/// How a chat is drawn (seed 000 §9): `terminal` rows or `classic` bubbles.
public enum ChatLayout: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case terminal, classic
}

/// The chats drawn in another layout than `chatLayout`, by chat reference (`@12`).
/// Typed as `@12=classic,@3=terminal` (an empty text clears them all).
public struct ChatLayoutOverrides: Sendable, Equatable, GroupDefaultValue {
    public var layouts: [String: ChatLayout]

    public init(_ layouts: [String: ChatLayout] = [:]) { self.layouts = layouts }

    public subscript(chat: String) -> ChatLayout? {
        get { layouts[chat] }
        set { layouts[chat] = newValue }
    }

    public init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        var layouts: [String: ChatLayout] = [:]
        for (chat, value) in object {
            guard let layout = ChatLayout(json: value) else { return nil }
            layouts[chat] = layout
        }
        self.layouts = layouts
    }

    public var json: JSONValue { .object(layouts.mapValues(\.json)) }

    public init?(text: String) {
        var layouts: [String: ChatLayout] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].hasPrefix("@"), Int64(parts[0].dropFirst()) != nil,
                let layout = ChatLayout(rawValue: String(parts[1]))
            else { return nil }
            layouts[String(parts[0])] = layout
        }
        self.layouts = layouts
    }
}

/// Whether relays are reached through .onion hosts (iOS `OnionHosts`).
public enum OnionHosts: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case no, prefer, required
}

/// Which transport sessions are shared between connections (iOS `TransportSessionMode`).
public enum TransportSessionMode: String, CaseIterable, Sendable, Codable, GroupDefaultValue {
    case user, entity
}
