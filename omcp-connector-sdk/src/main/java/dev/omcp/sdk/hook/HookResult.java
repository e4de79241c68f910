package dev.omcp.sdk.hook;

import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.Optional;

/**
 * A hook's verdict (spec 2.4, 6.1).
 *
 * <p>{@code allow == false} stops the chain and the call is refused with {@code reason}. A present
 * {@code payload} replaces the payload the next hook (or the handler) sees.
 *
 * @param allow whether the call may go on
 * @param payload the replacement payload, or empty to keep the current one
 * @param reason why the call was refused; shown to the agent, so it must not contain secrets
 */
public record HookResult(boolean allow, Optional<JsonObject> payload, Optional<String> reason) {
    public HookResult {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(reason, "reason");
    }

    /** Lets the call go on with the payload unchanged. */
    public static HookResult proceed() {
        return new HookResult(true, Optional.empty(), Optional.empty());
    }

    /** Lets the call go on with {@code replacement} as the new payload. */
    public static HookResult replace(JsonObject replacement) {
        return new HookResult(true, Optional.of(replacement), Optional.empty());
    }

    /** Stops the chain; the agent sees {@code reason}. */
    public static HookResult deny(String reason) {
        return new HookResult(false, Optional.empty(), Optional.of(reason));
    }
}
