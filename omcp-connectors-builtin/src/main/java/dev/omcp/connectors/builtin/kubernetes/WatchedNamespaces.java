package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@value #SETTING} setting: the namespaces a source with namespace-scoped RBAC (a Role and
 * RoleBinding in each) lists and watches, each namespaced kind at its namespaced path
 * ({@code /api/v1/namespaces/shop/pods}) instead of cluster-wide.
 */
final class WatchedNamespaces {
    static final String SETTING = "namespaces";
    /**
     * The most namespaces one source watches: each takes one watch per namespaced kind (6), held open
     * on the API server, and the source tries nodes and namespaces cluster-wide besides: at most
     * 64 * 6 + 2 = 386 watches, each on a connection of its own ({@link ClusterAccess#get}), as many
     * as a cluster-wide source of a large cluster is worth. Refused here, before any watch starts.
     */
    static final int MAX = 64;
    /** Kubernetes' namespace names are RFC 1123 labels (apimachinery's IsDNS1123Label). */
    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** The most characters of a refused name a message repeats: a label has 63. */
    private static final int MAX_QUOTED_CHARS = 80;

    private WatchedNamespaces() {}

    /** The namespaces to watch, in the order given and without repeats; empty when the setting is absent (the whole cluster). */
    static Optional<List<String>> from(JsonObject settings) throws ConnectorException {
        JsonValue v = settings.get(SETTING);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (v.getValueType() != JsonValue.ValueType.ARRAY) {
            throw bad("the setting " + SETTING + " must be a list of namespace names, like [shop, payments]");
        }
        Set<String> names = new LinkedHashSet<>();
        for (JsonValue item : v.asJsonArray()) {
            if (!(item instanceof JsonString s)) {
                throw bad("the setting " + SETTING + " must list namespace names as strings");
            }
            String name = s.getString();
            if (!DNS_1123_LABEL.matcher(name).matches()) {
                throw bad("the setting " + SETTING + " names '" + BackendText.quoted(name, MAX_QUOTED_CHARS) + "', which is no namespace "
                        + "name: a namespace name is 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or "
                        + "digit (an RFC 1123 label)");
            }
            names.add(name);
        }
        if (names.isEmpty()) {
            throw bad("the setting " + SETTING + " lists no namespace; name at least one, or remove the setting to watch the whole "
                    + "cluster");
        }
        if (names.size() > MAX) {
            throw bad("the setting " + SETTING + " lists " + names.size() + " namespaces; a source watches at most " + MAX
                    + " (each takes a watch per kind on the API server, 6 a namespace). Split them over several sources, or remove the "
                    + "setting and grant the source's identity a ClusterRole to watch the whole cluster");
        }
        return Optional.of(List.copyOf(names));
    }

    private static ConnectorException bad(String message) {
        return new ConnectorException(ConnectorException.Kind.BAD_QUERY, message);
    }
}
