package dev.omcp.connectors.builtin.backend;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * What a backend said alongside an answer (Prometheus' and Loki's top-level {@code warnings},
 * Prometheus' {@code infos}), kept as an agent may read it: at most {@value #MAX_WARNINGS} lines,
 * each made one safe line of at most {@value #MAX_WARNING_CHARS} characters, and the rest counted
 * in a last line. A backend's text is not trusted to be short or to hold one line: it goes into
 * an answer an agent reads. Not thread-safe: one per answer read.
 */
public final class BackendWarnings {
    /** Most lines an answer passes on; the rest are counted. */
    static final int MAX_WARNINGS = 10;
    /** Most characters of one warning passed on. */
    static final int MAX_WARNING_CHARS = 300;

    private final List<String> kept = new ArrayList<>();
    private int unlisted;

    /** Keeps {@code text}, with {@code prefix} before it, when there is room; counts it otherwise. */
    void add(String prefix, String text) {
        if (kept.size() < MAX_WARNINGS) {
            kept.add(prefix + BackendHttp.clean(text, MAX_WARNING_CHARS));
        } else {
            unlisted++;
        }
    }

    /** The lines kept, then how many more there were when some were not kept. */
    public List<String> lines() {
        if (unlisted == 0) {
            return List.copyOf(kept);
        }
        List<String> out = new ArrayList<>(kept);
        out.add("(" + unlisted + " more not shown)");
        return List.copyOf(out);
    }

    /**
     * The {@code warnings} (and {@code infos}, prefixed {@code info: }) of an answer already parsed
     * into a tree; members that are not arrays, and array members that are not strings, are skipped.
     */
    public static List<String> of(JsonObject answer) {
        BackendWarnings warnings = new BackendWarnings();
        warnings.addStrings(answer.get("warnings"), "");
        warnings.addStrings(answer.get("infos"), "info: ");
        return warnings.lines();
    }

    private void addStrings(JsonValue member, String prefix) {
        if (member instanceof JsonArray lines) {
            for (JsonValue line : lines) {
                if (line instanceof JsonString s) {
                    add(prefix, s.getString());
                }
            }
        }
    }
}
