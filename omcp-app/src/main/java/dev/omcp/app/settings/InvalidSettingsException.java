package dev.omcp.app.settings;

import java.util.List;

/** The environment holds values the gateway cannot start with; every problem is listed. */
public final class InvalidSettingsException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidSettingsException(List<String> problems) {
        super("invalid settings:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
