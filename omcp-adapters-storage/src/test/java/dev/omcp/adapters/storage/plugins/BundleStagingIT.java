package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.StagedBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unpacking bundles into the plugins directory: a refused bundle writes nothing. */
class BundleStagingIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        plugins = tmp.resolve("plugins");
        Path trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        store = new FilesystemPluginStore(plugins, Optional.of(trustRoot));
    }

    private List<String> everythingIn(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void aFullDiskWhileUnpacking_isAFailureToWriteThePluginsDirectory_namingIt_notABundleThatDoesNotVerify() throws Exception {
        Path trustRoot = tmp.resolve("trust-root.pem");
        Durability fullDisk = new Durability() {
            @Override
            public void forceFile(Path file) throws IOException {
                // what write(2) or fsync(2) answer on a full disk; a test running as root cannot fill one otherwise
                throw new IOException("No space left on device");
            }

            @Override
            public void forceDirectory(Path directory) {}
        };
        FilesystemPluginStore onFullDisk = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), false, fullDisk);

        assertThatThrownBy(() -> onFullDisk.stage(PluginFixture.named("echo").signedBy(KEY).bundle("package")))
                .isInstanceOf(PluginDirectoryWriteException.class)
                .hasMessageContaining("plugins directory " + plugins.toAbsolutePath())
                .hasMessageContaining("the disk is full (IOException: No space left on device)")
                .hasMessageContaining("free space on the disk that holds it, then install again")
                .hasMessageContaining("the bundle itself is not at fault");
        assertThat(everythingIn(plugins)).as("the half-unpacked staging directory is deleted").containsExactly("");
    }

    @Test
    void anUnexpectedErrorWhileUnpacking_staysAnError_notABundleThatDoesNotVerify_andLeavesNothing() throws Exception {
        Path trustRoot = tmp.resolve("trust-root.pem");
        Durability broken = new Durability() {
            @Override
            public void forceFile(Path file) {
                throw new IllegalStateException("a bug in the gateway");
            }

            @Override
            public void forceDirectory(Path directory) {}
        };
        FilesystemPluginStore withABug = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), false, broken);

        // a refused bundle is the request's fault (400); a bug is the server's, and its callers answer it as one (500)
        assertThatThrownBy(() -> withABug.stage(PluginFixture.named("echo").signedBy(KEY).bundle("package")))
                .isInstanceOf(IllegalStateException.class).hasMessage("a bug in the gateway");
        assertThat(everythingIn(plugins)).as("the half-unpacked staging directory is deleted").containsExactly("");
    }

    @Test
    void aPluginsDirectoryPathThatIsAFile_isAFailureToWriteThePluginsDirectory_notAnUncaughtError() throws Exception {
        // a read-only directory does not stop root, who may run the tests: a file in the directory's place stops everyone
        Files.writeString(plugins, "not a directory");

        assertThatThrownBy(() -> store.stage(PluginFixture.named("echo").signedBy(KEY).bundle("package")))
                .isInstanceOf(PluginDirectoryWriteException.class)
                .hasMessageContaining("plugins directory " + plugins.toAbsolutePath())
                .hasMessageContaining("FileAlreadyExistsException")
                .hasMessageContaining("nothing was installed");
    }

    @Test
    void aVerifiedBundle_isStagedHidden_thenCommittedUnderItsName() throws Exception {
        byte[] bundle = PluginFixture.named("echo").signedBy(KEY).bundle("package");
        try (StagedBundle staged = store.stage(bundle)) {
            PluginCandidate candidate = staged.candidate();
            assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();
            assertThat(store.scan(List.of()).candidates()).as("a staged bundle is invisible to scans").isEmpty();
            staged.commit();
        }
        assertThat(everythingIn(plugins)).containsExactly("", "echo", "echo/echo-connector.jar", "echo/manifest.json", "echo/manifest.json.sig",
                "echo/package.json");
        assertThat(store.scan(List.of()).candidates()).singleElement().satisfies(c -> assertThat(c.fullyVerified()).isTrue());
    }

    @Test
    void committingOverAnEarlierInstall_replacesItWhole() throws Exception {
        PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(plugins);
        Files.writeString(plugins.resolve("echo/leftover.txt"), "from 1.0.0");
        try (StagedBundle staged = store.stage(PluginFixture.named("echo").version("2.0.0").signedBy(KEY).bundle(""))) {
            staged.commit();
        }
        assertThat(everythingIn(plugins)).doesNotContain("echo/leftover.txt").noneMatch(p -> p.startsWith(".replaced"));
        assertThat(store.scan(List.of()).candidates().getFirst().manifest().orElseThrow().version()).isEqualTo("2.0.0");
    }

    @Test
    void aCommitRolledBack_putsTheEarlierInstallBackWhole_andLeavesNothingAside() throws Exception {
        PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(plugins);
        Files.writeString(plugins.resolve("echo/leftover.txt"), "from 1.0.0");
        try (StagedBundle staged = store.stage(PluginFixture.named("echo").version("2.0.0").signedBy(KEY).bundle(""))) {
            staged.commit();
            assertThat(store.scan(List.of()).candidates()).as("the earlier install is aside, hidden from scans").singleElement()
                    .satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("2.0.0"));

            assertThat(staged.rollBack()).isTrue();
        }
        assertThat(everythingIn(plugins)).contains("echo/leftover.txt").noneMatch(p -> p.startsWith("."));
        assertThat(store.scan(List.of()).candidates().getFirst().manifest().orElseThrow().version()).isEqualTo("1.0.0");
    }

    /** A store whose renames out of {@code refusedPrefixes} fail as a file system refusing them would (root cannot be refused). */
    private FilesystemPluginStore refusingRenamesFrom(String... refusedPrefixes) {
        return new FilesystemPluginStore(plugins, Optional.of(tmp.resolve("trust-root.pem")), Optional.empty(), false, Durability.DISK,
                (from, to) -> {
                    if (Stream.of(refusedPrefixes).anyMatch(prefix -> from.getFileName().toString().startsWith(prefix))) {
                        throw new java.nio.file.FileSystemException(from.toString(), to.toString(), "Read-only file system");
                    }
                    FilesystemStagedBundle.move(from, to);
                });
    }

    @Test
    void aCommitWhoseRenameFails_isAFailureToWriteThePluginsDirectory_andTheInstalledVersionIsBackInPlace() throws Exception {
        PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(plugins);
        Files.writeString(plugins.resolve("echo/leftover.txt"), "from 1.0.0");
        List<String> before = everythingIn(plugins);
        FilesystemPluginStore refusing = refusingRenamesFrom(".staging-");

        try (StagedBundle staged = refusing.stage(PluginFixture.named("echo").version("2.0.0").signedBy(KEY).bundle(""))) {
            assertThatThrownBy(staged::commit).isInstanceOf(PluginDirectoryWriteException.class)
                    .hasMessageContaining("the verified bundle of 'echo' could not be renamed into the plugins directory "
                            + plugins.toAbsolutePath())
                    .hasMessageContaining("it is not writable (FileSystemException: Read-only file system)")
                    .hasMessageContaining("the installed version is back in place, and the bundle itself is not at fault");
        }
        assertThat(everythingIn(plugins)).as("the earlier install whole, the staging deleted, nothing aside").isEqualTo(before);
        assertThat(store.scan(List.of()).candidates().getFirst().manifest().orElseThrow().version()).isEqualTo("1.0.0");
    }

    @Test
    void aCommitWhoseRenameAndPutBackBothFail_saysWhereTheInstalledVersionIsKept_andAStartPutsItBack() throws Exception {
        PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore refusing = refusingRenamesFrom(".staging-", ".replaced-");

        try (StagedBundle staged = refusing.stage(PluginFixture.named("echo").version("2.0.0").signedBy(KEY).bundle(""))) {
            assertThatThrownBy(staged::commit).isInstanceOf(PluginDirectoryWriteException.class)
                    .hasMessageContaining("putting the installed version back failed too (FileSystemException): it is kept in "
                            + ".replaced-echo-")
                    .hasMessageContaining("rename it to echo, or restart the gateway, which puts it back");
        }
        store.recoverInterruptedInstalls();
        assertThat(store.scan(List.of()).candidates().getFirst().manifest().orElseThrow().version()).isEqualTo("1.0.0");
    }

    @Test
    void aFirstCommitRolledBack_leavesNothing() throws Exception {
        try (StagedBundle staged = store.stage(PluginFixture.named("echo").signedBy(KEY).bundle(""))) {
            staged.commit();
            assertThat(staged.rollBack()).as("there was no earlier install to put back").isFalse();
        }
        assertThat(everythingIn(plugins)).containsExactly("");
    }

    @Test
    void closingWithoutCommit_leavesNothing() throws Exception {
        try (StagedBundle staged = store.stage(PluginFixture.named("echo").signedBy(KEY).bundle(""))) {
            assertThat(staged.candidate().name()).isEqualTo("echo");
        }
        assertThat(everythingIn(plugins)).containsExactly("");
    }

    @Test
    void aTamperedBundle_stagesWithFailedChecks_soTheCallerRefusesIt_andNothingRemains() throws Exception {
        byte[] bundle = PluginFixture.named("echo").editManifest(m -> m.put("description", "changed after signing")).bundle("");
        try (StagedBundle staged = store.stage(bundle)) {
            assertThat(staged.candidate().fullyVerified()).isFalse();
        }
        assertThat(everythingIn(plugins)).containsExactly("");
    }

    private void assertRefusedAndNothingWritten(TarWriter tar, String reason) throws IOException {
        List<String> before = everythingIn(tmp);
        assertThatThrownBy(() -> store.stage(tar.tgz())).isInstanceOf(BundleRejectedException.class).hasMessageContaining(reason);
        List<String> after = everythingIn(tmp).stream().filter(p -> !p.equals("plugins")).toList();
        assertThat(after).as("nothing written: " + reason).isEqualTo(before);
        assertThat(everythingIn(plugins)).isIn(List.of(), List.of(""));
        assertThat(tmp.resolve("evil")).doesNotExist();
    }

    @Test
    void aBundleWithDotDot_isRefusedAndWritesNothing() throws Exception {
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").file("../evil", "x"), "'..' segment");
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").file("lib/../../../evil", "x"), "'..' segment");
    }

    @Test
    void aBundleWithAnAbsolutePath_isRefusedAndWritesNothing() throws Exception {
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").file(tmp.resolve("evil").toString(), "x"), "absolute path");
    }

    @Test
    void aBundleWithALink_isRefusedAndWritesNothing() throws Exception {
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").symlink("echo-connector.jar", tmp.resolve("evil").toString()),
                "symbolic link");
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").hardlink("x", "/etc/passwd"), "hard link");
    }

    @Test
    void aBundleThatIsNoPlugin_isRefusedAndWritesNothing() throws Exception {
        assertRefusedAndNothingWritten(new TarWriter().file("readme.txt", "hello"), "not a connector plugin");
    }

    @Test
    void aBundleWithAnOversizedEntry_isRefusedAndWritesNothing() throws Exception {
        assertRefusedAndNothingWritten(new TarWriter().file("package.json", "{}").file("big", new byte[(int) PluginLimits.MAX_BUNDLE_ENTRY_BYTES + 1]),
                "larger than");
    }

    @Test
    void laterValidFilesOfARefusedBundle_areNotWrittenEither() throws Exception {
        TarWriter tar = new TarWriter();
        PluginFixture.named("echo").signedBy(KEY).files().forEach(tar::file);
        tar.symlink("zz-link", "/etc");
        assertRefusedAndNothingWritten(tar, "symbolic link");
    }

    @Test
    void theBytesLoadedAfterInstall_areTheBytesThatWereVerified() throws Exception {
        try (StagedBundle staged = store.stage(PluginFixture.named("echo").signedBy(KEY).bundle(""))) {
            staged.commit();
        }
        PluginCandidate candidate = store.scan(List.of()).candidates().getFirst();
        assertThat(store.load(candidate).factory().manifest().name()).isEqualTo("echo");
    }

    @Test
    void theInstalledPlugin_isCheckedAsAScanWould_andTheSameBundleStagedAgainHasItsFingerprint() throws Exception {
        assertThat(store.installed("echo")).as("nothing installed yet").isEmpty();
        byte[] bundle = PluginFixture.named("echo").version("1.2.0").signedBy(KEY).bundle("");
        try (StagedBundle staged = store.stage(bundle)) {
            staged.commit();
        }
        PluginCandidate installed = store.installed("echo").orElseThrow();
        assertThat(installed.location()).isEqualTo("echo");
        assertThat(installed.manifest().orElseThrow().version()).isEqualTo("1.2.0");
        assertThat(installed).isEqualTo(store.scan(List.of()).candidates().getFirst());
        try (StagedBundle again = store.stage(bundle)) {
            // a reinstall of the same bytes is told apart from other bytes under the same version by this
            assertThat(again.candidate().fingerprint()).isEqualTo(installed.fingerprint());
        }
        try (StagedBundle other = store.stage(PluginFixture.named("echo").version("1.2.0").editManifest(m -> m.put("description", "rebuilt"))
                .signedBy(KEY).bundle(""))) {
            assertThat(other.candidate().fingerprint()).isNotEqualTo(installed.fingerprint());
        }
        assertThat(store.installed("../echo")).as("never a path outside the plugins directory").isEmpty();
    }
}
