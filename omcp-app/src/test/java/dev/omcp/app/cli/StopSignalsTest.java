package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StopSignalsTest {
    private final List<Integer> halts = new ArrayList<>();

    @Test
    void theFirstSignalAsksForAGracefulStop_andHaltsNothing() {
        StopSignals signals = new StopSignals(halts::add);
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
        StopSignals signals = new StopSignals(halts::add);
        signals.beforeHalt(() -> DemoCommand.deleteOnHalt(work));

        signals.received("INT", 2);
        signals.received("INT", 2);

        assertThat(work).doesNotExist();
        assertThat(halts).containsExactly(130);
    }

    @Test
    void aCleanupThatFails_stillHalts() {
        StopSignals signals = new StopSignals(halts::add);
        List<String> ran = new ArrayList<>();
        signals.beforeHalt(() -> { throw new IllegalStateException("disk gone"); });
        signals.beforeHalt(() -> ran.add("second"));

        signals.received("TERM", 15);
        signals.received("TERM", 15);

        assertThat(ran).containsExactly("second");
        assertThat(halts).containsExactly(143);
    }
}
