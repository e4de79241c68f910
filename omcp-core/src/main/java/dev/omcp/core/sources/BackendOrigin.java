package dev.omcp.core.sources;

import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The backend a source's URL names: its scheme, host and port, compared as a browser compares origins. A change of
 * it sends the source's secrets to another party, so a stored secret kept behind a mask must not follow it; a change
 * of path alone stays with the same backend.
 */
final class BackendOrigin {

    private BackendOrigin() {}

    /**
     * Whether {@code before} and {@code after} name the same backend: the same scheme, host (either case) and port (a
     * default port written out or left out alike); two blank URLs too (a connector that finds its backend itself).
     * A URL that names no host is never the same as anything: what it would reach cannot be told.
     */
    static boolean same(String before, String after) {
        Optional<String> origin = of(before);
        return origin.isPresent() && origin.equals(of(after));
    }

    /**
     * The paths of the string settings of {@code sent} that hold a URL ({@code upstreams[0].url}, or any text with one in it:
     * a plugin may take its backends anywhere in its settings) not naming the backend the string at the same path of
     * {@code stored} names: another origin, or a URL where none was. Compared path by path, not as a set of hosts, so two
     * upstreams that swap URLs count as moved: a masked password stays at its path and would follow the other's URL.
     */
    static List<String> movedIn(JsonObject stored, JsonObject sent) {
        Map<String, String> before = SecretSettings.strings(stored);
        return SecretSettings.strings(sent).entrySet().stream()
                .filter(e -> namesUrl(e.getValue()))
                .filter(e -> !e.getValue().equals(before.get(e.getKey())) && !same(before.getOrDefault(e.getKey(), ""), e.getValue()))
                .map(Map.Entry::getKey).toList();
    }

    private static boolean namesUrl(String text) {
        return !BackendText.withoutUrls(text).equals(text);
    }

    /** {@code scheme://host:port} in lower case with the port always written; "" for a blank URL; empty when unreadable. */
    static Optional<String> of(String url) {
        if (url.isBlank()) {
            return Optional.of("");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (uri.getScheme() == null || uri.getHost() == null) {
            return Optional.empty();
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
        return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
    }
}
