internal import CGdkPixbuf

/// A decoded picture's pixels: 8 bits a channel, RGB or RGBA with unassociated alpha (as
/// gdk-pixbuf keeps them), `rowstride` bytes from one row to the next.
struct Pixels: Equatable, Sendable {
    let width: Int
    let height: Int
    let rowstride: Int
    let hasAlpha: Bool
    let bytes: [UInt8]
}

/// A `GdkPixbuf` reference, released in deinit.
final class PixbufHandle {
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

    /// Decodes the file at `path` (an animation's first frame).
    static func decode(path: String, subject: String) throws(MediaError) -> PixbufHandle {
        var error: UnsafeMutablePointer<GError>?
        guard let pointer = gdk_pixbuf_new_from_file(path, &error) else {
            throw MediaError(subject: subject, reason: .notAnImage(message(taking: &error)))
        }
        return PixbufHandle(taking: pointer)
    }

    /// Decodes an image in memory (an animation's first frame).
    static func decode(data: [UInt8], subject: String) throws(MediaError) -> PixbufHandle {
        guard let loader = gdk_pixbuf_loader_new() else {
            throw MediaError(subject: subject, reason: .libraryFailure("gdk_pixbuf_loader_new"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var error: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBufferPointer {
            gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &error)
        }
        guard written != 0 else {
            let why = message(taking: &error)
            // A loader must be closed even when writing failed; its second complaint adds nothing.
            gdk_pixbuf_loader_close(loader, nil)
            throw MediaError(subject: subject, reason: .notAnImage(why))
        }
        guard gdk_pixbuf_loader_close(loader, &error) != 0 else {
            throw MediaError(subject: subject, reason: .notAnImage(message(taking: &error)))
        }
        guard let pointer = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw MediaError(subject: subject, reason: .notAnImage("no picture in the data"))
        }
        // The loader owns the pixbuf it returns: keep a reference of our own.
        g_object_ref(UnsafeMutableRawPointer(pointer))
        return PixbufHandle(taking: pointer)
    }

    /// The picture turned as its EXIF orientation says (a phone's photo taken sideways).
    func oriented() -> PixbufHandle {
        guard let turned = gdk_pixbuf_apply_embedded_orientation(pointer) else { return self }
        return PixbufHandle(taking: turned)
    }

    /// The picture scaled down so that its longer side is at most `limit` pixels (itself when it is).
    func scaledDown(toFit limit: Int) -> PixbufHandle {
        let longer = max(width, height)
        guard longer > limit else { return self }
        let scale = Double(limit) / Double(longer)
        let newWidth = max(1, Int((Double(width) * scale).rounded()))
        let newHeight = max(1, Int((Double(height) * scale).rounded()))
        guard
            let scaled = gdk_pixbuf_scale_simple(
                pointer, Int32(newWidth), Int32(newHeight), GDK_INTERP_BILINEAR)
        else { return self }
        return PixbufHandle(taking: scaled)
    }

    /// A copy of the pixels, which outlives the pixbuf.
    var pixels: Pixels {
        let count = Int(gdk_pixbuf_get_byte_length(pointer))
        let bytes = [UInt8](UnsafeBufferPointer(start: gdk_pixbuf_read_pixels(pointer), count: count))
        return Pixels(
            width: width, height: height, rowstride: Int(gdk_pixbuf_get_rowstride(pointer)),
            hasAlpha: gdk_pixbuf_get_has_alpha(pointer) != 0, bytes: bytes)
    }

    private static func message(taking error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "gdk-pixbuf gave no reason"
    }
}
