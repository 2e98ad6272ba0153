/// A key or other input as the app model sees it (decoded from the terminal's bytes by the
/// screen layer; tests build them directly).
public enum KeyInput: Equatable, Sendable {
    /// A printable character typed.
    case character(Character)
    case key(NamedKey, KeyModifiers = [])
    /// Ctrl with a letter (Ctrl+K is `.control("k")`).
    case control(Character)
    /// Alt (Meta) with a character (Alt+1 is `.alt("1")`).
    case alt(Character)
    /// Bracketed paste: inserted as text, a newline in it never sends.
    case paste(String)
    case wheel(up: Bool)
    /// A click at (row, column), 0-based.
    case click(row: Int, column: Int)
    /// A right click: the actions menu of the item under it.
    case rightClick(row: Int, column: Int)
    case focus(Bool)
}

/// Keys with names.
public enum NamedKey: Equatable, Sendable {
    case enter, tab, backspace, escape, up, down, left, right, home, end, pageUp, pageDown, delete, insert
    case function(Int)
}
