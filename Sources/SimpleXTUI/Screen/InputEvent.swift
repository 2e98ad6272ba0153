/// What the user did at the terminal, decoded from its input bytes by `InputDecoder`.
public enum InputEvent: Equatable, Sendable {
    /// Printable text typed (one or more characters, never a control character).
    case text(String)
    /// A key that is not plain text: Enter, an arrow, a function key, Ctrl+letter, Alt+key.
    case key(Key, KeyModifiers = [])
    /// Text pasted in bracketed-paste mode, newlines kept as "\n" (never turned into Enter);
    /// control characters are kept as pasted and sanitized where text is drawn.
    case paste(String)
    case mouse(MouseEvent)
    /// The terminal window gained (true) or lost (false) focus.
    case focus(Bool)
    /// Not the user: the terminal's reply to the device attributes query (`CSI c`), which says
    /// whether it draws sixels.
    case deviceAttributes(DeviceAttributes)
}

/// A key, apart from its modifiers.
public enum Key: Hashable, Sendable {
    case enter, tab, backspace, escape
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// F1–F12 (and beyond, where a terminal sends them).
    case function(Int)
    /// A character key pressed with a modifier: Ctrl+A is `.character("a")` with `.control`.
    case character(Character)
}

/// Shift, Alt and Ctrl (and Super, which kitty reports), as xterm encodes them: the modifier
/// parameter is 1 plus these bits.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    public static let control = KeyModifiers(rawValue: 1 << 2)
    public static let `super` = KeyModifiers(rawValue: 1 << 3)

    /// From xterm's modifier parameter (`CSI 1 ; 5 A` is Ctrl+Up: 5 = 1 + 4).
    init(xtermParameter: Int) {
        self.init(rawValue: UInt8(truncatingIfNeeded: max(0, xtermParameter - 1)) & 0x0F)
    }
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable {
    case left, middle, right
    /// Buttons 4 and up that are not the wheel (back, forward).
    case other(Int)
}

/// A mouse report (SGR form): what happened, where (0-based cell), with which modifiers held.
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case press(MouseButton)
        case release(MouseButton)
        /// Moved with a button held (reported in mode 1002/1003 only).
        case drag(MouseButton)
        /// Moved with no button held (mode 1003 only).
        case move
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }

    public var action: Action
    public var position: ScreenPosition
    public var modifiers: KeyModifiers

    public init(_ action: Action, row: Int, column: Int, modifiers: KeyModifiers = []) {
        self.action = action
        position = ScreenPosition(row: row, column: column)
        self.modifiers = modifiers
    }

    /// From SGR mouse's button code and 1-based coordinates; nil for codes that mean nothing.
    init?(sgrCode code: Int, x: Int, y: Int, released: Bool) {
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let low = code & 3
        let motion = code & 32 != 0
        let button: MouseButton?
        switch code & (64 | 128) {
        case 0: button = [MouseButton.left, .middle, .right][safe: low]
        case 128: button = .other(8 + low)
        case 64 where !motion:
            let wheel: [Action] = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight]
            self.init(wheel[low], row: max(0, y - 1), column: max(0, x - 1), modifiers: modifiers)
            return
        default: return nil
        }
        let action: Action
        if motion {
            action = button.map(Action.drag) ?? .move
        } else if let button {
            action = released ? .release(button) : .press(button)
        } else {
            return nil
        }
        self.init(action, row: max(0, y - 1), column: max(0, x - 1), modifiers: modifiers)
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
