package dev.omcp.adapters.http.ui;

import java.util.Objects;

/**
 * One file of the Web UI, read once.
 *
 * @param name its path below {@code /ui/}, for example {@code js/app.js}
 * @param contentType the {@code Content-Type} it is served with
 * @param bytes its content; never changed after reading
 * @param entityTag its strong entity tag without quotes, derived from the content
 */
record UiAsset(String name, String contentType, byte[] bytes, String entityTag) {
    UiAsset {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(entityTag, "entityTag");
    }
}
