package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.RegisteredClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
    void aFileThatIsNotARegistrationsFileIsRefused() throws Exception {
        Path file = dir.resolve("dcr.json");
        Files.writeString(file, "[1, 2]");
        assertThatThrownBy(() -> JsonClientRegistrationFile.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("not a client registrations file");
    }
}
