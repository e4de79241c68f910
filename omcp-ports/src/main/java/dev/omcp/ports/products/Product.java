package dev.omcp.ports.products;

import dev.omcp.sdk.connector.SourceConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Product (spec 2.16): a named, curated set of tools served at {@code /mcp/v/<id>}. A value that exists is valid:
 * {@link #problems} says everything wrong with a candidate at once, and the constructor refuses one that has any.
 *
 * @param id the id in the endpoint's path ({@link #ID_RULE})
 * @param name what people call it (non-blank, at most {@link #MAX_NAME} characters, no control characters)
 * @param description what it is for; empty when none (at most {@link #MAX_DESCRIPTION} characters)
 * @param status whether agents are served it
 * @param tools the tool names it serves: at least one, each once, in the order written
 * @param tenant the only tenant whose callers it serves; empty when it serves every tenant
 */
public record Product(String id, String name, Optional<String> description, ProductStatus status, List<String> tools,
        Optional<String> tenant) {
    /** What an id is. */
    public static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** The id rule, for messages. */
    public static final String ID_RULE = "1-63 lower-case letters, digits or '-', starting with a letter or digit";
    /** Longest name. */
    public static final int MAX_NAME = 200;
    /** Longest description. */
    public static final int MAX_DESCRIPTION = 2000;
    /** Most tools one Product lists. */
    public static final int MAX_TOOLS = 200;
    /** Longest tool name, as MCP tool names go. */
    public static final int MAX_TOOL_NAME = 128;

    /** @throws IllegalArgumentException naming every problem {@link #problems} finds */
    public Product {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(tenant, "tenant");
        List<String> problems = problems(id, name, description, tools, tenant);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        tools = List.copyOf(tools);
    }

    /** Whether agents are served it. */
    public boolean published() {
        return status == ProductStatus.PUBLISHED;
    }

    /** Whether a caller of {@code callerTenant} may be served it: it is bound to no tenant, or to that one. */
    public boolean servesTenant(String callerTenant) {
        return tenant.isEmpty() || tenant.get().equals(callerTenant);
    }

    /**
     * Everything wrong with these fields, each problem naming its field and the allowed form; empty when they make a
     * Product. Messages quote no value: it may be anything a request carried.
     */
    public static List<String> problems(String id, String name, Optional<String> description, List<String> tools,
            Optional<String> tenant) {
        List<String> problems = new ArrayList<>();
        if (id == null || !ID.matcher(id).matches()) {
            problems.add("id: must be " + ID_RULE);
        }
        if (name == null || name.isBlank() || name.length() > MAX_NAME || hasControl(name)) {
            problems.add("name: must be non-blank text of at most " + MAX_NAME + " characters without control characters");
        }
        if (description != null && description.isPresent()
                && (description.get().length() > MAX_DESCRIPTION || hasControlBesidesLines(description.get()))) {
            problems.add("description: must be text of at most " + MAX_DESCRIPTION + " characters without control characters"
                    + " (line breaks and tabs are fine)");
        }
        if (tools == null || tools.isEmpty()) {
            problems.add("tools: must list at least one tool name");
        } else if (tools.size() > MAX_TOOLS) {
            problems.add("tools: lists " + tools.size() + " names, more than the " + MAX_TOOLS + " a Product may have");
        } else {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < tools.size(); i++) {
                String tool = tools.get(i);
                if (tool == null || tool.isBlank() || tool.length() > MAX_TOOL_NAME || hasControl(tool)) {
                    problems.add("tools[" + i + "]: must be a tool name (non-blank, at most " + MAX_TOOL_NAME
                            + " characters, no control characters)");
                } else if (!seen.add(tool)) {
                    problems.add("tools[" + i + "]: names " + tool + " a second time; list each tool once");
                }
            }
        }
        if (tenant != null && tenant.isPresent() && !validTenant(tenant.get())) {
            problems.add("tenant: must be non-empty, " + SourceConfig.TENANT_RULE + "; leave it out for a Product every tenant"
                    + " may use");
        }
        return List.copyOf(problems);
    }

    /** The tenant rule of sources and users ({@link SourceConfig#isValidTenant}), and not empty: absent means unbound. */
    private static boolean validTenant(String tenant) {
        return !tenant.isEmpty() && SourceConfig.isValidTenant(tenant);
    }

    private static boolean hasControl(String text) {
        return text.codePoints().anyMatch(Character::isISOControl);
    }

    private static boolean hasControlBesidesLines(String text) {
        return text.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t' && c != '\r');
    }
}
