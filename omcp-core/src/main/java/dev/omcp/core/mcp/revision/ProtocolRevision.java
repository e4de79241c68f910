package dev.omcp.core.mcp.revision;

import java.util.List;
import java.util.Optional;

/**
 * A revision of the MCP specification and what it changes in the messages the gateway sends.
 *
 * <p>Handlers build answers in the newest shape; a revision removes what its clients do not know.
 * A future revision becomes one more constant here plus, where behaviour really differs, its own
 * handler package beside {@code dev.omcp.core.mcp.handlers}.
 *
 * <p>A request without an {@code MCP-Protocol-Version} header is answered in the revision its
 * session negotiated at {@code initialize}: MCP 2025-06-18 ("Protocol Version Header") falls back
 * to 2025-03-26 only when the server has no other way to know, and a session always is one.
 */
public enum ProtocolRevision {
    /** Streamable HTTP, tool annotations, JSON-RPC batching. */
    V2025_03_26("2025-03-26", false, false, true),
    /** Structured tool output, output schemas, titles, elicitation; batching removed. */
    V2025_06_18("2025-06-18", true, true, false),
    /** Icons, tool name guidance, SSE polling, default values in elicitation. */
    V2025_11_25("2025-11-25", true, true, false);

    /** The revision spoken to clients that ask for one this gateway does not know. */
    public static final ProtocolRevision LATEST = V2025_11_25;

    private final String wireName;
    private final boolean structuredOutput;
    private final boolean titles;
    private final boolean batching;

    ProtocolRevision(String wireName, boolean structuredOutput, boolean titles, boolean batching) {
        this.wireName = wireName;
        this.structuredOutput = structuredOutput;
        this.titles = titles;
        this.batching = batching;
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

    /**
     * Whether a client may send a JSON-RPC batch (an array of messages in one body): MCP 2025-03-26
     * requires servers to receive them, 2025-06-18 removed them again.
     */
    public boolean batching() {
        return batching;
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
