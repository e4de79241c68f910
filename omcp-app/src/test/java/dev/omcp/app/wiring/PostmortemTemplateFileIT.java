package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.CapturedLog;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code OMCP_POSTMORTEM_TEMPLATE} read from a real file at each call (spec 4.4), with one warning per change. */
class PostmortemTemplateFileIT {
    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = CapturedLog.of(PostmortemTemplateFile.class);

    /** Writes {@code text} and moves the modification time, so two writes within the clock's resolution still differ. */
    private void write(Path file, String text, int secondsLater) throws Exception {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2025-01-01T00:00:00Z").plusSeconds(secondsLater)));
    }

    @Test
    void aValidTemplate_isUsed_andAnEditAppliesAtTheNextCall() throws Exception {
        Path file = dir.resolve("template.md");
        write(file, "# {{service}}\n{{synopsis}}\n", 0);
        PostmortemTemplateFile template = new PostmortemTemplateFile(file);

        PostmortemTemplate first = template.get().orElseThrow();
        assertThat(template.get()).containsSame(first);

        write(file, "## Report for {{service}}\n", 10);
        assertThat(template.get()).isPresent().get().isNotSameAs(first);
        assertThat(log.warnings()).isEmpty();
    }

    @Test
    void aMissingFile_fallsBackToTheBuiltInLayout_withOneWarningNotOnePerCall() throws Exception {
        PostmortemTemplateFile template = new PostmortemTemplateFile(dir.resolve("absent.md"));

        for (int i = 0; i < 5; i++) {
            assertThat(template.get()).isEmpty();
        }

        assertThat(log.warnings()).singleElement().asString().contains("absent.md", "the file does not exist", "built-in layout");
    }

    @Test
    void eachChangeOfABrokenFile_isWarnedAboutOnce_andRecoveryIsLogged() throws Exception {
        Path file = dir.resolve("template.md");
        Files.write(file, new byte[] {'#', ' ', (byte) 0xC3, (byte) 0x28});
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2025-01-01T00:00:00Z")));
        PostmortemTemplateFile template = new PostmortemTemplateFile(file);

        assertThat(template.get()).isEmpty();
        assertThat(template.get()).isEmpty();
        write(file, "x".repeat(PostmortemTemplate.MAX_LENGTH + 1), 10);
        assertThat(template.get()).isEmpty();
        assertThat(template.get()).isEmpty();
        write(file, "# {{service}}\n", 20);
        assertThat(template.get()).isPresent();

        assertThat(log.warnings()).hasSize(2);
        assertThat(log.warnings().get(0)).contains("it is not UTF-8 text");
        assertThat(log.warnings().get(1)).contains("post-mortem template is " + (PostmortemTemplate.MAX_LENGTH + 1) + " characters");
        assertThat(log.messages()).anySatisfy(m -> assertThat(m).contains("event=postmortem-template-loaded"));
    }

    @Test
    void aDirectory_orAnOversizedFile_isNotATemplate() throws Exception {
        Files.createDirectory(dir.resolve("dir.md"));
        Path huge = dir.resolve("huge.md");
        Files.write(huge, new byte[PostmortemTemplate.MAX_LENGTH * 4 + 1]);

        assertThat(new PostmortemTemplateFile(dir.resolve("dir.md")).get()).isEmpty();
        assertThat(new PostmortemTemplateFile(huge).get()).isEmpty();
        assertThat(log.warnings()).anySatisfy(w -> assertThat(w).contains("it is not a regular file"))
                .anySatisfy(w -> assertThat(w).contains("it is larger than"));
    }

    @Test
    void aLeadingByteOrderMark_isDropped_notCountedAsACharacterOfTheTemplate() throws Exception {
        Path file = dir.resolve("template.md");
        // the longest template accepted, saved by an editor that starts UTF-8 files with a byte-order mark
        write(file, "\uFEFF" + "x".repeat(PostmortemTemplate.MAX_LENGTH), 0);
        assertThat(new PostmortemTemplateFile(file).get()).isPresent();
        write(file, "\uFEFF# {{service}}\n", 10);
        assertThat(new PostmortemTemplateFile(file).get()).isPresent();

        assertThat(log.warnings()).isEmpty();
        assertThat(log.messages()).anySatisfy(m -> assertThat(m).contains("characters=" + PostmortemTemplate.MAX_LENGTH))
                .anySatisfy(m -> assertThat(m).contains("characters=" + "# {{service}}\n".length()));
    }
}
