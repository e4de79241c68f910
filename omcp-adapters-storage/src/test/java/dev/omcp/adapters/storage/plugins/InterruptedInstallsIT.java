package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.plugins.PluginCandidate;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What a crash in the middle of an install leaves in the plugins directory is settled at the next start. */
class InterruptedInstallsIT {
    private static final KeyPair KEY = Keys.ed25519();
    private static final Instant EARLIER = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;
    private FilesystemPluginStore store;
    @RegisterExtension
    final CapturedLog log = new CapturedLog(InterruptedInstalls.class);

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectory(tmp.resolve("plugins"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
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

    /** A leftover of an earlier install of {@code name}, written at {@code modified}. */
    private Path replaced(String name, String version, Instant modified) throws IOException {
        String leftover = ".replaced-" + name + "-" + UUID.randomUUID();
        Path root = PluginFixture.named(name).version(version).directory(leftover).signedBy(KEY).writeInto(plugins);
        Files.setLastModifiedTime(root, FileTime.from(modified));
        return root;
    }

    private String installedVersion(String name) {
        List<PluginCandidate> candidates = store.scan(List.of()).candidates();
        return candidates.stream().filter(c -> c.location().equals(name)).findFirst()
                .map(c -> c.manifest().orElseThrow().version()).orElse("none");
    }

    @Test
    void aLeftoverBesideACompleteInstall_isDeleted_asIsAnUncommittedStagingDirectory() throws Exception {
        // the process died after the commit, before close() deleted the earlier install
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        Path leftover = replaced("echo", "1.0.0", EARLIER);
        Path staging = PluginFixture.named("zeta").directory(".staging-123456").signedBy(KEY).writeInto(plugins);

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly("echo");
        assertThat(installedVersion("echo")).isEqualTo("2.0.0");
        assertThat(logged(Level.INFO)).containsExactlyInAnyOrder(
                "event=plugin-leftover-deleted location=\"" + staging + "\" reason=\"an install that was never committed\"",
                "event=plugin-leftover-deleted location=\"" + leftover
                        + "\" reason=\"an earlier install of 'echo', replaced by the one in place\"");
    }

    @Test
    void leftoverNamesAreLoggedEscaped_soAFileNameInThePluginsDirectoryCannotForgeALineOrAField() throws Exception {
        // a file name may hold a line break or a quote: whoever can write the directory chooses it
        Path staging = Files.createDirectory(plugins.resolve(".staging-1\n event=plugin-installed plugin=evil"));
        Files.createDirectory(plugins.resolve(".replaced-a\" by=\"admin-" + UUID.randomUUID()));

        store.recoverInterruptedInstalls();

        assertThat(staging).doesNotExist();
        assertThat(log.events()).hasSize(2).allSatisfy(event -> assertThat(event.getFormattedMessage())
                .doesNotContain("\n", "by=\"admin").startsWith("event=plugin-leftover-"));
        assertThat(logged(Level.INFO)).singleElement().asString()
                .startsWith("event=plugin-leftover-deleted location=\"" + plugins
                        + "/.staging-1\\u000a event=plugin-installed plugin=evil\"");
    }

    @Test
    void theLeftoverOfAPluginThatIsMissing_isPutBack() throws Exception {
        // the process died after the earlier install was moved aside, before the new one was in place
        Path leftover = replaced("echo", "1.0.0", EARLIER);
        Files.createTempDirectory(plugins, ".staging-");

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly("echo");
        assertThat(installedVersion("echo")).isEqualTo("1.0.0");
        assertThat(store.scan(List.of()).candidates()).singleElement().satisfies(c -> assertThat(c.fullyVerified()).isTrue());
        assertThat(logged(Level.WARN)).singleElement().asString().startsWith("event=plugin-install-restored plugin=echo location=\""
                + plugins.resolve("echo") + "\" from=\"" + leftover.getFileName() + "\"");
    }

    @Test
    void ofSeveralLeftovers_theNewestCompleteOneIsPutBack_andTheOthersAreDeleted() throws Exception {
        Path oldest = replaced("echo", "1.0.0", EARLIER);
        Path newer = replaced("echo", "1.1.0", EARLIER.plusSeconds(60));
        Path newestButTorn = replaced("echo", "1.2.0", EARLIER.plusSeconds(120));
        Files.delete(newestButTorn.resolve("echo-connector.jar"));
        Files.setLastModifiedTime(newestButTorn, FileTime.from(EARLIER.plusSeconds(120)));

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly("echo");
        assertThat(installedVersion("echo")).isEqualTo("1.1.0");
        assertThat(logged(Level.WARN)).singleElement().asString().contains("from=\"" + newer.getFileName() + "\"");
        assertThat(logged(Level.INFO)).hasSize(2).anySatisfy(line -> assertThat(line).contains(oldest.toString()))
                .anySatisfy(line -> assertThat(line).contains(newestButTorn.toString()))
                .allSatisfy(line -> assertThat(line).contains("older than the one put back"));
    }

    @Test
    void anIncompleteInstall_isKeptHiddenForTheOperator_andTheCompleteLeftoverTakesItsPlace() throws Exception {
        Path install = PluginFixture.named("echo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        Files.delete(install.resolve("echo-connector.jar"));
        replaced("echo", "1.0.0", EARLIER);

        store.recoverInterruptedInstalls();

        assertThat(installedVersion("echo")).isEqualTo("1.0.0");
        assertThat(entries()).hasSize(2).contains("echo").anySatisfy(name -> assertThat(name).startsWith(".incomplete-echo-"));
        Path kept = plugins.resolve(entries().stream().filter(n -> n.startsWith(".incomplete-")).findFirst().orElseThrow());
        assertThat(Files.readString(kept.resolve("manifest.json"))).contains("\"2.0.0\"");
        assertThat(logged(Level.WARN)).hasSize(2).anySatisfy(line -> assertThat(line).startsWith("event=plugin-install-incomplete plugin=echo"))
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-install-restored plugin=echo"));
    }

    @Test
    void withoutACompleteLeftover_aMissingPluginsLeftoversAreKeptForTheOperator() throws Exception {
        Path torn = replaced("echo", "1.0.0", EARLIER);
        Files.delete(torn.resolve("manifest.json"));

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactly(torn.getFileName().toString());
        assertThat(logged(Level.WARN)).singleElement().asString()
                .startsWith("event=plugin-leftover-kept plugin=echo locations=\"[" + torn + "]\"")
                .contains("the plugin is not installed");
    }

    @Test
    void symbolicLinks_areNeitherFollowedNorPutInPlace() throws Exception {
        Path outside = PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(Files.createDirectory(tmp.resolve("outside")));
        Path linkedLeftover = Files.createSymbolicLink(plugins.resolve(".replaced-echo-" + UUID.randomUUID()), outside);
        Path linkedStaging = Files.createSymbolicLink(plugins.resolve(".staging-1"), outside);
        Path linkedInstall = Files.createSymbolicLink(plugins.resolve("zeta"), outside);
        Path zetaLeftover = replaced("zeta", "1.0.0", EARLIER);

        store.recoverInterruptedInstalls();

        assertThat(entries()).containsExactlyInAnyOrder(linkedLeftover.getFileName().toString(), ".staging-1", "zeta",
                zetaLeftover.getFileName().toString());
        assertThat(Files.isSymbolicLink(linkedInstall)).isTrue();
        assertThat(outside.resolve("echo-connector.jar")).exists();
        assertThat(logged(Level.WARN)).hasSize(3)
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-leftover-refused location=\"" + linkedLeftover + "\"")
                        .contains("a symbolic link, which is not followed"))
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-leftover-refused location=\"" + linkedStaging + "\""))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("event=plugin-leftover-kept plugin=zeta location=\"" + linkedInstall + "\""));
    }

    @Test
    void aLeftoverThatCannotBeDeleted_isLogged_andTheStartGoesOn() throws Exception {
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        Path stuck = replaced("echo", "1.0.0", EARLIER);
        Path readOnly = Files.createDirectory(stuck.resolve("read-only"));
        Files.writeString(readOnly.resolve("file"), "cannot be deleted");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-x------"));
        Path zetaLeftover = replaced("zeta", "1.0.0", EARLIER);
        // Root deletes from a read-only directory all the same; there the same refusal the kernel gives
        // everyone else is given by the deletion itself, so the test checks the same behaviour either way
        boolean permissionsBite = !Files.isWritable(readOnly);
        InterruptedInstalls.TreeDeletion deletion = root -> {
            if (!permissionsBite && root.equals(stuck)) {
                throw new AccessDeniedException(readOnly.resolve("file").toString());
            }
            FilesystemStagedBundle.deleteTreeOrThrow(root);
        };
        try {
            new InterruptedInstalls(plugins, new PluginDirectoryCheck(new ManifestSchema()), TrustRootKeys.load(Optional.of(trustRoot)),
                    ManifestTrust.UNSIGNED, deletion)
                    .recover();

            assertThat(stuck).exists();
            assertThat(installedVersion("echo")).isEqualTo("2.0.0");
            assertThat(installedVersion("zeta")).as("the next leftover is still settled").isEqualTo("1.0.0");
            assertThat(logged(Level.WARN)).anySatisfy(line -> assertThat(line)
                    .startsWith("event=plugin-leftover-delete-failed location=\"" + stuck
                            + "\" reason=\"an earlier install of 'echo', replaced"
                            + " by the one in place: java.nio.file.AccessDeniedException: " + readOnly.resolve("file"))
                    .endsWith("effect=\"it stays hidden from scans; remove it by hand\""));
            assertThat(entries()).containsExactlyInAnyOrder("echo", "zeta", stuck.getFileName().toString());
            assertThat(zetaLeftover).doesNotExist();
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aMissingPluginsDirectory_hasNothingToSettle() throws Exception {
        new FilesystemPluginStore(tmp.resolve("absent"), Optional.of(trustRoot)).recoverInterruptedInstalls();

        assertThat(tmp.resolve("absent")).doesNotExist();
        assertThat(log.events()).isEmpty();
    }
}
