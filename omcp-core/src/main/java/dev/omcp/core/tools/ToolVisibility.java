package dev.omcp.core.tools;

import dev.omcp.ports.identity.Principal;

/**
 * Which tools a caller may see and call. A tool outside the caller's allow-list is absent from
 * {@code tools/list} and unknown to {@code tools/call} (allow-listing happens before the call).
 */
@FunctionalInterface
public interface ToolVisibility {

    /** Whether {@code principal} may see and call the tool named {@code toolName}. */
    boolean isVisible(Principal principal, String toolName);

    /**
     * Whether {@code principal} sees every tool; lets {@code tools/list} serve a cached answer.
     * The default asks nothing and says no.
     */
    default boolean seesEverything(Principal principal) {
        return false;
    }

    /** Every caller sees every tool. */
    static ToolVisibility everything() {
        return new ToolVisibility() {
            @Override
            public boolean isVisible(Principal principal, String toolName) {
                return true;
            }

            @Override
            public boolean seesEverything(Principal principal) {
                return true;
            }
        };
    }
}
