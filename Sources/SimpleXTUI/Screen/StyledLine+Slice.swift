extension StyledLine {
    /// The cells `columns` of the line (a wide grapheme cut by either edge becomes spaces, so
    /// columns never shift); shorter lines give fewer cells.
    public func slice(_ columns: Range<Int>) -> StyledLine {
        var result = StyledLine()
        var column = 0
        for span in spans {
            if column >= columns.upperBound { break }
            if column + span.width <= columns.lowerBound {
                column += span.width
                continue
            }
            var piece = ""
            var pieceWidth = 0
            TextWidth.forEachGrapheme(span.text) { grapheme, cells in
                defer { column += cells }
                let end = column + cells
                if end <= columns.lowerBound || column >= columns.upperBound { return }
                if column < columns.lowerBound || end > columns.upperBound {
                    let visible = min(end, columns.upperBound) - max(column, columns.lowerBound)
                    piece += String(repeating: " ", count: visible)
                    pieceWidth += visible
                } else {
                    piece += grapheme
                    pieceWidth += cells
                }
            }
            result.append(Span(sanitized: piece, width: pieceWidth, style: span.style))
        }
        return result
    }

    /// This line with `overlay` drawn over it from `column` (padding the line where it is short).
    public func overlaid(_ overlay: StyledLine, at column: Int, totalWidth: Int) -> StyledLine {
        var result = slice(0..<column).padded(to: column)
        result.append(overlay)
        let after = column + overlay.width
        if after < totalWidth { result.append(slice(after..<totalWidth)) }
        return result
    }
}
