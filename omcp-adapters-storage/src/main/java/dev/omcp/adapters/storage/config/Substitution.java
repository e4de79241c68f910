package dev.omcp.adapters.storage.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${VAR}} and {@code ${VAR:-default}} in string values, from an environment map. A variable
 * that is unset (or empty, for the {@code :-} form) takes the default; without a default it stays
 * literal (spec 1.8) and is reported once per name. {@code $${} is a literal {@code ${}: it is how
 * a value set through the management API is written back ({@link #escape}), so a value such as
 * {@code ${OMCP_SESSION_SECRET}} typed into a header stays that text at the next start instead of
 * becoming the gateway's secret, sent to whatever backend the source names.
 */
final class Substitution {
    private static final String ESCAPED = "$${";
    /** An escaped {@code $${} (group 1) or a reference: its name (group 2) and default (group 3). */
    private static final Pattern REFERENCE = Pattern.compile("(\\$\\$\\{)|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Map<String, String> environment;
    private final Consumer<String> unsetReporter;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    Substitution(Map<String, String> environment, Consumer<String> unsetReporter) {
        this.environment = Map.copyOf(environment);
        this.unsetReporter = unsetReporter;
    }

    /** Whether {@code text} holds a reference or an escaped {@code $${}, that is whether {@link #apply} may change it. */
    static boolean hasReference(String text) {
        return REFERENCE.matcher(text).find();
    }

    /**
     * Whether {@code text}, as written in the file, spells out a value rather than naming it in the
     * environment: it holds no {@code ${VAR}} reference (an escaped {@code $${} is text), or a
     * reference whose default is written out ({@code ${TOKEN:-abc}}).
     */
    static boolean spellsOutValue(String text) {
        Matcher m = REFERENCE.matcher(text);
        boolean reference = false;
        while (m.find()) {
            if (m.group(2) != null) {
                reference = true;
                if (m.group(3) != null && !m.group(3).isBlank()) {
                    return true;
                }
            }
        }
        return !reference;
    }

    /** {@code text} with every reference replaced. */
    String apply(String text) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            if (m.group(1) != null) {
                m.appendReplacement(out, Matcher.quoteReplacement("${"));
                continue;
            }
            String name = m.group(2);
            String value = environment.get(name);
            String replacement;
            if (m.group(3) != null) {
                replacement = value == null || value.isEmpty() ? m.group(3) : value;
            } else if (value != null) {
                replacement = value;
            } else {
                if (reported.add(name)) {
                    unsetReporter.accept(name);
                }
                replacement = m.group();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * The variables {@code text} names without a default that the environment does not hold: the
     * references {@link #apply} leaves literal. For a message that must say why a value is missing
     * without showing what the other variables hold.
     */
    List<String> unsetIn(String text) {
        List<String> unset = new ArrayList<>();
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            if (m.group(2) != null && m.group(3) == null && !environment.containsKey(m.group(2)) && !unset.contains(m.group(2))) {
                unset.add(m.group(2));
            }
        }
        return unset;
    }

    /** Every variable {@code text} references, in order, each once. */
    static List<String> namesIn(String text) {
        List<String> names = new ArrayList<>();
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            if (m.group(2) != null && !names.contains(m.group(2))) {
                names.add(m.group(2));
            }
        }
        return names;
    }

    /**
     * {@code literal} written so that {@link #apply} gives it back unchanged, whatever the
     * environment holds: every {@code ${} becomes {@code $${}.
     */
    static String escape(String literal) {
        return literal.replace("${", ESCAPED);
    }
}
