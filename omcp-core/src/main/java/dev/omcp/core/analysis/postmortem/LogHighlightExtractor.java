package dev.omcp.core.analysis.postmortem;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Turns the error and warning lines of a window into post-mortem {@link LogHighlight}s: each line is
 * reduced to its message (the {@code msg}, {@code message}, {@code error} or {@code err} field of a
 * JSON line, else the whole line), redacted, and grouped with the lines that differ only in
 * numbers, ids, hex strings and addresses, so a thousand "took 812ms" / "took 3071ms" lines become
 * one highlight counted a thousand times. An HTTP status code named as one ({@code HTTP 503},
 * {@code status=404}, {@code code: 500}) and an error code ({@code ORA-00060}, {@code E11000},
 * {@code SQLSTATE 40P01}, {@code errno=111}, {@code exit code 137}) are kept: they tell the errors
 * apart. Stateless and thread-safe.
 *
 * <p>Ranking: by level as given (the caller lists errors before warnings), then most frequent, then
 * earliest. The representative of a group is its earliest line. A group holding a line from a read
 * the source cut at its limit has a count that is only a lower bound, and says so.
 */
public final class LogHighlightExtractor {
    /** The longest message kept; longer ones are cut with an ellipsis. */
    public static final int MAX_MESSAGE_CHARS = 300;
    private static final List<String> MESSAGE_FIELDS = List.of("msg", "message", "error", "err");
    private static final Pattern UUID = Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b");
    private static final Pattern HEX_ID = Pattern.compile("\\b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\\b");
    private static final Pattern IPV4 = Pattern.compile("\\b\\d{1,3}(\\.\\d{1,3}){3}\\b");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");
    /** An HTTP status code: three digits, 1xx to 5xx. */
    private static final Pattern STATUS_DIGITS = Pattern.compile("[1-5]\\d\\d");
    /** What names the number after it as a status code: {@code HTTP 503}, {@code status=404}, {@code code: 500}. */
    private static final Pattern STATUS_WORD = Pattern.compile("(?i)\\b(?:http|status|code)[ :=]{0,3}$");
    /**
     * An error code, whose digits are what the error is: a vendor prefix and a number ({@code ORA-00060},
     * {@code ERR-042}), letters run into a number ({@code E11000}, {@code MSB3073}, {@code CS0103}), or a
     * number named as an error code ({@code SQLSTATE 40P01}, {@code errno=111}, {@code exit code 137}). The
     * prefix must be upper case, so per-request ids such as {@code req-48151} still vary.
     */
    private static final Pattern ERROR_CODE = Pattern.compile("\\b[A-Z]{2,5}-\\d{3,5}\\b|\\b[A-Z]{1,3}\\d{4,5}\\b"
            + "|(?i:\\b(?:sqlstate|errno|exit code|exit status|error code|errcode)[ :=\\[]{0,3}[0-9A-Z]{1,6}\\b)");

    /**
     * One log line of a level.
     *
     * @param at when it was written
     * @param level the level it was found under, for example {@code error}
     * @param text the raw line
     * @param fromCutRead whether it came from a read the source cut at its limit (older lines of
     *     the window were not returned)
     */
    public record Line(Instant at, String level, String text, boolean fromCutRead) {
        public Line {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(level, "level");
            Objects.requireNonNull(text, "text");
        }

        /** A line from a read that returned every line of the window. */
        public Line(Instant at, String level, String text) {
            this(at, level, text, false);
        }
    }

    private static final class Group {
        final int levelRank;
        final String representative;
        Instant firstSeen;
        int count;
        boolean lowerBound;

        Group(int levelRank, String representative, Instant firstSeen) {
            this.levelRank = levelRank;
            this.representative = representative;
            this.firstSeen = firstSeen;
        }
    }

    /**
     * The highlights of {@code lines}.
     *
     * @param levels the levels in order of importance (for example {@code error}, {@code warn});
     *     lines of other levels rank after them
     * @param redact applied to every message before it is grouped or kept
     * @param max the most highlights returned
     */
    public List<LogHighlight> extract(List<Line> lines, List<String> levels, UnaryOperator<String> redact, int max) {
        List<Line> ordered = new ArrayList<>(lines);
        ordered.sort(Comparator.comparing(Line::at));
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Line line : ordered) {
            String message = oneLine(redact.apply(messageOf(line.text())));
            if (message.isEmpty()) {
                continue;
            }
            String shown = line.level() + ": " + message;
            Group group = groups.computeIfAbsent(line.level() + "\u0000" + pattern(message),
                    k -> new Group(rank(levels, line.level()), shown, line.at()));
            group.count++;
            group.lowerBound |= line.fromCutRead();
        }
        return groups.values().stream()
                .sorted(Comparator.comparingInt((Group g) -> g.levelRank).thenComparing(g -> -g.count)
                        .thenComparing(g -> g.firstSeen).thenComparing(g -> g.representative))
                .limit(max)
                .map(g -> new LogHighlight(g.firstSeen, g.representative, g.count, g.lowerBound))
                .toList();
    }

    private static int rank(List<String> levels, String level) {
        int i = levels.indexOf(level);
        return i < 0 ? levels.size() : i;
    }

    /** The message of a line: a JSON line's message field, else the line itself. */
    static String messageOf(String text) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
            return trimmed;
        }
        try (JsonReader reader = Jsonp.reader(trimmed)) {
            JsonValue value = reader.readValue();
            if (value instanceof JsonObject object) {
                for (String field : MESSAGE_FIELDS) {
                    if (object.get(field) instanceof JsonString s && !s.getString().isBlank()) {
                        return s.getString();
                    }
                }
            }
            return trimmed;
        } catch (JsonException e) {
            return trimmed; // not JSON after all: the line is its own message
        }
    }

    /** The grouping key: the message with the parts that vary per occurrence replaced. */
    static String pattern(String message) {
        String p = UUID.matcher(message).replaceAll("<id>");
        p = HEX_ID.matcher(p).replaceAll("<id>");
        p = IPV4.matcher(p).replaceAll("<ip>");
        String text = p;
        List<int[]> codes = ERROR_CODE.matcher(text).results().map(m -> new int[] {m.start(), m.end()}).toList();
        // a status or error code is what the error was, not a detail of one occurrence: "HTTP 503" and "HTTP 404"
        // are two errors, as are ORA-00060 and ORA-01555, and one group for both counted the second as the first
        return NUMBER.matcher(text).replaceAll(m -> statusCode(text, m.start(), m.group()) || inside(codes, m.start())
                ? m.group() : "<n>");
    }

    private static boolean inside(List<int[]> spans, int at) {
        for (int[] span : spans) {
            if (at >= span[0] && at < span[1]) {
                return true;
            }
        }
        return false;
    }

    private static boolean statusCode(String text, int start, String number) {
        return STATUS_DIGITS.matcher(number).matches()
                && STATUS_WORD.matcher(text.substring(Math.max(0, start - 10), start)).find();
    }

    private static String oneLine(String text) {
        String s = text.replace('\r', ' ').replace('\n', ' ').strip();
        if (s.length() <= MAX_MESSAGE_CHARS) {
            return s;
        }
        int end = MAX_MESSAGE_CHARS - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--; // never half of a character of two UTF-16 units
        }
        return s.substring(0, end) + "…";
    }
}
