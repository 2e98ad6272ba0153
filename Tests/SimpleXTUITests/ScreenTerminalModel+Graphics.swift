import Foundation

@testable import SimpleXTUI

/// A picture the model terminal shows: its top-left cell and its size in cells.
struct ShownPicture: Equatable {
    var row: Int
    var column: Int
    var columns: Int
    var rows: Int
    /// The kitty image id, or the sixel / iTerm2 bytes' payload as the test wrote it.
    var name: String

    func covers(row r: Int, column c: Int) -> Bool {
        (row..<(row + rows)).contains(r) && (column..<(column + columns)).contains(c)
    }
}

extension TerminalModel {
    /// The graphics sequences: kitty's APC (`ESC _ G … ESC \`), sixel's DCS (`ESC P … q … ESC \`)
    /// and iTerm2's `OSC 1337 ; File=… BEL`. Returns the index after the sequence, nil when the
    /// bytes at `index` are none of them.
    mutating func graphics(_ bytes: [UInt8], at index: Int) -> Int? {
        let introducer = bytes[index + 1]
        let isITerm =
            introducer == UInt8(ascii: "]") && bytes[(index + 2)...].starts(with: Array("1337;".utf8))
        guard introducer == UInt8(ascii: "_") || introducer == UInt8(ascii: "P") || isITerm else {
            return nil
        }
        var end = index + 2
        var after = end
        while end < bytes.count {
            if bytes[end] == 0x07 {
                after = end + 1
                break
            }
            if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") {
                after = end + 2
                break
            }
            end += 1
        }
        let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        graphicsLog.append((body, row, column))
        switch introducer {
        case UInt8(ascii: "_"): kitty(body)
        case UInt8(ascii: "P"): sixel(body)
        default: iterm(body)
        }
        return after
    }

    private mutating func kitty(_ body: String) {
        guard body.hasPrefix("G") else { return unknown.append("APC \(body.prefix(20))") }
        let control = body.dropFirst().split(separator: ";", maxSplits: 1).first ?? ""
        var keys: [String: String] = [:]
        for pair in control.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
        }
        let id = keys["i"].flatMap { UInt32($0) }
        switch (keys["a"], keys["d"]) {
        case ("t", _):
            if let id { kittyImages.insert(id) }
        case ("p", _):
            guard let id, kittyImages.contains(id), let columns = keys["c"].flatMap({ Int($0) }),
                let rows = keys["r"].flatMap({ Int($0) })
            else { return unknown.append("kitty placement of an unknown image: \(control)") }
            kittyPlacements[id] = ShownPicture(
                row: row, column: column, columns: columns, rows: rows, name: "\(id)")
        case ("d", "i"):
            if let id { kittyPlacements[id] = nil }
        case ("d", "I"):
            if let id {
                kittyPlacements[id] = nil
                kittyImages.remove(id)
            }
        case ("d", "a"):
            kittyPlacements = [:]
        case (nil, _) where keys["m"] != nil:
            break  // a later chunk of a transmission
        default:
            unknown.append("kitty \(control)")
        }
    }

    /// `P… q "1;1;width;height` then data: the raster attributes give the picture's pixels.
    private mutating func sixel(_ body: String) {
        guard let q = body.firstIndex(of: "q") else { return unknown.append("DCS \(body.prefix(20))") }
        let raster = body[body.index(after: q)...]
        guard raster.hasPrefix("\"") else { return unknown.append("sixel without raster attributes") }
        let numbers = raster.dropFirst().prefix { $0.isNumber || $0 == ";" }.split(separator: ";").compactMap
        { Int($0) }
        guard numbers.count == 4 else { return unknown.append("sixel raster \(raster.prefix(20))") }
        let columns = (numbers[2] + cellPixels.width - 1) / cellPixels.width
        let rows = (numbers[3] + cellPixels.height - 1) / cellPixels.height
        let payload = String(raster.drop { $0 != "#" && !$0.isLetter })
        drawnPictures.append(
            ShownPicture(row: row, column: column, columns: columns, rows: rows, name: payload))
    }

    /// `1337;File=inline=1;width=C;height=R;…:payload`.
    private mutating func iterm(_ body: String) {
        let parts = body.split(separator: ":", maxSplits: 1)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
        }
        guard let columns = keys["width"].flatMap({ Int($0) }), let rows = keys["height"].flatMap({ Int($0) })
        else {
            return unknown.append("iTerm2 image without a size in cells")
        }
        let payload = parts.count > 1 ? String(parts[1]) : ""
        drawnPictures.append(
            ShownPicture(row: row, column: column, columns: columns, rows: rows, name: payload))
    }
}
