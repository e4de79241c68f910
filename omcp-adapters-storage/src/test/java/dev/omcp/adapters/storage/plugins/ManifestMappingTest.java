package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How a plugin's JSON files are refused: the refusal is one bounded line, whatever the file holds. */
class ManifestMappingTest {

    private static String problem(String json) {
        return ManifestMapping.parse(json.getBytes(StandardCharsets.UTF_8), "manifest.json").problem();
    }

    @Test
    void aDuplicateKeyWithALineBreakInIt_isQuotedOnOneLine_withWhereItIs() {
        String problem = problem("{\"name\": \"a\",\n \"evil\\nlevel=ERROR event=forged\\u202e\": 1, \"evil\\nlevel=ERROR event=forged\\u202e\": 2}");
        assertThat(problem).startsWith("manifest.json is not valid JSON (line 2, column").contains("Duplicate field")
                .doesNotContain("\n").doesNotContain("\u202e");
    }

    @Test
    void aHugeBadToken_isCut() {
        String problem = problem("{\"name\": " + "x".repeat(100_000) + "}");
        assertThat(problem).startsWith("manifest.json is not valid JSON (line 1, column").hasSizeLessThan(400);
    }

    @Test
    void aValidObject_hasNoProblem() {
        assertThat(problem("{\"name\": \"a\"}")).isNull();
    }
}
