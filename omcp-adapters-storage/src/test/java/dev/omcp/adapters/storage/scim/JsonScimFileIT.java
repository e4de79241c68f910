package dev.omcp.adapters.storage.scim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.sdk.json.Jsonp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 5.6: OMCP_SCIM_STORE created mode 0600, written atomically; a corrupt file is refused untouched. */
class JsonScimFileIT {
    @TempDir
    Path dir;

    @Test
    void createdWithMode0600_andASnapshotRoundTrips() throws IOException {
        Path file = dir.resolve("scim.json");
        JsonScimFile store = JsonScimFile.open(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(store.read().snapshot().users()).isEmpty();
        assertThat(store.read().revision()).isZero();
        var user = Jsonp.object().add("id", "u1").add("userName", "bjensen").add("meta", Jsonp.object().add("version", "W/\"1\"")).build();
        var group = Jsonp.object().add("id", "g1").add("displayName", "ops").add("meta", Jsonp.object()).build();
        assertThat(store.replace(0, new ScimSnapshot(List.of(user), List.of(group)))).isTrue();
        assertThat(store.read().revision()).isEqualTo(1);
        ScimSnapshot read = JsonScimFile.open(file).read().snapshot();
        assertThat(read.users()).containsExactly(user);
        assertThat(read.groups()).containsExactly(group);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        // atomic replacement leaves no temp file behind
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString()).toList()).containsExactly("scim.json");
        }
    }

    @Test
    void tombstonesOfDeletedUsers_roundTrip_andAFileWrittenBeforeThemStillLoads() throws IOException {
        Path file = dir.resolve("scim.json");
        Files.writeString(file, "{\"users\":[],\"groups\":[]}");
        JsonScimFile old = JsonScimFile.open(file);
        assertThat(old.read().snapshot().deleted()).isEmpty();
        old.replace(0, new ScimSnapshot(List.of(), List.of(), List.of("bjensen", "Olivia")));
        assertThat(Files.readString(file)).contains("\"deleted\":[\"bjensen\",\"Olivia\"]");
        assertThat(JsonScimFile.open(file).read().snapshot().deleted()).containsExactly("bjensen", "Olivia");
        Files.writeString(file, "{\"users\":[],\"groups\":[],\"deleted\":[1]}");
        assertThatThrownBy(() -> JsonScimFile.open(file)).isInstanceOf(IOException.class).hasMessageContaining("deleted");
    }

    @Test
    void aReplaceOfARevisionNoLongerStored_writesNothing_andSaysSo() throws IOException {
        Path file = dir.resolve("scim.json");
        JsonScimFile store = JsonScimFile.open(file);
        var first = Jsonp.object().add("id", "u1").add("userName", "first").add("meta", Jsonp.object()).build();
        var stale = Jsonp.object().add("id", "u2").add("userName", "stale").add("meta", Jsonp.object()).build();
        assertThat(store.replace(0, new ScimSnapshot(List.of(first), List.of()))).isTrue();
        String written = Files.readString(file);
        // a writer that read revision 0 lost the race: it must read again, never overwrite
        assertThat(store.replace(0, new ScimSnapshot(List.of(stale), List.of()))).isFalse();
        assertThat(Files.readString(file)).isEqualTo(written);
        assertThat(store.read().snapshot().users()).containsExactly(first);
    }

    @Test
    void anExistingFileWiderThan0600_isNarrowedOnceRead() throws IOException {
        Path file = dir.resolve("scim.json");
        Files.writeString(file, "{\"users\":[],\"groups\":[]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        JsonScimFile.open(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void corruptFile_isRefusedWithTheSettingNamed_andLeftUntouched() throws IOException {
        Path file = dir.resolve("scim.json");
        for (String corrupt : new String[] {"{\"users\": [", "[]", "{\"users\":[{\"userName\":\"x\"}],\"groups\":[]}"}) {
            Files.writeString(file, corrupt);
            assertThatThrownBy(() -> JsonScimFile.open(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining("OMCP_SCIM_STORE").hasMessageContaining("nothing in it was changed");
            assertThat(Files.readString(file)).isEqualTo(corrupt);
        }
    }

    @Test
    void aSymbolicLinkInPlaceOfTheFile_isRefused() throws IOException {
        Path target = Files.writeString(dir.resolve("other"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("scim.json"), target);
        assertThatThrownBy(() -> JsonScimFile.open(link)).isInstanceOf(IOException.class);
    }
}
