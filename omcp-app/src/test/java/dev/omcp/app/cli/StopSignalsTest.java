package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StopSignalsTest {
    private final List<Integer> halts = new ArrayList<>();
    private long now = 7_000_000_000L;

    private StopSignals signals() {
        return new StopSignals(halts::add, () -> now);
    }

    private void later(long millis) {
        now += TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void theFirstSignalAsksForAGracefulStop_andHaltsNothing() {
        StopSignals signals = signals();
        signals.beforeHalt(() -> { throw new AssertionError("no cleanup on a graceful stop"); });

        signals.received("INT", 2);
        signals.await(); // returns at once: the stop was asked for

        assertThat(halts).isEmpty();
    }

    @Test
    void aSecondCtrlC_removesTheDemosDirectory_beforeItHaltsWith130(@TempDir Path tmp) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("omcp-demo123"));
        Files.createDirectories(work.resolve("plugins/zipkin"));
        Files.writeString(work.resolve("plugins/zipkin/plugin.jar"), "jar");
        Files.writeString(work.resolve("sources.yaml"), "sources: []");
        StopSignals signals = signals();
        signals.beforeHalt(() -> DemoCommand.deleteOnHalt(work));

        signals.received("INT", 2);
        later(1500);
        signals.received("INT", 2);

        assertThat(work).doesNotExist();
        assertThat(halts).containsExactly(130);
    }

    @Test
    void aCleanupThatFails_stillHalts() {
        StopSignals signals = signals();
        List<String> ran = new ArrayList<>();
        signals.beforeHalt(() -> { throw new IllegalStateException("disk gone"); });
        signals.beforeHalt(() -> ran.add("second"));

        signals.received("TERM", 15);
        later(1500);
        signals.received("TERM", 15);

        assertThat(ran).containsExactly("second");
        assertThat(halts).containsExactly(143);
    }

    /** timeout, systemd's KillMode=control-group and kill -TERM -pgid signal the process, then its group, at once. */
    @Test
    void aSignalAndItsEchoToTheProcessGroup_aMillisecondApart_areOneRequest_soTheDrainRuns() {
        StopSignals signals = signals();
        signals.beforeHalt(() -> { throw new AssertionError("no cleanup on a graceful stop"); });

        signals.received("TERM", 15);
        later(1);
        signals.received("TERM", 15);
        later(998);
        signals.received("INT", 2);
        signals.await();

        assertThat(halts).as("still within the second after the first signal").isEmpty();
    }

    @Test
    void aSignalASecondAfterTheFirst_isTheOperatorInsisting_andHalts() {
        StopSignals signals = signals();

        signals.received("TERM", 15);
        later(1);
        signals.received("TERM", 15);
        later(999);
        signals.received("TERM", 15);

        assertThat(halts).containsExactly(143);
    }
}
