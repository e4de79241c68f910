package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AnalysisWindowTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Test
    void aShortWindowGetsAnHourOfBaselineAtThirtySecondSteps() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofMinutes(15), "window");
        assertThat(w.range().start()).isEqualTo(NOW.minus(Duration.ofMinutes(75)));
        assertThat(w.range().end()).isEqualTo(NOW);
        assertThat(w.windowStart()).isEqualTo(NOW.minus(Duration.ofMinutes(15)));
        assertThat(w.step()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aLongWindowGetsFourWindowsOfBaselineAndAStepThatKeepsAboutSixHundredPoints() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofDays(1), "window");
        assertThat(w.range().length()).isEqualTo(Duration.ofDays(5));
        assertThat(w.step()).isEqualTo(Duration.ofMinutes(12));
        // still enough points in the window for the detector's dwell rule
        assertThat(Duration.ofDays(1).dividedBy(w.step())).isEqualTo(120);
    }

    @Test
    void theShortestWindowStillHoldsEnoughPointsForAVerdict() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, AnalysisWindow.MIN_WINDOW, "window");
        assertThat(AnalysisWindow.MIN_WINDOW.dividedBy(w.step())).isGreaterThanOrEqualTo(3);
    }

    @Test
    void windowsOutsideTheRangeAreRefusedNamingTheArgumentAndTheRange() {
        assertThatThrownBy(() -> AnalysisWindow.ending(NOW, Duration.ofSeconds(90), "window"))
                .hasMessageContaining("window 90s is outside 2m..1d");
        assertThatThrownBy(() -> AnalysisWindow.ending(NOW, Duration.ofHours(25), "window"))
                .hasMessageContaining("window 25h is outside 2m..1d");
    }
}
