package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What sources said alongside their answers (Prometheus' warnings and infos, Loki's warnings, a
 * query frontend that could not reach every store or shard), gathered per source into the
 * {@code backendWarnings} member every tool writes alike: an answer that looks complete may lack
 * some of its data, and the agent must be able to tell. A warning may quote its backend (a query
 * frontend's error, a proxy's page echoing the request's credentials), so every one is redacted as
 * it is added, as a source's failure text is ({@link Toolkit#failureRedaction()}). Not thread-safe:
 * one per tool call.
 */
final class WarnedSources {
    /** Most warnings listed per source; the answers of one call often repeat one warning per query. */
    static final int MAX_WARNINGS_PER_SOURCE = 10;
    /** Most characters of one warning shown, as the builtin connectors keep them. */
    static final int MAX_WARNING_CHARS = 300;

    private final Map<String, Set<String>> bySource = new LinkedHashMap<>();
    private final UnaryOperator<String> redaction;

    /** Warnings to be redacted by {@code redaction} as they are added: the toolkit's {@link Toolkit#failureRedaction()}. */
    WarnedSources(UnaryOperator<String> redaction) {
        this.redaction = Objects.requireNonNull(redaction, "redaction");
    }

    /**
     * Warnings redacted as {@code toolkit} redacts what sources say: off with {@code OMCP_REDACTION=off}.
     * Every tool gathers its sources' warnings through one of these.
     */
    static WarnedSources of(Toolkit toolkit) {
        return new WarnedSources(toolkit.failureRedaction());
    }

    /**
     * No warnings, for an answer that gathered none (a step skipped or given up on). It takes none
     * either: it has no redaction, so a warning added to it is refused rather than shown unredacted.
     */
    static WarnedSources none() {
        return new WarnedSources(text -> {
            throw new IllegalStateException("WarnedSources.none() takes no warnings; gather them with WarnedSources.of(toolkit)");
        });
    }

    /**
     * Adds what {@code source} said alongside one answer; a warning it already said is listed once.
     * Each is redacted, then made one line of at most {@value #MAX_WARNING_CHARS} characters: a
     * plugin is not trusted to keep its backend's words short, and they go into an answer an agent
     * reads. Redacted whole before the cut, so the cut never leaves part of a secret redaction would
     * no longer recognise.
     */
    WarnedSources add(String source, List<String> warnings) {
        for (String warning : warnings) {
            Set<String> distinct = bySource.computeIfAbsent(source, k -> new LinkedHashSet<>());
            if (distinct.size() < MAX_WARNINGS_PER_SOURCE) {
                distinct.add(BackendText.clean(warning == null ? null : redaction.apply(warning), MAX_WARNING_CHARS));
            }
        }
        return this;
    }

    /**
     * Adds what {@code other} holds, source by source, after what this one holds: for a tool whose
     * answer joins several searches ({@code generate_postmortem}: traces and logs) in one list. Its
     * warnings are already cleaned (and perhaps redacted), so they are kept as they are, within
     * {@value #MAX_WARNINGS_PER_SOURCE} per source here too.
     */
    WarnedSources addAll(WarnedSources other) {
        other.bySource.forEach((source, warnings) -> {
            Set<String> distinct = bySource.computeIfAbsent(source, k -> new LinkedHashSet<>());
            for (String warning : warnings) {
                if (distinct.size() < MAX_WARNINGS_PER_SOURCE) {
                    distinct.add(warning);
                }
            }
        });
        return this;
    }

    boolean isEmpty() {
        return bySource.isEmpty();
    }

    /** The sources that warned, in the order they were added. */
    List<String> sources() {
        return List.copyOf(bySource.keySet());
    }

    /** One {@code {source, warnings}} entry per source that warned, its distinct warnings in order. */
    List<JsonObject> entries() {
        return entries(UnaryOperator.identity());
    }

    /** As {@link #entries()}, each warning passed through {@code shown} (a tool that redacts only some strings). */
    List<JsonObject> entries(UnaryOperator<String> shown) {
        List<JsonObject> entries = new ArrayList<>();
        bySource.forEach((source, warnings) -> {
            JsonArrayBuilder lines = Jsonp.array();
            warnings.forEach(w -> lines.add(shown.apply(w)));
            entries.add(Jsonp.object().add("source", source).add("warnings", lines).build());
        });
        return entries;
    }

    /** Adds {@code backendWarnings} to {@code out} when some source warned; nothing otherwise. */
    JsonObjectBuilder writeTo(JsonObjectBuilder out) {
        return writeTo(out, UnaryOperator.identity());
    }

    /** As {@link #writeTo(JsonObjectBuilder)}, each warning passed through {@code shown}. */
    JsonObjectBuilder writeTo(JsonObjectBuilder out, UnaryOperator<String> shown) {
        if (!isEmpty()) {
            JsonArrayBuilder list = Jsonp.array();
            entries(shown).forEach(list::add);
            out.add("backendWarnings", list);
        }
        return out;
    }
}
