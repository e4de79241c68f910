package dev.omcp.testkit.connector;

import java.util.List;

/**
 * The gateway would refuse the plugin: verification failed, or it could not be loaded. The message
 * lists every problem, in the words the gateway logs.
 */
public final class PluginRefusedException extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public PluginRefusedException(String what, List<String> problems) {
        super(what + ":\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
