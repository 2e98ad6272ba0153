import Foundation

@testable import SimpleXTUI

/// A small terminal emulator for the renderer's tests: it applies the sequences the renderer
/// writes (CUP, ED 2, SGR, OSC 8, synchronized output and cursor visibility) to a grid, so a test
/// can check that what the terminal shows is the frame, whatever the diff was; and the pictures
/// (kitty, sixel, iTerm2) it shows, where (ScreenTerminalModel+Graphics.swift).
struct TerminalModel {
    let width: Int
    let height: Int
    var cells: [Cell]
    var row = 0
    var column = 0
    var pen = Style.plain
    var cursorVisible = true
    var synchronized = false
    /// Sequences the model does not know (a test expects none).
    var unknown: [String] = []
    /// The pixels of a cell, which give a sixel's size in cells.
    var cellPixels = CellPixelSize(width: 10, height: 20)
    /// kitty: images transmitted (by id) and placements on screen (by image id).
    var kittyImages: Set<UInt32> = []
    var kittyPlacements: [UInt32: ShownPicture] = [:]
    /// Sixel and iTerm2 pictures drawn and not yet written over.
    var drawnPictures: [ShownPicture] = []
    /// Every graphics command, in order, with where the cursor was.
    var graphicsLog: [(command: String, row: Int, column: Int)] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Cell("?"), count: width * height)  // garbage until cleared
    }

    var rows: [String] {
        (0..<height).map { r in (0..<width).map { cells[r * width + $0].grapheme }.joined() }
    }

    func cell(_ r: Int, _ c: Int) -> Cell { cells[r * width + c] }

    mutating func apply(_ bytes: [UInt8]) {
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            TextWidth.forEachGrapheme(String(decoding: text, as: UTF8.self)) { grapheme, cellWidth in
                put(grapheme, cellWidth)
            }
            text.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x1B else {
                text.append(byte)
                index += 1
                continue
            }
            flushText()
            if let end = graphics(bytes, at: index) {
                index = end
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "]") {
                // OSC 8 ; params ; target ST
                var end = index + 2
                while !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if body.hasPrefix("8;;") {
                    let target = String(body.dropFirst(3)).removingPercentEncoding ?? "invalid"
                    pen.link = target.isEmpty ? nil : target
                } else {
                    unknown.append("OSC " + body)
                }
                index = end + 2
                continue
            }
            precondition(bytes[index + 1] == UInt8(ascii: "["))
            var end = index + 2
            while !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            csi(parameters, final: Character(UnicodeScalar(bytes[end])))
            index = end + 1
        }
        flushText()
    }

    private mutating func put(_ grapheme: String, _ cellWidth: Int) {
        if column >= width {
            // Pending wrap: the renderer must never rely on it.
            unknown.append("wrap at row \(row)")
            return
        }
        // Text written over a sixel or iTerm2 picture erases it (at least there: all of it, here).
        drawnPictures.removeAll { $0.covers(row: row, column: column) }
        cells[row * width + column] = Cell(grapheme, pen, width: cellWidth)
        if cellWidth == 2, column + 1 < width { cells[row * width + column + 1] = .continuation(pen) }
        column += cellWidth
    }

    private mutating func csi(_ parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch (parameters, final) {
        case ("?2026", "h"): synchronized = true
        case ("?2026", "l"): synchronized = false
        case ("?25", "h"): cursorVisible = true
        case ("?25", "l"): cursorVisible = false
        case ("2", "J"):
            cells = Array(repeating: .blank, count: width * height)
            drawnPictures = []
        case (_, "H"):
            row = ((numbers.first ?? 1) ?? 1) - 1
            column = ((numbers.count > 1 ? numbers[1] : 1) ?? 1) - 1
        case (_, "m"): sgr(numbers.map { $0 ?? 0 })
        default: unknown.append("CSI \(parameters)\(final)")
        }
    }

    private mutating func sgr(_ codes: [Int]) {
        var index = 0
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0:
                pen = Style(link: pen.link)
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 3: pen.attributes.insert(.italic)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.reverse)
            case 9: pen.attributes.insert(.strikethrough)
            case 30...37: pen.foreground = .palette(UInt8(code - 30))
            case 90...97: pen.foreground = .palette(UInt8(code - 90 + 8))
            case 40...47: pen.background = .palette(UInt8(code - 40))
            case 100...107: pen.background = .palette(UInt8(code - 100 + 8))
            case 38, 48:
                let color: Color
                if codes[index + 1] == 5 {
                    color = .palette(UInt8(codes[index + 2]))
                    index += 2
                } else {
                    color = .rgb(UInt8(codes[index + 2]), UInt8(codes[index + 3]), UInt8(codes[index + 4]))
                    index += 4
                }
                if code == 38 { pen.foreground = color } else { pen.background = color }
            default: unknown.append("SGR \(code)")
            }
            index += 1
        }
    }
}
