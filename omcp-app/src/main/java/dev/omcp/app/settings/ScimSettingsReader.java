package dev.omcp.app.settings;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the SCIM and entitlement variables (spec 5.6, DECISIONS.md "Entitlements"). The entitlement
 * token and key are only taken here, never judged: an invalid or expired entitlement must not stop
 * the gateway (spec 5.6), so it is verified at wiring time and only logged. What is refused at start
 * is what the operator set wrongly in form: an unknown backend, a Redis backend without its URL (or a
 * URL without that backend), a URL that is not redis:// or rediss://, a group role map that does not read.
 */
final class ScimSettingsReader {
    /** The backends; {@code store}, the specification's neutral name, is an alias of {@code redis} (DECISIONS.md "Names"). */
    private static final List<String> BACKENDS = List.of("file", "redis", "store");

    private ScimSettingsReader() {}

    static Settings.Scim read(Environment environment) {
        Path store = environment.file(Variables.SCIM_STORE).orElse(Path.of(Variables.SCIM_STORE.defaultValue()));
        return new Settings.Scim(environment.raw(Variables.ENTITLEMENT_TOKEN), environment.raw(Variables.ENTITLEMENT_PUBKEY),
                environment.raw(Variables.SCIM_TOKEN), store, redisUrl(environment), groupRoles(environment));
    }

    /** The Redis URL when the backend is {@code redis} (or {@code store}); empty for the file backend. */
    private static Optional<String> redisUrl(Environment environment) {
        boolean known = BACKENDS.contains(environment.string(Variables.SCIM_BACKEND).toLowerCase(Locale.ROOT));
        String backend = environment.oneOf(Variables.SCIM_BACKEND, BACKENDS);
        Optional<String> url = environment.raw(Variables.SCIM_REDIS_URL);
        if (backend.equals("file")) {
            if (known && url.isPresent()) {
                environment.problem(Variables.SCIM_REDIS_URL, "is set, but OMCP_SCIM_BACKEND is file (the default), which keeps the"
                        + " SCIM directory in OMCP_SCIM_STORE; set OMCP_SCIM_BACKEND=redis to share the directory through that"
                        + " Redis, or unset it (and its alias OMCP_SCIM_STORE_URL)");
            }
            return Optional.empty();
        }
        if (url.isEmpty()) {
            environment.problem(Variables.SCIM_BACKEND, "is " + backend + ", which keeps the SCIM directory in Redis, but"
                    + " OMCP_SCIM_REDIS_URL (alias OMCP_SCIM_STORE_URL) is not set; set it to the redis:// or rediss:// URL of the"
                    + " server the replicas share, or unset OMCP_SCIM_BACKEND to keep the directory in OMCP_SCIM_STORE");
            return Optional.empty();
        }
        if (!url.get().toLowerCase(Locale.ROOT).matches("rediss?://.+")) {
            environment.problem(Variables.SCIM_REDIS_URL, "must be redis://[user:password@]host:port[/database] or rediss://... for"
                    + " TLS (the value is not shown: it may hold a password)");
            return Optional.empty();
        }
        return url;
    }

    /** {@code group:role,group:role}, split at the last colon (a group name may hold one). */
    private static Map<String, String> groupRoles(Environment environment) {
        Map<String, String> roles = new LinkedHashMap<>();
        Optional<String> raw = environment.raw(Variables.SCIM_GROUP_ROLE_MAP);
        if (raw.isEmpty()) {
            return roles;
        }
        for (String entry : raw.get().split(",")) {
            String trimmed = entry.strip();
            int colon = trimmed.lastIndexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1) {
                environment.problem(Variables.SCIM_GROUP_ROLE_MAP, "has an entry that is not group:role (entry "
                        + (roles.size() + 1) + "); write it as group:role,group:role");
                continue;
            }
            String group = trimmed.substring(0, colon).strip();
            if (roles.put(group.toLowerCase(Locale.ROOT), trimmed.substring(colon + 1).strip()) != null) {
                environment.problem(Variables.SCIM_GROUP_ROLE_MAP, "names the group " + group + " twice; give each group once");
            }
        }
        return roles;
    }
}
