package dev.omcp.ports.sources;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which values of a source's settings are secrets. One rule for everyone who must know: the
 * management API masks these values when it shows a source, and the sources file is narrowed to
 * owner-only access when it holds one written out.
 *
 * <p>A value is a secret when its key names one ({@code password}, {@code token}, {@code apiKey},
 * anything ending in {@code key}, ...; not keys naming files: {@code keyFile}, {@code caPath}), when
 * it sits below such a key, when it is the value of a header other than the few that route or
 * describe a request, or when it reads as an HTTP credential ({@code Basic …}, {@code Bearer …})
 * under any key.
 */
public final class SourceSecrets {
    /** Words that make a key a secret's wherever they stand in it (a line break in the key included). */
    private static final List<String> SECRET_WORDS = List.of("password", "passwd", "secret", "token", "apikey", "api_key",
            "api-key", "authorization", "credential", "cookie", "privatekey", "private_key");
    /**
     * Headers whose values are shown: the ones that route or describe a request. Every other header's
     * value is a secret, whatever its name: backends take API keys in headers of any name
     * ({@code X-Honeycomb-Team}, {@code X-Auth}, {@code Signature}).
     */
    private static final Set<String> PLAIN_HEADERS = Set.of("x-scope-orgid", "x-grafana-org-id", "accept",
            "accept-language", "content-type", "user-agent", "cache-control");
    /** A value that carries an HTTP credential, whatever the setting is called: {@code Basic …}, {@code Bearer …}. */
    private static final Pattern CREDENTIAL_VALUE = Pattern.compile(
            "(?i)\\s*(basic|bearer|token|digest|negotiate|apikey|sharedaccesssignature)\\s+\\S.*", Pattern.DOTALL);

    private SourceSecrets() {}

    /**
     * Whether the setting {@code key} holds a secret (with everything below it).
     *
     * @param key a settings key at any depth, for example {@code password} or {@code apiKey}
     * @return true for secret names; false for names of files ({@code keyFile}, {@code caPath}, {@code certDir})
     */
    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (isFileKey(k)) {
            return false;
        }
        // not ".*word.*": its '.' stops at a line break, and a key "x\npassword" would have shown its value
        return SECRET_WORDS.stream().anyMatch(k::contains) || k.endsWith("key");
    }

    /**
     * Whether the setting {@code key} names a file on the gateway's disk rather than holding a value.
     *
     * @param key a settings key at any depth
     * @return true for {@code *file}, {@code *path}, {@code *dir} and {@code kubeconfig}
     */
    public static boolean isFileKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.endsWith("file") || k.equals("kubeconfig") || k.endsWith("path") || k.endsWith("dir");
    }

    /**
     * Whether the value of the header {@code name} (an entry of a {@code headers} setting) is a secret.
     *
     * @param name a header name in any case
     * @return false only for headers that route or describe a request ({@code X-Scope-OrgID}, {@code Accept}, ...)
     */
    public static boolean isSecretHeader(String name) {
        return !PLAIN_HEADERS.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether {@code value} reads as an HTTP credential, wherever it is set.
     *
     * @param value a string setting
     * @return true for {@code Basic …}, {@code Bearer …} and the other authorization schemes
     */
    public static boolean looksLikeCredential(String value) {
        return CREDENTIAL_VALUE.matcher(value).matches();
    }
}
