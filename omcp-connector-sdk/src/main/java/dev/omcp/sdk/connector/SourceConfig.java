package dev.omcp.sdk.connector;

import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One configured source as a connector receives it: secrets already substituted from the
 * environment, the URL already admitted by the gateway's egress guard.
 *
 * @param name unique source name, for example {@code prometheus} or {@code prod-loki}
 * @param type the connector type that serves it, for example {@code prometheus}
 * @param url the backend's base URL
 * @param tenant the tenant the source is bound to, or empty string for every tenant; at most
 *     {@value #MAX_TENANT} characters, none of them a control, format or line-separator character
 *     but the zero-width (non-)joiner ({@link #TENANT_RULE})
 * @param settings the rest of the source entry (auth, TLS, metric overrides, connector-specific
 *     keys). Before the factory sees them, the gateway checks them, with {@code url} and without
 *     {@code auth}, {@code tls} and {@code headers}, against the manifest's {@code configSchema}
 *     (the keywords the gateway's validator knows); the factory still checks the keys it reads
 *     and refuses bad ones with a {@link ConnectorException} of kind
 *     {@link ConnectorException.Kind#BAD_QUERY}
 */
public record SourceConfig(String name, String type, String url, String tenant, JsonObject settings) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    /** What a source name is, for messages: the rule {@link #isValidName} checks. */
    public static final String NAME_RULE = "1-63 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit";
    /** Longest tenant, the same bound the users file puts on a user's tenant. */
    public static final int MAX_TENANT = 256;
    /** What a tenant is, for messages. */
    public static final String TENANT_RULE = "at most " + MAX_TENANT + " characters with no control, format or line-separator "
            + "character";
    /** How much of a refused name a message shows: a name can be as long as a request. */
    private static final int SHOWN_NAME = 64;

    public SourceConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(settings, "settings");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("source name '" + shown(name) + "' must be " + NAME_RULE);
        }
        if (!isValidTenant(tenant)) {
            // a tenant is matched exactly against a principal's, and goes into audit entries and log lines:
            // one no login can carry would bind the source to nobody, without a word
            throw new IllegalArgumentException("tenant '" + BackendText.quoted(tenant, SHOWN_NAME) + "' of source '" + name
                    + "' must have " + TENANT_RULE + " (shown as ?)");
        }
    }

    /**
     * Whether {@code tenant} can bind a source ({@link #TENANT_RULE}); the empty string (every
     * tenant) can. The zero-width non-joiner and joiner are allowed: Persian and other names need them.
     */
    public static boolean isValidTenant(String tenant) {
        if (tenant == null || tenant.length() > MAX_TENANT) {
            return false;
        }
        String written = tenant.replace("\u200c", "").replace("\u200d", "");
        return BackendText.escaped(written).equals(written);
    }

    /**
     * Whether {@code name} can name a source ({@link #NAME_RULE}): the one rule for a source's name
     * wherever one is given, in the sources file, a request body or a path.
     */
    public static boolean isValidName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /**
     * {@code name} as a message may show a name that is not a source name: printable ASCII only
     * (anything else is {@code ?}), at most 64 characters, so a refusal never carries control
     * characters or the whole of a huge value.
     */
    private static String shown(String name) {
        String printable = name.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= SHOWN_NAME ? printable : printable.substring(0, SHOWN_NAME) + "...";
    }

    /** Never prints the URL: source URLs stay out of logs (spec 5.9). */
    @Override
    public String toString() {
        return "SourceConfig[" + name + ", type=" + type + "]";
    }
}
