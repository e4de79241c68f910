package dev.omcp.adapters.storage.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.omcp.ports.inspect.ProfileStore.ProfileStoreException;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code OMCP_INSPECT_PROFILE_FILE} (design "Profile file"): YAML or JSON by name, strict reads, atomic 0600 saves. */
class ProfileFileIT {
    private static final List<Rule> RULES = List.of(ProfileFormatTest.ACCEPTED, ProfileFormatTest.AWKWARD, ProfileFormatTest.SUGGESTED);
    @TempDir
    Path dir;

    @Test
    void aMissingFile_isAnEmptyProfile_andTheFirstSaveCreatesItWithMode0600_inBothFormats() throws Exception {
        for (String name : List.of("profile.yaml", "profile.yml", "profile.json", "PROFILE.JSON")) {
            Path file = dir.resolve(name);
            ProfileFile store = ProfileFile.open(file);
            assertThat(store.load()).as(name).isEmpty();
            assertThat(store.storage()).isEqualTo("file");

            store.save(RULES);

            assertThat(ProfileFile.open(file).load()).as(name).containsExactlyElementsOf(RULES);
            assertThat(mode(file)).isEqualTo("rw-------");
            assertThat(temps()).as("no temp file left").isEmpty();
        }
        assertThat(Files.readString(dir.resolve("profile.json"))).startsWith("{");
        assertThat(Files.readString(dir.resolve("profile.yaml"))).startsWith("# Inspect profile");
    }

    @Test
    void aSave_replacesTheWholeFile_andNarrowsItsModeTo0600() throws Exception {
        Path file = dir.resolve("profile.yaml");
        Files.writeString(file, "rules: []\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        ProfileFile store = ProfileFile.open(file);

        store.save(RULES);
        store.save(List.of(ProfileFormatTest.SUGGESTED));

        assertThat(store.load()).containsExactly(ProfileFormatTest.SUGGESTED);
        assertThat(mode(file)).isEqualTo("rw-------");
    }

    @Test
    void aNameWithoutAKnownExtension_isRefusedNamingTheAcceptedOnes() {
        for (String name : List.of("profile.txt", "profile", "profile.yaml.bak")) {
            assertThatThrownBy(() -> ProfileFile.open(dir.resolve(name))).isInstanceOf(ProfileStoreException.class)
                    .hasMessageContaining("OMCP_INSPECT_PROFILE_FILE " + dir.resolve(name))
                    .hasMessageContaining("the name must end in .yaml, .yml or .json");
        }
    }

    @Test
    void aFileInADirectoryThatDoesNotExist_isRefusedWhenOpened() {
        Path missing = dir.resolve("no-such-dir");

        assertThatThrownBy(() -> ProfileFile.open(missing.resolve("profile.yaml"))).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining("its directory " + missing + " does not exist; create it");
    }

    @Test
    void anInvalidFile_isRefusedNamingTheFileAndTheLine() throws Exception {
        Path file = dir.resolve("profile.yaml");
        Files.writeString(file, "version: 1\nrules:\n  - id: r-1\n    colour: red\n");

        assertThatThrownBy(() -> ProfileFile.open(file).load()).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining(file + " line 4, column 5: rules[0] (rule 'r-1'): unknown field 'colour'");
    }

    @Test
    void aFileLargerThanFourMebibytes_isRefused() throws Exception {
        Path file = dir.resolve("profile.json");
        Files.writeString(file, "{\"rules\": []}" + " ".repeat(ProfileFile.MAX_BYTES));

        assertThatThrownBy(() -> ProfileFile.open(file).load()).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining(file + " is " + (ProfileFile.MAX_BYTES + 13) + " bytes, more than the 4 MiB the gateway reads");
    }

    @Test
    void aDirectoryInPlaceOfTheFile_isRefusedOnLoad() throws Exception {
        Path file = Files.createDirectory(dir.resolve("profile.yaml"));

        assertThatThrownBy(() -> ProfileFile.open(file).load()).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining(file + " is a directory");
    }

    @Test
    void rulesThatWouldNotReadBack_areNotWritten_andTheOldProfileStays() throws Exception {
        Path file = dir.resolve("profile.yaml");
        ProfileFile store = ProfileFile.open(file);
        store.save(RULES);
        String before = Files.readString(file);

        assertThatThrownBy(() -> store.save(List.of(ProfileFormatTest.ACCEPTED, ProfileFormatTest.ACCEPTED)))
                .isInstanceOf(ProfileStoreException.class).hasMessageContaining("rules 0 and 1 both have the id 'r-0a1b2c3d4e5f'")
                .hasMessageContaining("the profile there is unchanged");
        assertThatThrownBy(() -> store.save(ProfileFormatTest.manyRules(ProfileShape.MAX_RULES + 1)))
                .isInstanceOf(ProfileStoreException.class).hasMessageContaining("10001 rules are more than the 10000 a profile may hold");

        assertThat(Files.readString(file)).isEqualTo(before);
        assertThat(temps()).isEmpty();
    }

    @Test
    void aProfileLargerThanTheFileMayBe_isNotWritten() throws Exception {
        Path file = dir.resolve("profile.json");
        ProfileFile store = ProfileFile.open(file);
        store.save(RULES);
        String before = Files.readString(file);

        List<Rule> large = new ArrayList<>();
        List<String> services = IntStream.range(0, 30).mapToObj(i -> "service-" + i + "-" + "s".repeat(140)).toList();
        for (int i = 0; i < 1_000; i++) { // 30 values of 150 characters in each of 1,000 rules: 4.5 MB and more
            large.add(new Rule("r-" + i, "key:ci-bot", "query_logs", Map.of("service", services), Map.of(),
                    ProfileFormatTest.SUGGESTED.provenance(), RuleStatus.SUGGESTED));
        }
        assertThatThrownBy(() -> store.save(large))
                .isInstanceOf(ProfileStoreException.class).hasMessageContaining("more than the 4 MiB the gateway reads back");
        assertThat(Files.readString(file)).isEqualTo(before);
    }

    @Test
    void aSaveThatFailsBeforeItsRename_leavesTheOldProfileReadable_andNoTempFile() throws Exception {
        // a name the file system takes, whose temp file's longer name it does not: the temp file cannot be created
        Path file = dir.resolve("p".repeat(245) + ".yaml");
        ProfileFile store = ProfileFile.open(file);
        Files.writeString(file, ProfileFormat.YAML.write(List.of(ProfileFormatTest.SUGGESTED)));

        assertThatThrownBy(() -> store.save(RULES)).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining("OMCP_INSPECT_PROFILE_FILE " + file + " could not be written: File name too long")
                .hasMessageEndingWith("the profile there is unchanged");

        assertThat(store.load()).containsExactly(ProfileFormatTest.SUGGESTED);
        assertThat(temps()).isEmpty();
    }

    @Test
    void aSaveWhoseRenameFails_leavesWhatWasThere_andNoTempFile() throws Exception {
        Path file = dir.resolve("profile.yaml");
        ProfileFile store = ProfileFile.open(file);
        store.save(RULES);
        // the file replaced by a directory with something in it: the temp file is written, the rename over it fails
        Files.delete(file);
        Files.writeString(Files.createDirectory(file).resolve("kept"), "kept");

        assertThatThrownBy(() -> store.save(RULES)).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining("OMCP_INSPECT_PROFILE_FILE " + file + " could not be written: ")
                .hasCauseInstanceOf(IOException.class);

        assertThat(Files.readString(file.resolve("kept"))).isEqualTo("kept");
        assertThat(temps()).isEmpty();
    }

    @Test
    void aLinkInPlaceOfTheFile_isReadButNeverReplaced() throws Exception {
        Path real = dir.resolve("real-profile.yaml");
        ProfileFile.open(real).save(List.of(ProfileFormatTest.SUGGESTED));
        String before = Files.readString(real);
        Path link = Files.createSymbolicLink(dir.resolve("profile.yaml"), real);
        ProfileFile store = ProfileFile.open(link);
        assertThat(store.load()).containsExactly(ProfileFormatTest.SUGGESTED);

        assertThatThrownBy(() -> store.save(RULES)).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining("could not be written: it is a symbolic link");

        assertThat(Files.readString(real)).isEqualTo(before);
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    @Test
    void aDirectoryTheGatewayMayNotWriteIn_failsTheSave_andKeepsTheFile() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("ro"));
        Path file = sub.resolve("profile.yaml");
        ProfileFile store = ProfileFile.open(file);
        store.save(List.of(ProfileFormatTest.SUGGESTED));
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("r-x------"));
        try {
            assumeFalse(Files.isWritable(sub), "running as root: permissions do not stop writes");

            assertThatThrownBy(() -> store.save(RULES)).isInstanceOf(ProfileStoreException.class)
                    .hasMessageContaining("permission denied; let the gateway's user create and rename files in " + sub);
            assertThat(store.load()).containsExactly(ProfileFormatTest.SUGGESTED);
        } finally {
            Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theDirectoryRemovedAfterOpening_failsTheSaveSayingSo() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("gone"));
        ProfileFile store = ProfileFile.open(sub.resolve("profile.json"));
        Files.delete(sub);

        assertThatThrownBy(() -> store.save(RULES)).isInstanceOf(ProfileStoreException.class)
                .hasMessageContaining("its directory " + sub + " does not exist");
    }

    private List<Path> temps() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(path -> path.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    private static String mode(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}
