import SimpleXChat

/// The chat view's semantic colours: light, dark, or `terminal`, which uses only the 16 basic
/// palette colours (and the terminal's own default colours) so it follows the user's theme.
public struct Theme: Hashable, Sendable {
    /// The theme's name, as settings store it.
    public var name: String
    /// Own names, cursors, accents.
    public var primary: Color
    /// Message text.
    public var text: Color
    /// Times, events, others' names, quoted text (iOS: onSurface at 70%).
    public var secondary: Color
    /// Classic bubbles of sent and of received messages.
    public var sentBubble: Color
    public var receivedBubble: Color
    /// Classic bubbles drawn as box corners instead of a background (for terminal themes,
    /// where a background colour could be unreadable).
    public var boxedBubbles: Bool
    /// The bar before quotes (`▌`).
    public var quoteBar: Color
    /// The background of cards: code blocks, tables, link previews, files, media boxes.
    public var cardBackground: Color
    /// Inline code and code blocks.
    public var code: Color
    public var link: Color
    public var mention: Color
    public var error: Color
    /// A selected row's tint (iOS: primary at 10%).
    public var selectedBackground: Color
    /// The "new messages" line.
    public var newMessages: Color
    /// `!1 red!` and the other markdown colours, in the order of `FormatColor.allCases`.
    public var formatColors: [Color]

    /// The colour of `!n text!` markdown.
    public func color(_ format: FormatColor) -> Color {
        let index = FormatColor.allCases.firstIndex(of: format) ?? 0
        return index < formatColors.count ? formatColors[index] : text
    }

    /// iOS's light theme, in truecolor (the renderer lowers it on terminals with fewer colours).
    public static let light = Theme(
        name: "light", primary: .rgb(0, 122, 255), text: .rgb(28, 28, 30), secondary: .rgb(110, 110, 115),
        sentBubble: .rgb(221, 238, 255), receivedBubble: .rgb(236, 236, 240), boxedBubbles: false,
        quoteBar: .rgb(150, 170, 200), cardBackground: .rgb(228, 230, 236), code: .rgb(170, 40, 90),
        link: .rgb(0, 102, 214), mention: .rgb(0, 122, 255), error: .rgb(215, 0, 21),
        selectedBackground: .rgb(225, 237, 255), newMessages: .rgb(0, 122, 255),
        formatColors: [
            .rgb(215, 0, 21), .rgb(36, 138, 61), .rgb(0, 64, 221), .rgb(178, 128, 0), .rgb(0, 130, 153),
            .rgb(175, 82, 222), .rgb(0, 0, 0), .rgb(255, 255, 255),
        ])

    /// iOS's dark theme, in truecolor.
    public static let dark = Theme(
        name: "dark", primary: .rgb(10, 132, 255), text: .rgb(235, 235, 240), secondary: .rgb(152, 152, 159),
        sentBubble: .rgb(24, 50, 82), receivedBubble: .rgb(44, 44, 48), boxedBubbles: false,
        quoteBar: .rgb(90, 110, 140), cardBackground: .rgb(36, 38, 44), code: .rgb(255, 140, 180),
        link: .rgb(100, 170, 255), mention: .rgb(10, 132, 255), error: .rgb(255, 69, 58),
        selectedBackground: .rgb(20, 40, 70), newMessages: .rgb(10, 132, 255),
        formatColors: [
            .rgb(255, 69, 58), .rgb(48, 209, 88), .rgb(64, 156, 255), .rgb(255, 214, 10), .rgb(100, 210, 255),
            .rgb(191, 90, 242), .rgb(0, 0, 0), .rgb(255, 255, 255),
        ])

    /// The user's terminal colours: the 16 basic palette entries and the default colours only.
    public static let terminal = Theme(
        name: "terminal", primary: .blue, text: .default, secondary: .brightBlack,
        sentBubble: .default, receivedBubble: .default, boxedBubbles: true,
        quoteBar: .brightBlack, cardBackground: .default, code: .cyan,
        link: .blue, mention: .magenta, error: .red,
        selectedBackground: .palette(8), newMessages: .blue,
        formatColors: [.red, .green, .blue, .yellow, .cyan, .magenta, .black, .white])

    /// The themes by name.
    public static let all: [Theme] = [.light, .dark, .terminal]
}
