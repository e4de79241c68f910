package dev.omcp.adapters.storage.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the gateway writes must not be a link: someone who can write into its directory could
 * otherwise point it at another file and have the gateway append to it, chmod it or read it. A
 * link in a parent directory is the operator's choice and is followed.
 */
class PrivateFilesIT {
    private static final String ELSEWHERE = "someone else's file\n";

    @TempDir
    Path dir;
    private Path victim;
    private Path link;

    @BeforeEach
    void plantALink() throws Exception {
        victim = dir.resolve("victim.txt");
        Files.writeString(victim, ELSEWHERE);
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        link = dir.resolve("audit.jsonl");
        Files.createSymbolicLink(link, victim);
    }

    private void assertVictimUntouched() throws Exception {
        assertThat(Files.readString(victim)).isEqualTo(ELSEWHERE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).isEqualTo("rw-r--r--");
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    @Test
    void openingALinkForAppendIsRefusedWithTheReasonAndWritesNothing() throws Exception {
        assertThatThrownBy(() -> PrivateFiles.open(link, StandardOpenOption.WRITE, StandardOpenOption.APPEND))
                .isInstanceOf(LinkRefusedException.class)
                .hasMessageContaining(link.toString())
                .hasMessageContaining("symbolic link")
                .hasMessageContaining("point the setting at the real file");
        assertVictimUntouched();
    }

    @Test
    void creatingOverALinkIsRefused_evenADanglingOne() throws Exception {
        Path dangling = dir.resolve("revocations.jsonl");
        Path target = dir.resolve("not-yet-there");
        Files.createSymbolicLink(dangling, target);

        assertThatThrownBy(() -> PrivateFiles.open(dangling, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)).isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> PrivateFiles.ensure(dangling)).isInstanceOf(LinkRefusedException.class);
        assertThat(target).doesNotExist();
    }

    @Test
    void ensureRestrictReadAndReplaceRefuseALinkAndLeaveItsTargetAlone() throws Exception {
        assertThatThrownBy(() -> PrivateFiles.ensure(link)).isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> PrivateFiles.restrict(link)).isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> PrivateFiles.readAll(link)).isInstanceOf(LinkRefusedException.class);
        assertThatThrownBy(() -> PrivateFiles.replace(link, "new".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(LinkRefusedException.class);

        assertVictimUntouched();
        try (var leftovers = Files.list(dir)) {
            assertThat(leftovers).as("no temp file is left behind").hasSize(2);
        }
    }

    @Test
    void aLinkedParentDirectoryIsTheOperatorsChoiceAndIsFollowed() throws Exception {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path linkedDir = Files.createSymbolicLink(dir.resolve("state"), real);
        Path file = linkedDir.resolve("audit.jsonl");

        assertThat(PrivateFiles.createIfMissing(file)).isTrue();
        try (FileChannel channel = PrivateFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap("line\n".getBytes(StandardCharsets.UTF_8)));
        }
        PrivateFiles.replace(linkedDir.resolve("journal.jsonl"), "x\n".getBytes(StandardCharsets.UTF_8));

        assertThat(Files.readString(real.resolve("audit.jsonl"))).isEqualTo("line\n");
        assertThat(new String(PrivateFiles.readAll(file), StandardCharsets.UTF_8)).isEqualTo("line\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(real.resolve("journal.jsonl"))))
                .isEqualTo("rw-------");
    }

    @Test
    void ensureNarrowsARegularFileToOwnerOnly() throws Exception {
        Path file = dir.resolve("journal.jsonl");
        Files.writeString(file, "kept\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));

        assertThat(PrivateFiles.ensure(file)).isFalse();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("kept\n");
    }

    @Test
    void anAppendThatFailsPartWay_isCutBack_soTheNextLineStartsClean() throws Exception {
        Path file = dir.resolve("journal.jsonl");
        Files.writeString(file, "{\"first\":1}\n");
        try (FileChannel channel = new FailingAfterChannel(FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                5, false)) {
            assertThatThrownBy(() -> PrivateFiles.appendWhole(channel, "{\"second\":2}\n".getBytes(StandardCharsets.UTF_8),
                    channel.size(), false))
                    .isInstanceOfSatisfying(PartialWriteException.class, e -> {
                        assertThat(e.undone()).isTrue();
                        assertThat(e).hasMessageContaining("No space left on device");
                    });
        }
        assertThat(Files.readString(file)).isEqualTo("{\"first\":1}\n");
    }

    @Test
    void anAppendWhoseCutBackFailsToo_saysTheFragmentIsStillThere() throws Exception {
        Path file = dir.resolve("journal.jsonl");
        Files.writeString(file, "{\"first\":1}\n");
        try (FileChannel channel = new FailingAfterChannel(FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                5, true)) {
            assertThatThrownBy(() -> PrivateFiles.appendWhole(channel, "{\"second\":2}\n".getBytes(StandardCharsets.UTF_8),
                    channel.size(), false))
                    .isInstanceOfSatisfying(PartialWriteException.class, e -> {
                        assertThat(e.undone()).isFalse();
                        assertThat(e.getSuppressed()).singleElement().satisfies(cut -> assertThat(cut).hasMessage("Input/output error"));
                    });
        }
        assertThat(Files.readString(file)).isEqualTo("{\"first\":1}\n{\"sec");
    }
}
