/// One terminal cell: a grapheme and its style, or the second half of a wide grapheme.
public struct Cell: Equatable, Sendable {
    /// The grapheme drawn here; empty in a continuation cell.
    public var grapheme: String
    public var style: Style
    /// Cells the grapheme takes: 1 or 2, or 0 for the continuation cell right of a wide grapheme.
    public var width: Int

    public init(_ grapheme: String, _ style: Style = .plain, width: Int = 1) {
        self.grapheme = grapheme
        self.style = style
        self.width = width
    }

    /// The cell right of a wide grapheme; the terminal draws nothing of its own there.
    public static func continuation(_ style: Style) -> Cell { Cell("", style, width: 0) }

    public static let blank = Cell(" ")

    public var isContinuation: Bool { width == 0 }
}

/// A row and column on the screen, both from 0 at the top left.
public struct ScreenPosition: Hashable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// What the screen shows: a `width` × `height` grid of cells and where the cursor is, if shown.
///
/// The grid is always consistent: every wide grapheme's lead cell is followed by its continuation
/// cell on the same row, and no wide grapheme straddles the right edge (it becomes a space there).
public struct Frame: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major cells, `width * height` of them.
    public private(set) var cells: [Cell]
    /// The text cursor, shown only where text is being composed; nil hides it.
    public var cursor: ScreenPosition? {
        didSet {
            if let position = cursor, !contains(position) { cursor = nil }
        }
    }

    /// A blank frame.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
        cursor = nil
    }

    /// A frame showing `lines` from the top; rows beyond `height` are dropped, each row is cut or
    /// padded with blanks to `width`.
    ///
    /// Built row by row (the cells as `draw` leaves them on a blank frame, without first
    /// filling it and then repairing wide graphemes there cannot be): every frame is made so.
    public init(width: Int, height: Int, lines: [StyledLine], cursor: ScreenPosition? = nil) {
        self.width = max(0, width)
        self.height = max(0, height)
        var cells: [Cell] = []
        cells.reserveCapacity(self.width * self.height)
        for row in 0..<self.height {
            let start = cells.count
            if row < lines.count { Self.append(lines[row], width: self.width, to: &cells) }
            cells.append(contentsOf: repeatElement(.blank, count: self.width - (cells.count - start)))
        }
        self.cells = cells
        self.cursor = cursor
        if let cursor, !contains(cursor) { self.cursor = nil }
    }

    /// The cells of `line` cut at `width` (at most `width` of them), as `draw` makes them.
    private static func append(_ line: StyledLine, width: Int, to cells: inout [Cell]) {
        var column = 0
        for span in line.spans {
            if TextWidth.asciiWidth(span.text) != nil {
                for byte in span.text.utf8 {
                    guard column < width else { return }
                    cells.append(Cell(String(UnicodeScalar(byte)), span.style))
                    column += 1
                }
                continue
            }
            var full = false
            TextWidth.forEachGrapheme(span.text) { grapheme, count in
                guard !full else { return }
                guard column + count <= width else {
                    // A wide grapheme that would straddle the edge: a space in its style instead.
                    if column < width {
                        cells.append(Cell(" ", span.style))
                        column += 1
                    }
                    full = true
                    return
                }
                cells.append(Cell(grapheme == "\t" ? " " : grapheme, span.style, width: count))
                if count == 2 { cells.append(.continuation(span.style)) }
                column += count
            }
            if full { return }
        }
    }

    public func contains(_ position: ScreenPosition) -> Bool {
        position.row >= 0 && position.row < height && position.column >= 0 && position.column < width
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// One row's text as a user reads it (continuation cells add nothing).
    public func text(row: Int) -> String {
        var result = ""
        for column in 0..<width { result += self[row, column].grapheme }
        return result
    }

    /// Every row's text.
    public var rows: [String] { (0..<height).map(text(row:)) }

    /// Draws `line` over the cells from (`row`, `column`) rightwards, clipped at the right edge.
    ///
    /// Overlays (a menu over a chat) draw with this: a wide grapheme half covered by the new text
    /// loses its other half to a space, so the grid stays consistent.
    public mutating func draw(_ line: StyledLine, row: Int, column start: Int) {
        guard row >= 0, row < height, start < width else { return }
        var column = start
        for span in line.spans {
            var full = false
            TextWidth.forEachGrapheme(span.text) { grapheme, cells in
                guard !full else { return }
                let text = grapheme == "\t" ? " " : grapheme
                if column + cells > width {
                    // A wide grapheme that would straddle the edge: a space in its style instead.
                    if column >= 0, column < width { put(Cell(" ", span.style), row: row, column: column) }
                    full = true
                    return
                }
                if column >= 0 {
                    put(Cell(text, span.style, width: cells), row: row, column: column)
                }
                column += cells
            }
            if full { break }
        }
    }

    /// Fills `count` cells from (`row`, `column`) with spaces in `style`.
    public mutating func fill(row: Int, column: Int, count: Int, _ style: Style = .plain) {
        guard row >= 0, row < height else { return }
        for c in max(0, column)..<min(width, max(0, column + count)) {
            put(Cell(" ", style), row: row, column: c)
        }
    }

    /// Stores a 1- or 2-cell grapheme, repairing the wide graphemes it overwrites half of.
    private mutating func put(_ cell: Cell, row: Int, column: Int) {
        let base = row * width
        let span = max(1, cell.width)
        // The cell left of us was the lead of a wide grapheme whose continuation we overwrite.
        if cells[base + column].isContinuation, column > 0 {
            cells[base + column - 1] = Cell(" ", cells[base + column - 1].style)
        }
        // The last cell we cover was the lead of a wide grapheme whose continuation stays behind.
        let last = column + span - 1
        if cells[base + last].width == 2, last + 1 < width {
            cells[base + last + 1] = Cell(" ", cells[base + last + 1].style)
        }
        cells[base + column] = cell
        if span == 2 { cells[base + column + 1] = .continuation(cell.style) }
    }
}
