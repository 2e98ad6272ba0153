internal import CChafa
internal import CGdkPixbuf

/// A box of terminal cells.
public struct CellBox: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// The pixels of one terminal cell, which set an image's aspect in cells and the pixel size of
/// what graphics protocols send.
public struct CellPixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// Cells are about twice as tall as wide; the terminal layer gives the real size when it knows it.
    public static let typical = CellPixelSize(width: 10, height: 20)
}

/// An image encoded for a graphics protocol: the bytes to write with the cursor at the top-left
/// cell of the box, and the cells it covers (the terminal may leave the cursor after it).
public struct GraphicsImage: Equatable, Sendable {
    public let bytes: [UInt8]
    public let columns: Int
    public let rows: Int
}

/// An image drawn for the terminal: lines of cells, or graphics protocol bytes.
public enum RenderedImage: Equatable, Sendable {
    case symbols([StyledLine])
    case graphics(GraphicsImage)
}

/// A picture decoded by gdk-pixbuf (JPEG, PNG, WebP, a GIF's first frame), turned as its EXIF
/// says, and drawn with chafa into a box of terminal cells, keeping its aspect.
public struct TerminalImage: Sendable {
    /// Longer side kept after decoding: more than any terminal box shows, less than a photo's memory.
    static let maxDecodedSide = 2_048

    /// The file's name (or "image data"), which errors name.
    public let name: String
    let pixels: Pixels

    public var pixelWidth: Int { pixels.width }
    public var pixelHeight: Int { pixels.height }

    /// Decodes the image file at `path`.
    public init(contentsOfFile path: String) throws(MediaError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        self.init(name: name, pixbuf: try PixbufHandle.decode(path: path, subject: name))
    }

    /// Decodes an image in memory (a link preview's, a thumbnail).
    public init(data: [UInt8], name: String = "image data") throws(MediaError) {
        self.init(name: name, pixbuf: try PixbufHandle.decode(data: data, subject: name))
    }

    private init(name: String, pixbuf: PixbufHandle) {
        self.name = name
        pixels = pixbuf.oriented().scaledDown(toFit: Self.maxDecodedSide).pixels
    }

    /// The cells the image takes in `box`: as large as fits, its aspect kept.
    public func fittedSize(in box: CellBox, cell: CellPixelSize = .typical) throws(MediaError) -> CellBox {
        guard box.columns > 0, box.rows > 0, cell.width > 0, cell.height > 0 else {
            throw MediaError(subject: name, reason: .emptyBox(columns: box.columns, rows: box.rows))
        }
        var columns = Int32(clamping: box.columns)
        var rows = Int32(clamping: box.rows)
        // Zoom: a small picture is enlarged to the box, as a chat shows it; never stretched.
        chafa_calc_canvas_geometry(
            Int32(pixels.width), Int32(pixels.height), &columns, &rows,
            Float(cell.width) / Float(cell.height), 1, 0)
        return CellBox(columns: max(1, Int(columns)), rows: max(1, Int(rows)))
    }

    /// The image as `rendering` draws it in `box`.
    public func render(_ rendering: ImageRendering, fitting box: CellBox, cell: CellPixelSize = .typical)
        throws(MediaError)
        -> RenderedImage
    {
        switch rendering {
        case .symbols(let symbols): .symbols(try self.symbols(fitting: box, using: symbols, cell: cell))
        case .graphics(let kind): .graphics(try graphics(kind, fitting: box, cell: cell))
        }
    }

    /// The image as lines of characters in truecolor: one line per row of the fitted size.
    public func symbols(
        fitting box: CellBox, using symbols: SymbolSet = .unicode, cell: CellPixelSize = .typical
    )
        throws(MediaError) -> [StyledLine]
    {
        let size = try fittedSize(in: box, cell: cell)
        let canvas = try makeCanvas(size, cell: cell, mode: .symbols(symbols))
        var lines: [StyledLine] = []
        for row in 0..<size.rows {
            var line = StyledLine()
            for column in 0..<size.columns {
                let code = canvas.character(column: column, row: row)
                guard code != 0, let scalar = Unicode.Scalar(code) else { continue }
                let (foreground, background) = canvas.colors(column: column, row: row)
                // A space shows only its background: leave its foreground alone so runs merge.
                let style = Style(
                    foreground: scalar == " " ? .default : Self.color(foreground),
                    background: Self.color(background))
                line.append(String(Character(scalar)), style)
            }
            lines.append(line)
        }
        return lines
    }

    /// The image as the bytes of a graphics protocol, for the fitted size's cells.
    public func graphics(_ kind: GraphicsProtocol, fitting box: CellBox, cell: CellPixelSize = .typical)
        throws(MediaError)
        -> GraphicsImage
    {
        try graphics(kind, filling: try fittedSize(in: box, cell: cell), cell: cell)
    }

    /// The image as the bytes of a graphics protocol covering exactly `box` (a box fitted before,
    /// which fitting again could shrink by a cell): the picture at its own aspect at the top left,
    /// the rest of the box transparent.
    public func graphics(_ kind: GraphicsProtocol, filling box: CellBox, cell: CellPixelSize = .typical)
        throws(MediaError)
        -> GraphicsImage
    {
        guard box.columns > 0, box.rows > 0, cell.width > 0, cell.height > 0 else {
            throw MediaError(subject: name, reason: .emptyBox(columns: box.columns, rows: box.rows))
        }
        let aspect = Double(box.columns * cell.width) / Double(box.rows * cell.height)
        let canvas = try makeCanvas(
            box, cell: cell, mode: .graphics(kind), pixels: pixels.padded(toAspect: aspect))
        let bytes: [UInt8]
        do { bytes = try canvas.printed() } catch { throw MediaError(subject: name, reason: error.reason) }
        return GraphicsImage(bytes: bytes, columns: box.columns, rows: box.rows)
    }

    private func makeCanvas(_ size: CellBox, cell: CellPixelSize, mode: ImageRendering, pixels: Pixels? = nil)
        throws(MediaError) -> CanvasHandle
    {
        do {
            return try CanvasHandle(
                try CanvasConfigHandle(box: size, cell: cell, mode: mode), pixels: pixels ?? self.pixels)
        } catch {
            throw MediaError(subject: name, reason: error.reason)
        }
    }

    /// A packed 0xRRGGBB as a colour; -1 (transparent) as the terminal's own.
    private static func color(_ packed: Int32) -> Color {
        guard packed >= 0 else { return .default }
        return .rgb(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
    }
}
