package dev.omcp.core.analysis.topology;

import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.text.BackendText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The attributes of a topology node that say it is in trouble already, as the kubernetes connector
 * reports a pod's: {@code waitingReason} (a container that should run does not), {@code
 * lastTerminationReason} (why a container last ended), {@code restarts} (its containers' restarts)
 * and {@code terminating} (it is being deleted). A pod's phase and ready flag say only that it is not
 * ready, not whether it starts slowly or keeps crashing; these say which, and the answers name the
 * nodes that carry them with what they mean, so an agent need not know the Kubernetes words.
 *
 * <p>Only what is there is explained, and at most {@link #MAX_NAMED} nodes are named, so a healthy
 * answer gains nothing and a cluster in trouble gains one bounded sentence.
 */
public final class ResourceTrouble {
    /** The attributes read, in the order a note names them: what is wrong now before what went wrong before. */
    public static final List<String> ATTRIBUTES = List.of("waitingReason", "lastTerminationReason", "restarts", "terminating");
    /** Nodes a note names; the rest are counted. */
    static final int MAX_NAMED = 3;
    /** The most characters of a value repeated: the connector's reasons are shorter, a plugin's may not be. */
    static final int MAX_VALUE_CHARS = 64;
    /** What the usual reasons mean, for the reasons a note repeats. */
    /**
     * A restart count that shows trouble: decimal digits, not all zeros. A plugin's attributes are its own, and "-1",
     * "00" or "abc" say nothing of a pod: named in the note, they would send the agent after one that may be fine.
     */
    private static final Pattern POSITIVE_COUNT = Pattern.compile("[0-9]*[1-9][0-9]*");
    private static final Map<String, String> REASONS = Map.ofEntries(
            Map.entry("CrashLoopBackOff", "it keeps ending and is started again after a growing delay (up to 5 minutes)"),
            Map.entry("ImagePullBackOff", "its image cannot be pulled, and pulling is retried after a growing delay"),
            Map.entry("ErrImagePull", "pulling its image failed (a wrong name or tag, or no access to the registry)"),
            Map.entry("CreateContainerConfigError", "a ConfigMap or Secret it needs is missing"),
            Map.entry("OOMKilled", "it went over its memory limit and was killed"),
            Map.entry("Error", "it exited with an error (or was killed, for example by a failed liveness probe)"));

    private ResourceTrouble() {}

    /**
     * The trouble attributes of {@code node}, in {@link #ATTRIBUTES} order, each value on one line and
     * at most {@link #MAX_VALUE_CHARS} characters; empty when it shows none.
     */
    public static Map<String, String> of(TopologyNode node) {
        Map<String, String> trouble = new LinkedHashMap<>();
        for (String attribute : ATTRIBUTES) {
            String value = node.attributes().getOrDefault(attribute, "");
            boolean shows = switch (attribute) {
                case "restarts" -> POSITIVE_COUNT.matcher(value).matches();
                case "terminating" -> value.equals("true");
                default -> !value.isEmpty();
            };
            if (shows) {
                trouble.put(attribute, BackendText.clean(value, MAX_VALUE_CHARS));
            }
        }
        return trouble;
    }

    /**
     * One sentence naming the first of {@code troubleById} that show trouble, with what their signals
     * mean; empty when none does.
     *
     * @param troubleById node ids in the answer's order, each with its trouble ({@link #of}), empty for most;
     *     other attributes than {@link #ATTRIBUTES} are not read
     * @param what how the answer calls its nodes, in the singular: {@code "listed resource"}, {@code "affected resource"}
     */
    public static Optional<String> note(Map<String, Map<String, String>> troubleById, String what) {
        List<String> named = new ArrayList<>();
        Set<String> attributes = new LinkedHashSet<>();
        Set<String> reasons = new LinkedHashSet<>();
        int count = 0;
        for (Map.Entry<String, Map<String, String>> node : troubleById.entrySet()) {
            Map<String, String> trouble = node.getValue();
            if (trouble.isEmpty()) {
                continue;
            }
            count++;
            if (named.size() == MAX_NAMED) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (String attribute : ATTRIBUTES) { // in this order whatever the map's
                String value = trouble.get(attribute);
                if (value == null) {
                    continue;
                }
                attributes.add(attribute);
                parts.add(attribute.equals("terminating") ? attribute : attribute + " " + value);
                if (attribute.endsWith("Reason") && REASONS.containsKey(value)) {
                    reasons.add(value);
                }
            }
            named.add(node.getKey() + " (" + String.join(", ", parts) + ")");
        }
        if (count == 0) {
            return Optional.empty();
        }
        StringBuilder note = new StringBuilder().append(count).append(' ').append(what).append(count == 1 ? " shows" : "s show")
                .append(" trouble: ").append(String.join(", ", named));
        if (count > named.size()) {
            note.append(" and ").append(count - named.size()).append(" more");
        }
        note.append(". ");
        List<String> meanings = new ArrayList<>();
        for (String attribute : ATTRIBUTES) {
            if (attributes.contains(attribute)) {
                meanings.add(attribute + ": " + meaning(attribute));
            }
        }
        reasons.forEach(r -> meanings.add(r + ": " + REASONS.get(r)));
        return Optional.of(note.append(String.join("; ", meanings)).append('.').toString());
    }

    private static String meaning(String attribute) {
        return switch (attribute) {
            case "waitingReason" -> "why a container that should run does not";
            case "lastTerminationReason" -> "why a container last ended";
            case "restarts" -> "how often its containers were restarted since the pod was created";
            case "terminating" -> "it is being deleted; its services send it no new connections, though ready may still be true";
            default -> throw new IllegalArgumentException("not a trouble attribute: " + attribute);
        };
    }
}
