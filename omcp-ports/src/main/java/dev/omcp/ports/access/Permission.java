package dev.omcp.ports.access;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A management-plane permission, written {@code resource:action} (spec 5.5).
 *
 * @param resource what is acted on, for example {@code sources}
 * @param action the action, for example {@code write}; {@code *} in a policy grants every action
 */
public record Permission(String resource, String action) {
    private static final Pattern PART = Pattern.compile("[a-z][a-z0-9-]{0,63}|\\*");

    public Permission {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(action, "action");
        if (!PART.matcher(resource).matches() || !PART.matcher(action).matches()) {
            throw new IllegalArgumentException(
                    "permission '" + resource + ":" + action + "' must be resource:action in lower case, for example sources:write");
        }
    }

    /** Parses {@code resource:action}. */
    public static Permission parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("permission '" + text + "' must be resource:action, for example sources:read");
        }
        return new Permission(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return resource + ":" + action;
    }
}
