package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code omcp plugin list|info}: the hub catalog is not signed, so its text reaches the operator's
 * terminal as text, never as escape sequences or forged lines.
 */
class PluginCatalogOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ESC = "\u001b";

    @TempDir
    Path hub;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** The reference hub's tempo entry, with terminal escapes in every free-text field of the catalog. */
    @BeforeEach
    void hostileHub() throws Exception {
        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins")).resolve("hub");
        ObjectNode entry = (ObjectNode) JSON.readTree(reference.resolve("connectors/tempo.json").toFile());
        entry.put("displayName", "Tempo" + ESC + "]0;owned\u0007").put("description", "traces" + ESC + "[2J");
        ((ObjectNode) entry.get("versions").get(0)).put("changelog", "- first\n- second" + ESC + "[1A")
                .put("published", "2026-01-01\r" + ESC + "[K");
        Files.createDirectories(hub.resolve("connectors"));
        Files.write(hub.resolve("connectors/tempo.json"), JSON.writeValueAsBytes(entry));
        Files.writeString(hub.resolve("index.json"), "{\"schemaVersion\": 1, \"connectors\": [{\"name\": \"tempo\", \"catalog\": "
                + "\"connectors/tempo.json\"}]}");
    }

    private int run(String... args) {
        CommandLine line = new CommandLine(new PluginCommand());
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Test
    void info_showsTheCatalogsTextEscaped_andAChangelogOfSeveralLinesIndented() {
        assertThat(run("info", "tempo", "--from", hub.toString())).as(err.toString()).isZero();

        assertThat(out.toString()).doesNotContain(ESC).doesNotContain("\r")
                .contains("tempo - Tempo\\u001b]0;owned\\u0007")
                .contains("  traces\\u001b[2J")
                .contains("(2026-01-01\\r\\u001b[K)")
                .contains("    changelog: - first" + System.lineSeparator() + "      - second\\u001b[1A");
    }

    @Test
    void list_showsTheCatalogsTextEscaped() {
        assertThat(run("list", "--from", hub.toString())).as(err.toString()).isZero();

        assertThat(out.toString()).doesNotContain(ESC).contains("traces\\u001b[2J");
    }
}
