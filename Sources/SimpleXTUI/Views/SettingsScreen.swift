import Foundation
import SimpleXChat
import SimpleXProtocol

/// A setting the user changed: written at once (GroupDefaults, or the core for receipts) and
/// applied to the running client.
public enum SettingChange: Equatable, Sendable {
    case notificationMode(NotificationMode)
    case previewMode(NotificationPreviewMode)
    case acceptImages(Bool)
    /// GroupDefaults `privacyEncryptLocalFiles`: files received from now on are sealed at rest.
    case encryptLocalFiles(Bool)
    case showPreviews(Bool)
    case saveDrafts(Bool)
    case linkPreviews(Bool)
    /// Delivery receipts to contacts (the user's setting in the core; a contact's own wins).
    case contactReceipts(Bool)
    /// GroupDefaults `currentTheme`: `SYSTEM` (follow the terminal), `LIGHT` or `DARK`.
    case theme(String)
    case chatLayout(ChatLayout)
    /// GroupDefaults `storeDBPassphrase`: the database passphrase's key kept in the keychain (or
    /// removed from it, and asked at every start).
    case storeDBPassphrase(Bool)
    /// GroupDefaults `laLockDelay`: seconds without a key before SimpleX Lock locks.
    case lockDelay(Int)
    /// "Delete messages after" (the core's `chat_item_ttl`; nil: never).
    case chatItemTTL(Int?)
}

/// The values Settings shows: GroupDefaults' and the user's, as the client has them now.
public struct SettingsValues: Equatable, Sendable {
    public var notificationMode: NotificationMode = .instant
    public var previewMode: NotificationPreviewMode = .message
    public var acceptImages = true
    public var encryptLocalFiles = true
    public var showPreviews = true
    public var saveDrafts = true
    public var linkPreviews = true
    public var contactReceipts = true
    public var theme = "SYSTEM"
    public var chatLayout: ChatLayout = .terminal
    public var storeDBPassphrase = true
    /// Whether the databases' key comes from a passphrase (else a random key in the keychain).
    public var databasePassphraseSet = false
    /// SimpleX Lock (the passcodes themselves stay in the keychain, as verifiers).
    public var lock = LockState.Settings()
    /// Chat data: the chat core runs (Run chat), and the files kept in the group directory.
    public var chatRunning = true
    public var filesUsage = FilesUsage(count: 0, bytes: 0)
    public var chatItemTTL: Int?
    public init() {}

    /// The values after `change`.
    public mutating func apply(_ change: SettingChange) {
        switch change {
        case .notificationMode(let mode): notificationMode = mode
        case .previewMode(let mode): previewMode = mode
        case .acceptImages(let on): acceptImages = on
        case .encryptLocalFiles(let on): encryptLocalFiles = on
        case .showPreviews(let on): showPreviews = on
        case .saveDrafts(let on): saveDrafts = on
        case .linkPreviews(let on): linkPreviews = on
        case .contactReceipts(let on): contactReceipts = on
        case .theme(let name): theme = name
        case .chatLayout(let layout): chatLayout = layout
        case .storeDBPassphrase(let on): storeDBPassphrase = on
        case .lockDelay(let seconds): lock.delay = seconds
        case .chatItemTTL(let seconds): chatItemTTL = seconds
        }
    }
}

/// Ctrl+S or `,`: the settings, a root list of pages as the iOS app has them (Notifications,
/// Network & servers, Your privacy, Appearance, and the user's profile); ↑↓ choose, Enter or
/// Space toggles or chooses, Esc goes back.
public struct SettingsScreen: Sendable {
    public enum Page: Equatable, Sendable, CaseIterable {
        case root, profile, notifications, network, privacy, appearance, chatData

        var title: String {
            switch self {
            case .root: "Your settings"
            case .profile: "Your profile"
            case .notifications: "Notifications"
            case .network: "Network & servers"
            case .privacy: "Your privacy"
            case .appearance: "Appearance"
            case .chatData: "Chat data"
            }
        }
    }

    /// What a row does on Enter or Space.
    public enum Action: Equatable, Sendable {
        case open(Page)
        case change(SettingChange)
        case editDisplayName
        case editFullName
        case addServer
        /// A relay: Enter tests it, d removes it.
        case server(String)
        /// SimpleX Lock's rows (their changes go through passcode prompts).
        case lock(LockAction)
        case data(DataAction)
        /// A line to read (a heading, the service's status).
        case none
    }

    /// Chat data's rows that act (all but Run chat need the chat stopped).
    public enum DataAction: Equatable, Sendable {
        case toggleRunning, passphrase, export, importArchive, deleteDatabase, deleteFiles
    }

    public enum LockAction: Equatable, Sendable {
        case toggle, changePasscode, toggleSelfDestruct, selfDestructName, lockNow
    }

    /// What the app does after a key.
    public enum Outcome: Equatable, Sendable {
        case none
        case close
        case change(SettingChange)
        case effect(AppEffect)
        case prompt(TextPrompt.Kind, text: String)
        /// A line of feedback for the status line.
        case error(String)
        /// "Lock now": the lock screen goes up.
        case lockNow
        case data(DataAction)
    }

    struct Row: Equatable {
        var text: String
        var action: Action
    }

    public var page: Page = .root
    public var selected = 0
    public var values: SettingsValues
    public var profile: Profile
    /// The user's relays (loaded when the screen opens).
    public var servers: [String] = []
    /// A relay's last test: "testing…", "OK", or why it failed.
    public var serverTests: [String: String] = [:]
    /// `simplex-chat notifications`'s lines: the mode and the units' state.
    public var notificationStatus: [String] = []

    public init(values: SettingsValues, profile: Profile) {
        self.values = values
        self.profile = profile
    }

    static let themes: [(String, String)] = [
        ("SYSTEM", "Follow the terminal"), ("LIGHT", "Light"), ("DARK", "Dark"),
    ]

    var rows: [Row] {
        func toggle(_ title: String, _ on: Bool, _ change: SettingChange) -> Row {
            Row(text: (on ? "[x] " : "[ ] ") + title, action: .change(change))
        }
        func choice(_ title: String, _ chosen: Bool, _ change: SettingChange) -> Row {
            Row(text: (chosen ? "(•) " : "( ) ") + title, action: .change(change))
        }
        switch page {
        case .root:
            let name = profile.displayName + (profile.fullName.isEmpty ? "" : " (\(profile.fullName))")
            return [
                Row(text: "Your profile: \(name)", action: .open(.profile)),
                Row(
                    text: "Notifications: \(values.notificationMode.rawValue)", action: .open(.notifications)),
                Row(text: "Network & servers", action: .open(.network)),
                Row(text: "Your privacy", action: .open(.privacy)),
                Row(text: "Appearance: \(values.chatLayout.rawValue) layout", action: .open(.appearance)),
                Row(text: "Chat data", action: .open(.chatData)),
            ]
        case .profile:
            return [
                Row(text: "Display name: \(profile.displayName)", action: .editDisplayName),
                Row(
                    text: "Full name: \(profile.fullName.isEmpty ? "(none)" : profile.fullName)",
                    action: .editFullName),
            ]
        case .notifications:
            var rows = [Row(text: "While the client is closed:", action: .none)]
            for mode in [NotificationMode.instant, .periodic, .off] {
                let title =
                    switch mode {
                    case .instant: "Instant: the service stays connected"
                    case .periodic: "Periodic: checks every 10 minutes"
                    case .off: "Off: messages arrive when you open the client"
                    }
                rows.append(choice(title, values.notificationMode == mode, .notificationMode(mode)))
            }
            rows.append(Row(text: "Notifications show:", action: .none))
            for mode in [NotificationPreviewMode.hidden, .contact, .message] {
                let title =
                    switch mode {
                    case .hidden: "Hidden: neither the sender nor the text"
                    case .contact: "Contact name only"
                    case .message: "Message: the sender and the text"
                    }
                rows.append(choice(title, values.previewMode == mode, .previewMode(mode)))
            }
            rows += notificationStatus.map { Row(text: $0, action: .none) }
            return rows
        case .network:
            var rows = [Row(text: "SMP relays (Enter tests, d removes):", action: .none)]
            for server in servers {
                let test = serverTests[server].map { " · \($0)" } ?? ""
                rows.append(Row(text: Self.relayLabel(server) + test, action: .server(server)))
            }
            rows.append(Row(text: "+ Add a relay by its address", action: .addServer))
            return rows
        case .privacy:
            var rows = [Row(text: (values.lock.enabled ? "[x] " : "[ ] ") + "SimpleX Lock: a passcode to open the client", action: .lock(.toggle))]
            if values.lock.enabled {
                rows.append(Row(text: "Lock after:", action: .none))
                for (seconds, title) in LockState.delays {
                    rows.append(choice(title, values.lock.delay == seconds, .lockDelay(seconds)))
                }
                rows.append(Row(text: "Change passcode", action: .lock(.changePasscode)))
                rows.append(
                    Row(
                        text: (values.lock.selfDestruct ? "[x] " : "[ ] ") + "Self-destruct passcode: erases every chat when typed",
                        action: .lock(.toggleSelfDestruct)))
                if values.lock.selfDestruct {
                    rows.append(
                        Row(
                            text: "Profile name after self-destruct: \(values.lock.selfDestructName ?? "(none)")",
                            action: .lock(.selfDestructName)))
                }
                rows.append(Row(text: "Lock now", action: .lock(.lockNow)))
            }
            return rows + [
                toggle("Auto-accept images", values.acceptImages, .acceptImages(!values.acceptImages)),
                toggle(
                    "Show chat previews (last messages in the list)", values.showPreviews,
                    .showPreviews(!values.showPreviews)),
                toggle(
                    "Save the last draft of each chat", values.saveDrafts, .saveDrafts(!values.saveDrafts)),
                toggle("Send link previews", values.linkPreviews, .linkPreviews(!values.linkPreviews)),
                toggle(
                    "Send delivery receipts to contacts", values.contactReceipts,
                    .contactReceipts(!values.contactReceipts)),
                toggle(
                    "Encrypt local files (files and media received from now on)", values.encryptLocalFiles,
                    .encryptLocalFiles(!values.encryptLocalFiles)),
            ]
        case .chatData:
            let state =
                !values.databasePassphraseSet
                ? "a random key, saved in the keychain"
                : values.storeDBPassphrase ? "set, saved in the keychain" : "set, asked at every start"
            let stopped = values.chatRunning ? " (stop the chat first)" : ""
            return [
                Row(
                    text: (values.chatRunning ? "[x] " : "[ ] ") + "Run chat" + (values.chatRunning ? "" : ": stopped, nothing is received"),
                    action: .data(.toggleRunning)),
                Row(text: "Database passphrase: \(state)", action: .none),
                toggle(
                    "Save passphrase in keychain", values.storeDBPassphrase || !values.databasePassphraseSet,
                    .storeDBPassphrase(!values.storeDBPassphrase)),
                Row(
                    text: (values.databasePassphraseSet ? "Change database passphrase…" : "Set database passphrase…") + stopped,
                    action: .data(.passphrase)),
                Row(text: "Export database…" + stopped, action: .data(.export)),
                Row(text: "Import database…" + stopped, action: .data(.importArchive)),
                Row(text: "Delete database" + stopped, action: .data(.deleteDatabase)),
                Row(text: "Files and media: \(values.filesUsage.text)", action: .none),
                Row(text: "Delete all files" + (values.chatRunning ? "" : " (run the chat first)"), action: .data(.deleteFiles)),
                Row(text: "Delete messages after:" + (values.chatRunning ? "" : " (run the chat to change it)"), action: .none),
            ] + ChatItemTTL.choices.map { seconds in
                choice(ChatItemTTL.text(seconds), values.chatItemTTL == seconds, .chatItemTTL(seconds))
            }
        case .appearance:
            var rows = [Row(text: "Theme:", action: .none)]
            for (name, title) in Self.themes {
                rows.append(choice(title, values.theme.uppercased() == name, .theme(name)))
            }
            rows.append(Row(text: "Chat layout:", action: .none))
            rows.append(
                choice(
                    "Terminal: one line per message", values.chatLayout == .terminal, .chatLayout(.terminal)))
            rows.append(
                choice(
                    "Classic: bubbles, sent on the right", values.chatLayout == .classic,
                    .chatLayout(.classic)))
            return rows
        }
    }

    /// A relay as a row names it: its hosts and port, and the start of its fingerprint (the
    /// whole address does not fit beside a test result).
    static func relayLabel(_ server: String) -> String {
        guard let address = try? SMPServerAddress(server) else { return server }
        let fingerprint = String(Base64URL.encode(address.keyHash).prefix(8))
        return "\(address.hosts.joined(separator: ",")):\(address.port) (\(fingerprint)…)"
    }

    /// Rows that can be chosen (not headings or status lines).
    private var choosable: [Int] { rows.indices.filter { rows[$0].action != .none } }

    /// Keeps the selection on a choosable row after the rows changed (the lock's rows come and go).
    public mutating func clampSelection() {
        let choosable = choosable
        guard !choosable.contains(selected) else { return }
        selected = choosable.last { $0 < selected } ?? choosable.first ?? 0
    }

    /// Opens `page` with its first choosable row selected.
    public mutating func open(_ page: Page) {
        self.page = page
        selected = choosable.first ?? 0
    }

    public mutating func handle(_ key: KeyInput) -> Outcome {
        let rows = rows
        switch key {
        case .key(.escape, _), .key(.left, _), .key(.backspace, _):
            guard page != .root else { return .close }
            let left = page
            page = .root
            selected = self.rows.firstIndex { $0.action == .open(left) } ?? 0
            return .none
        case .key(.up, _), .character("k"):
            selected = choosable.last { $0 < selected } ?? selected
            return .none
        case .key(.down, _), .character("j"):
            selected = choosable.first { $0 > selected } ?? selected
            return .none
        case .key(.enter, _), .character(" "), .key(.right, _):
            guard rows.indices.contains(selected) else { return .none }
            return activate(rows[selected].action)
        case .character("d"), .key(.delete, _):
            guard rows.indices.contains(selected), case .server(let server) = rows[selected].action else {
                return .none
            }
            guard servers.count > 1 else {
                return .error("\(server) is your only relay: add another before removing it")
            }
            return .effect(.removeServer(server))
        case .character("a") where page == .network:
            return .prompt(.addServer, text: "")
        default:
            return .none
        }
    }

    private mutating func activate(_ action: Action) -> Outcome {
        switch action {
        case .open(let page):
            open(page)
            if page == .chatData { return .effect(.chatData(.loadUsage)) }
            return page == .notifications ? .effect(.loadNotificationStatus) : .none
        case .data(let action):
            return .data(action)
        case .change(.chatItemTTL) where !values.chatRunning:
            return .error("run the chat first (Run chat): the core deletes the old messages")
        case .change(.storeDBPassphrase) where !values.databasePassphraseSet:
            return .error("no database passphrase is set: the random key must stay in the keychain (set one first)")
        case .change(let change):
            values.apply(change)
            return .change(change)
        case .editDisplayName: return .prompt(.profileDisplayName, text: profile.displayName)
        case .editFullName: return .prompt(.profileFullName, text: profile.fullName)
        case .addServer: return .prompt(.addServer, text: "")
        case .server(let server):
            serverTests[server] = "testing…"
            return .effect(.testServer(server))
        case .lock(let action):
            switch action {
            case .toggle:
                return values.lock.enabled
                    ? .prompt(.currentPasscode, text: "") : .prompt(.newPasscode(selfDestruct: false), text: "")
            case .changePasscode: return .prompt(.newPasscode(selfDestruct: false), text: "")
            case .toggleSelfDestruct:
                return values.lock.selfDestruct
                    ? .effect(.changeLock(.removeSelfDestruct)) : .prompt(.newPasscode(selfDestruct: true), text: "")
            case .selfDestructName: return .prompt(.selfDestructName, text: values.lock.selfDestructName ?? "")
            case .lockNow: return .lockNow
            }
        case .none: return .none
        }
    }

    public func lines(width: Int, height: Int) -> [StyledLine] {
        let hint = Style(foreground: .brightBlack)
        var lines = [StyledLine(" " + page.title, Style(attributes: .bold)).truncated(to: width)]
        let rows = rows
        let room = max(1, height - 2)
        // The selected row stays in view.
        let first = max(0, min(selected - room + 1, rows.count - room))
        for (index, row) in rows.enumerated().dropFirst(first).prefix(room) {
            let isSelected = index == selected && row.action != .none
            let style = isSelected ? Style(attributes: .reverse) : row.action == .none ? hint : .plain
            let marker = if case .open = row.action { " ›" } else { "" }
            let line = StyledLine((isSelected ? " ▸ " : "   ") + row.text + marker, style)
            lines.append(line.truncated(to: width).padded(to: width, style))
        }
        let keys =
            switch page {
            case .root: " ↑↓ choose · Enter open · Esc close"
            case .network: " ↑↓ choose · Enter test · a add · d remove · Esc back"
            case .profile: " ↑↓ choose · Enter edit · Esc back"
            default: " ↑↓ choose · Enter/Space toggle or choose · Esc back"
            }
        lines.append(StyledLine(keys, hint).truncated(to: width))
        return lines
    }
}

extension Theme {
    /// The chat view's theme for GroupDefaults `currentTheme` (`SYSTEM` follows the terminal).
    public static func named(currentTheme name: String) -> Theme {
        switch name.uppercased() {
        case "LIGHT": .light
        case "DARK": .dark
        default: .terminal
        }
    }
}
