package dev.omcp.core.analysis.health;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The threshold model of service health: per signal, when it is degraded and critical and how much
 * it weighs. A signal absent from the map is disabled (neither scored nor reported missing).
 *
 * <p>The JSON form (the same in the sources file's {@code health: thresholds:} block, where YAML is
 * turned into JSON, and in the management API) is an object keyed by signal wire name; every field
 * is optional and overrides the default:
 * <pre>{@code
 * {"error_rate":  {"degraded": 0.02, "critical": 0.1},
 *  "latency_p99": {"degraded": 300, "critical": 1200, "weight": 3},
 *  "memory":      {"enabled": false}}
 * }</pre>
 * {@link #parse} reports every problem at once, each with its path, and never returns a partly
 * valid model.
 */
public final class HealthThresholds {
    /** Latency thresholds above one hour are refused as a unit mistake (seconds for milliseconds). */
    static final double MAX_LATENCY_MS = 3_600_000;
    static final double MAX_WEIGHT = 100;
    /**
     * How many unknown signals, or unknown fields of one signal, an answer names; the rest are
     * counted. A body of a megabyte of made-up keys would otherwise come back as tens of megabytes
     * of errors.
     */
    static final int MAX_NAMED_UNKNOWN = 10;
    /** How much of a key an error quotes: keys come from request bodies and files, any length and any characters. */
    private static final int MAX_QUOTED_KEY = 64;
    /** How much of a number an error quotes: JSON numbers may have thousands of digits. */
    private static final int MAX_QUOTED_NUMBER = 32;

    private final Map<HealthSignal, SignalThreshold> bySignal;

    private HealthThresholds(Map<HealthSignal, SignalThreshold> bySignal) {
        EnumMap<HealthSignal, SignalThreshold> copy = new EnumMap<>(HealthSignal.class);
        copy.putAll(bySignal);
        this.bySignal = Collections.unmodifiableMap(copy);
    }

    /**
     * The shipped defaults: error rate 1 % / 5 % (weight 3), p99 latency 500 / 2000 ms (weight 2),
     * CPU 80 % / 95 % and memory 85 % / 95 % of the limit (weight 1 each), request rate down 50 % /
     * 80 % from its baseline (weight 2).
     */
    public static HealthThresholds defaults() {
        Map<HealthSignal, SignalThreshold> m = new EnumMap<>(HealthSignal.class);
        m.put(HealthSignal.ERROR_RATE, new SignalThreshold(0.01, 0.05, 3));
        m.put(HealthSignal.LATENCY_P99, new SignalThreshold(500, 2000, 2));
        m.put(HealthSignal.CPU, new SignalThreshold(0.80, 0.95, 1));
        m.put(HealthSignal.MEMORY, new SignalThreshold(0.85, 0.95, 1));
        m.put(HealthSignal.REQUEST_RATE_DROP, new SignalThreshold(0.5, 0.8, 2));
        return new HealthThresholds(m);
    }

    /** The threshold of a signal, or empty when the signal is disabled. */
    public Optional<SignalThreshold> of(HealthSignal signal) {
        return Optional.ofNullable(bySignal.get(signal));
    }

    /** The enabled signals and their thresholds, in declaration order. */
    public Map<HealthSignal, SignalThreshold> bySignal() {
        return bySignal;
    }

    /** The outcome of parsing: a valid model, or every error found. */
    public sealed interface Parsed permits Valid, Invalid {}

    /** A valid model. */
    public record Valid(HealthThresholds thresholds) implements Parsed {
        public Valid {
            Objects.requireNonNull(thresholds, "thresholds");
        }
    }

    /** Every problem found, each naming its path (for example {@code thresholds.cpu.critical}) and what is allowed. */
    public record Invalid(List<String> errors) implements Parsed {
        public Invalid {
            errors = List.copyOf(errors);
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("an invalid result needs at least one error");
            }
        }
    }

    /** Parses overrides on top of the defaults; error paths start with {@code thresholds}. */
    public static Parsed parse(JsonObject json) {
        return defaults().withOverrides(json, "thresholds");
    }

    /**
     * Applies overrides to this model (for a management API that changes one signal at a time).
     *
     * @param path the prefix of error paths, for example {@code health.thresholds}
     */
    public Parsed withOverrides(JsonObject json, String path) {
        List<String> errors = new ArrayList<>();
        Map<HealthSignal, SignalThreshold> result = new EnumMap<>(HealthSignal.class);
        result.putAll(bySignal);
        int unknown = 0;
        for (Map.Entry<String, JsonValue> entry : json.entrySet()) {
            String where = path + "." + quoted(entry.getKey());
            Optional<HealthSignal> signal = HealthSignal.fromWireName(entry.getKey());
            if (signal.isEmpty()) {
                if (++unknown <= MAX_NAMED_UNKNOWN) {
                    errors.add(where + ": unknown signal; known signals are " + HealthSignal.wireNames());
                }
                continue;
            }
            if (entry.getValue().getValueType() != JsonValue.ValueType.OBJECT) {
                errors.add(where + ": must be an object with degraded, critical, weight or enabled");
                continue;
            }
            HealthSignal s = signal.get();
            SignalThreshold base = bySignal.getOrDefault(s, defaults().bySignal.get(s));
            readSignal(s, base, entry.getValue().asJsonObject(), where, errors).ifPresentOrElse(
                    t -> result.put(s, t), () -> result.remove(s));
        }
        if (unknown > MAX_NAMED_UNKNOWN) {
            errors.add(path + ": and " + (unknown - MAX_NAMED_UNKNOWN) + " more unknown signals; known signals are "
                    + HealthSignal.wireNames());
        }
        if (errors.isEmpty() && result.isEmpty()) {
            // nothing would be measured: every service would read "unknown, no signal returned data", as if
            // no source knew it, rather than "not judged"
            errors.add(path + ": every signal is disabled, so get_service_health could only answer unknown for every service; "
                    + "keep at least one of " + HealthSignal.wireNames() + " enabled");
        }
        return errors.isEmpty() ? new Valid(new HealthThresholds(result)) : new Invalid(errors);
    }

    /** Empty when the signal is disabled (or invalid: then {@code errors} says why). */
    private static Optional<SignalThreshold> readSignal(
            HealthSignal s, SignalThreshold base, JsonObject o, String where, List<String> errors) {
        int before = errors.size();
        boolean enabled = true;
        double degraded = base.degraded();
        double critical = base.critical();
        double weight = base.weight();
        int unknown = 0;
        for (Map.Entry<String, JsonValue> f : o.entrySet()) {
            String field = where + "." + quoted(f.getKey());
            switch (f.getKey()) {
                case "enabled" -> {
                    JsonValue v = f.getValue();
                    if (v == JsonValue.TRUE || v == JsonValue.FALSE) {
                        enabled = v == JsonValue.TRUE;
                    } else {
                        errors.add(field + ": must be true or false");
                    }
                }
                case "degraded" -> degraded = number(f.getValue(), field, errors, degraded);
                case "critical" -> critical = number(f.getValue(), field, errors, critical);
                case "weight" -> weight = number(f.getValue(), field, errors, weight);
                case "unit" -> {
                    // read-only, accepted so the JSON of toJson() can be sent back unchanged
                    if (!(f.getValue() instanceof jakarta.json.JsonString str) || !str.getString().equals(s.unit())) {
                        errors.add(field + ": the unit of " + s.wireName() + " is fixed: " + s.unit());
                    }
                }
                case "metric" -> {
                    // read-only like unit: which curated metric the signal is read from is not configurable
                    if (!(f.getValue() instanceof jakarta.json.JsonString str) || !str.getString().equals(s.metric())) {
                        errors.add(field + ": " + s.wireName() + " is always read from the metric " + s.metric());
                    }
                }
                default -> {
                    if (++unknown <= MAX_NAMED_UNKNOWN) {
                        errors.add(field + ": unknown field; allowed are degraded, critical, weight, enabled");
                    }
                }
            }
        }
        if (unknown > MAX_NAMED_UNKNOWN) {
            errors.add(where + ": and " + (unknown - MAX_NAMED_UNKNOWN) + " more unknown fields; allowed are degraded, critical, "
                    + "weight, enabled");
        }
        if (errors.size() > before) {
            return Optional.empty();
        }
        String unit = s.fraction() ? " (a fraction, 0 < x <= 1)" : " (milliseconds, 0 < x <= " + (long) MAX_LATENCY_MS + ")";
        double max = s.fraction() ? 1 : MAX_LATENCY_MS;
        if (!(degraded > 0) || degraded > max) {
            errors.add(where + ".degraded: " + num(degraded) + " is out of range" + unit);
        }
        if (!(critical > 0) || critical > max) {
            errors.add(where + ".critical: " + num(critical) + " is out of range" + unit);
        }
        if (!(critical > degraded)) {
            errors.add(where + ".critical: " + num(critical) + " must be greater than degraded (" + num(degraded) + ")");
        }
        if (!(weight > 0) || weight > MAX_WEIGHT) {
            errors.add(where + ".weight: " + num(weight) + " must be greater than 0 and at most " + (int) MAX_WEIGHT);
        }
        if (errors.size() > before || !enabled) {
            return Optional.empty();
        }
        return Optional.of(new SignalThreshold(degraded, critical, weight));
    }

    private static double number(JsonValue v, String field, List<String> errors, double fallback) {
        if (!(v instanceof JsonNumber n)) {
            errors.add(field + ": must be a number");
            return fallback;
        }
        double d = n.doubleValue();
        if (!Double.isFinite(d)) {
            // 1e400 is a JSON number; as a double it is infinite, and "must be a number" would puzzle its author
            errors.add(field + ": " + BackendText.quoted(n, MAX_QUOTED_NUMBER) + " is too large for a threshold");
            return fallback;
        }
        if (d == 0 && n.bigDecimalValue().signum() != 0) {
            // 1e-400 reads as 0 as a double: say what was written, not "0 is out of range"
            errors.add(field + ": " + BackendText.quoted(n, MAX_QUOTED_NUMBER) + " is too small for a threshold");
            return fallback;
        }
        return d;
    }

    /** A key as an error path quotes it: one line, printable, bounded. */
    private static String quoted(String key) {
        return BackendText.quoted(key, MAX_QUOTED_KEY);
    }

    private static String num(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    /**
     * The smallest overrides of the shipped defaults that give this model: per signal only the
     * fields that differ ({@code {"enabled": false}} for a disabled signal), signals equal to their
     * default left out. {@link #parse} of it gives this model back; what the sources file stores.
     */
    public JsonObject overridesOfDefaults() {
        HealthThresholds defaults = defaults();
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        for (HealthSignal s : HealthSignal.values()) {
            SignalThreshold t = bySignal.get(s);
            SignalThreshold d = defaults.bySignal.get(s);
            if (t == null) {
                if (d != null) {
                    b.add(s.wireName(), Jsonp.provider().createObjectBuilder().add("enabled", false));
                }
                continue;
            }
            JsonObjectBuilder fields = Jsonp.provider().createObjectBuilder();
            boolean differs = d == null;
            if (d == null || t.degraded() != d.degraded()) {
                fields.add("degraded", number(t.degraded()));
                differs = true;
            }
            if (d == null || t.critical() != d.critical()) {
                fields.add("critical", number(t.critical()));
                differs = true;
            }
            if (d == null || t.weight() != d.weight()) {
                fields.add("weight", number(t.weight()));
                differs = true;
            }
            if (differs) {
                b.add(s.wireName(), fields);
            }
        }
        return b.build();
    }

    /**
     * {@link #overridesOfDefaults()}, plus each field of {@code written} (the block as the sources
     * file holds it now) that still says what this model says, even where that is the default: the
     * operator's {@code degraded: ${P99_MS:-500}} equals the default 500, and dropping it at the
     * next API change would cut the variable off without a word, so that a later {@code P99_MS=300}
     * no longer applies. An entry of a signal that was disabled and still is stays as written, and so
     * does an {@code enabled: true} of a signal still on (it may be an {@code enabled: ${CPU_ON}}). What
     * no longer holds is left to the smallest form. {@link #parse} of it gives this model back.
     */
    public JsonObject overridesOfDefaultsKeeping(JsonObject written) {
        JsonObject smallest = overridesOfDefaults();
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        for (HealthSignal s : HealthSignal.values()) {
            JsonObject now = smallest.get(s.wireName()) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
            JsonObject was = written.get(s.wireName()) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
            SignalThreshold t = bySignal.get(s);
            JsonObject entry;
            if (t == null) {
                entry = was.get("enabled") == JsonValue.FALSE ? was : now;
            } else {
                JsonObjectBuilder fields = Jsonp.provider().createObjectBuilder();
                if (was.get("enabled") == JsonValue.TRUE) {
                    // the signal is still on: an enabled: ${CPU_ON:-yes} that gave it stays, so the variable still switches it
                    fields.add("enabled", true);
                }
                keepOrSet(fields, "degraded", now, was, t.degraded());
                keepOrSet(fields, "critical", now, was, t.critical());
                keepOrSet(fields, "weight", now, was, t.weight());
                entry = fields.build();
            }
            if (!entry.isEmpty()) {
                b.add(s.wireName(), entry);
            }
        }
        return b.build();
    }

    /** The field as the smallest form has it, else as it was written if it still holds {@code value}. */
    private static void keepOrSet(JsonObjectBuilder fields, String name, JsonObject now, JsonObject was, double value) {
        if (now.containsKey(name)) {
            fields.add(name, now.get(name));
        } else if (was.get(name) instanceof JsonNumber n && n.doubleValue() == value) {
            fields.add(name, n);
        }
    }

    /** A whole number as an integer (so files read {@code 1200}, not {@code 1200.0}). */
    private static JsonNumber number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Jsonp.value((long) d) : Jsonp.value(d);
    }

    /** The JSON form, every signal written out (disabled ones as {@code {"enabled": false}}). */
    public JsonObject toJson() {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        for (HealthSignal s : HealthSignal.values()) {
            SignalThreshold t = bySignal.get(s);
            // metric names what the signal reads (cpu is cpu_utilization, a share of the limit, not query_metrics' cores)
            if (t == null) {
                b.add(s.wireName(), Jsonp.provider().createObjectBuilder().add("enabled", false).add("unit", s.unit())
                        .add("metric", s.metric()));
            } else {
                JsonObjectBuilder signal = Jsonp.provider().createObjectBuilder().add("enabled", true);
                addNumber(signal, "degraded", t.degraded());
                addNumber(signal, "critical", t.critical());
                addNumber(signal, "weight", t.weight());
                b.add(s.wireName(), signal.add("unit", s.unit()).add("metric", s.metric()));
            }
        }
        return b.build();
    }

    /** A whole number as one ({@code 500}, {@code 3}), as operators write it; anything else as a decimal. */
    private static void addNumber(JsonObjectBuilder json, String name, double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            json.add(name, (long) value);
        } else {
            json.add(name, value);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HealthThresholds h && h.bySignal.equals(bySignal);
    }

    @Override
    public int hashCode() {
        return bySignal.hashCode();
    }

    @Override
    public String toString() {
        return "HealthThresholds" + bySignal;
    }
}
