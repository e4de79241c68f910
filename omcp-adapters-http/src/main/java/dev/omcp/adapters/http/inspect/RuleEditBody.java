package dev.omcp.adapters.http.inspect;

import static dev.omcp.adapters.http.api.JsonpExchange.printable;

import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.inspect.RuleEdit;
import dev.omcp.ports.inspect.RuleStatus;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The body of {@code PATCH /api/inspect/profile/rules/{id}} (DECISIONS.md): a review {@code {status}}, or an edit of
 * any of {@code {subject, resources, args}}. The two do not mix: a review changes only the status and an edit keeps it,
 * so a body with both would leave the reviewer unsure which was applied. This class checks the shape (members, types);
 * whether the edited rule is valid (a well-formed subject, lists of 1-256 values) is the core's judgement
 * ({@code RuleChange.Invalid}). Every problem is listed, so one round trip fixes them all.
 */
final class RuleEditBody {
    static final Set<String> FIELDS = Set.of("status", "subject", "resources", "args");
    /** How many problems of the nested lists are named; a hostile body could hold thousands. */
    private static final int MAX_PROBLEMS = 10;
    static final String EMPTY = "the body is empty: send {\"status\": \"accepted\"} (or \"suggested\", \"rejected\") to review the"
            + " rule, or any of subject, resources and args to edit it";

    sealed interface Result {}

    record Valid(RuleEdit edit) implements Result {}

    record Invalid(List<String> problems) implements Result {}

    private RuleEditBody() {}

    static Result parse(JsonObject body) {
        Problems problems = new Problems();
        if (body.isEmpty()) {
            return new Invalid(List.of(EMPTY));
        }
        problems.ifPresentAdd(JsonpExchange.unknownFields(body, FIELDS));
        boolean review = body.containsKey("status");
        boolean edit = body.containsKey("subject") || body.containsKey("resources") || body.containsKey("args");
        if (review && edit) {
            problems.add("status cannot be sent with subject, resources or args: a review changes only the status and an edit"
                    + " keeps it; send them as two requests");
        }
        Optional<RuleStatus> status = Optional.empty();
        if (review) {
            status = body.get("status") instanceof JsonString text ? RuleStatus.parse(text.getString()) : Optional.empty();
            if (status.isEmpty()) {
                problems.add("status: must be \"suggested\", \"accepted\" or \"rejected\"" + (body.get("status") instanceof JsonString text
                        ? ", got '" + printable(text.getString()) + "'" : ", a string"));
            }
        }
        Optional<String> subject = Optional.empty();
        if (body.containsKey("subject")) {
            if (body.get("subject") instanceof JsonString text) {
                subject = Optional.of(text.getString());
            } else {
                problems.add("subject: must be a string: a principal id (key:ci-bot, user:alice), role:<role>, product:<id> or *");
            }
        }
        Optional<Map<String, List<String>>> resources = lists(body, "resources", "dimension", problems);
        Optional<Map<String, List<String>>> args = lists(body, "args", "argument", problems);
        if (problems.count > 0) {
            return new Invalid(problems.listed());
        }
        if (review) {
            return new Valid(new RuleEdit.Review(status.orElseThrow()));
        }
        return new Valid(new RuleEdit.Change(subject, resources, args));
    }

    /** An object of name to array of strings ({@code {"service": ["cart", "checkout"]}}), or empty when absent or wrong. */
    private static Optional<Map<String, List<String>>> lists(JsonObject body, String field, String key, Problems problems) {
        JsonValue value = body.get(field);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof JsonObject object)) {
            problems.add(field + ": must be an object of " + key + " to an array of strings, like {\"service\": [\"cart\","
                    + " \"checkout\"]}");
            return Optional.empty();
        }
        Map<String, List<String>> lists = new LinkedHashMap<>();
        int before = problems.count;
        object.forEach((name, values) -> {
            String place = field + "." + printable(name);
            if (!(values instanceof JsonArray array)) {
                problems.add(place + ": must be an array of strings");
                return;
            }
            List<String> strings = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i) instanceof JsonString text) {
                    strings.add(text.getString());
                } else {
                    problems.add(place + "[" + i + "]: must be a string");
                }
            }
            lists.put(name, strings);
        });
        return problems.count == before ? Optional.of(lists) : Optional.empty();
    }

    /** The problems found, the first {@link #MAX_PROBLEMS} named and the rest counted, never all held. */
    private static final class Problems {
        private final List<String> named = new ArrayList<>();
        private int count;

        void add(String problem) {
            count++;
            if (named.size() < MAX_PROBLEMS) {
                named.add(problem);
            }
        }

        void ifPresentAdd(Optional<String> problem) {
            problem.ifPresent(this::add);
        }

        List<String> listed() {
            List<String> listed = new ArrayList<>(named);
            if (count > named.size()) {
                listed.add("and " + (count - named.size()) + " more problems");
            }
            return listed;
        }
    }
}
