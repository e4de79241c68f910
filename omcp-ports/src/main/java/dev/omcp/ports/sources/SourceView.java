package dev.omcp.ports.sources;

import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A source as the management API shows it: never the full URL, never a secret.
 *
 * @param name the source name
 * @param type the connector type
 * @param endpoint {@code scheme://host[:port]} of the URL (no path, query or credentials), or empty
 *     string when the source has no URL
 * @param tenant the tenant binding, or empty string
 * @param enabled whether it should be connected
 * @param origin where it was defined
 * @param status {@code connected}, {@code disabled}, {@code failed} or {@code unknown-type}
 * @param problem why it is not connected, or empty string; one printable line of at most
 *     {@link #MAX_PROBLEM_CHARS} characters ({@link #shownProblem})
 * @param capabilities the capabilities the connector both declares and implements, for example
 *     {@code queryMetrics}
 * @param settings the settings with every secret replaced by {@link ManageSources#MASK}
 * @param contact when tool calls last got an answer from the source and when one last failed
 * @param version the version of the stored definition, for {@code If-Match}: another definition
 *     (a secret changed included) has another version, the same one the same version; it reveals
 *     nothing of the definition. Empty when the implementation keeps no versions
 */
public record SourceView(
        String name, String type, String endpoint, String tenant, boolean enabled, SourceDefinition.Origin origin,
        String status, String problem, List<String> capabilities, JsonObject settings, SourceContact contact, String version) {
    /**
     * Characters of a problem kept: the problem may quote a connector's message, which may quote
     * its backend's answer, and it reaches agents through {@code list_sources}.
     */
    public static final int MAX_PROBLEM_CHARS = 1_000;

    public SourceView {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(status, "status");
        problem = shownProblem(problem);
        capabilities = List.copyOf(capabilities);
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(contact, "contact");
        Objects.requireNonNull(version, "version");
    }

    /** A source whose definition has no version. */
    public SourceView(String name, String type, String endpoint, String tenant, boolean enabled, SourceDefinition.Origin origin,
            String status, String problem, List<String> capabilities, JsonObject settings, SourceContact contact) {
        this(name, type, endpoint, tenant, enabled, origin, status, problem, capabilities, settings, contact, "");
    }

    /** A source no tool call has reached yet. */
    public SourceView(String name, String type, String endpoint, String tenant, boolean enabled, SourceDefinition.Origin origin,
            String status, String problem, List<String> capabilities, JsonObject settings) {
        this(name, type, endpoint, tenant, enabled, origin, status, problem, capabilities, settings, SourceContact.NONE);
    }

    /**
     * A source's problem as the management API and agents see it: line breaks, terminal escapes and
     * bidi overrides become spaces (they would forge or reorder what is read), URLs become
     * {@code <url>}, and a longer text is cut with an ellipsis.
     */
    public static String shownProblem(String problem) {
        return BackendText.clean(Objects.requireNonNull(problem, "problem"), MAX_PROBLEM_CHARS);
    }

    /**
     * What {@code endpoint} shows of a URL: {@code scheme://host[:port]}, never the path, query or
     * credentials; empty for a blank or malformed URL.
     */
    public static String endpointOf(String url) {
        if (url.isBlank()) {
            return "";
        }
        try {
            URI uri = new URI(url.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                return "";
            }
            return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
        } catch (URISyntaxException e) {
            return "";
        }
    }
}
