package dev.omcp.ports.sources;

import java.util.List;
import java.util.Objects;

/**
 * The result of testing a source without saving it ({@code POST /api/sources/test}).
 *
 * @param ok whether a connector could be created and its backend answered a health check
 * @param stage where it stopped: {@code validation}, {@code egress}, {@code connect}, {@code health}
 *     or {@code done}
 * @param message the backend's or the guard's words; never a URL or a secret; bounded as
 *     {@link SourceView#shownProblem} bounds a source's problem
 * @param latencyMillis how long the health check took, or -1 when it did not run
 * @param capabilities the capabilities the connector declares and implements
 */
public record SourceCheck(boolean ok, String stage, String message, long latencyMillis, List<String> capabilities) {
    public SourceCheck {
        Objects.requireNonNull(stage, "stage");
        message = SourceView.shownProblem(message);
        capabilities = List.copyOf(capabilities);
    }
}
