package dev.omcp.sdk.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogResultTest {
    private static final LogEntry LINE = new LogEntry(Instant.parse("2026-03-10T12:00:00Z"), "boom", Map.of("app", "api"));

    @Test
    void theConstructorConnectorsWereWrittenAgainst_stillBuildsAnAnswerThatWarnsOfNothing() {
        LogResult result = new LogResult(List.of(LINE), true, "{app=\"api\"}");

        assertThat(result.warnings()).isEmpty();
        assertThat(result).isEqualTo(new LogResult(List.of(LINE), true, "{app=\"api\"}", List.of()));
    }

    @Test
    void warningsAreKeptInOrder_andCopiedSoTheConnectorCannotChangeThemAfterwards() {
        List<String> said = new ArrayList<>(List.of("some shards did not answer", "query was approximated"));
        LogResult result = new LogResult(List.of(LINE), false, "{app=\"api\"}", said);
        said.clear();

        assertThat(result.warnings()).containsExactly("some shards did not answer", "query was approximated");
        assertThatThrownBy(() -> result.warnings().add("more")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void missingWarningsOrQuery_areRefusedAsTheBugsTheyAre() {
        assertThatThrownBy(() -> new LogResult(List.of(), false, "", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new LogResult(List.of(), false, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("resolvedQuery");
    }
}
