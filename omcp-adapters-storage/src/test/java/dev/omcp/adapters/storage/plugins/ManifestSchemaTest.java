package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class ManifestSchemaTest {
    private final ManifestSchema schema = new ManifestSchema();

    private static ObjectNode manifest(String version) {
        ObjectNode m = new ObjectMapper().createObjectNode();
        m.put("schemaVersion", 1).put("name", "tempo").put("displayName", "Tempo").put("version", version).put("description", "Traces");
        m.putArray("signalTypes").add("traces");
        return m;
    }

    @Test
    void aVersionTensOfThousandsOfCharactersLong_isAViolation_notAStackOverflow() {
        // a hub's catalog is another party's text, checked before any signature: the schema's version pattern
        // repeats a group once per pre-release identifier, and java.util.regex recurses once per repetition
        List<String> violations = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> schema.violations(manifest("1.0.0-" + "a.".repeat(50_000) + "b")));
        assertThat(violations).containsExactly("/version: must be at most 128 characters long");
    }

    @Test
    void versionsWithinTheLimit_areCheckedByTheSchemaAsBefore() {
        assertThat(schema.violations(manifest("1.0.0-rc.1+build.7"))).isEmpty();
        assertThat(schema.violations(manifest("1.0.0-" + "a.".repeat(70) + "b")))
                .containsExactly("/version: must be at most 128 characters long");
        assertThat(schema.violations(manifest("1.0.0-a..b"))).singleElement().asString().startsWith("/version: does not match");
    }

    @Test
    void aHookModeOtherThanTheThreeSpelledExactly_isAViolation_soTheManifestIsRefusedRatherThanRunInAGuessedMode() {
        for (String mode : List.of("enforce", "permissive", "disabled")) {
            assertThat(schema.violations(withHookMode(mode))).as(mode).isEmpty();
        }
        for (String mode : List.of("lenient", "Permissive", " enforce", "")) {
            assertThat(schema.violations(withHookMode(mode))).as("'%s'", mode).singleElement().asString().startsWith("/hooks/0/mode");
        }
    }

    private static ObjectNode withHookMode(String mode) {
        ObjectNode m = manifest("1.0.0");
        m.putArray("hooks").addObject().put("kind", "tool_pre_invoke").put("module", "com/acme/Audit.class").put("mode", mode);
        return m;
    }
}
