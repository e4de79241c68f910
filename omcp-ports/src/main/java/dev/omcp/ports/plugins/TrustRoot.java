package dev.omcp.ports.plugins;

import java.util.Objects;

/**
 * The state of the trust root ({@code PLUGIN_TRUST_ROOT}): the public keys plugin signatures are
 * verified against.
 *
 * @param state whether keys are available
 * @param detail for {@link State#LOADED} a description of the keys (type and fingerprint, never a
 *     path); for {@link State#INVALID} why the file could not be used; empty for {@link State#ABSENT}
 */
public record TrustRoot(State state, String detail) {
    /** Whether a trust root is available. */
    public enum State {
        /** {@code PLUGIN_TRUST_ROOT} is not set. */
        ABSENT,
        /** It is set but the file is missing, unreadable or holds no usable public key. */
        INVALID,
        /** At least one public key was loaded. */
        LOADED
    }

    public TrustRoot {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
    }

    public static TrustRoot absent() {
        return new TrustRoot(State.ABSENT, "");
    }

    public static TrustRoot invalid(String reason) {
        return new TrustRoot(State.INVALID, reason);
    }

    public static TrustRoot loaded(String description) {
        return new TrustRoot(State.LOADED, description);
    }

    public boolean isLoaded() {
        return state == State.LOADED;
    }

    /** Why signatures cannot be verified, for logs and refusals; empty string when loaded. */
    public String unavailableReason() {
        return switch (state) {
            case ABSENT -> "no trust root: PLUGIN_TRUST_ROOT is not set (it names the PEM public key plugin signatures are verified against)";
            case INVALID -> "the trust root PLUGIN_TRUST_ROOT is unusable: " + detail;
            case LOADED -> "";
        };
    }
}
