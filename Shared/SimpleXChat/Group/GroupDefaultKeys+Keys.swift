import Foundation

// The keys every process reads; names and defaults follow the iOS app
// (../shared/reference/ios-coordination.md §1) where it has the key.
extension GroupDefaultKeys {
    // Process coordination (DESIGN §4).
    /// The client has not said it runs until it does: a fresh or crashed client must not keep
    /// the service from receiving (iOS defaults to `active` because its app launches first).
    public static let appState = GroupDefaultKey<AppState>("appState", default: .suspended)
    /// A service that never ran must not delay the client (as iOS).
    public static let nseState = GroupDefaultKey<NSEState>("nseState", default: .suspended)
    public static let shareState = GroupDefaultKey<ShareState>("shareState", default: .inactive)
    public static let chatLastStart = GroupDefaultKey<Date>("chatLastStart", default: Date(timeIntervalSince1970: 0))
    public static let chatLastBackgroundRun = GroupDefaultKey<Date>(
        "chatLastBackgroundRun", default: Date(timeIntervalSince1970: 0))

    // Notifications.
    public static let ntfPreviewMode = GroupDefaultKey<NotificationPreviewMode>("ntfPreviewMode", default: .message)
    public static let notificationMode = GroupDefaultKey<NotificationMode>("notificationMode", default: .instant)
    /// Incremented by the service for each notified message, reset by the client.
    public static let ntfBadgeCount = GroupDefaultKey<Int>("ntfBadgeCount", default: 0)

    // Appearance.
    public static let chatLayout = GroupDefaultKey<ChatLayout>("chatLayout", default: .terminal)
    /// Chats drawn in the other layout (the contact's info, `l`); the rest follow `chatLayout`.
    public static let chatLayoutByChat = GroupDefaultKey<ChatLayoutOverrides>(
        "chatLayoutByChat", default: ChatLayoutOverrides())
    /// iOS `currentTheme`: follow the terminal (`SYSTEM`), or `LIGHT` / `DARK`.
    public static let currentTheme = GroupDefaultKey<String>("currentTheme", default: "SYSTEM")

    // Privacy.
    public static let appLocalAuthEnabled = GroupDefaultKey<Bool>("appLocalAuthEnabled", default: false)
    /// SimpleX Lock: seconds without a keystroke before the client locks (iOS `laLockDelay`, 30 by
    /// default; 0 locks at once).
    public static let laLockDelay = GroupDefaultKey<Int>("laLockDelay", default: 30)
    /// The self-destruct passcode is set (iOS `selfDestruct`).
    public static let selfDestruct = GroupDefaultKey<Bool>("selfDestruct", default: false)
    /// The name of the empty profile made after self-destruct (iOS `selfDestructDisplayName`).
    public static let selfDestructDisplayName = GroupDefaultKey<String?>("selfDestructDisplayName", default: nil)
    /// The client shows its lock screen: every process keeps chat content out of sight (the
    /// service's notifications are hidden). Set before locking, cleared only after an unlock, so a
    /// client that crashed while locked leaves it set — the safe side.
    public static let appLocked = GroupDefaultKey<Bool>("appLocked", default: false)
    public static let allowShareExtension = GroupDefaultKey<Bool>("allowShareExtension", default: false)
    public static let privacyLinkPreviews = GroupDefaultKey<Bool>("privacyLinkPreviews", default: true)
    public static let privacySanitizeLinks = GroupDefaultKey<Bool>("privacySanitizeLinks", default: false)
    public static let privacyAcceptImages = GroupDefaultKey<Bool>("privacyAcceptImages", default: true)
    public static let privacyEncryptLocalFiles = GroupDefaultKey<Bool>("privacyEncryptLocalFiles", default: true)
    /// The chat list shows the last message of each chat (iOS `privacyShowChatPreviews`).
    public static let privacyShowChatPreviews = GroupDefaultKey<Bool>("privacyShowChatPreviews", default: true)
    /// An unsent draft is kept per chat (iOS `privacySaveLastDraft`).
    public static let privacySaveLastDraft = GroupDefaultKey<Bool>("privacySaveLastDraft", default: true)

    // Network (SimpleX NetCfg; durations in microseconds as the core takes them).
    public static let networkSocksProxy = GroupDefaultKey<String?>("networkSocksProxy", default: nil)
    public static let networkUseOnionHosts = GroupDefaultKey<OnionHosts>("networkUseOnionHosts", default: .no)
    public static let networkSessionMode = GroupDefaultKey<TransportSessionMode>("networkSessionMode", default: .user)
    public static let networkTCPConnectTimeout = GroupDefaultKey<Int>("networkTCPConnectTimeout", default: 15_000_000)
    public static let networkTCPTimeout = GroupDefaultKey<Int>("networkTCPTimeout", default: 10_000_000)
    public static let networkTCPTimeoutPerKb = GroupDefaultKey<Int>("networkTCPTimeoutPerKb", default: 10_000)
    public static let networkSMPPingInterval = GroupDefaultKey<Int>("networkSMPPingInterval", default: 1_200_000_000)
    public static let networkSMPPingCount = GroupDefaultKey<Int>("networkSMPPingCount", default: 3)
    public static let networkEnableKeepAlive = GroupDefaultKey<Bool>("networkEnableKeepAlive", default: true)
    public static let networkTCPKeepIdle = GroupDefaultKey<Int>("networkTCPKeepIdle", default: 30)
    public static let networkTCPKeepIntvl = GroupDefaultKey<Int>("networkTCPKeepIntvl", default: 15)
    public static let networkTCPKeepCnt = GroupDefaultKey<Int>("networkTCPKeepCnt", default: 4)

    // Database.
    public static let storeDBPassphrase = GroupDefaultKey<Bool>("storeDBPassphrase", default: true)
    public static let initialRandomDBPassphrase = GroupDefaultKey<Bool>("initialRandomDBPassphrase", default: false)
    public static let confirmDBUpgrades = GroupDefaultKey<Bool>("confirmDBUpgrades", default: false)

    /// Every key, in the order `simplex-chat defaults` lists them.
    public static let all: [GroupDefaultKeys] = [
        appState, nseState, shareState, chatLastStart, chatLastBackgroundRun,
        ntfPreviewMode, notificationMode, ntfBadgeCount, chatLayout, chatLayoutByChat, currentTheme,
        appLocalAuthEnabled, laLockDelay, selfDestruct, selfDestructDisplayName, appLocked, allowShareExtension, privacyLinkPreviews, privacySanitizeLinks,
        privacyAcceptImages, privacyEncryptLocalFiles, privacyShowChatPreviews, privacySaveLastDraft,
        networkSocksProxy, networkUseOnionHosts, networkSessionMode, networkTCPConnectTimeout,
        networkTCPTimeout, networkTCPTimeoutPerKb, networkSMPPingInterval, networkSMPPingCount,
        networkEnableKeepAlive, networkTCPKeepIdle, networkTCPKeepIntvl, networkTCPKeepCnt,
        storeDBPassphrase, initialRandomDBPassphrase, confirmDBUpgrades,
    ]

    /// The key called `name`, if there is one.
    public static func named(_ name: String) -> GroupDefaultKeys? { all.first { $0.name == name } }
}
