package dev.omcp.core.plugins;

/**
 * How filesystem plugins are gated (spec 5.8).
 *
 * @param verify {@code VERIFY_PLUGINS}: integrity and signature are required
 * @param strict {@code PLUGIN_REQUIRE_SIGNATURE}: an unverifiable plugin or a missing trust root
 *     stops the gateway from starting; implies {@code verify}
 */
public record VerificationPolicy(boolean verify, boolean strict) {
    public VerificationPolicy {
        // spec 5.8: strict mode implies verification.
        verify = verify || strict;
    }

    /** The default: verification on, strict mode off. */
    public static VerificationPolicy defaults() {
        return new VerificationPolicy(true, false);
    }

    /** What an install from the hub or an upload demands: every check must pass. */
    public static VerificationPolicy install() {
        return new VerificationPolicy(true, true);
    }
}
