package dev.omcp.app.wiring;

import dev.omcp.ports.info.VerifiedSuite;
import java.util.List;

/**
 * What CI checks every build of the launcher against, reported by {@code GET /api/conformance}:
 * {@code .ci/run} runs the pinned official MCP conformance suite ({@code conformance/package.json})
 * over Streamable HTTP against the built jar, with the baseline of
 * {@code conformance/expected-failures.yml}. {@code ConformanceVerificationTest} fails when this
 * drifts from those files.
 */
final class ConformanceVerification {
    static final VerifiedSuite MCP_CONFORMANCE_SUITE =
            new VerifiedSuite("@modelcontextprotocol/conformance", "0.1.16", List.of("streamable-http"), List.of());

    private ConformanceVerification() {}
}
