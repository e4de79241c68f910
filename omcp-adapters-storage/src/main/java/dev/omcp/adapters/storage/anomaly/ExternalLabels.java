package dev.omcp.adapters.storage.anomaly;

import dev.omcp.ports.anomaly.AnomalySeries;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Labels added to every series the remote-write sink writes ({@code OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS}),
 * Prometheus' own answer to several writers of one receiver: replicas that judge the same service would
 * otherwise write series with identical labels, whose points interleave or are refused as out of order or
 * duplicates. With {@code replica=omcp-0} on one and {@code replica=omcp-1} on the other, each writes its
 * own series and whoever reads merges them (the builtin Prometheus connector does, see docs/analysis.md).
 *
 * <p>Names are classic Prometheus label names (letters, digits, {@code _}, not starting with a digit), so
 * every receiver version stores them; names starting with {@code __} are Prometheus' own and the labels the
 * anomaly series already carry ({@code service}, {@code signal}, {@code tenant}) cannot be overridden.
 * Values are non-empty (a label with an empty value is no label at all to Prometheus, so the replicas would
 * collide again) and free of control characters.
 *
 * @param labels by name, in name order
 */
public record ExternalLabels(Map<String, String> labels) {
    /** The labels {@link RemoteWriteEncoding} writes itself. */
    static final Set<String> WRITTEN = Set.of(AnomalySeries.SERVICE_LABEL, AnomalySeries.SIGNAL_LABEL, AnomalySeries.TENANT_LABEL);
    /**
     * The labels the builtin Prometheus and Loki connectors read service names from by default, besides
     * {@code service}: on the receiver a replica's value there would be listed as a service of that source.
     */
    static final Set<String> SERVICE_NAME_LABELS = Set.of("job", "app", "service_name", "container");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String FORM = "write the labels as name=value,name=value";

    public ExternalLabels {
        Objects.requireNonNull(labels, "labels");
        List<String> problems = new ArrayList<>();
        labels.forEach((name, value) -> check(name, value).ifPresent(problems::add));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    /** No external labels: the series are written exactly as by a single gateway. */
    public static ExternalLabels none() {
        return new ExternalLabels(Map.of());
    }

    public static ExternalLabels of(Map<String, String> labels) {
        return new ExternalLabels(labels);
    }

    /** The outcome of {@link #parse}. */
    public sealed interface Parsed {
        /** Every entry was valid. */
        record Accepted(ExternalLabels labels) implements Parsed {}

        /** What is wrong, one sentence per problem, in the order of the entries; never empty. */
        record Rejected(List<String> problems) implements Parsed {
            public Rejected {
                problems = List.copyOf(problems);
            }
        }
    }

    /**
     * Reads {@code name=value,name=value}: spaces around names and values are ignored, the first {@code =}
     * of an entry ends its name (a value may hold more), and a value cannot hold a comma. Every problem is
     * reported, not only the first, so one restart fixes them all.
     */
    public static Parsed parse(String text) {
        Map<String, String> labels = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        boolean emptyEntry = false;
        for (String entry : text.split(",", -1)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                emptyEntry = true;
                continue;
            }
            int eq = trimmed.indexOf('=');
            if (eq < 0) {
                problems.add("entry '" + trimmed + "' is not name=value; " + FORM + ", for example replica=omcp-0");
                continue;
            }
            String name = trimmed.substring(0, eq).trim();
            String value = trimmed.substring(eq + 1).trim();
            Optional<String> problem = check(name, value);
            if (problem.isPresent()) {
                problems.add(problem.get());
            } else if (labels.putIfAbsent(name, value) != null) {
                problems.add("label " + name + " is given twice; give each label once");
            }
        }
        if (emptyEntry) {
            problems.add("has an empty entry between commas; " + FORM);
        }
        return problems.isEmpty() ? new Parsed.Accepted(new ExternalLabels(labels)) : new Parsed.Rejected(problems);
    }

    private static Optional<String> check(String name, String value) {
        if (name.startsWith("__")) {
            return Optional.of("label name '" + name + "' is reserved (names starting with '__' belong to Prometheus); choose another, "
                    + "for example replica");
        }
        if (!NAME.matcher(name).matches()) {
            return Optional.of("label name '" + name + "' must start with a letter or '_' and hold only letters, digits and '_'");
        }
        if (WRITTEN.contains(name)) {
            return Optional.of("label name '" + name + "' is already written on every anomaly series; choose another, for example replica");
        }
        if (SERVICE_NAME_LABELS.contains(name)) {
            return Optional.of("label name '" + name + "' is one the builtin connectors read service names from, so on the receiver "
                    + "its value would be listed as a service; choose another, for example replica");
        }
        if (value.isEmpty()) {
            return Optional.of("label " + name + " has no value; Prometheus drops a label with an empty value, so the replicas' series "
                    + "would collide again");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("label " + name + " has a control character in its value; use printable text");
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return labels.isEmpty();
    }

    /** The labels in name order. */
    public List<Map.Entry<String, String>> asList() {
        return labels.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue())).toList();
    }

    /** {@code name=value,name=value} in name order, for the start-up log (the values are not secret). */
    @Override
    public String toString() {
        return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
