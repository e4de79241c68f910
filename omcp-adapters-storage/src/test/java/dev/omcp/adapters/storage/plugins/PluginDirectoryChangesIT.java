package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.StagedBundle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What keeps an install's changes of the plugins directory whole: the change lock, forcing to disk, and verifying before parsing. */
class PluginDirectoryChangesIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;
    @RegisterExtension
    final CapturedLog storeLog = new CapturedLog(FilesystemPluginStore.class);

    @BeforeEach
    void setUp() throws IOException {
        plugins = tmp.resolve("plugins");
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
    }

    private FilesystemPluginStore store() {
        return new FilesystemPluginStore(plugins, Optional.of(trustRoot));
    }

    @Test
    void whileAnotherProcessHoldsThePluginsDirectory_aChangeIsRefusedAsBusy_andCanGoAheadOnceItIsReleased() throws Exception {
        Files.createDirectories(plugins);
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockHolderProcess.class.getName(),
                plugins.resolve(PluginDirectoryLock.FILE_NAME).toString()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.US_ASCII));
            assertThat(out.readLine()).as("the other process holds the lock").isEqualTo("locked");

            assertThatThrownBy(() -> store().lockForChange()).isInstanceOf(PluginDirectoryBusyException.class)
                    .hasMessageContaining("another install, upgrade or removal is in progress in the plugins directory")
                    .hasMessageContaining(PluginDirectoryLock.FILE_NAME).hasMessageContaining("nothing was written")
                    .hasMessageContaining("Try again once it has finished");
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        try (PluginStore.ChangeLock held = store().lockForChange()) {
            assertThat(held).isNotNull();
        }
    }

    @Test
    void aLockFileThatCannotBeCreated_isAFailureToWriteThePluginsDirectory_namingItAndWhatToDo_notAnUncaughtError() throws Exception {
        // a read-only directory does not stop root, who may run the tests: a directory in the lock file's place stops everyone
        Path lockFile = Files.createDirectories(plugins.resolve(PluginDirectoryLock.FILE_NAME));

        assertThatThrownBy(() -> store().lockForChange()).isInstanceOf(PluginDirectoryWriteException.class)
                .hasMessageContaining("the plugins directory " + plugins.toAbsolutePath() + " could not be locked for the change")
                .hasMessageContaining("its lock file " + PluginDirectoryLock.FILE_NAME + " is not a plain file but a directory")
                .hasMessageContaining("delete " + lockFile.toAbsolutePath() + " (it is recreated as a plain file), then try again")
                .hasMessageContaining("nothing was changed")
                .hasMessageNotContaining("check the disk");
        assertThat(storeLog.events()).as("the store throws; whoever asked for the lock says why, once")
                .noneMatch(e -> e.getFormattedMessage().contains(PluginDirectoryLock.FILE_NAME));
    }

    @Test
    void aLinkInTheLockFilesPlace_isNotFollowed_andTheMessageSaysToDeleteIt() throws Exception {
        Path elsewhere = Files.writeString(tmp.resolve("elsewhere"), "");
        Files.createDirectories(plugins);
        Files.createSymbolicLink(plugins.resolve(PluginDirectoryLock.FILE_NAME), elsewhere);

        assertThatThrownBy(() -> store().lockForChange()).isInstanceOf(PluginDirectoryWriteException.class)
                .hasMessageContaining("its lock file " + PluginDirectoryLock.FILE_NAME + " is not a plain file but a symbolic link")
                .hasMessageContaining("; delete " + plugins.resolve(PluginDirectoryLock.FILE_NAME))
                .hasMessageContaining("nothing was changed");
        assertThat(storeLog.events()).noneMatch(e -> e.getFormattedMessage().contains(PluginDirectoryLock.FILE_NAME));
        assertThat(Files.readString(elsewhere)).isEmpty();
    }

    @Test
    void aBundleThatCannotBeWrittenToDisk_isAFailureToWriteThePluginsDirectory_leftToTheInstallerToSay() throws Exception {
        Durability full = new Durability() {
            @Override
            public void forceFile(Path file) {
                throw new java.io.UncheckedIOException(new IOException("No space left on device"));
            }

            @Override
            public void forceDirectory(Path directory) {
            }
        };
        FilesystemPluginStore store = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true, full);

        assertThatThrownBy(() -> store.stage(PluginFixture.named("echo").signedBy(KEY).bundle("package")))
                .isInstanceOf(PluginDirectoryWriteException.class).hasMessageContaining("the disk is full");
        assertThat(storeLog.events()).as("the installer logs its refusal; a line here said the same cause twice")
                .noneMatch(e -> e.getFormattedMessage().contains("No space left"));
    }

    @Test
    void twoStoresOfOneDirectory_takeTurns() throws Exception {
        FilesystemPluginStore first = store();
        FilesystemPluginStore second = store();
        try (PluginStore.ChangeLock held = first.lockForChange()) {
            assertThatThrownBy(second::lockForChange).isInstanceOf(PluginDirectoryBusyException.class);
        }
        try (PluginStore.ChangeLock held = second.lockForChange()) {
            assertThat(Files.isRegularFile(plugins.resolve(PluginDirectoryLock.FILE_NAME))).isTrue();
        }
        assertThat(first.scan(List.of()).candidates()).as("the lock file is no plugin").isEmpty();
    }

    @Test
    void theStagedFiles_areForcedBeforeTheCommitRename_andThePluginsDirectoryAfterIt() throws Exception {
        List<String> forced = new CopyOnWriteArrayList<>();
        Durability recording = new Durability() {
            @Override
            public void forceFile(Path file) {
                forced.add("file " + plugins.relativize(file).getFileName() + (Files.exists(plugins.resolve("echo")) ? " after" : " before"));
            }

            @Override
            public void forceDirectory(Path directory) {
                forced.add("dir " + (directory.equals(plugins) ? "plugins" : "staging")
                        + (Files.exists(plugins.resolve("echo")) ? " after" : " before"));
            }
        };
        FilesystemPluginStore store = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true, recording);

        try (StagedBundle staged = store.stage(PluginFixture.named("echo").signedBy(KEY).bundle("package"))) {
            assertThat(forced).as("every file of the bundle, then its directory, before any rename").containsExactlyInAnyOrder(
                    "file package.json before", "file manifest.json before", "file echo-connector.jar before",
                    "file manifest.json.sig before", "dir staging before");
            forced.clear();
            staged.commit();
        }

        assertThat(forced).as("the rename is forced once it happened").containsExactly("dir plugins after");
    }

    @Test
    void aRemoval_forcesThePluginsDirectoryOnceTheRenamesAsideHappened_beforeDeletingAnything() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        List<String> forced = new CopyOnWriteArrayList<>();
        Durability recording = new Durability() {
            @Override
            public void forceFile(Path file) {
                forced.add("file " + file.getFileName());
            }

            @Override
            public void forceDirectory(Path directory) {
                try (var entries = Files.list(plugins)) {
                    forced.add("dir " + (directory.equals(plugins) ? "plugins" : directory.toString()) + " with " + entries.map(p -> p.getFileName().toString())
                            .map(n -> n.startsWith(".removing-echo-") ? ".removing-echo-*" : n).sorted().toList());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        FilesystemPluginStore store = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true, recording);

        assertThat(store.remove("echo")).isTrue();

        assertThat(forced).as("the rename aside reached the disk while the files still existed to delete")
                .containsExactly("dir plugins with [.removing-echo-*]");
        try (var entries = Files.list(plugins)) {
            assertThat(entries).isEmpty();
        }
    }

    @Test
    void anUnsignedBundle_isNotParsedNorSchemaChecked_andTheRefusalSaysWhy() throws Exception {
        byte[] hostile = PluginFixture.named("echo").editManifest(m -> {
            m.remove("version");
            m.put("schemaVersion", 2);
        }).bundle("");

        try (StagedBundle staged = store().stage(hostile)) {
            PluginCandidate candidate = staged.candidate();
            assertThat(candidate.manifest()).isEmpty();
            assertThat(candidate.signature().problems()).singleElement().asString().startsWith("unsigned: manifest.json.sig is missing");
            assertThat(String.join("\n", candidate.manifestCheck().problems()))
                    .isEqualTo("manifest.json was not parsed: its signature did not verify (see the signature check), and an unverified "
                            + "manifest is not read")
                    .doesNotContain("schemaVersion").doesNotContain("required property");
        }
        assertThat(everythingIn(plugins)).as("nothing is left of the refused bundle").containsExactly("");
    }

    @Test
    void aBundleSignedByAnotherKey_isNotParsedEither() throws Exception {
        byte[] foreign = PluginFixture.named("echo").signedBy(Keys.ed25519()).editManifest(m -> m.put("schemaVersion", 2)).bundle("");

        try (StagedBundle staged = store().stage(foreign)) {
            assertThat(staged.candidate().manifestCheck().summary()).contains("was not parsed: its signature did not verify")
                    .doesNotContain("schemaVersion");
        }
    }

    @Test
    void withVerificationOff_aScanStillChecksAnUnsignedManifest_soItCanLoadUnsigned() {
        PluginFixture.named("echo").writeInto(plugins);

        PluginCandidate scanned = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), false)
                .scan(List.of()).candidates().getFirst();
        PluginCandidate gated = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true)
                .scan(List.of()).candidates().getFirst();

        assertThat(scanned.manifestCheck().ok()).as(scanned.problems().toString()).isTrue();
        assertThat(gated.manifestCheck().ok()).isFalse();
        assertThat(gated.manifestCheck().summary()).contains("was not parsed: its signature did not verify");
    }

    private static List<String> everythingIn(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }
}
