package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.adapters.storage.plugins.fixture.HangingConnectorFactory;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plugin whose code never returns while it loads: the scan, and an install holding the directory, go on without it. */
class PluginLoadDeadlineIT {
    private static final KeyPair KEY = Keys.ed25519();
    private static final Duration DEADLINE = Duration.ofMillis(200);
    /** What the old code never met: it waited for the plugin for ever. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path tmp;
    private Path plugins;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        Path trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        store = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), false, Durability.DISK,
                FilesystemStagedBundle::move, DEADLINE);
    }

    @AfterAll
    static void releaseTheHungThreads() {
        System.setProperty(HangingConnectorFactory.RELEASE, "true");
    }

    private static PluginFixture hanging(String name) {
        return PluginFixture.named(name).signedBy(KEY).services(HangingConnectorFactory.class.getName() + "\n");
    }

    private PluginCandidate candidate(String name) {
        return store.scan(List.of()).candidates().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static long loadingThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("omcp-plugin-load-" + name)).count();
    }

    @Test
    void aFactoryWhoseConstructorNeverReturns_failsToLoadWithinTheDeadline_andTheOtherPluginsStillLoad() throws Exception {
        hanging("hang").writeInto(plugins);
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        PluginCandidate hang = candidate("hang");
        assertThat(hang.fullyVerified()).as(hang.problems().toString()).isTrue();

        long started = System.nanoTime();
        assertTimeoutPreemptively(PATIENCE, () -> assertThatThrownBy(() -> store.load(hang)).isInstanceOf(PluginLoadException.class)
                .hasMessage("'hang' did not finish loading within 200ms (its factory's constructor, a static initializer, manifest() "
                        + "or a hook's constructor does not return); it is not used, and these very files are not tried again until "
                        + "the gateway restarts: fix the plugin and install a new version"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(DEADLINE);
        assertThat(loadingThreads("hang")).as("the hung thread, a daemon, is left behind: Java cannot stop it").isEqualTo(1);
        // the scan goes on: the next plugin loads as before
        assertThat(store.load(candidate("echo")).factory().manifest().name()).isEqualTo("echo");
    }

    @Test
    void aRescan_refusesTheFilesThatRanOutOfTime_atOnce_withoutStartingAnotherThread() {
        hanging("stuck").writeInto(plugins);
        assertTimeoutPreemptively(PATIENCE, () -> assertThatThrownBy(() -> store.load(candidate("stuck")))
                .hasMessageContaining("did not finish loading within 200ms"));

        long started = System.nanoTime();
        // a re-scan follows every install and removal: each tried it again and left one more thread
        assertThatThrownBy(() -> store.load(candidate("stuck"))).isInstanceOf(PluginLoadException.class)
                .hasMessage("'stuck' did not finish loading within 200ms at an earlier attempt, and these very files are not tried "
                        + "again until the gateway restarts (its loading thread may still be running): fix the plugin and install "
                        + "a new version");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE);
        assertThat(loadingThreads("stuck")).isEqualTo(1);
    }

    @Test
    void anInstallHoldingThePluginsDirectory_getsTheRefusalWithinTheDeadline_andTheLockIsFreeAfterwards() throws Exception {
        // what BundleInstaller does: stage, commit, load under the lock, and take the bundle back when it did not load
        assertTimeoutPreemptively(PATIENCE, () -> {
            try (PluginStore.ChangeLock held = store.lockForChange(); var staged = store.stage(hanging("frozen").bundle(""))) {
                staged.commit();
                assertThatThrownBy(() -> store.load(candidate("frozen"))).hasMessageContaining("did not finish loading within 200ms");
                assertThat(staged.rollBack()).as("no earlier install to put back").isFalse();
            }
        });
        assertThat(store.installed("frozen")).isEmpty();
        try (PluginStore.ChangeLock again = store.lockForChange()) {
            assertThat(again).isNotNull();
        }
    }

    @Test
    void aLoadThatFailsQuickly_saysItsOwnReason_asBefore() {
        PluginFixture.named("asserting").signedBy(KEY)
                .services(dev.omcp.adapters.storage.plugins.fixture.AssertingConnectorFactory.class.getName() + "\n").writeInto(plugins);
        assertThatThrownBy(() -> store.load(candidate("asserting"))).isInstanceOf(PluginLoadException.class)
                .hasMessage("the factory of 'asserting' failed to describe itself: AssertionError: manifest not configured");
    }
}
