/// How many colours the terminal shows, from none (`NO_COLOR`) to truecolor.
public enum ColorCapability: Int, Comparable, Sendable, CaseIterable {
    /// No colours at all; bold, underline, reverse and the other attributes stay.
    case none
    /// The 16 basic colours (SGR 30–37, 90–97), which the user's theme defines.
    case basic16
    /// The xterm 256-colour palette.
    case palette256
    /// 24-bit colour.
    case truecolor

    public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool { lhs.rawValue < rhs.rawValue }

    /// What the environment says: `NO_COLOR` set and non-empty wins (https://no-color.org), then
    /// `COLORTERM=truecolor|24bit`, then a `TERM` naming 256 colours; `TERM=dumb` has none.
    public static func detect(environment: [String: String]) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        let term = environment["TERM"] ?? ""
        if term.contains("256color") { return .palette256 }
        if term == "dumb" { return .none }
        return .basic16
    }

    /// `color` as this terminal can show it: truecolor goes to the nearest palette entry, the
    /// upper palette to the nearest basic colour, everything to `.default` without colour.
    public func lower(_ color: Color) -> Color {
        switch (self, color) {
        case (_, .default), (.truecolor, _): return color
        case (.none, _): return .default
        case (.palette256, .palette): return color
        case (.palette256, .rgb(let r, let g, let b)): return .palette(Self.nearest256(r, g, b))
        case (.basic16, .palette(let index)) where index < 16: return color
        case (.basic16, .palette(let index)):
            let (r, g, b) = Self.rgb(ofPalette: index)
            return .palette(Self.nearest16(r, g, b))
        case (.basic16, .rgb(let r, let g, let b)): return .palette(Self.nearest16(r, g, b))
        }
    }

    /// The xterm default RGB of palette entry `index`.
    static func rgb(ofPalette index: UInt8) -> (UInt8, UInt8, UInt8) {
        switch index {
        case 0..<16: return basic[Int(index)]
        case 16..<232:
            let n = Int(index) - 16
            return (cubeLevels[n / 36], cubeLevels[(n / 6) % 6], cubeLevels[n % 6])
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return (level, level, level)
        }
    }

    /// The nearest entry of the 6×6×6 cube or the grey ramp (16–255; the basic 16 are left out
    /// because themes redefine them).
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func cubeIndex(_ v: UInt8) -> Int {
            // Levels 0, 95, 135, 175, 215, 255: the midpoints are 48, 115, 155, 195, 235.
            let value = Int(v)
            if value < 48 { return 0 }
            if value < 115 { return 1 }
            return min(5, (value - 35) / 40)
        }
        let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = UInt8(16 + 36 * ri + 6 * gi + bi)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = UInt8(232 + greyIndex)
        let target = (r, g, b)
        return distance(rgb(ofPalette: grey), target) < distance(rgb(ofPalette: cube), target) ? grey : cube
    }

    /// The nearest of the 16 basic colours, by their xterm default values.
    static func nearest16(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (index, entry) in basic.enumerated() {
            let d = distance(entry, (r, g, b))
            if d < bestDistance {
                best = index
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        // Weighted by how sensitive the eye is to each primary ("redmean" in integers).
        let dr = Int(a.0) - Int(b.0)
        let dg = Int(a.1) - Int(b.1)
        let db = Int(a.2) - Int(b.2)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    private static let basic: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
}
