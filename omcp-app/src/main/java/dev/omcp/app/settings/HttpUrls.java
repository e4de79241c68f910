package dev.omcp.app.settings;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The one check of a setting that names a backend or service by its http(s) URL, and how problems quote one. */
final class HttpUrls {
    private HttpUrls() {}

    /**
     * Whether {@code text} parses as an absolute http(s) URL with a host: the HTTP clients build
     * their request URIs from it, so {@code http://} alone, {@code http:/prom:9090} or anything
     * {@link URI} refuses (a space, a stray character) could never reach a server, and would
     * otherwise fail later, at the first request, with the raw value in the message.
     */
    static boolean usable(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && !uri.getHost().isBlank();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * How a problem quotes a URL setting: not at all when it may carry a credential, in user info
     * ({@code user:password@}, also before a scheme that is missing or wrong) or in a query
     * ({@code ?access_token=}); as written otherwise, since the operator searches their files for it.
     */
    static String shown(String text) {
        boolean mayCarryCredentials = text.contains("@") || text.contains("?");
        return mayCarryCredentials ? " (the value is not shown: it may carry credentials)" : ", got '" + text + "'";
    }
}
