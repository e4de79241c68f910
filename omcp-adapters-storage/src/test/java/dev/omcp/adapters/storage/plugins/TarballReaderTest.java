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
    void aPaxSizeRecord_overridesTheHeadersSize_asTarReadsIt() throws Exception {
        // the header says 0 bytes; a reader that trusted it would take "abc" for the next header
        List<TarballReader.Entry> entries = read(new TarWriter().file("package.json", "{}")
                .pax("size", "3").fileWithHeaderSize("a.txt", "abc", 0).file("b.txt", "b"));
        assertThat(entries).extracting(TarballReader.Entry::path).containsExactly("package.json", "a.txt", "b.txt");
        assertThat(new String(entries.get(1).content(), StandardCharsets.UTF_8)).isEqualTo("abc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "3 ", "0x10", "99999999999999999999", "\u0663"})
    void aPaxSizeRecordThatIsNoByteCount_isRefusedAsCorrupt(String size) {
        assertThatThrownBy(() -> read(new TarWriter().pax("size", size).file("a.txt", "abc")))
                .isInstanceOf(BundleRejectedException.class)
                .hasMessage("the bundle is corrupt: a pax size record is not a byte count");
    }

    @Test
    void aPaxSizeOverTheEntryLimit_isRefusedByTheLimit() {
        TarballReader.Bounds small = new TarballReader.Bounds(1 << 20, 10, 1 << 20, 10, 100, 1 << 20);
        assertThatThrownBy(() -> TarballReader.read(new TarWriter().pax("size", "11").fileWithHeaderSize("a.txt", "x".repeat(11), 1).tgz(), small))
                .hasMessageContaining("entry 'a.txt' is larger than 10 bytes");
    }

    @Test
    void aGlobalPaxHeaderSettingPathOrSize_isRefused_butItsCommentIsNot() throws Exception {
        assertThatThrownBy(() -> read(new TarWriter().globalPax("path", "evil").file("package.json", "{}")))
                .hasMessageContaining("global pax header that sets a path or size");
        assertThatThrownBy(() -> read(new TarWriter().globalPax("size", "0").file("package.json", "{}")))
                .hasMessageContaining("global pax header that sets a path or size");
        // git archive writes one with the commit id
        assertThat(read(new TarWriter().globalPax("comment", "77bdae3").file("package.json", "{}")))
                .extracting(TarballReader.Entry::path).containsExactly("package.json");
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
    void anEntryOverTheLimit_isRefusedFromItsHeader_namingTheLimitAndWhatToDo() {
        byte[] big = new byte[(int) PluginLimits.MAX_BUNDLE_ENTRY_BYTES + 1];
        assertThatThrownBy(() -> read(new TarWriter().file("big.bin", big)))
                .hasMessage("entry 'big.bin' is larger than 50 MiB, the limit for one file of a bundle; shrink the plugin JAR (leave out"
                        + " what the gateway provides: the SDK, jakarta.json, SLF4J)");
    }

    @Test
    void aGzipBomb_stopsAtTheCompressionRatio_longBeforeTheTotal() {
        byte[] zeros = new byte[40 * 1024 * 1024];
        assertThatThrownBy(() -> read(new TarWriter().file("a", zeros))).isInstanceOf(BundleRejectedException.class)
                .hasMessage("the bundle inflates to more than 32 times its compressed size, the limit once it passes 8 MiB; that is a"
                        + " compression bomb, not a plugin (whose JAR hardly compresses): pack the plugin's own files");
    }

    @Test
    void smallBundlesOfText_mayCompressWell_belowTheRatioFloor() throws Exception {
        byte[] text = "{\"key\": \"value\"}\n".repeat(100_000).getBytes(StandardCharsets.UTF_8);
        assertThat(read(new TarWriter().file("package.json", "{}").file("notes.json", text))).hasSize(2);
    }

    @Test
    void theTotalAndTheEntryCount_areBounded() {
        // small bounds stand for the real ones, which need tens of MiB of incompressible bytes
        TarballReader.Bounds small = new TarballReader.Bounds(1 << 20, 4096, 8192, 3, 1000, 1 << 20);
        byte[] kib = new byte[3000];
        assertThatThrownBy(() -> TarballReader.read(new TarWriter().file("a", kib).file("b", kib).file("c", kib).tgz(), small))
                .hasMessageStartingWith("the bundle inflates to more than 8192 bytes, the limit for all its files together;");
        assertThatThrownBy(() -> TarballReader.read(new TarWriter().file("a", "1").file("b", "2").file("c", "3").file("d", "4").tgz(), small))
                .hasMessageStartingWith("the bundle has more than 3 entries, the limit;");
    }

    @Test
    void theDefaultBounds_areTighterThanTheHeap() {
        // the launcher's heap is 256 MiB; the upload and its inflated files are held at once
        assertThat(PluginLimits.MAX_BUNDLE_TOTAL_BYTES).isEqualTo(64L << 20);
        assertThat(PluginLimits.MAX_BUNDLE_ENTRY_BYTES).isEqualTo(50L << 20);
        assertThat(PluginLimits.MAX_BUNDLE_ENTRIES).isEqualTo(1024);
        assertThat(PluginLimits.MAX_JAR_INFLATED_BYTES).isEqualTo(64L << 20);
    }

    @Test
    void namesDifferingOnlyInCaseOrNormalization_areRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").file("Connector.jar", "a").file("connector.JAR", "b")))
                .hasMessage("entries 'Connector.jar' and 'connector.JAR' differ only in letter case or Unicode normalization; on a"
                        + " case-insensitive file system one would overwrite the other: rename one and pack again");
        // "e" with a combining acute accent, and the precomposed "é"
        assertThatThrownBy(() -> read(new TarWriter().file("caf\u0065\u0301.txt", "a").file("caf\u00e9.txt", "b")))
                .hasMessageContaining("differ only in letter case or Unicode normalization");
    }

    @Test
    void aFileThatIsAlsoADirectorysParent_isRefused() {
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").file("lib", "x").file("lib/a.jar", "y")))
                .hasMessage("entry 'lib/a.jar' lies under 'lib', which the bundle also holds as a file; rename one and pack again");
    }

    @Test
    void aBundleOverTheUploadLimit_isRefusedBeforeInflating() {
        assertThatThrownBy(() -> TarballReader.read(new byte[PluginLimits.MAX_BUNDLE_BYTES + 1])).hasMessage("the bundle is larger than 50 MiB, the upload limit");
    }

    @Test
    void aBundleOfExactlyTheUploadLimit_isRead_notRefusedForItsSize() {
        assertThatThrownBy(() -> TarballReader.read(new byte[PluginLimits.MAX_BUNDLE_BYTES]))
                .hasMessageStartingWith("the bundle is not a gzip-compressed tar archive (.tgz)");
    }

    @Test
    void aNulInAUstarHeaderName_endsTheName_asTarDefinesIt() throws Exception {
        assertThat(read(new TarWriter().file("package.json", "{}").file("notes.txt\0/../../evil", "x")))
                .extracting(TarballReader.Entry::path).containsExactly("package.json", "notes.txt");
    }

    @Test
    void namesThatFileSystemsCannotHoldOrThatForgeLogLines_areRefusedWithTheNameMadeSafe() {
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").file("a\r\nevent=forged", "x")))
                .hasMessageStartingWith("entry 'a??event=forged' has a control, format or line-separator character (shown as ?) in its name;");
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").paxPath("n".repeat(256)).file("x", "x")))
                .hasMessageContaining("has a file or directory name longer than 255 bytes, more than file systems allow");
        assertThat(TarballReader.shown("z".repeat(500))).hasSize(203).endsWith("...");
    }

    @Test
    void aPathUpTo32NamesDeep_isRead_oneDeeperIsRefused() throws Exception {
        assertThat(read(new TarWriter().file("package.json", "{}").file("d/".repeat(31) + "f", "x"))).hasSize(2);
        assertThatThrownBy(() -> read(new TarWriter().file("package.json", "{}").file("d/".repeat(32) + "f", "x")))
                .hasMessage("entry '" + "d/".repeat(32) + "f' lies 33 names deep, more than 32, the limit; a plugin bundle holds a few files at its"
                        + " top: pack only those");
    }
}
