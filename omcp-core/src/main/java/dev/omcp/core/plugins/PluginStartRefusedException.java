package dev.omcp.core.plugins;

import java.util.List;

/**
 * Strict mode (spec 3.5): a filesystem plugin is unverifiable or the trust root is missing or
 * unusable, so the gateway must not start. The launcher exits with status 1.
 */
public final class PluginStartRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> reasons;

    public PluginStartRefusedException(List<String> reasons) {
        super("plugin verification refused the start (PLUGIN_REQUIRE_SIGNATURE is on):\n  - " + String.join("\n  - ", reasons));
        this.reasons = List.copyOf(reasons);
    }

    /** Every reason, one per refused plugin (or the trust root). */
    public List<String> reasons() {
        return reasons;
    }
}
