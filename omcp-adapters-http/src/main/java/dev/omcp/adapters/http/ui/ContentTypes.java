package dev.omcp.adapters.http.ui;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The media type of each kind of file the Web UI ships, by extension. A file of any other kind is not served: with
 * {@code X-Content-Type-Options: nosniff} a browser runs a script only when its type says JavaScript, so a guessed type
 * would break the page, and an unknown one may be something never meant to be served. Written as Jetty writes them
 * (no space before {@code charset}), so the header says exactly what this table says.
 */
final class ContentTypes {
    private static final Map<String, String> BY_EXTENSION = Map.of(
            "html", "text/html;charset=utf-8",
            "css", "text/css;charset=utf-8",
            "js", "text/javascript;charset=utf-8",
            "json", "application/json",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon",
            "txt", "text/plain;charset=utf-8",
            "woff2", "font/woff2");

    private ContentTypes() {}

    /** The type of {@code name} by its extension; empty when it has none or one the UI does not ship. */
    static Optional<String> of(String name) {
        int dot = name.lastIndexOf('.');
        int slash = name.lastIndexOf('/');
        if (dot <= slash + 1 || dot == name.length() - 1) {
            return Optional.empty();
        }
        return Optional.ofNullable(BY_EXTENSION.get(name.substring(dot + 1).toLowerCase(Locale.ROOT)));
    }
}
