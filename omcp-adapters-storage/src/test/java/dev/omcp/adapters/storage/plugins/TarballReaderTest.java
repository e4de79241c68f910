package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.plugins.BundleRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The in-memory tar reader: what it accepts and every unsafe entry it refuses (DECISIONS.md, Plugins). */
class TarballReaderTest {

    private static List<TarballReader.Entry> read(TarWriter tar) throws BundleRejectedException {
        return TarballReader.read(tar.tgz());
    }

    @Test
    void plainFilesAndDirectories_areRead() throws Exception {
        List<TarballReader.Entry> entries = read(new TarWriter().file("package.json", "{}").directory("lib").file("lib/a.jar", "jar"));
        assertThat(entries).extracting(TarballReader.Entry::path).containsExactly("package.json", "lib", "lib/a.jar");
        assertThat(new String(entries.get(2).content(), StandardCharsets.UTF_8)).isEqualTo("jar");
    }

    @Test
    void npmsPackageDirectory_isStripped() throws Exception {
        List<TarballReader.Entry> entries = read(new TarWriter().directory("package").file("package/package.json", "{}").file("package/x.jar", "j"));
        assertThat(entries).extracting(TarballReader.Entry::path).containsExactly("package.json", "x.jar");
    }

    @Test
    void paxPathsAndGnuLongNames_areHonoured() throws Exception {
        String longName = "deep/" + "d".repeat(120) + "/file.txt";
        List<TarballReader.Entry> entries = read(new TarWriter().file("package.json", "{}")
                .paxPath(longName).file("short1", "a")
                .gnuLongName(longName.replace("file", "other")).file("short2", "b"));
        assertThat(entries).extracting(TarballReader.Entry::path).containsExactly("package.json", longName, longName.replace("file", "other"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil", "a/../../evil", "lib/../../../etc/cron.d/x", ".."})
    void dotDotSegments_areRefused(String name) {
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").file(name, "x")))
                .isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("'..' segment");
    }

    @Test
    void anAbsolutePath_isRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("/etc/passwd", "x")))
                .hasMessageContaining("entry '/etc/passwd' has an absolute path");
    }

    @Test
    void windowsPaths_areRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("C:evil", "x"))).hasMessageContaining("Windows path");
        assertThatThrownBy(() -> read(new TarWriter().file("lib\\..\\evil", "x"))).hasMessageContaining("Windows path");
    }

    @Test
    void aPaxPathWithDotDot_isRefusedLikeAHeaderName() {
        assertThatThrownBy(() -> read(new TarWriter().paxPath("../../escape").file("harmless", "x"))).hasMessageContaining("'..' segment");
    }

    @Test
    void linksDevicesAndFifos_areRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").symlink("lib", "/etc")))
                .hasMessage("entry 'lib' is a symbolic link; bundles may hold only files and directories");
        assertThatThrownBy(() -> read(new TarWriter().hardlink("x.jar", "/etc/shadow"))).hasMessageContaining("is a hard link");
        assertThatThrownBy(() -> read(new TarWriter().device("tty"))).hasMessageContaining("is a device");
        assertThatThrownBy(() -> read(new TarWriter().fifo("pipe"))).hasMessageContaining("is a FIFO");
    }

    @Test
    void duplicatesCorruptHeadersAndNonGzip_areRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("a", "1").file("./a", "2"))).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> read(new TarWriter().corruptHeader("a"))).hasMessageContaining("wrong checksum");
        assertThatThrownBy(() -> TarballReader.read("plain text".getBytes(StandardCharsets.UTF_8))).hasMessageContaining("not a gzip-compressed tar");
        assertThatThrownBy(() -> read(new TarWriter())).hasMessageContaining("holds no files");
    }

    @Test
    void anEntryOverTheLimit_isRefused_andAGzipBombStopsAtTheTotal() {
        byte[] big = new byte[(int) PluginLimits.MAX_BUNDLE_ENTRY_BYTES + 1];
        assertThatThrownBy(() -> read(new TarWriter().file("big.bin", big))).hasMessageContaining("larger than 64 MiB");
        byte[] chunk = new byte[60 * 1024 * 1024];
        assertThatThrownBy(() -> read(new TarWriter().file("a", chunk).file("b", chunk).file("c", chunk)))
                .hasMessageContaining("inflates to more than 128 MiB");
    }

    @Test
    void aBundleOverTheUploadLimit_isRefusedBeforeInflating() {
        assertThatThrownBy(() -> TarballReader.read(new byte[PluginLimits.MAX_BUNDLE_BYTES + 1])).hasMessageContaining("larger than 50 MiB");
    }
}
