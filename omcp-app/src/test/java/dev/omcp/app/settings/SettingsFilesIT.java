package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedReader;
import java.io.RandomAccessFile;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog and IP dataset files as the launcher opens them: real files, and paths that are not files. */
class SettingsFilesIT {
    @TempDir
    Path dir;

    private static Path fifo(Path path) throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).as("mkfifo finished").isTrue();
        assertThat(mkfifo.exitValue()).as("mkfifo succeeded").isZero();
        return path;
    }

    @Test
    void aCatalogOrDatasetPathNamingAFifoOrADevice_isAProblemAtStart_notAStartThatNeverEnds() throws Exception {
        Path pipe = fifo(dir.resolve("catalog.json"));
        Path endless = Files.createSymbolicLink(dir.resolve("ip.csv"), Path.of("/dev/zero"));

        // before: opening the FIFO blocked the start for good
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> SettingsReader.read(Map.of(
                "OMCP_SERVICE_CATALOG_FILE", pipe.toString(), "OMCP_IP_ENRICH_FILE", endless.toString())))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_SERVICE_CATALOG_FILE " + pipe + " cannot be read: it is not a regular file")
                .hasMessageContaining("OMCP_IP_ENRICH_FILE " + endless + " cannot be read: it is not a regular file"));
    }

    @Test
    void aCatalogAndADatasetThatStartWithAByteOrderMark_areRead() throws Exception {
        Path catalog = dir.resolve("catalog.json");
        Files.write(catalog, ("\uFEFF{\"services\": {\"checkout\": {\"owner\": \"team-shop\"}}}").getBytes(StandardCharsets.UTF_8));
        Path dataset = dir.resolve("ip.csv");
        Files.write(dataset, ("\uFEFFnetwork,asn,org,country\r\n203.0.113.0/24,64500,Example,NL\r\n").getBytes(StandardCharsets.UTF_8));

        AnalysisSettings analysis = SettingsReader.read(Map.of("OMCP_SERVICE_CATALOG_FILE", catalog.toString(),
                "OMCP_IP_ENRICH_FILE", dataset.toString())).analysis();

        assertThat(analysis.catalog().catalogOrEmpty().entry("checkout").orElseThrow().getString("owner")).isEqualTo("team-shop");
        assertThat(analysis.ipDataset().orElseThrow().dataset().size()).isEqualTo(1);
    }

    private static Path sparse(Path path, long bytes) throws Exception {
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(bytes); // no disk used; reading it would take seconds, the size check takes none
        }
        return path;
    }

    @Test
    void aDatasetOrCatalogLargerThanItsBound_isAProblemAtStart_fromItsSizeAlone() throws Exception {
        Path dataset = sparse(dir.resolve("ip.csv"), AnalysisSettingsReader.MAX_IP_DATASET_BYTES + 1);
        Path catalog = sparse(dir.resolve("catalog.json"), AnalysisSettingsReader.MAX_CATALOG_BYTES + 1);

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> SettingsReader.read(Map.of(
                "OMCP_IP_ENRICH_FILE", dataset.toString(), "OMCP_SERVICE_CATALOG_FILE", catalog.toString())))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_IP_ENRICH_FILE " + dataset + " is " + (AnalysisSettingsReader.MAX_IP_DATASET_BYTES + 1)
                        + " bytes, more than the 256 MiB the gateway reads; keep the networks and columns")
                .hasMessageContaining("OMCP_SERVICE_CATALOG_FILE " + catalog + " is " + (AnalysisSettingsReader.MAX_CATALOG_BYTES + 1)
                        + " bytes, more than the 64 MiB the gateway reads; a catalog lists services"));
        assertThat(Files.size(dataset)).as("left as it was").isEqualTo(AnalysisSettingsReader.MAX_IP_DATASET_BYTES + 1);
    }

    @Test
    void aDatasetAtItsBound_isStillRead() throws Exception {
        Path dataset = dir.resolve("ip.csv");
        Files.writeString(dataset, "network,org\n203.0.113.0/24,Example\n");
        try (Reader reader = SettingsFiles.fileSystem().open(dataset, Files.size(dataset))) {
            assertThat(new BufferedReader(reader).lines()).containsExactly("network,org", "203.0.113.0/24,Example");
        }
        assertThatThrownBy(() -> SettingsFiles.fileSystem().open(dataset, Files.size(dataset) - 1))
                .isInstanceOf(SettingsFiles.TooLarge.class).hasMessageContaining("bytes, more than the");
    }
}
