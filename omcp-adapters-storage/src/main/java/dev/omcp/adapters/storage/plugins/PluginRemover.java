package dev.omcp.adapters.storage.plugins;

import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes {@code <plugins dir>/<name>} crash-safely. Earlier installs of it an upgrade kept aside
 * ({@code .replaced-<name>-*}, left when an upgrade's clean-up failed) are renamed to
 * {@code .removing-<name>-*} first, then the plugin itself (the removal's commit: from then on no scan
 * sees it), and then all of them are deleted. In that order a crash at any point leaves nothing a start
 * would put back in place of the removed plugin: {@link InterruptedInstalls} puts a
 * {@code .replaced-<name>-*} back when {@code <name>} is missing, and deletes every {@code .removing-*}.
 * A link in the place of the plugin is renamed and deleted itself, never followed.
 */
final class PluginRemover {
    private static final Logger LOG = LoggerFactory.getLogger(PluginRemover.class);

    /** Renames atomically; a seam so a refusing file system can be tested as root too. */
    @FunctionalInterface
    interface Move {
        void move(Path from, Path to) throws IOException;
    }

    private final Path directory;
    private final Move move;
    private final InterruptedInstalls.TreeDeletion deletion;
    private final Durability durability;

    PluginRemover(Path directory, Move move, InterruptedInstalls.TreeDeletion deletion, Durability durability) {
        this.directory = directory;
        this.move = move;
        this.deletion = deletion;
        this.durability = durability;
    }

    /**
     * @return whether everything was deleted; {@code false} when a {@code .removing-*} directory stayed (logged)
     * @throws UncheckedIOException when the plugin could not be renamed aside: it is still installed
     */
    boolean remove(String name) {
        if (!PackageMarker.isDirectoryName(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a plugin name");
        }
        List<Path> removing = new ArrayList<>();
        try {
            for (Path replaced : replacedInstalls(name)) {
                Path aside = removingPath(name);
                move.move(replaced, aside);
                removing.add(aside);
            }
            Path aside = removingPath(name);
            move.move(directory.resolve(name), aside);
            removing.add(aside);
        } catch (IOException e) {
            // earlier installs renamed already were leftovers either way: delete them now, or the next start does
            deleteAll(removing);
            throw new UncheckedIOException("moving plugin '" + name + "' out of the plugins directory failed (" + e + ")", e);
        }
        // the renames are the removal's commit: forced before the delete, or a power loss could bring
        // a removed plugin (perhaps removed for a reason) back at the next start
        durability.forceDirectory(directory);
        return deleteAll(removing);
    }

    private Path removingPath(String name) {
        return directory.resolve(InterruptedInstalls.REMOVING_PREFIX + name + "-" + UUID.randomUUID());
    }

    /** The {@code .replaced-<name>-*} entries of {@code name}, links included (they are renamed, never followed). */
    private List<Path> replacedInstalls(String name) throws IOException {
        List<Path> replaced = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, ".replaced-*")) {
            for (Path child : stream) {
                Matcher matcher = InterruptedInstalls.REPLACED.matcher(child.getFileName().toString());
                if (matcher.matches() && matcher.group(1).equals(name)) {
                    replaced.add(child);
                }
            }
        }
        replaced.sort(Comparator.comparing(Path::toString));
        return replaced;
    }

    /** Deletes each directory; a failure is logged with its path, and the next start tries again. */
    private boolean deleteAll(List<Path> removing) {
        boolean all = true;
        for (Path path : removing) {
            try {
                deletion.delete(path);
            } catch (IOException e) {
                all = false;
                LOG.warn("event=plugin-remove-leftover location=\"{}\" reason=\"{}\" effect=\"it stays hidden from scans; the next start "
                        + "deletes it\"", LogField.of(path), LogField.of(e.toString()));
            }
        }
        return all;
    }
}
