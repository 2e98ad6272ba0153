/// Turns frames into the bytes that bring the terminal from the last frame to the next one,
/// writing only the cells that changed (ratatui's buffer diff); pure, the session writes them.
///
/// Each update is wrapped in synchronized output (`CSI ? 2026 h` … `l`), so terminals that support
/// it show it at once; others ignore the mode. After a resize, a resume from Ctrl+Z or anything
/// else that may have changed the screen behind our back, `invalidate()` makes the next render
/// redraw everything.
public struct Renderer: Sendable {
    /// Colours the terminal shows; styles are lowered to them as they are written.
    public var colors: ColorCapability {
        didSet { if colors != oldValue { invalidate() } }
    }

    /// The frame the terminal shows, or nil when unknown.
    private var previous: Frame?
    /// Where the terminal's cursor is, when known (after the last column it is not: the terminal
    /// holds it there with a pending wrap).
    private var cursorAt: ScreenPosition?
    private var cursorVisible: Bool?

    public init(colors: ColorCapability) {
        self.colors = colors
    }

    /// Forgets what the terminal shows: the next render clears the screen and draws every cell.
    public mutating func invalidate() {
        previous = nil
        cursorAt = nil
        cursorVisible = nil
    }

    /// The bytes that make the terminal show `frame`; empty when it already does.
    public mutating func render(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        let before: Frame
        if let previous, previous.width == frame.width, previous.height == frame.height {
            before = previous
        } else {
            // A cleared screen is a blank frame in the plain style: only the rest needs drawing.
            out += ControlSequence.resetStyle
            out += ControlSequence.clearScreen
            before = Frame(width: frame.width, height: frame.height)
            cursorAt = ScreenPosition(row: 0, column: 0)
        }
        var pen = Style.plain
        var link: String?

        for row in 0..<frame.height {
            var column = 0
            while column < frame.width {
                let cell = frame[row, column]
                // A continuation cell is drawn by its lead; one standing alone cannot occur.
                if cell.isContinuation {
                    column += 1
                    continue
                }
                let changed =
                    cell != before[row, column]
                    || (cell.width == 2 && frame[row, column + 1] != before[row, column + 1])
                guard changed else {
                    column += 1
                    continue
                }
                let here = ScreenPosition(row: row, column: column)
                if cursorAt != here, !rewroteGap(frame, upTo: here, pen: pen, link: link, into: &out) {
                    ControlSequence.moveCursor(row: row, column: column, into: &out)
                }
                if cell.style.link != link {
                    link = cell.style.link
                    ControlSequence.hyperlink(link, into: &out)
                }
                let look = effective(cell.style)
                if look != pen {
                    pen = look
                    ControlSequence.selectGraphicRendition(look, colors: colors, into: &out)
                }
                out += cell.grapheme.utf8
                column += max(1, cell.width)
                // Terminals disagree on the width of emoji sequences (VS16, ZWJ, flags): after one,
                // the next cell is placed explicitly rather than trusted to follow.
                let unsure = cell.grapheme.unicodeScalars.count > 1
                cursorAt = column < frame.width && !unsure ? ScreenPosition(row: row, column: column) : nil
            }
        }
        if link != nil { ControlSequence.hyperlink(nil, into: &out) }
        if pen != .plain { out += ControlSequence.resetStyle }

        if let cursor = frame.cursor {
            if cursorAt != cursor {
                ControlSequence.moveCursor(row: cursor.row, column: cursor.column, into: &out)
                cursorAt = cursor
            }
            if cursorVisible != true { out += ControlSequence.showCursor }
            cursorVisible = true
        } else {
            if cursorVisible != false { out += ControlSequence.hideCursor }
            cursorVisible = false
        }
        previous = frame
        guard !out.isEmpty else { return [] }
        return ControlSequence.beginSynchronizedUpdate + out + ControlSequence.endSynchronizedUpdate
    }

    /// Bridges a short gap of unchanged cells on the cursor's row by writing them again, when
    /// that is shorter than a cursor move (CUP takes 6 bytes or more): "> hello" over "> " moves
    /// nowhere. Only plain ASCII cells in the current style and link qualify.
    private func rewroteGap(
        _ frame: Frame, upTo here: ScreenPosition, pen: Style, link: String?, into out: inout [UInt8]
    )
        -> Bool
    {
        guard let at = cursorAt, at.row == here.row, at.column < here.column, here.column - at.column <= 4
        else {
            return false
        }
        for column in at.column..<here.column {
            let cell = frame[here.row, column]
            guard cell.width == 1, cell.grapheme.utf8.count == 1, cell.style.link == link,
                effective(cell.style) == pen
            else { return false }
        }
        for column in at.column..<here.column { out += frame[here.row, column].grapheme.utf8 }
        return true
    }

    /// The style as this terminal shows it, without its link (which is written apart from SGR):
    /// styles that look the same need no new SGR.
    private func effective(_ style: Style) -> Style {
        Style(
            foreground: colors.lower(style.foreground), background: colors.lower(style.background),
            attributes: style.attributes)
    }
}
