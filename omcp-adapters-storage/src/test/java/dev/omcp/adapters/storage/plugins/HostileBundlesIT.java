package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.StagedBundle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile bundles against the real plugins directory (DECISIONS.md, Plugins: "a bundle that escapes
 * its root is refused with 400 and nothing is written"). Every archive is built here, byte by byte;
 * each one carries a whole, validly signed plugin beside its hostile entry, so the only reason to
 * refuse it is that entry. A refusal leaves the plugins directory exactly as it was (the installed
 * plugin's files, byte for byte) and nothing anywhere else.
 */
class HostileBundlesIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        Path trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        PluginFixture.named("echo").version("1.0.0").signedBy(KEY).writeInto(plugins);
        store = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true);
    }

    /** A signed echo 2.0.0, then whatever {@code hostile} adds. */
    private static byte[] bundle(Consumer<TarWriter> hostile) {
        TarWriter tar = new TarWriter();
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).files().forEach(tar::file);
        hostile.accept(tar);
        return tar.tgz();
    }

    /** Every path under the test's directory with a digest of its content: what "nothing written" compares. */
    private Map<String, String> everything() throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(tmp)) {
            for (Path path : walk.toList()) {
                all.put(tmp.relativize(path).toString(), Files.isRegularFile(path) ? PluginFiles.hex(PluginFiles.sha256(Files.readAllBytes(path))) : "dir");
            }
        }
        return all;
    }

    private void assertRefusedAndNothingWritten(byte[] tgz, String reason) throws IOException {
        Map<String, String> before = everything();
        assertThatThrownBy(() -> store.stage(tgz)).isInstanceOf(BundleRejectedException.class).hasMessageContaining(reason);
        assertThat(everything()).as("nothing written, nothing left behind").isEqualTo(before);
        assertThat(store.scan(List.of()).candidates()).singleElement()
                .satisfies(c -> assertThat(c.manifest().orElseThrow().version()).as("the installed plugin is untouched").isEqualTo("1.0.0"));
    }

    static Stream<Arguments> hostileEntries() {
        byte[] x = "x".getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                // path traversal
                Arguments.of("dot-dot", (Consumer<TarWriter>) t -> t.file("../evil", x), "'..' segment"),
                Arguments.of("dot-slash-dot-dot", (Consumer<TarWriter>) t -> t.file("./../evil", x), "'..' segment"),
                Arguments.of("dot-dot inside", (Consumer<TarWriter>) t -> t.file("lib/./../../evil", x), "'..' segment"),
                Arguments.of("absolute", (Consumer<TarWriter>) t -> t.file("/tmp/evil", x), "absolute path"),
                Arguments.of("backslash", (Consumer<TarWriter>) t -> t.file("..\\evil", x), "Windows path"),
                Arguments.of("drive letter", (Consumer<TarWriter>) t -> t.file("C:\\evil", x), "Windows path"),
                Arguments.of("pax path escaping", (Consumer<TarWriter>) t -> t.paxPath("../../evil").file("harmless", x), "'..' segment"),
                // NUL and other characters that hide or forge what a name shows
                Arguments.of("NUL in a pax path", (Consumer<TarWriter>) t -> t.paxPath("ok\0/../../evil").file("harmless", x),
                        "entry 'ok?/../../evil' has a control, format or line-separator character"),
                Arguments.of("NUL in a GNU long name", (Consumer<TarWriter>) t -> t.gnuLongName("ok\0../../evil").file("harmless", x),
                        "has a control, format or line-separator character"),
                Arguments.of("newline forging a log line", (Consumer<TarWriter>) t -> t.file("a\nevent=plugin-installed plugin=evil", x),
                        "entry 'a?event=plugin-installed plugin=evil' has a control"),
                Arguments.of("right-to-left override", (Consumer<TarWriter>) t -> t.file("notes\u202Eraj.txt", x), "has a control, format"),
                Arguments.of("name not UTF-8", (Consumer<TarWriter>) t -> t.fileWithRawName(new byte[] {'a', (byte) 0xff, 'b'}, x),
                        "entry 'a?b' has a control, format"),
                // links, devices, FIFOs
                Arguments.of("symlink out", (Consumer<TarWriter>) t -> t.symlink("lib", "/etc"), "is a symbolic link"),
                Arguments.of("symlink inside", (Consumer<TarWriter>) t -> t.symlink("copy.json", "manifest.json"), "is a symbolic link"),
                Arguments.of("hard link out", (Consumer<TarWriter>) t -> t.hardlink("passwd", "/etc/passwd"), "is a hard link"),
                Arguments.of("hard link inside", (Consumer<TarWriter>) t -> t.hardlink("copy.jar", "echo-connector.jar"), "is a hard link"),
                Arguments.of("pax linkpath", (Consumer<TarWriter>) t -> t.pax("linkpath", "/etc/passwd").file("harmless", x), "pax linkpath"),
                Arguments.of("character device", (Consumer<TarWriter>) t -> t.device("tty"), "is a device"),
                Arguments.of("block device", (Consumer<TarWriter>) t -> t.entry("sda", '4', new byte[0], ""), "is a device"),
                Arguments.of("FIFO", (Consumer<TarWriter>) t -> t.fifo("pipe"), "is a FIFO"),
                Arguments.of("GNU sparse file", (Consumer<TarWriter>) t -> t.entry("sparse", 'S', new byte[0], ""), "unsupported tar type 'S'"),
                // a second copy overriding what was verified
                Arguments.of("manifest twice", (Consumer<TarWriter>) t -> t.file("manifest.json", "{\"name\":\"evil\"}"), "entry 'manifest.json' appears twice"),
                Arguments.of("JAR twice via ./", (Consumer<TarWriter>) t -> t.file("./echo-connector.jar", x), "appears twice"),
                Arguments.of("JAR twice via a NUL-cut ustar name", (Consumer<TarWriter>) t -> t.file("echo-connector.jar\0/../../evil", x),
                        "entry 'echo-connector.jar' appears twice"),
                Arguments.of("manifest in another case", (Consumer<TarWriter>) t -> t.file("Manifest.json", x), "differ only in letter case"),
                Arguments.of("file used as a directory", (Consumer<TarWriter>) t -> t.file("manifest.json/x", x), "also holds as a file"),
                // sizes and shapes
                Arguments.of("deeply nested", (Consumer<TarWriter>) t -> t.file("a/".repeat(40) + "f", x), "lies 41 names deep, more than 32"),
                Arguments.of("pax path over 1024 characters", (Consumer<TarWriter>) t -> t.paxPath("d/".repeat(600) + "f").file("harmless", x),
                        "has a name longer than 1024 characters"),
                Arguments.of("one name over 255 bytes", (Consumer<TarWriter>) t -> t.paxPath("docs/" + "n".repeat(300)).file("harmless", x),
                        "has a file or directory name longer than 255 bytes"),
                Arguments.of("GNU long name over 1024 bytes", (Consumer<TarWriter>) t -> t.gnuLongName("g".repeat(2000)).file("harmless", x),
                        "a GNU long name larger than 1024 bytes"),
                Arguments.of("pax header over 64 KiB", (Consumer<TarWriter>) t -> t.pax("comment", "c".repeat(70_000)).file("harmless", x),
                        "a pax header larger than 65536 bytes"),
                Arguments.of("gzip bomb", (Consumer<TarWriter>) t -> t.file("bomb", new byte[40 << 20]), "times its compressed size"),
                Arguments.of("one entry over 50 MiB", (Consumer<TarWriter>) t -> t.file("big", new byte[(50 << 20) + 1]), "larger than 50 MiB"),
                Arguments.of("many tiny entries", (Consumer<TarWriter>) t -> {
                    for (int i = 0; i < 1024; i++) {
                        t.file("tiny-" + i, new byte[0]);
                    }
                }, "more than 1024 entries"),
                Arguments.of("corrupt header", (Consumer<TarWriter>) t -> t.corruptHeader("late"), "wrong checksum"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileEntries")
    void aHostileEntry_refusesTheWholeBundle_withTheReason_andWritesNothing(String what, Consumer<TarWriter> hostile, String reason)
            throws IOException {
        assertRefusedAndNothingWritten(bundle(hostile), reason);
    }

    @Test
    void aRefusalQuotesAHostileNameOnOneShortLine() {
        byte[] tgz = bundle(t -> t.paxPath("x\n".repeat(400)).symlink("harmless", "/etc"));
        assertThatThrownBy(() -> store.stage(tgz)).isInstanceOf(BundleRejectedException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").hasSizeLessThan(300).contains("x?x?x?", "..."));
    }

    @Test
    void theDirectoryNameOfTheArchive_isNeverTheInstalledName_theSignedManifestsIs() throws Exception {
        TarWriter tar = new TarWriter().directory("tempo");
        PluginFixture.named("echo").version("2.0.0").signedBy(KEY).files().forEach((path, bytes) -> tar.file("tempo/" + path, bytes));
        try (StagedBundle staged = store.stage(tar.tgz())) {
            assertThat(staged.candidate().fullyVerified()).as(staged.candidate().problems().toString()).isTrue();
            assertThat(staged.candidate().name()).isEqualTo("echo");
            staged.commit();
        }
        assertThat(plugins.resolve("tempo")).doesNotExist();
        assertThat(store.installed("echo").orElseThrow().manifest().orElseThrow().version()).isEqualTo("2.0.0");
    }

    @Test
    void aPackageMarkerNamingAnotherConnectorThanTheSignedManifest_failsItsCheck_andNothingRemains() throws Exception {
        Map<String, byte[]> files = PluginFixture.named("echo").version("2.0.0").signedBy(KEY).files();
        String pkg = new String(files.get("package.json"), StandardCharsets.UTF_8).replace("\"name\":\"echo\"", "\"name\":\"tempo\"");
        files.put("package.json", pkg.getBytes(StandardCharsets.UTF_8));
        TarWriter tar = new TarWriter();
        files.forEach(tar::file);
        Map<String, String> before = everything();
        try (StagedBundle staged = store.stage(tar.tgz())) {
            assertThat(staged.candidate().fullyVerified()).isFalse();
            assertThat(staged.candidate().manifestCheck().summary()).contains("/name 'echo' differs from the package marker name 'tempo'");
        }
        assertThat(everything()).isEqualTo(before);
    }

    @Test
    void anEntryJarSwappedAfterTheBundleWasChecked_isNotLoaded() throws Exception {
        byte[] other = PluginFixture.named("other").files().get("other-connector.jar");
        PluginCandidate candidate;
        try (StagedBundle staged = store.stage(bundle(t -> { }))) {
            candidate = staged.candidate();
            assertThat(candidate.fullyVerified()).isTrue();
            Path staging;
            try (Stream<Path> list = Files.list(plugins)) {
                staging = list.filter(p -> p.getFileName().toString().startsWith(".staging-")).findFirst().orElseThrow();
            }
            // between the check and the commit: the bytes the candidate was checked from are no longer on disk
            Files.write(staging.resolve("echo-connector.jar"), other);
            staged.commit();
        }
        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class)
                .hasMessageContaining("changed since they were checked");
    }

    @Test
    void concurrentInstallsOfOnePluginName_takeTurns_andLeaveOneWholeInstall() throws Exception {
        int installers = 6;
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < installers; i++) {
            String version = "2.0." + i;
            byte[] tgz = PluginFixture.named("echo").version(version).signedBy(KEY).bundle("package");
            tasks.add(() -> {
                start.await();
                try (PluginStore.ChangeLock held = store.lockForChange(); StagedBundle staged = store.stage(tgz)) {
                    staged.commit();
                    return version;
                } catch (PluginDirectoryBusyException e) {
                    return "busy";
                }
            });
        }
        List<String> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(installers)) {
            List<Future<String>> futures = tasks.stream().map(pool::submit).toList();
            start.countDown();
            for (Future<String> future : futures) {
                outcomes.add(future.get());
            }
        }
        List<String> installed = outcomes.stream().filter(o -> !o.equals("busy")).toList();
        assertThat(installed).as("at least one went through; the others were refused as busy or came after it").isNotEmpty();
        String live = store.installed("echo").orElseThrow().manifest().orElseThrow().version();
        assertThat(installed).contains(live);
        try (Stream<Path> list = Files.list(plugins)) {
            assertThat(list.map(p -> p.getFileName().toString()))
                    .as("one install, no staging or replaced leftovers").containsExactlyInAnyOrder("echo", PluginDirectoryLock.FILE_NAME);
        }
        assertThat(store.scan(List.of()).candidates()).singleElement().satisfies(c -> assertThat(c.fullyVerified()).isTrue());
    }
}
