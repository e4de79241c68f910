package dev.omcp.core.tools;

import dev.omcp.ports.identity.Principal;

/**
 * Which tools a caller may see and call. A tool outside the caller's allow-list is absent from
 * {@code tools/list} and unknown to {@code tools/call} (allow-listing happens before the call).
 *
 * <p>The gateway always applies the caller's own tool list ({@link #callersAllowList()}: an API key's
 * {@code OMCP_KEY_TOOLS}) on top of the visibility given to {@code Gateway.builder().toolVisibility(...)}, so
 * an embedder's visibility can narrow what a key sees but never widen it.
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

    /**
     * A tool is visible when both this and {@code other} say so; the caller sees every tool only
     * when both say that.
     */
    default ToolVisibility and(ToolVisibility other) {
        ToolVisibility self = this;
        return new ToolVisibility() {
            @Override
            public boolean isVisible(Principal principal, String toolName) {
                return self.isVisible(principal, toolName) && other.isVisible(principal, toolName);
            }

            @Override
            public boolean seesEverything(Principal principal) {
                return self.seesEverything(principal) && other.seesEverything(principal);
            }
        };
    }

    /**
     * The caller's own tool list ({@link dev.omcp.ports.identity.AllowLists#tools()}); a caller
     * without one sees every tool, and {@link #seesEverything} says so, which keeps its
     * {@code tools/list} on the cached answer.
     */
    static ToolVisibility callersAllowList() {
        return new ToolVisibility() {
            @Override
            public boolean isVisible(Principal principal, String toolName) {
                return principal.allowLists().permitsTool(toolName);
            }

            @Override
            public boolean seesEverything(Principal principal) {
                return principal.allowLists().tools().isEmpty();
            }
        };
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
