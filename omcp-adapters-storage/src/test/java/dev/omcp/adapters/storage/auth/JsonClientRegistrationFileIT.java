package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.RegisteredClient;
import dev.omcp.adapters.storage.files.SpecialFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonClientRegistrationFileIT {
    @TempDir
    Path dir;

    @Test
    void registrationsSurviveARestart_inA0600File_withoutPlaintextSecrets() throws Exception {
        Path file = dir.resolve("dcr.json");
        JsonClientRegistrationFile store = JsonClientRegistrationFile.open(file);
        store.save(new RegisteredClient("id-1", "ab".repeat(32), Instant.parse("2026-03-01T10:00:00Z"),
                new ClientMetadata(List.of("https://a.example/cb"), "Cursor", "client_secret_basic", List.of("authorization_code"),
                        List.of("code"), "")));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("\"client_id\" : \"id-1\"").contains("client_secret_sha256")
                .doesNotContain("\"client_secret\"");
        assertThat(JsonClientRegistrationFile.open(file).count()).isEqualTo(1);
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temp file is left").hasSize(1);
        }
    }

    @Test
    void replace_dropsRegistrationsAndStoresTheNewOne_inOneWrite_keepingTheFormatEarlierReleasesRead() throws Exception {
        // a file as earlier releases wrote it: spec 9 rule 4 keeps this format, so a rollback still reads it
        String old = """
                {"clients": [
                  {"client_id": "old-1", "client_secret_sha256": "", "client_id_issued_at": 1772359200,
                   "redirect_uris": ["https://a.example/cb"], "client_name": "A", "token_endpoint_auth_method": "none",
                   "grant_types": ["authorization_code"], "response_types": ["code"], "scope": ""},
                  {"client_id": "old-2", "client_secret_sha256": "%s", "client_id_issued_at": 1772362800,
                   "redirect_uris": ["https://b.example/cb"], "client_name": "B", "token_endpoint_auth_method": "client_secret_basic",
                   "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"], "scope": "openid"}
                ]}""".formatted("cd".repeat(32));
        Path file = dir.resolve("dcr.json");
        Files.writeString(file, old);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode kept = json.readTree(old).path("clients").get(1);

        JsonClientRegistrationFile store = JsonClientRegistrationFile.open(file);
        assertThat(store.registrations()).extracting(RegisteredClient::clientId).containsExactly("old-1", "old-2");
        store.replace(java.util.Set.of("old-1", "never-stored"), new RegisteredClient("new-1", "", Instant.parse("2026-03-02T10:00:00Z"),
                new ClientMetadata(List.of("https://c.example/cb"), "C", "none", List.of("authorization_code"), List.of("code"), "")));

        com.fasterxml.jackson.databind.JsonNode written = json.readTree(Files.readString(file)).path("clients");
        assertThat(written).hasSize(2);
        assertThat(written.get(0)).as("the kept registration is written as it was read").isEqualTo(kept);
        assertThat(written.get(1).path("client_id").asText()).isEqualTo("new-1");
        assertThat(memberNames(written.get(1))).isEqualTo(memberNames(kept));
        assertThat(store.registrations()).extracting(RegisteredClient::clientId).containsExactly("old-2", "new-1");
        assertThat(JsonClientRegistrationFile.open(file).registrations()).extracting(RegisteredClient::clientId)
                .containsExactly("old-2", "new-1");
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temp file is left").hasSize(1);
        }
    }

    /** The member names of an entry, in order: the same keys as earlier releases wrote. */
    private static List<String> memberNames(com.fasterxml.jackson.databind.JsonNode entry) {
        List<String> names = new java.util.ArrayList<>();
        entry.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aFileThatIsNotARegistrationsFileIsRefused() throws Exception {
        Path file = dir.resolve("dcr.json");
        Files.writeString(file, "[1, 2]");
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("not a client registrations file");
    }

    /** The file's bytes, mode and modification time: what "untouched" means. */
    private static String state(Path file) throws IOException {
        return java.util.Arrays.toString(Files.readAllBytes(file)) + " " + PosixFilePermissions.toString(Files.getPosixFilePermissions(file))
                + " " + Files.getLastModifiedTime(file);
    }

    @Test
    void aDirectoryOrAFifo_isRefusedNamingTheSetting_andLeftAsItWas() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("dcr.d"));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(directory)).isInstanceOf(IOException.class)
                .hasMessageContaining("OMCP_OIDC_DCR_STORE").hasMessageContaining("dcr.d").hasMessageContaining("is a directory");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).as("not narrowed").isEqualTo("rwxr-xr-x");

        Path fifo = SpecialFiles.fifo(dir.resolve("dcr.fifo"));
        Files.setPosixFilePermissions(fifo, PosixFilePermissions.fromString("rw-r--r--"));
        // opening a FIFO for reading would wait for a writer for good: the refusal must come at once
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> JsonClientRegistrationFile.open(fifo))
                .isInstanceOf(IOException.class).hasMessageContaining("OMCP_OIDC_DCR_STORE").hasMessageContaining("not a regular file"));
        assertThat(Files.isRegularFile(fifo)).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fifo))).isEqualTo("rw-r--r--");
    }

    @Test
    void aFileLargerThanTheCap_isRefusedBeforeItIsRead_andLeftAsItWas() throws Exception {
        Path file = dir.resolve("dcr.json");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(JsonClientRegistrationFile.MAX_FILE_BYTES + 1L); // sparse: no disk used, nothing to read
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        String before = PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) + Files.size(file) + Files.getLastModifiedTime(file);
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("OMCP_OIDC_DCR_STORE").hasMessageContaining("dcr.json")
                .hasMessageContaining("more than the 128 MiB the gateway reads").hasMessageContaining("nothing in it was changed");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) + Files.size(file) + Files.getLastModifiedTime(file))
                .isEqualTo(before);
    }

    @Test
    void aFileThatIsNotUtf8_isRefusedNamingWhere_andLeftAsItWas() throws Exception {
        Path file = dir.resolve("dcr.json");
        Files.write(file, "{\"clients\": [{\"client_id\": \"caf\u00e9\"}]}".getBytes(StandardCharsets.ISO_8859_1));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        String before = state(file);
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("OMCP_OIDC_DCR_STORE").hasMessageContaining("is not UTF-8 text: line 1, column 32")
                .hasMessageContaining("unset it");
        assertThat(state(file)).isEqualTo(before);
    }

    @Test
    void invalidJson_isRefusedWithItsLocationOnly_andLeftAsItWas() throws Exception {
        Path file = dir.resolve("dcr.json");
        Files.writeString(file, "{\"clients\": [\n  {\"client_id\": \"a\", oops-secret-ish}\n]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        String before = state(file);
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("OMCP_OIDC_DCR_STORE").hasMessageContaining("is not valid JSON (line 2, column")
                .hasMessageNotContaining("oops");
        assertThat(state(file)).isEqualTo(before);
    }

    @Test
    void aReadableFileWithAByteOrderMark_loads_andIsNarrowedTo0600() throws Exception {
        Path file = dir.resolve("dcr.json");
        JsonClientRegistrationFile.open(file).save(new RegisteredClient("id-1", "ab".repeat(32), Instant.parse("2026-03-01T10:00:00Z"),
                new ClientMetadata(List.of("https://a.example/cb"), "Cursor", "none", List.of("authorization_code"), List.of("code"), "")));
        Files.writeString(file, "\uFEFF" + Files.readString(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(JsonClientRegistrationFile.open(file).count()).isEqualTo(1);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }
}
