package dev.omcp.app.cli;

import dev.omcp.app.settings.UnusedVariables;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one warning per variable that the chosen mode leaves without effect, naming the choice it
 * needs and the one in force. Only names and modes are logged, never the variable's value: it may
 * be a secret ({@code OMCP_OIDC_CLIENT_SECRET}).
 */
final class UnusedVariableWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(UnusedVariableWarnings.class);

    private UnusedVariableWarnings() {}

    static void log(List<UnusedVariables.Unused> unused) {
        for (UnusedVariables.Unused variable : unused) {
            LOG.warn(line(variable));
        }
    }

    static String line(UnusedVariables.Unused variable) {
        return "event=unused-variable name=" + variable.name() + " applies-when=" + variable.appliesWhen() + " current="
                + variable.current() + " effect=\"it has no effect while " + variable.current() + "\""
                + " fix=\"set " + variable.appliesWhen() + " to use it, or unset " + variable.name() + "\"";
    }
}
