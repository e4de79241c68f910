package dev.omcp.app.wiring;

import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.Variables;
import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.tools.observability.RedactionBypass;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent transport's keys as the core takes them, each with its tenant and allow-lists, and what the start says
 * about them.
 *
 * <p>A tool or source a key's list names that nobody has now is a warning, not a refused start: plugins register tools
 * and the management API adds sources while the gateway runs, so the name may be right and early. It is never a hole
 * either: a list only narrows, so a misspelt name hides a tool or source from the key, it never shows one.
 */
final class AgentKeys {
    private static final Logger LOG = LoggerFactory.getLogger(AgentKeys.class);
    /** As {@code OMCP_API_KEYS} refuses shorter tokens, a shorter key name cannot be one written in the name's place. */
    private static final int MIN_TOKEN_LENGTH = 16;

    private AgentKeys() {}

    /** The keys of {@code agent}, bound to their tenants ({@code OMCP_KEY_TENANTS}) and limited by their lists. */
    static List<ApiKey> of(Settings.Agent agent) {
        return agent.apiKeys().stream()
                .map(entry -> ApiKey.of(entry.name(), entry.token(), entry.tenant(), entry.allowLists(), entry.roles())).toList();
    }

    /**
     * What spec 5.7's gates say of the keys, one event per line: a key listed in {@code OMCP_KEY_BYPASS_REDACTION} whose
     * roles do not hold {@code redaction:bypass} (its calls stay redacted, which the operator listing it did not mean), and a
     * key role the policy does not define.
     */
    static List<String> bypassWarnings(Settings.Agent agent, AccessPolicy policy) {
        List<String> lines = new ArrayList<>();
        for (Settings.ApiKeyEntry key : agent.apiKeys()) {
            Principal principal = Principal.apiKey(key.name(), key.tenant(), key.allowLists(), key.roles());
            if (key.bypassRedaction() && !(policy.decide(principal, RedactionBypass.PERMISSION) instanceof AccessDecision.Allowed)) {
                lines.add("event=key-bypass-ungranted variable=" + Variables.KEY_BYPASS_REDACTION.name() + " key=" + keyName(key)
                        + " roles=\"" + LogField.of(String.join(",", new java.util.TreeSet<>(key.roles()))) + "\" effect=\"the key is"
                        + " listed, but its roles do not hold redaction:bypass now, so its query_logs calls stay redacted\""
                        + " fix=\"give the key a role that holds redaction:bypass (OMCP_KEY_ROLES, builtin: admin), or unlist it\"");
            }
        }
        return List.copyOf(lines);
    }

    /** Logs {@link #warnings} at WARN. */
    static void warn(Settings.Agent agent, Set<String> tools, Map<String, String> tenantOfSource) {
        warnings(agent, tools, tenantOfSource).forEach(LOG::warn);
    }

    /**
     * What the start says about the keys, one event per line: the {@code OMCP_KEY_RATE_PER_MIN} entries skipped, then
     * per key each tool of its list that no tool registered now has, and each source of its list that no source has or
     * that is bound to another tenant than the key's.
     *
     * @param tools the names of the tools registered now
     * @param tenantOfSource per source configured now, its tenant (the empty string when unbound)
     */
    static List<String> warnings(Settings.Agent agent, Set<String> tools, Map<String, String> tenantOfSource) {
        List<String> lines = new ArrayList<>(agent.warnings());
        List<String> tokens = agent.apiKeys().stream().map(Settings.ApiKeyEntry::token).toList();
        for (Settings.ApiKeyEntry key : agent.apiKeys()) {
            key.allowLists().tools().ifPresent(listed -> listed.stream().filter(tool -> !tools.contains(tool)).forEach(tool -> lines.add(
                    "event=key-tool-unknown variable=" + Variables.KEY_TOOLS.name() + " key=" + keyName(key) + " tool="
                            + named(tool, tokens) + " effect=\"no tool of that name is registered now, so the key has none"
                            + " by it; it gets it if a plugin registers it later\" fix=\"check the name against tools/list, or"
                            + " remove it from the key's list\"")));
            key.allowLists().sources().ifPresent(listed -> listed.forEach(source -> {
                String tenant = tenantOfSource.get(source);
                if (tenant == null) {
                    lines.add("event=key-source-unknown variable=" + Variables.KEY_SOURCES.name() + " key=" + keyName(key)
                            + " source=" + named(source, tokens) + " effect=\"no source of that name is configured now; the"
                            + " key's tools use it once one is added\" fix=\"check the name against list_sources, or remove it"
                            + " from the key's list\"");
                } else if (!tenant.isEmpty() && !tenant.equals(key.tenant())) {
                    lines.add("event=key-source-unusable variable=" + Variables.KEY_SOURCES.name() + " key=" + keyName(key)
                            + " source=" + named(source, tokens) + " effect=\"the source is bound to another tenant than the"
                            + " key's, so the key never uses it\" fix=\"bind the key to the source's tenant (OMCP_KEY_TENANTS),"
                            + " or remove the source from the key's list\"");
                }
            }));
        }
        return List.copyOf(lines);
    }

    /** A key's name as a log field: only when it cannot be a token written in the name's place. */
    private static String keyName(Settings.ApiKeyEntry key) {
        return key.name().length() < MIN_TOKEN_LENGTH ? "\"" + LogField.of(key.name()) + "\"" : "\"(not shown: it may be a token)\"";
    }

    /** A listed tool or source as a log field: not when it holds a key's token, pasted into the list by mistake. */
    private static String named(String name, List<String> tokens) {
        return tokens.stream().anyMatch(name::contains) ? "\"(not shown: it holds a key's token)\"" : "\"" + LogField.of(name) + "\"";
    }
}
