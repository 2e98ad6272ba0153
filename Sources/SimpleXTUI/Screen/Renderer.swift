/// Turns frames into the bytes that bring the terminal from the last frame to the next one,
/// writing only the cells that changed (ratatui's buffer diff); pure, the session writes them.
///
/// Each update is wrapped in synchronized output (`CSI ? 2026 h` … `l`), so terminals that support
/// it show it at once; others ignore the mode. After a resize, a resume from Ctrl+Z or anything
/// else that may have changed the screen behind our back, `invalidate()` makes the next render
/// redraw everything.
///
/// Pictures (cells tagged `Style.picture`) are placed with `graphics` when their whole box is on
/// screen, after the text, and only when they appear, move or were drawn over
/// (`Renderer+Pictures.swift`); otherwise their cells' symbols are written like any text.
public struct Renderer: Sendable {
    /// Colours the terminal shows; styles are lowered to them as they are written.
    public var colors: ColorCapability {
        didSet { if colors != oldValue { invalidate() } }
    }
    /// The protocol pictures are placed with; nil writes every picture as its symbols.
    public var graphics: GraphicsProtocol? {
        didSet { if graphics != oldValue { invalidate() } }
    }
    /// The pixels of a cell, which pictures are encoded for.
    public var cell: CellPixelSize = .typical {
        didSet { if cell != oldValue { invalidate() } }
    }

    /// The frame the terminal shows (with blank cells under the pictures placed), or nil when unknown.
    private var previous: Frame?
    /// Where the terminal's cursor is, when known (after the last column it is not: the terminal
    /// holds it there with a pending wrap).
    var cursorAt: ScreenPosition?
    private var cursorVisible: Bool?
    /// Pictures the terminal shows, by the top-left cell of their box.
    var placed: [PictureID: ScreenPosition] = [:]
    /// kitty: images the terminal holds (transmitted, maybe not placed), oldest first.
    var transmitted: [UInt32] = []
    /// kitty placements were made since the last removal of all of them: a full redraw (after
    /// `invalidate()`, which forgets `placed`) removes them first.
    var kittyMayShowPlacements = false

    public init(colors: ColorCapability, graphics: GraphicsProtocol? = nil, cell: CellPixelSize = .typical) {
        self.colors = colors
        self.graphics = graphics
        self.cell = cell
    }

    /// Forgets what the terminal shows: the next render clears the screen and draws every cell
    /// (and every picture again).
    public mutating func invalidate() {
        previous = nil
        cursorAt = nil
        cursorVisible = nil
        placed = [:]
    }

    /// The bytes that make the terminal show `frame`; empty when it already does. `pictures`
    /// gives a picture's bytes for `graphics` (`PictureStore.graphics`); it is asked only for
    /// pictures that are to be drawn now.
    public mutating func render(_ frame: Frame, pictures: ((PictureID) -> GraphicsImage?)? = nil) -> [UInt8] {
        var out: [UInt8] = []
        let before: Frame
        if let previous, previous.width == frame.width, previous.height == frame.height {
            before = previous
        } else {
            if kittyMayShowPlacements {
                out += KittyGraphics.removeAllPlacements
                kittyMayShowPlacements = false
            }
            placed = [:]
            // A cleared screen is a blank frame in the plain style: only the rest needs drawing.
            out += ControlSequence.resetStyle
            out += ControlSequence.clearScreen
            before = Frame(width: frame.width, height: frame.height)
            cursorAt = ScreenPosition(row: 0, column: 0)
        }
        var plan = planPictures(frame, source: pictures)
        writeText(plan.frame, over: before, plan: &plan, into: &out)
        writePictures(&plan, source: pictures, into: &out)

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
        previous = plan.frame
        guard !out.isEmpty else { return [] }
        return ControlSequence.beginSynchronizedUpdate + out + ControlSequence.endSynchronizedUpdate
    }

    /// The changed cells of `frame` (and those `plan` forces), in as few bytes as it takes.
    private mutating func writeText(
        _ frame: Frame, over before: Frame, plan: inout PicturePlan, into out: inout [UInt8]
    ) {
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
                    || plan.isForced(row: row, column: column)
                guard changed else {
                    column += 1
                    continue
                }
                plan.noteWritten(row: row, column: column, width: cell.width)
                let here = ScreenPosition(row: row, column: column)
                if cursorAt != here,
                    !rewroteGap(frame, upTo: here, pen: pen, link: link, plan: plan, into: &out)
                {
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
    }

    /// Bridges a short gap of unchanged cells on the cursor's row by writing them again, when
    /// that is shorter than a cursor move (CUP takes 6 bytes or more): "> hello" over "> " moves
    /// nowhere. Only plain ASCII cells in the current style and link qualify, and none under a
    /// picture (writing there would erase a sixel).
    private func rewroteGap(
        _ frame: Frame, upTo here: ScreenPosition, pen: Style, link: String?, plan: PicturePlan,
        into out: inout [UInt8]
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
                effective(cell.style) == pen, !plan.isCovered(row: here.row, column: column)
            else { return false }
        }
        for column in at.column..<here.column { out += frame[here.row, column].grapheme.utf8 }
        return true
    }

    /// The style as this terminal shows it, without its link (which is written apart from SGR):
    /// styles that look the same need no new SGR.
    func effective(_ style: Style) -> Style {
        Style(
            foreground: colors.lower(style.foreground), background: colors.lower(style.background),
            attributes: style.attributes)
    }
}
