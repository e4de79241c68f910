package dev.omcp.adapters.storage.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.adapters.storage.files.SpecialFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OMCP_RBAC_POLICY_FILE on a real file system: a wrong path stops the start at once with the reason. */
class YamlPolicyFileIT {
    @TempDir
    Path dir;

    private List<String> problems(Path file) {
        InvalidPolicyFileException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> org.junit.jupiter.api.Assertions.assertThrows(InvalidPolicyFileException.class, () -> YamlPolicyFile.read(file)));
        return e.problems();
    }

    @Test
    void aFifoADeviceAndADirectory_areRefusedWithoutBlocking() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("policy.yaml"));
        assertThat(problems(fifo)).singleElement().asString().startsWith(fifo + " is not a regular file");
        Path zero = SpecialFiles.endless(dir.resolve("zero.yaml"));
        assertThat(problems(zero)).singleElement().asString().startsWith(zero + " is not a regular file");
        assertThat(problems(dir)).containsExactly(dir + " is a directory; name the file inside it");
        assertThat(problems(dir.resolve("nope.yaml"))).containsExactly(dir.resolve("nope.yaml") + " does not exist");
    }

    @Test
    void aRoleNameInAnotherEncoding_isRefusedNotTurnedIntoReplacementCharacters() throws Exception {
        Path file = Files.write(dir.resolve("policy.yaml"), "roles:\n  op\u00e9rateur: [sources:read]\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(problems(file)).singleElement().asString().contains("is not UTF-8 text: line 2, column 5");
    }

    @Test
    void aByteOrderMark_isAccepted_andADuplicateRoleIsRefusedWithItsLine() throws Exception {
        Path file = Files.write(dir.resolve("policy.yaml"), "\uFEFFroles:\r\n  auditor: [audit:read]\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(YamlPolicyFile.read(file).roles()).containsOnlyKeys("auditor");

        Files.writeString(file, "roles:\n  auditor: [audit:read]\n  auditor: [\"*\"]\n");
        assertThatThrownBy(() -> YamlPolicyFile.read(file)).isInstanceOfSatisfying(InvalidPolicyFileException.class,
                e -> assertThat(e.problems()).containsExactly(file + " is not valid YAML at line 3, column 3: found duplicate key auditor"
                        + " (while constructing a mapping)"));
    }
}
