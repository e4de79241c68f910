package dev.omcp.sdk.hook;

import java.util.Optional;

/**
 * The six points around an MCP dispatch where a plugin hook may run (spec 6.1).
 *
 * <p>Each kind has a wire name, the spelling used in a plugin manifest's {@code hooks[].kind}.
 */
public enum HookKind {
    /** Before each {@code tools/call} handler; payload {@code {args}}. */
    TOOL_PRE_INVOKE("tool_pre_invoke"),
    /** After each {@code tools/call} handler; payload {@code {args, result}}. */
    TOOL_POST_INVOKE("tool_post_invoke"),
    /** Before each {@code resources/read}; payload {@code {uri}}. */
    RESOURCE_PRE_FETCH("resource_pre_fetch"),
    /** After each {@code resources/read}; payload {@code {uri, contents}}. */
    RESOURCE_POST_FETCH("resource_post_fetch"),
    /** Before each {@code prompts/get}; payload {@code {name, arguments}}. */
    PROMPT_PRE_FETCH("prompt_pre_fetch"),
    /** After each {@code prompts/get}; payload {@code {name, arguments, messages}}. */
    PROMPT_POST_FETCH("prompt_post_fetch");

    private final String wireName;

    HookKind(String wireName) {
        this.wireName = wireName;
    }

    /** The manifest spelling of this kind, for example {@code tool_pre_invoke}. */
    public String wireName() {
        return wireName;
    }

    /**
     * Looks a kind up by its manifest spelling.
     *
     * @param wireName the manifest spelling, for example {@code resource_post_fetch}
     * @return the kind, or empty when the spelling names no kind
     */
    public static Optional<HookKind> fromWireName(String wireName) {
        for (HookKind kind : values()) {
            if (kind.wireName.equals(wireName)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
