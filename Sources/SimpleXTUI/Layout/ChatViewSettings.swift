import Foundation
import SimpleXChat

/// How times are written: `13:05` or `1:05 pm`.
public enum TimeFormat: String, CaseIterable, Sendable {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}

/// A size in terminal cells.
public struct CellSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// What every item of a chat view is drawn with: the layout (`ChatLayout` as GroupDefaults
/// `chatLayout` stores it: "terminal" or "classic"), the theme, and the user's preferences.
public struct ChatViewSettings: Hashable, Sendable {
    public var layout: ChatLayout
    public var theme: Theme
    /// The user's display name: the sender name of own items in terminal rows.
    public var userName: String
    /// Secrets (`#secret#`) are shown without a tap.
    public var showSecrets: Bool
    public var timeFormat: TimeFormat
    /// For times and date separators.
    public var timeZone: TimeZone
    /// The box an image or video takes when its item does not give one (`ChatViewItem.mediaCells`).
    public var mediaCells: CellSize
    /// The most lines a quote's text takes (iOS: 3).
    public var quoteLineLimit: Int

    public init(
        layout: ChatLayout = .terminal, theme: Theme = .terminal, userName: String = "you",
        showSecrets: Bool = false, timeFormat: TimeFormat = .twentyFourHour,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
        mediaCells: CellSize = CellSize(columns: 24, rows: 8), quoteLineLimit: Int = 3
    ) {
        self.layout = layout
        self.theme = theme
        self.userName = userName
        self.showSecrets = showSecrets
        self.timeFormat = timeFormat
        self.timeZone = timeZone
        self.mediaCells = mediaCells
        self.quoteLineLimit = quoteLineLimit
    }
}

/// How one item is drawn in this frame: the cursor, the selection, revealed secrets, search.
public struct ItemRenderState: Hashable, Sendable {
    /// The keyboard cursor is on the item (a `▌` in the row's start padding).
    public var isCursor: Bool
    /// The chat is in selection mode: every row has a check box (iOS: row moved by 28pt).
    public var selecting: Bool
    /// The item is selected (a tinted row and a checked box).
    public var isSelected: Bool
    /// The user revealed the item's secrets.
    public var revealedSecret: Bool
    /// Matches of this term are highlighted (reverse video), case-insensitively.
    public var searchHighlight: String?
    /// The first unread item: a "new messages" line above it.
    public var showsNewMessagesLineAbove: Bool

    public init(
        isCursor: Bool = false, selecting: Bool = false, isSelected: Bool = false,
        revealedSecret: Bool = false,
        searchHighlight: String? = nil, showsNewMessagesLineAbove: Bool = false
    ) {
        self.isCursor = isCursor
        self.selecting = selecting
        self.isSelected = isSelected
        self.revealedSecret = revealedSecret
        self.searchHighlight = searchHighlight
        self.showsNewMessagesLineAbove = showsNewMessagesLineAbove
    }

    public static let plain = ItemRenderState()
}
