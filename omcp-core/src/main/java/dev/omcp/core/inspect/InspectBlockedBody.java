package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Deviation;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;

/**
 * The body of the tool error result enforcement answers instead of running a call outside the profile:
 * {@code {error: "OMCP_INSPECT_BLOCKED", tool, kind, message}}, with a message that tells a model what
 * happened and what to do next. It names the kind of deviation only: never a resource value, a rule, or
 * anything of another tenant.
 */
final class InspectBlockedBody {
    static final String ERROR = "OMCP_INSPECT_BLOCKED";
    /** The kind of a call blocked because it could not be evaluated: enforcement fails closed. */
    static final String EVALUATION_FAILED = "evaluation-failed";

    private InspectBlockedBody() {}

    /** The body for a call no accepted rule covers. */
    static JsonObject outside(String tool, Deviation.Kind kind) {
        String message = "This " + tool + " call is outside the operator's reviewed Inspect profile for this credential ("
                + kind.wireName() + ": " + why(kind) + "), so the gateway did not run it. Retrying the same call will not help. "
                + "If the task needs it, ask an operator of the gateway to review and accept a rule for it; otherwise continue "
                + "with calls this credential already makes.";
        return body(tool, kind.wireName(), message);
    }

    /** The body for a call that could not be evaluated. */
    static JsonObject evaluationFailed(String tool) {
        String message = "The gateway could not check this " + tool + " call against the operator's reviewed Inspect profile, "
                + "and in enforce mode a call it cannot check is not run. This is a fault of the gateway, not of the call: tell "
                + "an operator of the gateway; retrying may succeed once it is fixed.";
        return body(tool, EVALUATION_FAILED, message);
    }

    private static JsonObject body(String tool, String kind, String message) {
        return Jsonp.object().add("error", ERROR).add("tool", tool).add("kind", kind).add("message", message).build();
    }

    private static String why(Deviation.Kind kind) {
        return switch (kind) {
            case NEW_PRINCIPAL -> "no reviewed rule covers this credential yet";
            case NEW_TOOL -> "this credential has no reviewed rule for this tool";
            case NEW_RESOURCE -> "a source, service or namespace in the arguments is not among those reviewed for this tool";
            case ARG_OUT_OF_RANGE -> "an argument's size or form is not among those reviewed for this tool";
        };
    }
}
