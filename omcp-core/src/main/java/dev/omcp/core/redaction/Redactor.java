package dev.omcp.core.redaction;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Redacts PII and secrets from tool output (spec 5.7): emails, IPv4/IPv6 addresses, JWTs, bearer
 * tokens, AWS/GCP/Azure keys, GitHub/GitLab tokens, private-key blocks, Luhn-valid card numbers and
 * values of secret-like names ({@link RedactionCategory}). Each match becomes
 * {@code [REDACTED:<category>]}; the result carries per-category counts. Thread-safe; build one and
 * share it.
 *
 * <p>JSON: every string is redacted, <b>object keys included</b> (labels of aggregated log results
 * can be client IPs or user emails; a key is data too). When two keys of one object redact to the
 * same text, the later ones get a {@code " #2"}, {@code " #3"}... suffix so no value is lost. A value
 * whose key names a secret ({@code password}, {@code client_secret}, {@code apiKey},
 * {@code authorization}, {@code cookie}, {@code db_pass}, {@code session_id}...: the names of
 * {@link NamedSecrets}) is replaced whole, whatever it looks like, and so is
 * every string and number of an array or object under such a key. Numbers are
 * checked as text too (a card number stored as a JSON number becomes the redaction string). One
 * exception, the test count: a number under a key that is exactly {@code pass} is left when it is an
 * integer of at most 3 digits, or of at most 6 beside a {@code fail…}/{@code skip…}/{@code error…}/{@code total…}
 * number ({@code {"pass": 9, "fail": 0}}), as {@code pass: 9} is in text.
 *
 * <p>Fail closed: {@link #redactPayload} parses its input as JSON and, when it is not JSON, redacts
 * it as plain text instead of passing it through.
 */
public final class Redactor {
    /**
     * Payloads nested deeper than {@link Jsonp#MAX_DEPTH} are redacted as text: building (and then
     * walking) a tree of one, both recursive, could overflow the launcher's 512 KiB thread stacks.
     */
    private static final jakarta.json.stream.JsonParserFactory PARSERS = Jsonp.provider().createParserFactory(
            Map.of("org.eclipse.parsson.maxDepth", Jsonp.MAX_DEPTH));
    private static final JsonValue SECRET_VALUE = Jsonp.provider().createValue(RedactionCategory.SECRET.replacement());
    /** Bounds the key cache: a hostile result with millions of distinct keys cannot grow it further. */
    private static final int MAX_CACHED_KEYS = 4096;

    private final TextRedactor text = new TextRedactor();
    private final ConcurrentHashMap<String, Key> keys = new ConcurrentHashMap<>();

    /** The outcome of redacting a JSON value. */
    public record JsonRedaction(JsonValue value, RedactionCounts counts) {
        public JsonRedaction {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(counts, "counts");
        }
    }

    /** The outcome of redacting text. */
    public record TextRedaction(String text, RedactionCounts counts) {
        public TextRedaction {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(counts, "counts");
        }
    }

    /**
     * The outcome of redacting the start of a text ({@link #redactHead}).
     *
     * @param text the redacted start, all of it safe to show; shorter than asked when redactions or a
     *     long run of key-like characters near the examined end left less that is
     * @param counts what was redacted in the examined start, including its part after {@code text}
     * @param examined how many characters of the input were examined (all of them when it was short)
     * @param charsAfter how many characters come after {@code text}: those of the redacted examined
     *     start not returned, plus those of the input never examined; 0 when {@code text} is the whole
     */
    public record HeadRedaction(String text, RedactionCounts counts, int examined, int charsAfter) {
        public HeadRedaction {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(counts, "counts");
        }

        /** Whether the whole input was examined, so that {@code text} is its full redaction. */
        public boolean whole() {
            return charsAfter == 0;
        }
    }

    /**
     * The outcome of redacting a payload of unknown shape.
     *
     * @param text the redacted payload (JSON re-serialised when it was JSON)
     * @param wasJson whether it parsed as JSON; when not, it was redacted as plain text
     */
    public record PayloadRedaction(String text, boolean wasJson, RedactionCounts counts) {
        public PayloadRedaction {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(counts, "counts");
        }
    }

    /** Redacts one piece of text. */
    public TextRedaction redactText(String input) {
        int[] counts = new int[RedactionCategory.values().length];
        String out = text.redact(input, counts);
        return new TextRedaction(out, new RedactionCounts(counts));
    }

    /**
     * Redacts the start of {@code input} for output that shows at most its first {@code shown}
     * characters (after redaction), examining a bounded start of it however long it is
     * ({@link TextHead}): a long log line costs what its start costs. No secret the shown start
     * reaches into is left in part; what comes after the returned text is only counted.
     */
    public HeadRedaction redactHead(String input, int shown) {
        if (shown < 0) {
            throw new IllegalArgumentException("shown must not be negative");
        }
        return TextHead.redact(text, input, shown);
    }

    /** How many characters of a long text {@link #redactHead} examines for {@code shown} characters of output. */
    public static int headExamined(int shown) {
        return shown + TextHead.MARGIN;
    }

    /** Redacts every string (and key, and number) of a JSON value. */
    public JsonRedaction redactJson(JsonValue value) {
        int[] counts = new int[RedactionCategory.values().length];
        JsonValue out = walk(value, counts);
        return new JsonRedaction(out, new RedactionCounts(counts));
    }

    /**
     * Whether a JSON key or field name names a secret ({@code password}, {@code client_secret},
     * {@code apiKey}...), so that its values are redacted whole whatever they look like.
     */
    public boolean namesSecret(String key) {
        return secretKey(key);
    }

    /** Redacts a payload that should be JSON; text that is not JSON is redacted as text (fail closed). */
    public PayloadRedaction redactPayload(String payload) {
        JsonValue parsed = parseWhole(payload);
        if (parsed == null) {
            // not JSON, truncated JSON, or JSON followed by more text: every character is still checked, as text
            TextRedaction t = redactText(payload);
            return new PayloadRedaction(t.text(), false, t.counts());
        }
        JsonRedaction j = redactJson(parsed);
        return new PayloadRedaction(j.value().toString(), true, j.counts());
    }

    /**
     * The payload as one JSON value, or null when it is not exactly one: a reader's
     * {@code readValue()} stops after the first value, which would silently drop whatever follows
     * ({@code {"a":1}\nsecret text}), so the parser must also reach the end of the input.
     */
    private static JsonValue parseWhole(String payload) {
        try (JsonParser parser = PARSERS.createParser(new StringReader(payload))) {
            if (!parser.hasNext()) {
                return null;
            }
            parser.next();
            JsonValue value = parser.getValue();
            return parser.hasNext() ? null : value;
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException notOneValue) {
            return null;
        } catch (RuntimeException nestedTooDeeply) {
            // Parsson's plain RuntimeException past its depth: redacted as text, every character checked
            return null;
        }
    }

    private JsonValue walk(JsonValue value, int[] counts) {
        return walk(value, counts, false);
    }

    /**
     * @param secret under a key that names a secret: every string and number is replaced whole,
     *     however deep ({@code "password": ["..."]}, {@code "credentials": {"user": .., "pass": ..}})
     */
    private JsonValue walk(JsonValue value, int[] counts, boolean secret) {
        if (secret && (value.getValueType() == JsonValue.ValueType.STRING || value.getValueType() == JsonValue.ValueType.NUMBER)
                && !isEmptyString(value)) {
            counts[RedactionCategory.SECRET.ordinal()]++;
            return SECRET_VALUE;
        }
        return switch (value.getValueType()) {
            case STRING -> {
                String s = ((JsonString) value).getString();
                String r = text.redact(s, counts);
                yield r.equals(s) ? value : Jsonp.provider().createValue(r);
            }
            case NUMBER -> {
                String s = ((JsonNumber) value).toString();
                String r = text.redact(s, counts);
                yield r.equals(s) ? value : Jsonp.provider().createValue(r);
            }
            case ARRAY -> {
                JsonArray array = (JsonArray) value;
                JsonArrayBuilder b = null;
                for (int i = 0; i < array.size(); i++) {
                    JsonValue item = array.get(i);
                    JsonValue r = walk(item, counts, secret);
                    if (b == null && r != item) {
                        b = Jsonp.provider().createArrayBuilder();
                        for (int k = 0; k < i; k++) {
                            b.add(array.get(k));
                        }
                    }
                    if (b != null) {
                        b.add(r);
                    }
                }
                yield b == null ? value : b.build();
            }
            case OBJECT -> walkObject((JsonObject) value, counts, secret);
            default -> value;
        };
    }

    private JsonValue walkObject(JsonObject object, int[] counts, boolean secret) {
        JsonObjectBuilder b = null;
        Set<String> used = null;
        int index = 0;
        int testCounts = UNCHECKED;
        for (Map.Entry<String, JsonValue> e : object.entrySet()) {
            Key k = key(e.getKey());
            k.count(counts);
            JsonValue v = e.getValue();
            boolean secretValue = secret || k.secret();
            if (secretValue && !secret && v instanceof JsonNumber number && e.getKey().equalsIgnoreCase("pass")) {
                // {"pass": 9, "fail": 0}: a test count, by the rule of `pass: 9` in text (NamedSecrets.passCount)
                if (testCounts == UNCHECKED) {
                    testCounts = hasTestCount(object) ? 1 : 0;
                }
                secretValue = !NamedSecrets.passCount(e.getKey(), number.toString(), testCounts == 1);
            }
            JsonValue r = walk(v, counts, secretValue);
            String key = k.redacted();
            if (b == null && (r != v || !key.equals(e.getKey()))) {
                // first change: copy the unchanged entries before it, then build from here on
                b = Jsonp.provider().createObjectBuilder();
                used = new HashSet<>();
                int copied = 0;
                for (Map.Entry<String, JsonValue> before : object.entrySet()) {
                    if (copied++ == index) {
                        break;
                    }
                    b.add(before.getKey(), before.getValue());
                    used.add(before.getKey());
                }
            }
            if (b != null) {
                if (!used.add(key)) {
                    int n = 2;
                    while (!used.add(key + " #" + n)) {
                        n++;
                    }
                    key = key + " #" + n;
                }
                b.add(key, r);
            }
            index++;
        }
        return b == null ? object : b.build();
    }

    private static final int UNCHECKED = -1;

    /** Whether {@code object} holds another count of a test summary ({@code "fail": 0}, {@code "skipped": 2}...). */
    private static boolean hasTestCount(JsonObject object) {
        for (Map.Entry<String, JsonValue> e : object.entrySet()) {
            if (e.getValue() instanceof JsonNumber && NamedSecrets.testCountKey(e.getKey())) {
                return true;
            }
        }
        return false;
    }

    /** What redaction does to a key: cached, since log results repeat the same few keys thousands of times. */
    private record Key(String redacted, boolean secret, int[] counts) {
        void count(int[] into) {
            if (counts != null) {
                for (int i = 0; i < counts.length; i++) {
                    into[i] += counts[i];
                }
            }
        }
    }

    private Key key(String key) {
        Key cached = keys.get(key);
        if (cached != null) {
            return cached;
        }
        int[] c = new int[RedactionCategory.values().length];
        String redacted = text.redact(key, c);
        Key k = new Key(redacted, secretKey(key), redacted.equals(key) ? null : c);
        if (keys.size() < MAX_CACHED_KEYS && key.length() <= 64) {
            keys.put(key, k);
        }
        return k;
    }

    private static boolean isEmptyString(JsonValue v) {
        return v instanceof JsonString s && s.getString().isEmpty();
    }

    /** The names that make a key=value in text a secret ({@link NamedSecrets}) make a JSON key one too. */
    private static boolean secretKey(String key) {
        return NamedSecrets.namesSecret(key);
    }
}
