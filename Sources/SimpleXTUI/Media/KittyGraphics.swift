/// The kitty graphics protocol commands the renderer writes
/// (https://sw.kovidgoyal.net/kitty/graphics-protocol/): an image is transmitted once under its
/// id, then placed and deleted by id, so moving a picture costs a few bytes, not its pixels.
/// Every command is quiet (`q=2`): the terminal sends no replies for the input to skip.
enum KittyGraphics {
    /// The one placement each image has (a picture is on screen at most once).
    static let placementId = 1

    /// chafa's kitty output (`a=T`: transmit and show at the cursor) turned into a transmission
    /// under `id` that shows nothing; nil when the bytes are not chafa's kitty sequence.
    static func transmission(fromChafa bytes: [UInt8], id: UInt32) -> [UInt8]? {
        let start: [UInt8] = [ControlSequence.escape] + Array("_Ga=T,".utf8)
        guard bytes.starts(with: start) else { return nil }
        return [ControlSequence.escape] + Array("_Ga=t,i=\(id),q=2,".utf8) + bytes.dropFirst(start.count)
    }

    /// Shows image `id` in `box` with its top-left at the cursor, the cursor left where it is
    /// (`C=1`); a placement already on screen with the same ids moves here.
    static func place(_ id: UInt32, box: CellBox) -> [UInt8] {
        command("a=p,i=\(id),p=\(placementId),c=\(box.columns),r=\(box.rows),C=1,q=2")
    }

    /// Takes image `id`'s placement off the screen; the terminal keeps the image for later.
    static func removePlacement(_ id: UInt32) -> [UInt8] {
        command("a=d,d=i,i=\(id),p=\(placementId),q=2")
    }

    /// Takes image `id` off the screen and frees its data in the terminal.
    static func free(_ id: UInt32) -> [UInt8] { command("a=d,d=I,i=\(id),q=2") }

    /// Takes every placement off the screen (after the screen was cleared or may have changed
    /// behind our back); the images stay transmitted.
    static let removeAllPlacements = command("a=d,d=a,q=2")

    private static func command(_ body: String) -> [UInt8] {
        [ControlSequence.escape] + Array("_G\(body)".utf8) + [ControlSequence.escape, UInt8(ascii: "\\")]
    }
}
