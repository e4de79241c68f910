package dev.omcp.core.mcp.revision;

import java.util.List;
import java.util.Optional;

/**
 * A revision of the MCP specification and what it changes in the messages the gateway sends.
 *
 * <p>Handlers build answers in the newest shape; a revision removes what its clients do not know.
 * A future revision becomes one more constant here plus, where behaviour really differs, its own
 * package beside {@code v2025_11_25}.
 */
public enum ProtocolRevision {
    /** Streamable HTTP, tool annotations, JSON-RPC batching. */
    V2025_03_26("2025-03-26", false, false),
    /** Structured tool output, output schemas, titles, elicitation; batching removed. */
    V2025_06_18("2025-06-18", true, true),
    /** Icons, tool name guidance, SSE polling, default values in elicitation. */
    V2025_11_25("2025-11-25", true, true);

    /** The revision spoken to clients that ask for one this gateway does not know. */
    public static final ProtocolRevision LATEST = V2025_11_25;

    /**
     * The revision assumed when a Streamable HTTP request carries no {@code MCP-Protocol-Version}
     * header (MCP 2025-06-18, "Protocol Version Header").
     */
    public static final ProtocolRevision HEADERLESS_DEFAULT = V2025_03_26;

    private final String wireName;
    private final boolean structuredOutput;
    private final boolean titles;

    ProtocolRevision(String wireName, boolean structuredOutput, boolean titles) {
        this.wireName = wireName;
        this.structuredOutput = structuredOutput;
        this.titles = titles;
    }

    /** The date string used on the wire, for example {@code 2025-11-25}. */
    public String wireName() {
        return wireName;
    }

    /** Whether tool results may carry {@code structuredContent} and tools an {@code outputSchema}. */
    public boolean structuredOutput() {
        return structuredOutput;
    }

    /** Whether tools, resources and prompts may carry a {@code title}. */
    public boolean titles() {
        return titles;
    }

    /** Looks a revision up by its wire name. */
    public static Optional<ProtocolRevision> fromWireName(String wireName) {
        for (ProtocolRevision revision : values()) {
            if (revision.wireName.equals(wireName)) {
                return Optional.of(revision);
            }
        }
        return Optional.empty();
    }

    /**
     * The revision to answer an {@code initialize} with: the requested one when supported, else the
     * latest (the client then decides whether to go on).
     */
    public static ProtocolRevision negotiate(String requested) {
        return fromWireName(requested).orElse(LATEST);
    }

    /** Every supported wire name, newest first. */
    public static List<String> wireNames() {
        return List.of(V2025_11_25.wireName, V2025_06_18.wireName, V2025_03_26.wireName);
    }
}
