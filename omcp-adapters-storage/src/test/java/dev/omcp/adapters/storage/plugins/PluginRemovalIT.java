package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.plugins.PluginCandidate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Removing a plugin from the plugins directory, and what the next start does with a removal a crash interrupted. */
class PluginRemovalIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private FilesystemPluginStore store;
    @RegisterExtension
    final CapturedLog log = new CapturedLog(PluginRemover.class, InterruptedInstalls.class);

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectory(tmp.resolve("plugins"));
        Path trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        store = new FilesystemPluginStore(plugins, Optional.of(trustRoot));
    }

    private List<String> logged(Level level) {
        return log.messages(level);
    }

    private List<String> entries() throws IOException {
        try (Stream<Path> list = Files.list(plugins)) {
            // the change lock's file stays for good (PluginDirectoryLock): it is no plugin and no leftover
            return list.map(p -> p.getFileName().toString()).filter(n -> !n.equals(PluginDirectoryLock.FILE_NAME)).sorted().toList();
        }
    }

    private List<String> scanned() {
        return store.scan(List.of()).candidates().stream().map(PluginCandidate::location).toList();
    }

    private Path replaced(String name, String version) throws IOException {
        return PluginFixture.named(name).version(version).directory(".replaced-" + name + "-" + UUID.randomUUID()).signedBy(KEY)
                .writeInto(plugins);
    }

    @Test
    void aRemoval_deletesThePluginAndItsEarlierInstallsKeptAside_andNothingElse() throws Exception {
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        replaced("echo", "1.0.0");
        PluginFixture.named("echo").version("1.5.0").directory("echo-1.5.0").signedBy(KEY).writeInto(plugins);
        PluginFixture.named("zeta").signedBy(KEY).writeInto(plugins);
        Path zetaAside = replaced("zeta", "0.9.0");
        // a plugin whose name starts like echo's is not echo
        PluginFixture.named("echo-x").signedBy(KEY).writeInto(plugins);

        boolean deleted = store.remove("echo");

        assertThat(deleted).isTrue();
        assertThat(entries()).containsExactly(zetaAside.getFileName().toString(), "echo-1.5.0", "echo-x", "zeta");
        assertThat(scanned()).containsExactly("echo-x", "zeta");
        assertThat(store.installed("echo")).isEmpty();
        assertThat(log.events()).isEmpty();
    }

    @Test
    void aPluginThatCannotBeRenamedAside_staysInstalled_andTheErrorSaysSo() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        PluginRemover remover = new PluginRemover(plugins, (from, to) -> {
            throw new AccessDeniedException(from.toString());
        }, FilesystemStagedBundle::deleteTreeOrThrow, Durability.DISK);

        assertThatThrownBy(() -> remover.remove("echo")).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("moving plugin 'echo' out of the plugins directory failed (java.nio.file.AccessDeniedException: ");

        assertThat(entries()).containsExactly("echo");
        assertThat(store.installed("echo")).isPresent();
    }

    @Test
    void filesThatCannotBeDeleted_stayHidden_andTheNextStartFinishesTheRemoval() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        PluginRemover remover = new PluginRemover(plugins, FilesystemStagedBundle::move, root -> {
            throw new AccessDeniedException(root.resolve("echo-connector.jar").toString());
        }, Durability.DISK);

        boolean deleted = remover.remove("echo");

        assertThat(deleted).isFalse();
        assertThat(entries()).singleElement().asString().startsWith(".removing-echo-");
        assertThat(scanned()).isEmpty();
        assertThat(logged(Level.WARN)).singleElement().asString()
                .startsWith("event=plugin-remove-leftover location=\"" + plugins.resolve(".removing-echo-"))
                .endsWith("effect=\"it stays hidden from scans; the next start deletes it\"");

        store.recoverInterruptedInstalls();

        assertThat(entries()).isEmpty();
        assertThat(logged(Level.INFO)).singleElement().asString()
                .startsWith("event=plugin-leftover-deleted location=\"" + plugins.resolve(".removing-echo-"))
                .endsWith("reason=\"a plugin whose removal was interrupted; the removal is finished\"");
    }

    @Test
    void aCrashAfterTheCommit_halfWayThroughTheDelete_isFinishedAtTheNextStart_notRolledBack() throws Exception {
        // what the rename leaves, with the entry JAR already deleted when the process died
        Path removing = PluginFixture.named("echo").directory(".removing-echo-" + UUID.randomUUID()).signedBy(KEY).writeInto(plugins);
        Files.delete(removing.resolve("echo-connector.jar"));

        store.recoverInterruptedInstalls();

        assertThat(entries()).isEmpty();
        assertThat(scanned()).isEmpty();
    }

    @Test
    void aCrashBeforeTheCommit_leavesThePluginInstalled_andOnlyTheEarlierInstallIsDeleted() throws Exception {
        // the removal renamed the earlier install aside and died before renaming the plugin itself
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        PluginFixture.named("echo").version("1.0.0").directory(".removing-echo-" + UUID.randomUUID()).signedBy(KEY).writeInto(plugins);

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly("echo");
        assertThat(store.installed("echo")).get().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("2.0.0"));
    }

    @Test
    void anUpgradeInterruptedAfterAnEarlierRemovalLeftFiles_stillPutsTheReplacedVersionBack() throws Exception {
        // a removal whose delete failed, then a new install, then an upgrade that died after moving it aside
        PluginFixture.named("echo").version("1.0.0").directory(".removing-echo-" + UUID.randomUUID()).signedBy(KEY).writeInto(plugins);
        replaced("echo", "3.0.0");

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly("echo");
        assertThat(store.installed("echo")).get().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("3.0.0"));
    }

    @Test
    void aLinkInThePlaceOfThePlugin_isRemovedItself_andWhatItPointsAtIsKept() throws Exception {
        Path elsewhere = PluginFixture.named("echo").signedBy(KEY).writeInto(Files.createDirectory(tmp.resolve("elsewhere")));
        Files.createSymbolicLink(plugins.resolve("echo"), elsewhere);

        assertThat(store.remove("echo")).isTrue();

        assertThat(entries()).isEmpty();
        assertThat(elsewhere.resolve("echo-connector.jar")).exists();
    }

    @Test
    void aNameThatIsNoPluginName_isRefusedBeforeAnythingMoves() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);

        assertThatThrownBy(() -> store.remove("../plugins/echo")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a plugin name");
        assertThat(entries()).containsExactly("echo");
    }
}
