package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.postmortem.LogHighlight;
import dev.omcp.core.analysis.postmortem.LogHighlightExtractor;
import dev.omcp.core.redaction.Redactor;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The redaction of post-mortem log highlights: only the start of a message that a highlight can show is examined. */
class PostmortemMessageRedactionTest {
    private static final Instant AT = Instant.parse("2026-03-10T12:00:00Z");
    private final Redactor redactor = new Redactor();

    private List<LogHighlight> highlights(UnaryOperator<String> redact, String... lines) {
        List<LogHighlightExtractor.Line> in = java.util.Arrays.stream(lines)
                .map(l -> new LogHighlightExtractor.Line(AT, "error", l)).toList();
        return new LogHighlightExtractor().extract(in, List.of("error"), redact, 10);
    }

    @Test
    void aHugeMessageIsRedactedOnlyAsFarAsAHighlightShows_withTheSameHighlight() {
        String tail = " token=" + "s3cr3t".repeat(4);
        String huge = "payment failed for order 123 from alice@example.com " + "retrying ".repeat(1_200_000) + tail;
        String splitAtTheCut = "x".repeat(LogHighlightExtractor.MAX_MESSAGE_CHARS - 10) + " bob@example.com " + "y ".repeat(20_000);
        UnaryOperator<String> whole = t -> redactor.redactText(t).text();

        UnaryOperator<String> heads = GeneratePostmortemTool.messageRedaction(redactor);

        assertThat(highlights(heads, huge, splitAtTheCut)).isEqualTo(highlights(whole, huge, splitAtTheCut));
        assertThat(highlights(heads, splitAtTheCut).getFirst().line()).doesNotContain("bob", "@exa");
        // what the operator hands on ends well before the tail: it was never examined
        assertThat(heads.apply(huge)).hasSizeLessThan(Redactor.headExamined(LogHighlightExtractor.MAX_MESSAGE_CHARS))
                .doesNotContain("token=").endsWith("…");
    }
}
