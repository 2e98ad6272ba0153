/// How a run of cells looks: colours, attributes, an OSC 8 link target, and the picture row the
/// cells stand for (drawn with a graphics protocol where the terminal has one).
///
/// Colours are what the layout asks for; the renderer lowers truecolor to the 256-colour palette
/// or the 16 basic colours when the terminal has fewer, and drops colour under `NO_COLOR`.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: Attributes
    /// OSC 8 hyperlink target, when the cells are a link.
    public var link: String?
    /// The row of a picture's box these cells are: the renderer may place the picture over the
    /// box instead of drawing the cells' own text (its symbols).
    public var picture: PictureRow?

    public init(
        foreground: Color = .default, background: Color = .default, attributes: Attributes = [],
        link: String? = nil, picture: PictureRow? = nil
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
        self.link = link
        self.picture = picture
    }

    public static let plain = Style()

    public func with(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    public func foreground(_ color: Color) -> Style {
        var copy = self
        copy.foreground = color
        return copy
    }

    public func background(_ color: Color) -> Style {
        var copy = self
        copy.background = color
        return copy
    }
}

/// A terminal colour: the terminal's own default, a palette index (0–15 are the basic colours the
/// user's theme defines), or truecolor.
public enum Color: Hashable, Sendable {
    case `default`
    case palette(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    public static let black = Color.palette(0)
    public static let red = Color.palette(1)
    public static let green = Color.palette(2)
    public static let yellow = Color.palette(3)
    public static let blue = Color.palette(4)
    public static let magenta = Color.palette(5)
    public static let cyan = Color.palette(6)
    public static let white = Color.palette(7)
    public static let brightBlack = Color.palette(8)
}

/// SGR attributes.
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = Attributes(rawValue: 1 << 0)
    public static let dim = Attributes(rawValue: 1 << 1)
    public static let italic = Attributes(rawValue: 1 << 2)
    public static let underline = Attributes(rawValue: 1 << 3)
    public static let strikethrough = Attributes(rawValue: 1 << 4)
    public static let reverse = Attributes(rawValue: 1 << 5)
}
