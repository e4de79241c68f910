package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a pod's container statuses say is going wrong, as the attributes an agent reads on the pod's
 * topology node: {@code restarts} (above 0), {@code waitingReason} (a container that should run does
 * not: {@code CrashLoopBackOff}, {@code ImagePullBackOff}...), {@code lastTerminationReason} (why a
 * container last ended, unless it completed: {@code OOMKilled}, {@code Error}...). Its phase and
 * Ready condition say only that a pod is not ready, not whether it starts slowly or keeps crashing.
 *
 * <p>The statuses come from the API server, hostile input like every field: a restart count that is
 * no int32 of at least 0 (a string, a fraction, a negative, a number past 2^31 - 1) is not added up
 * but counted in {@code restartsUnreadable}; a reason that is no string is none, and one that is
 * kept is cut to {@link ResourceReader#MAX_REASON_CHARS} on one line. The work is one pass over the
 * statuses, which the list page that held them already bounds, and the sum of int32 counts over
 * fewer than 2^31 statuses cannot overflow a long.
 */
final class PodTrouble {
    /** Waiting reasons of a container that is starting as it should: no trouble. */
    private static final Set<String> STARTING = Set.of("ContainerCreating", "PodInitializing");
    /** A termination that is how a container should end (an init container's, a job's). */
    private static final String COMPLETED = "Completed";

    private PodTrouble() {}

    /** Adds the attributes that apply to {@code attributes}, from a pod's {@code status}. */
    static void read(JsonObject status, Map<String, String> attributes) {
        long restarts = 0;
        int unreadable = 0;
        Optional<String> waiting = Optional.empty();
        Optional<String> terminated = Optional.empty();
        // init containers first, as kubectl counts their restarts in its RESTARTS column: they run first, and a failing one blocks the pod
        for (String key : List.of("initContainerStatuses", "containerStatuses")) {
            if (!(status.get(key) instanceof JsonArray statuses)) {
                continue;
            }
            for (JsonValue s : statuses) {
                if (!(s instanceof JsonObject container)) {
                    continue;
                }
                JsonValue count = container.get("restartCount");
                if (count != null) {
                    Optional<Integer> valid = ResourceReader.count(count);
                    restarts += valid.orElse(0);
                    unreadable += valid.isPresent() ? 0 : 1;
                }
                JsonObject state = object(container, "state");
                if (waiting.isEmpty()) {
                    waiting = reason(object(state, "waiting")).filter(r -> !STARTING.contains(r));
                }
                if (terminated.isEmpty()) {
                    // ended now (a pod that is not restarted), else before its last restart
                    Optional<String> ended = reason(object(state, "terminated"));
                    terminated = (ended.isPresent() ? ended : reason(object(object(container, "lastState"), "terminated")))
                            .filter(r -> !r.equals(COMPLETED));
                }
            }
        }
        if (restarts > 0) {
            attributes.put("restarts", Long.toString(restarts));
        }
        if (unreadable > 0) {
            attributes.put("restartsUnreadable", Integer.toString(unreadable));
        }
        waiting.ifPresent(r -> attributes.put("waitingReason", shown(r)));
        terminated.ifPresent(r -> attributes.put("lastTerminationReason", shown(r)));
    }

    /**
     * A state's reason, as sent (compared with the known ones before it is cut); empty when it is no
     * string or shows nothing (blank, or only control characters), so the next container's is read.
     */
    private static Optional<String> reason(JsonObject state) {
        return state.get("reason") instanceof JsonString s && !shown(s.getString()).isEmpty() ? Optional.of(s.getString())
                : Optional.empty();
    }

    /** A reason as an agent reads it: one line, at most {@link ResourceReader#MAX_REASON_CHARS} characters and an ellipsis. */
    private static String shown(String reason) {
        return BackendText.clean(reason, ResourceReader.MAX_REASON_CHARS);
    }

    private static JsonObject object(JsonObject o, String key) {
        return o.get(key) instanceof JsonObject v ? v : JsonValue.EMPTY_JSON_OBJECT;
    }
}
