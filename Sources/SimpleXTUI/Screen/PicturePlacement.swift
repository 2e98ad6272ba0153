/// One picture drawn in a box of cells: its number (unique for the life of the process, so a
/// graphics protocol can name the picture by it) and its box.
public struct PictureID: Hashable, Sendable {
    /// 1 and up; kitty's image id.
    public let number: UInt32
    public let box: CellBox

    public init(number: UInt32, box: CellBox) {
        self.number = number
        self.box = box
    }
}

/// The tag on the cells of one row of a picture's box (`Style.picture`). The layout keeps
/// drawing symbols there; the renderer finds the tagged cells and, where the whole box is on
/// screen, places the picture itself over blank cells instead.
public struct PictureRow: Hashable, Sendable {
    public let picture: PictureID
    /// 0 at the box's top.
    public let row: Int

    public init(picture: PictureID, row: Int) {
        self.picture = picture
        self.row = row
    }
}

extension Frame {
    /// The pictures whose box is on screen whole, by the top-left cell of the box.
    ///
    /// Whole means every row of the box is there, each a run of exactly the box's columns
    /// starting at the same column, one row under another. A box cut by the top or bottom of the
    /// chat (scrolled partly away), by the right edge, or by an overlay (a menu drawn over it)
    /// is not whole, and its cells keep their symbols.
    public func wholePictures() -> [PictureID: ScreenPosition] {
        struct Run {
            var row: Int
            var column: Int
            var count: Int
        }
        var runs: [PictureID: [Int: Run]] = [:]
        var broken: Set<PictureID> = []
        for row in 0..<height {
            var column = 0
            while column < width {
                guard let tag = self[row, column].style.picture else {
                    column += 1
                    continue
                }
                var end = column + 1
                while end < width, self[row, end].style.picture == tag { end += 1 }
                if runs[tag.picture, default: [:]].updateValue(
                    Run(row: row, column: column, count: end - column), forKey: tag.row) != nil
                {
                    broken.insert(tag.picture)  // a row cut in two, or the same picture twice
                }
                column = end
            }
        }
        var whole: [PictureID: ScreenPosition] = [:]
        for (picture, rows) in runs where !broken.contains(picture) && rows.count == picture.box.rows {
            guard let top = rows[0] else { continue }
            let fits = rows.allSatisfy { index, run in
                run.row == top.row + index && run.column == top.column && run.count == picture.box.columns
            }
            if fits { whole[picture] = ScreenPosition(row: top.row, column: top.column) }
        }
        return whole
    }
}
