package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
}
