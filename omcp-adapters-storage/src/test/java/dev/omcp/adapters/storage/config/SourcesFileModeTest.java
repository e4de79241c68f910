package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SourcesFileModeTest {
    @Test
    void aNewFileIsOwnerOnly_withOrWithoutSecrets() {
        assertThat(SourcesFileMode.decide(Optional.empty(), false).permissions()).contains(SourcesFileMode.OWNER_ONLY);
        assertThat(SourcesFileMode.decide(Optional.empty(), true).narrowedFrom()).isEmpty();
    }

    @Test
    void anExistingModeIsKept_untilASecretIsWrittenOut_thenGroupAndOthersLoseAccess() {
        var groupReadable = PosixFilePermissions.fromString("rw-r-----");
        assertThat(SourcesFileMode.decide(Optional.of(groupReadable), false).permissions()).contains(groupReadable);
        SourcesFileMode narrowed = SourcesFileMode.decide(Optional.of(groupReadable), true);
        assertThat(narrowed.permissions()).contains(SourcesFileMode.OWNER_ONLY);
        assertThat(narrowed.narrowedFrom()).contains(groupReadable);

        var ownerReadOnly = PosixFilePermissions.fromString("r--------");
        assertThat(SourcesFileMode.decide(Optional.of(ownerReadOnly), true).permissions()).as("already private: kept").contains(ownerReadOnly);
        assertThat(SourcesFileMode.decide(Optional.of(PosixFilePermissions.fromString("rw----r--")), true).narrowedFrom()).isPresent();
    }

    @Test
    void withoutPosixPermissionsNothingIsSet() {
        assertThat(SourcesFileMode.withoutPermissions().permissions()).isEmpty();
        assertThat(SourcesFileMode.withoutPermissions().narrowedFrom()).isEmpty();
    }
}
