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
 * is what the operator set wrongly in form: an unknown backend, the Redis backend (not supported yet),
 * a group role map that does not read.
 */
final class ScimSettingsReader {
    private ScimSettingsReader() {}

    static Settings.Scim read(Environment environment) {
        String backend = environment.oneOf(Variables.SCIM_BACKEND, List.of("file", "redis", "store"));
        if (!backend.equals("file")) {
            environment.problem(Variables.SCIM_BACKEND, "is " + backend + ": keeping the SCIM directory in Redis is not supported"
                    + " yet; unset it (or set file) to keep it in OMCP_SCIM_STORE");
        }
        if (environment.raw(Variables.SCIM_REDIS_URL).isPresent()) {
            environment.problem(Variables.SCIM_REDIS_URL, "is set, but the Redis backend of the SCIM directory is not supported yet;"
                    + " unset it to keep the directory in OMCP_SCIM_STORE");
        }
        Path store = environment.file(Variables.SCIM_STORE).orElse(Path.of(Variables.SCIM_STORE.defaultValue()));
        return new Settings.Scim(environment.raw(Variables.ENTITLEMENT_TOKEN), environment.raw(Variables.ENTITLEMENT_PUBKEY),
                environment.raw(Variables.SCIM_TOKEN), store, groupRoles(environment));
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
