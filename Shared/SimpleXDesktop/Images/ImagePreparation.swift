internal import CGdkPixbuf
import Foundation

/// An image made ready to send as the iOS share extension makes it: static images (JPEG, PNG,
/// WebP) at most 2,000 px on their longer side and at most 261,120 bytes (re-encoded as JPEG when
/// they are larger, lowering the quality, then the size), GIFs as they are (they may move), and a
/// JPEG thumbnail as a data URI of at most 14,000 characters for the message itself. Decoded and
/// encoded by gdk-pixbuf.
public struct PreparedImage: Sendable {
    /// The bytes to send as the file.
    public let data: [UInt8]
    /// Whether `data` is a new JPEG (the file is then named `.jpg`) rather than the original.
    public let reencoded: Bool
    /// `data:image/jpg;base64,...`
    public let thumbnail: String
    public let width: Int
    public let height: Int
}

public enum ImagePreparation {
    public static let maxDimension = 2_000
    public static let maxFileSize = 261_120
    public static let maxThumbnailLength = 14_000

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The file extensions sent as images.
    public static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

    public static func isImageName(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    public static func prepare(path: String) throws(Failure) -> PreparedImage {
        var width: Int32 = 0
        var height: Int32 = 0
        guard let format = gdk_pixbuf_get_file_info(path, &width, &height) else {
            throw Failure(description: "\((path as NSString).lastPathComponent) is not an image that can be read")
        }
        let formatName = gdk_pixbuf_format_get_name(format).map { name -> String in
            defer { g_free(name) }
            return String(cString: name)
        } ?? ""
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file(path, &error) else {
            let why = error.map { String(cString: $0.pointee.message) } ?? "cannot be decoded"
            g_clear_error(&error)
            throw Failure(description: "\((path as NSString).lastPathComponent) is not an image that can be read: \(why)")
        }
        // A photo's EXIF orientation, applied; and transparency over white (JPEG has none).
        let oriented = gdk_pixbuf_apply_embedded_orientation(loaded) ?? loaded
        if oriented != loaded { unref(loaded) }
        let opaque = flattened(oriented)
        defer { unref(opaque) }
        let original = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
        let thumbnail = try thumbnailURI(opaque)
        let longest = max(Int(gdk_pixbuf_get_width(opaque)), Int(gdk_pixbuf_get_height(opaque)))
        if formatName == "gif" || (formatName == "jpeg" && longest <= maxDimension && original.count <= maxFileSize) {
            return PreparedImage(
                data: original, reencoded: false, thumbnail: thumbnail, width: Int(width), height: Int(height))
        }
        var current = scaled(opaque, toFit: maxDimension)
        while true {
            for quality in stride(from: 85, through: 35, by: -10) {
                let jpeg = try encode(current, quality: quality)
                if jpeg.count <= maxFileSize {
                    let result = PreparedImage(
                        data: jpeg, reencoded: true, thumbnail: thumbnail, width: Int(gdk_pixbuf_get_width(current)),
                        height: Int(gdk_pixbuf_get_height(current)))
                    unref(current)
                    return result
                }
            }
            let smaller = Int(Double(max(gdk_pixbuf_get_width(current), gdk_pixbuf_get_height(current))) * 0.8)
            let next = scaled(current, toFit: smaller)
            unref(current)
            current = next
        }
    }

    /// A thumbnail (`data:image/jpg;base64,...`) of an image in memory (a link preview's), or nil
    /// when it is not one.
    public static func thumbnail(data: [UInt8]) -> String? {
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var error: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &error) }
        g_clear_error(&error)
        let closed = gdk_pixbuf_loader_close(loader, &error)
        g_clear_error(&error)
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return try? thumbnailURI(flattened(pixbuf))
    }

    /// A new reference scaled down to fit `size` (a new reference to the same image when it does).
    private static func scaled(_ pixbuf: OpaquePointer, toFit size: Int) -> OpaquePointer {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        guard max(width, height) > size else {
            g_object_ref(UnsafeMutableRawPointer(pixbuf))
            return pixbuf
        }
        let scale = Double(size) / Double(max(width, height))
        let newWidth = max(1, Int((Double(width) * scale).rounded()))
        let newHeight = max(1, Int((Double(height) * scale).rounded()))
        return gdk_pixbuf_scale_simple(pixbuf, Int32(newWidth), Int32(newHeight), GDK_INTERP_BILINEAR)
    }

    /// Without alpha: composited over white (a new reference; takes over `pixbuf`'s).
    private static func flattened(_ pixbuf: OpaquePointer) -> OpaquePointer {
        guard gdk_pixbuf_get_has_alpha(pixbuf) != 0 else { return pixbuf }
        let width = gdk_pixbuf_get_width(pixbuf)
        let height = gdk_pixbuf_get_height(pixbuf)
        let white: UInt32 = 0xFFFFFF
        guard let flat = gdk_pixbuf_composite_color_simple(pixbuf, width, height, GDK_INTERP_NEAREST, 255, 8, white, white)
        else { return pixbuf }
        unref(pixbuf)
        // composite_color_simple keeps an alpha channel (all opaque); JPEG wants three channels.
        let rgb = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height)!
        gdk_pixbuf_copy_area(flat, 0, 0, width, height, rgb, 0, 0)
        unref(flat)
        return rgb
    }

    private static func encode(_ pixbuf: OpaquePointer, quality: Int) throws(Failure) -> [UInt8] {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard CGdkPixbuf_saveJPEG(pixbuf, Int32(quality), &buffer, &size, &error) != 0, let buffer else {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            g_clear_error(&error)
            throw Failure(description: "cannot encode the image: \(why)")
        }
        defer { g_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    private static func thumbnailURI(_ pixbuf: OpaquePointer) throws(Failure) -> String {
        var size = 320
        while true {
            let small = scaled(pixbuf, toFit: size)
            defer { unref(small) }
            let uri = "data:image/jpg;base64," + Data(try encode(small, quality: 70)).base64EncodedString()
            if uri.count <= maxThumbnailLength || size <= 16 { return uri }
            size = size * 3 / 4
        }
    }
}

private func unref(_ pixbuf: OpaquePointer) { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
