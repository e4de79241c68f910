package dev.omcp.adapters.storage.config;

import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the temp files of writes that never finished: the store writes the new sources file to
 * {@code .sources-<digits>.tmp} in the file's directory and renames it over the file, so a gateway
 * killed in between leaves that temp file, a whole copy of the file with any secret written out in
 * it, which nothing else ever removes.
 *
 * <p>Only regular files of exactly that name are touched, and only once they are {@link #MIN_AGE}
 * old. The sources file's lock ({@link SourcesFileLock}, held by every write from before it creates
 * its temp file until after the rename) must be free at once: while another gateway writes this
 * file nothing is removed, and the start does not wait. The age is the guard for writers of other
 * sources files in the same directory, whose temp files share the name but not the lock: a write
 * takes seconds, so a temp file untouched for longer is left over, not being written.
 */
final class StaleTempFiles {
    private static final Logger LOG = LoggerFactory.getLogger(StaleTempFiles.class);
    /** What {@code Files.createTempFile(dir, ".sources-", ".tmp")} names its files. */
    private static final Pattern NAME = Pattern.compile("\\.sources-[0-9]+\\.tmp");
    static final Duration MIN_AGE = Duration.ofMinutes(10);

    private StaleTempFiles() {}

    /** Removes the left-over temp files next to {@code sourcesFile}, logging each; never fails the caller. */
    static void removeNextTo(Path sourcesFile) {
        Path dir = sourcesFile.toAbsolutePath().getParent();
        List<Path> stale = stale(dir);
        if (stale.isEmpty()) {
            return; // the common case: no lock file is created, nothing is logged
        }
        try (SourcesFileLock.Held held = new SourcesFileLock(sourcesFile, Duration.ZERO).acquire()) {
            for (Path temp : stale(dir)) {
                remove(temp);
            }
        } catch (SourceStoreException e) {
            // another gateway writing this file right now is the likely cause: its temp files are not to be judged now
            LOG.info("event=sources-temp-kept dir={} count={} reason=\"the sources file's lock could not be had at once\" detail=\"{}\""
                    + " hint=\"a later start removes them\"", dir, stale.size(), LogField.of(e.getMessage()));
        }
    }

    private static List<Path> stale(Path dir) {
        List<Path> stale = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return stale;
        }
        Instant oldest = Instant.now().minus(MIN_AGE);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, ".sources-*.tmp")) {
            for (Path entry : entries) {
                if (NAME.matcher(entry.getFileName().toString()).matches() && modifiedBefore(entry, oldest)) {
                    stale.add(entry);
                }
            }
        } catch (IOException e) {
            LOG.debug("event=sources-temp-unlisted dir={} error={}", dir, e.getClass().getSimpleName());
        }
        return stale;
    }

    private static boolean modifiedBefore(Path entry, Instant oldest) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return attributes.isRegularFile() && attributes.lastModifiedTime().toInstant().isBefore(oldest);
        } catch (IOException e) {
            return false; // gone meanwhile, or not ours to read
        }
    }

    private static void remove(Path temp) {
        try {
            Instant modified = Files.getLastModifiedTime(temp, LinkOption.NOFOLLOW_LINKS).toInstant();
            if (Files.deleteIfExists(temp)) {
                LOG.warn("event=sources-temp-removed file={} dir={} modified={} reason=\"left by a write that did not finish (the"
                        + " gateway stopped between writing the new sources file and renaming it into place)\"",
                        temp.getFileName(), temp.getParent(), modified);
            }
        } catch (IOException e) {
            LOG.warn("event=sources-temp-not-removed file={} dir={} error={} hint=\"delete it by hand: it is a copy of the sources"
                    + " file that no gateway uses\"", temp.getFileName(), temp.getParent(), e.getClass().getSimpleName());
        }
    }
}
