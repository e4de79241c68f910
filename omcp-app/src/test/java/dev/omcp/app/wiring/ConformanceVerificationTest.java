package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.info.VerifiedSuite;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * /api/conformance tells clients which suite this build passed: the claim must be the suite CI
 * really pins and the baseline it really allows (conformance/, read from the omcp-app module).
 */
class ConformanceVerificationTest {
    private static final Path SUITE_DIR = Path.of("..", "conformance");
    private final VerifiedSuite claimed = ConformanceVerification.MCP_CONFORMANCE_SUITE;

    @Test
    void theClaimedVersion_isTheOnePinnedForCi() throws IOException {
        JsonNode pinned = new ObjectMapper().readTree(SUITE_DIR.resolve("package.json").toFile())
                .path("dependencies").path(claimed.name());
        assertThat(pinned.isTextual()).as("conformance/package.json pins %s", claimed.name()).isTrue();
        assertThat(claimed.version()).isEqualTo(pinned.asText());
        JsonNode locked = new ObjectMapper().readTree(SUITE_DIR.resolve("package-lock.json").toFile())
                .path("packages").path("node_modules/" + claimed.name()).path("version");
        assertThat(claimed.version()).as("the version in package-lock.json").isEqualTo(locked.asText());
    }

    @Test
    void theClaimedBaseline_isTheExpectedFailuresFile() throws IOException {
        Object document;
        try (Reader reader = Files.newBufferedReader(SUITE_DIR.resolve("expected-failures.yml"))) {
            document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        }
        assertThat(document).isInstanceOf(Map.class);
        Object server = ((Map<?, ?>) document).get("server");
        List<String> baseline = new ArrayList<>();
        if (server instanceof List<?> entries) {
            for (Object entry : entries) {
                baseline.add(entry instanceof Map<?, ?> m ? String.valueOf(m.get("scenario")) : String.valueOf(entry));
            }
        }
        assertThat(claimed.expectedFailures()).containsExactlyInAnyOrderElementsOf(baseline);
    }
}
