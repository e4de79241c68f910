package dev.omcp.app.cli;

import dev.omcp.app.settings.UnknownVariables;
import dev.omcp.sdk.text.LogField;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one warning per {@code OMCP_*} variable the gateway does not read, and per near miss of a
 * variable it reads without the prefix, naming the variable it most likely means. Only names are
 * logged, never values: a misspelt secret is still a secret.
 */
final class UnknownVariableWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(UnknownVariableWarnings.class);
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_]{1,200}");

    private UnknownVariableWarnings() {}

    static void log(List<UnknownVariables.Unknown> unknown) {
        for (UnknownVariables.Unknown variable : unknown) {
            LOG.warn(line(variable));
        }
    }

    /** Logs one warning per variable of a setting this version does not support yet: set, it has no effect. */
    static void logNotSupported(List<UnknownVariables.NotSupported> notSupported) {
        for (UnknownVariables.NotSupported variable : notSupported) {
            LOG.warn(line(variable));
        }
    }

    static String line(UnknownVariables.NotSupported variable) {
        return "event=unsupported-variable name=" + variable.name() + " effect=\"this version does not support it yet: it has no effect; "
                + variable.instead() + "\" fix=\"unset it, or keep it for a later version (docs/configuration.md)\"";
    }

    static String line(UnknownVariables.Unknown variable) {
        if (!UnknownVariables.isPrefixed(variable.name())) {
            // without the prefix the variable may well be another program's: say so, so nobody renames it blindly
            String known = variable.suggestion().orElseThrow();
            return "event=unknown-variable name=" + shown(variable.name()) + " suggestion=" + known
                    + " effect=\"the gateway does not read it; if it was meant as " + known + ", that setting keeps its default\""
                    + " fix=\"did you mean " + known + "? rename it; if it belongs to another program, ignore this\"";
        }
        String effect = " effect=\"this version does not read it; its setting keeps its default\"";
        return variable.suggestion()
                .map(known -> "event=unknown-variable name=" + shown(variable.name()) + " suggestion=" + known + effect
                        + " fix=\"did you mean " + known + "? rename it, or remove it (docs/configuration.md lists every variable)\"")
                .orElseGet(() -> "event=unknown-variable name=" + shown(variable.name()) + effect
                        + " fix=\"check the name against docs/configuration.md, or remove it\"");
    }

    /**
     * A variable's name as the line's value: as it is when it is a plain name (letters, digits, {@code _}), else quoted and
     * escaped, since the process environment may hold any name, a line break or a space too.
     */
    static String shown(String name) {
        return PLAIN_NAME.matcher(name).matches() ? name : "\"" + LogField.of(name) + "\"";
    }
}
