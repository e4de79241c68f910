package dev.omcp.app.settings;

import dev.omcp.sdk.text.BackendText;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Typed reads of declared variables that collect every problem instead of stopping at the first.
 * Messages name the variable and the allowed form and never repeat a secret's value.
 */
final class Environment {
    private final Map<String, String> env;
    private final List<String> problems = new ArrayList<>();

    Environment(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The raw value of a variable or its first set alias, trimmed; empty when unset or blank. */
    Optional<String> raw(Variable variable) {
        for (String name : names(variable)) {
            Optional<String> value = value(name);
            if (value.isPresent()) {
                return value;
            }
        }
        return Optional.empty();
    }

    /**
     * The path of a file, when set: a value that is not a valid path, names no file (such as
     * {@code /}) or names an existing directory is a problem, and empty. A directory is caught
     * here, at start, because the gateway would otherwise fail only at its first write (a lost
     * dead-letter entry, a registration refused) or with a misleading "cannot be read".
     */
    Optional<Path> file(Variable variable) {
        Optional<String> raw = raw(variable);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(raw.get());
            if (path.getFileName() == null) {
                problem(variable, "must name a file, got '" + raw.get() + "'");
                return Optional.empty();
            }
            if (Files.isDirectory(path)) {
                problem(variable, "names a directory, '" + raw.get() + "'; give the path of a file (in that directory or elsewhere)");
                return Optional.empty();
            }
            return Optional.of(path);
        } catch (InvalidPathException e) {
            problem(variable, "is not a valid file path: " + e.getReason());
            return Optional.empty();
        }
    }

    String string(Variable variable) {
        return raw(variable).orElse(variable.defaultValue());
    }

    int integer(Variable variable, int min, int max) {
        return integer(variable, min, max, "");
    }

    /**
     * A number of seconds. The problem says the unit and that none is written: {@code 5s} or {@code 1m}
     * is what an operator used to durations elsewhere (the scrape interval, Kubernetes) writes, and
     * "must be an integer" alone left them to guess whether 1m meant 60.
     */
    int seconds(Variable variable, int min, int max) {
        return integer(variable, min, max, " (seconds, written without a unit)");
    }

    /** A number of milliseconds; see {@link #seconds}. */
    int milliseconds(Variable variable, int min, int max) {
        return integer(variable, min, max, " (milliseconds, written without a unit)");
    }

    /** An integer from {@code min} to {@code max}; {@code unit} completes the problem's "must be an integer from" (" (tokens)"). */
    int integer(Variable variable, int min, int max, String unit) {
        String text = string(variable);
        OptionalInt parsed = parseInt(text);
        if (parsed.isEmpty() || parsed.getAsInt() < min || parsed.getAsInt() > max) {
            problem(variable, "must be an integer from " + min + " to " + max + unit + ", got " + shown(variable, text));
            return Integer.parseInt(variable.defaultValue());
        }
        return parsed.getAsInt();
    }

    /** An integer from {@code min} to {@code max} when the variable is set; anything else set is a problem, and empty. */
    OptionalInt optionalInteger(Variable variable, int min, int max) {
        Optional<String> text = raw(variable);
        if (text.isEmpty()) {
            return OptionalInt.empty();
        }
        OptionalInt parsed = parseInt(text.get());
        if (parsed.isEmpty() || parsed.getAsInt() < min || parsed.getAsInt() > max) {
            problem(variable, "must be an integer from " + min + " to " + max + ", got " + shown(variable, text.get()));
            return OptionalInt.empty();
        }
        return parsed;
    }

    String oneOf(Variable variable, List<String> allowed) {
        String text = string(variable);
        String value = text.toLowerCase(java.util.Locale.ROOT);
        if (!allowed.contains(value)) {
            // the value as written, not lower-cased: the operator searches their files for it
            problem(variable, "must be one of " + String.join(", ", allowed) + ", got " + shown(variable, text));
            return variable.defaultValue();
        }
        return value;
    }

    /**
     * A comma-separated list; empty entries are dropped. A value made only of commas and spaces is a
     * problem, not an empty list: read as unset it would quietly mean the default, and for
     * {@code OMCP_API_KEYS=,} that is an anonymous {@code /mcp}.
     */
    List<String> list(Variable variable) {
        Optional<String> raw = raw(variable);
        if (raw.isEmpty()) {
            return List.of();
        }
        List<String> entries = Arrays.stream(raw.get().split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (entries.isEmpty()) {
            // the value is only separators, so showing it reveals nothing, but a secret's is still not repeated
            problem(variable, "is set but holds no entry, only commas and spaces; give at least one comma-separated entry, or unset it");
        }
        return entries;
    }

    /**
     * A switch: {@code true, 1, yes, on} or {@code false, 0, no, off} in any case; anything else is a
     * problem (a typo must not silently flip a security switch). Unset means the default.
     */
    boolean flag(Variable variable) {
        String text = string(variable);
        String value = text.toLowerCase(java.util.Locale.ROOT);
        return switch (value) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> {
                problem(variable, "must be true or false (also 1/0, yes/no, on/off), got " + shown(variable, text));
                yield List.of("true", "1", "yes", "on").contains(variable.defaultValue());
            }
        };
    }

    /**
     * Refuses each of {@code dependents} that is set while {@code primary} is not: it configures a
     * part of a feature that {@code primary} turns on, so without it the setting would do nothing,
     * and whoever set it most likely forgot the other one (docs/configuration.md, "Settings that
     * need another one"). Only names are given, never values.
     */
    void requiresWith(Variable primary, List<Variable> dependents) {
        if (raw(primary).isPresent()) {
            return;
        }
        for (Variable dependent : dependents) {
            if (raw(dependent).isPresent()) {
                problem(dependent, "is set but " + primary.name() + " is not, and it applies only with " + primary.name()
                        + "; set " + primary.name() + " or unset " + dependent.name());
            }
        }
    }

    /**
     * Refuses a variable set under its name and under an alias to different values: which one was
     * meant cannot be told, and reading the canonical name would silently drop the other. The same
     * value under both is fine. The values are not shown, as either may be a secret.
     */
    void refuseConflictingAliases(List<Variable> variables) {
        for (Variable variable : variables) {
            Optional<String> canonical = value(variable.name());
            for (String alias : variable.aliases()) {
                Optional<String> aliased = value(alias);
                if (canonical.isPresent() && aliased.isPresent() && !canonical.get().equals(aliased.get())) {
                    problem(variable, "and its alias " + alias + " are both set, to different values (not shown); they are one setting,"
                            + " so keep one of them (unset " + alias + " or make both equal)");
                }
            }
        }
    }

    private Optional<String> value(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /**
     * Records a problem. The values, file names and parser messages it quotes are escaped
     * ({@link BackendText#escaped}): the launcher prints problems to the operator's terminal.
     */
    void problem(Variable variable, String message) {
        problems.add(variable.name() + " " + BackendText.escaped(message));
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    private static List<String> names(Variable variable) {
        List<String> names = new ArrayList<>();
        names.add(variable.name());
        names.addAll(variable.aliases());
        return names;
    }

    private static String shown(Variable variable, String value) {
        return variable.secret() ? "a value that is not shown (it is secret)" : "'" + value + "'";
    }

    private static OptionalInt parseInt(String text) {
        try {
            return OptionalInt.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
