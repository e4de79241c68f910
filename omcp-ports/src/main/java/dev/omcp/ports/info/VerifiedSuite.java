package dev.omcp.ports.info;

import java.util.List;
import java.util.Objects;

/**
 * A conformance suite this build was checked against, as {@code GET /api/conformance} reports it.
 *
 * @param name the suite, for example the npm package {@code @modelcontextprotocol/conformance}
 * @param version the pinned version that ran
 * @param transports the transports the suite drove, for example {@code streamable-http}
 * @param expectedFailures scenarios allowed to fail (the documented baseline); empty when every
 *     active scenario passes
 */
public record VerifiedSuite(String name, String version, List<String> transports, List<String> expectedFailures) {
    public VerifiedSuite {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        transports = List.copyOf(transports);
        expectedFailures = List.copyOf(expectedFailures);
        if (name.isBlank() || version.isBlank() || transports.isEmpty()) {
            throw new IllegalArgumentException("a verified suite needs a name, a version and at least one transport");
        }
    }
}
