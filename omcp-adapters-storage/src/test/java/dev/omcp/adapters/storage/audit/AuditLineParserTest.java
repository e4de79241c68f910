package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AuditLineParserTest {
    private final String line = TestRecords.record(7, Instant.parse("2025-01-31T12:00:00.250Z"), "user:a", "update", "prod").json();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsEveryField() {
        AuditEntry entry = AuditLineParser.parse(bytes(line));
        assertThat(entry.seq()).isEqualTo(7);
        assertThat(entry.ts()).isEqualTo(Instant.parse("2025-01-31T12:00:00.250Z"));
        assertThat(entry.target()).isEqualTo("prod");
        assertThat(entry.tenant()).isNull();
        assertThat(entry.status()).isEqualTo(201);
    }

    @Test
    void refusesWhatIsNotAnEntry() {
        assertThatThrownBy(() -> AuditLineParser.parse(bytes("{oops"))).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes("[]"))).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line.replace("\"seq\":7", "\"seq\":\"7\""))))
                .hasMessageContaining("'seq' must be an integer");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line.replace("\"ip\":", "\"extra\":1,\"ip\":"))))
                .hasMessageContaining("unexpected field 'extra'");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line.replace(",\"target\":\"prod\"", ""))))
                .hasMessageContaining("'target' is missing");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line + "x"))).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line.replace("\"seq\":7", "\"seq\":7,\"seq\":8"))))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> AuditLineParser.parse(bytes(line.replace(".250Z", "Z")))).hasMessageContaining("ts");
    }

    @Test
    void whatALineHolds_isQuotedOnOneShortLine_inTheMessageThatStopsTheStart() {
        // JSON escapes decode to ESC, a line break and a bidi override; the message goes to the log and the terminal
        String forgery = "\\u001b[2J\\nevent=forged\\u202e" + "x".repeat(100_000);
        String extraField = line.replace("\"ip\":", "\"" + forgery + "\":1,\"ip\":");
        String badTimestamp = line.replaceFirst("\"ts\":\"[^\"]*\"", java.util.regex.Matcher.quoteReplacement("\"ts\":\"" + forgery + "\""));
        String rawControl = line.replace("\"ip\":", "\"\u001b[2J\":1,\"ip\":");

        for (String tampered : java.util.List.of(extraField, badTimestamp, rawControl)) {
            assertThatThrownBy(() -> AuditLineParser.parse(bytes(tampered)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400)
                            .doesNotContain("\u001b", "\n", "\u202e"));
        }
    }
}
