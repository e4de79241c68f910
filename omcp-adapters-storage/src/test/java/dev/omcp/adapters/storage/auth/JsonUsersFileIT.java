package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.LocalUser;
import dev.omcp.adapters.storage.files.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 2.5 and 5.2 rules 1 and 2 on real files. */
class JsonUsersFileIT {
    static final String HASH = "scrypt$32768$8$1$AAECAwQFBgcICQoLDA0ODw==$xy6UCICz8Vv/P6JqOkkUD4DOmhxN0tXSe6sQAUBxupQOaQF8W4fxxT4tL3hHSEGLYZI6os9JTePK9k438hyW1g==";

    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private static String user(String username, String extra) {
        return "{\"username\": \"" + username + "\", \"passwordHash\": \"" + HASH + "\"" + extra + "}";
    }

    @Test
    void loadsUsersWithTheirRolesAndTenant() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", ", \"name\": \"Alice A.\", \"roles\": [\"admin\"], \"tenant\": \"acme\"")
                + ", " + user("bob", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file);
        LocalUser alice = users.find("alice").orElseThrow();
        assertThat(alice.name()).isEqualTo("Alice A.");
        assertThat(alice.roles()).containsExactly("admin");
        assertThat(alice.tenant()).isEqualTo("acme");
        assertThat(users.find("bob").orElseThrow().name()).isEqualTo("bob");
        assertThat(users.find("Alice")).as("usernames are exact").isEmpty();
        assertThat(users.count()).isEqualTo(2);
    }

    @Test
    void missingEmptyInvalidOrUserlessFilesAreRefusedAtStart_spec52Rule1() throws Exception {
        assertThatThrownBy(() -> JsonUsersFile.load(dir.resolve("absent.json"))).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("does not exist").hasMessageContaining("OMCP_AUTH_ALLOW_FALLBACK");
        assertThatThrownBy(() -> JsonUsersFile.load(write("empty.json", ""))).hasMessageContaining("is empty");
        assertThatThrownBy(() -> JsonUsersFile.load(write("bad.json", "{\"users\": [")))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> JsonUsersFile.load(write("none.json", "{\"users\": []}"))).hasMessageContaining("lists no users");
        assertThatThrownBy(() -> JsonUsersFile.load(write("shape.json", "[]"))).hasMessageContaining("\"users\" array");
        Path fifo = SpecialFiles.fifo(dir.resolve("fifo.json"));
        assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> JsonUsersFile.load(fifo))).isInstanceOf(UsersFileException.class).hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> JsonUsersFile.load(dir)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("not a regular file");
        Path unreadable = write("secret.json", "{\"users\": [" + user("a", "") + "]}");
        unreadable.toFile().setReadable(false);
        if (!Files.isReadable(unreadable)) {
            assertThatThrownBy(() -> JsonUsersFile.load(unreadable)).hasMessageContaining("cannot be read");
        }
    }

    @Test
    void everyInvalidEntryIsNamed_andHashesNeverAppearInMessages() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("a", "") + ", " + user("a", "") + ", {\"username\": \"b\"},"
                + " {\"username\": \"c\", \"passwordHash\": \"scrypt$99$8$1$AAAA$AAAA\"}, " + user("d", ", \"roles\": \"admin\"") + "]}");
        assertThatThrownBy(() -> JsonUsersFile.load(file)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("entry 2 (a) repeats a username")
                .hasMessageContaining("entry 3 (b) has no passwordHash")
                .hasMessageContaining("entry 4 (c)")
                .hasMessageContaining("entry 5 (d): roles must be an array")
                .hasMessageNotContaining("xy6UCICz8");
    }

    @Test
    void aChangedFileIsReReadOnTheNextLookup_spec52Rule2() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file);
        Files.writeString(file, "{\"users\": [" + user("alice", "") + ", " + user("carol", ", \"roles\": [\"viewer\"]") + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("carol")).isPresent();
    }

    @Test
    void aUsersFileSwappedForAFifo_keepsTheCachedUsers_andTheLookupDoesNotBlock() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file);
        Files.delete(file);
        SpecialFiles.fifo(file);
        assertThat(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> users.find("alice"))).isPresent();
    }

    @Test
    void aBrokenOrVanishedFileKeepsTheCachedUsers_spec52Rule2() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file);
        Files.writeString(file, "{\"users\": [ {\"username\": ");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("alice")).isPresent();
        Files.delete(file);
        assertThat(users.find("alice")).isPresent();
        Files.writeString(file, "{\"users\": [" + user("bob", "") + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        assertThat(users.find("alice")).isEmpty();
        assertThat(users.find("bob")).isPresent();
    }

    @Test
    void aValidFileWithoutUsersIsAppliedOnReload_nobodyCanLogIn() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file);
        Files.writeString(file, "{\"users\": []}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("alice")).isEmpty();
    }
}
