#ifndef CGDKPIXBUF_SHIM_H
#define CGDKPIXBUF_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>

// gdk-pixbuf decodes and encodes the images the share helper sends (CONVENTIONS.md "C libraries"):
// JPEG, PNG, GIF and, with Debian's webp-pixbuf-loader, WebP.

/// Saves as JPEG at `quality` (0-100) into a new buffer (g_free it); gdk_pixbuf_save_to_buffer is
/// variadic, which Swift cannot call.
static inline gboolean CGdkPixbuf_saveJPEG(GdkPixbuf *pixbuf, int quality, gchar **buffer, gsize *size,
                                           GError **error) {
    char text[8];
    g_snprintf(text, sizeof text, "%d", quality);
    char *keys[] = {"quality", NULL};
    char *values[] = {text, NULL};
    return gdk_pixbuf_save_to_bufferv(pixbuf, buffer, size, "jpeg", keys, values, error);
}
#endif
