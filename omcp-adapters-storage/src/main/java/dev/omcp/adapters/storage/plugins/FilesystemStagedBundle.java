package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.StagedBundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bundle unpacked into {@code <plugins dir>/.staging-*}; used by the one thread that staged it.
 * {@link #commit()} renames it to
 * {@code <plugins dir>/<name>}: an earlier install is first renamed aside, and put back when the
 * second rename fails, so a failed install never leaves a half-written plugin behind, nor (unless the
 * put-back fails too, which the answer says) the connector without its earlier install. The earlier
 * install stays aside (a hidden {@code .replaced-*} directory, which a scan ignores) until
 * {@link #close()}, so {@link #rollBack()} can put it back when the new version does not load.
 */
final class FilesystemStagedBundle implements StagedBundle {
    private static final Logger LOG = LoggerFactory.getLogger(FilesystemStagedBundle.class);

    private final Path pluginsDirectory;
    private final Path staging;
    private final PluginCandidate candidate;
    private final Durability durability;
    private final PluginRemover.Move move;
    private boolean committed;
    /** The earlier install, renamed aside by the commit; null when there was none or it is settled. */
    private Path aside;

    /**
     * @param durability forces the renames to the disk; the staged files were forced when they were written
     * @param move renames atomically ({@link #move(Path, Path)}); a seam so a refusing file system can be tested as root too
     */
    FilesystemStagedBundle(Path pluginsDirectory, Path staging, PluginCandidate candidate, Durability durability, PluginRemover.Move move) {
        this.durability = durability;
        this.move = move;
        this.pluginsDirectory = pluginsDirectory;
        this.staging = staging;
        this.candidate = candidate;
    }

    @Override
    public PluginCandidate candidate() {
        return candidate;
    }

    @Override
    public void commit() throws PluginDirectoryWriteException {
        if (committed) {
            return;
        }
        if (!PackageMarker.NAME.matcher(candidate.name()).matches()) {
            throw new IllegalStateException("a verified plugin name is always a safe directory name");
        }
        Path target = pluginsDirectory.resolve(candidate.name());
        Path replaced = null;
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            replaced = pluginsDirectory.resolve(".replaced-" + candidate.name() + "-" + UUID.randomUUID());
            try {
                move.move(target, replaced);
            } catch (IOException e) {
                throw PluginDirectoryWriteFailure.ofCommit(pluginsDirectory, candidate.name(), e, "the installed version stays in place");
            }
        }
        try {
            move.move(staging, target);
        } catch (IOException e) {
            throw PluginDirectoryWriteFailure.ofCommit(pluginsDirectory, candidate.name(), e, putBack(replaced, target));
        }
        // both renames are entries of the plugins directory: once it is forced, the commit survives a power loss
        durability.forceDirectory(pluginsDirectory);
        committed = true;
        aside = replaced;
    }

    /** After the new version could not be renamed into place: the earlier install back there, and what the answer says of it. */
    private String putBack(Path replaced, Path target) {
        if (replaced == null) {
            return "nothing was installed";
        }
        try {
            move.move(replaced, target);
        } catch (IOException e) {
            // the running gateway keeps serving the version it loaded; on disk it waits aside, and a start puts it back
            LOG.error("event=plugin-commit-restore-failed plugin={} kept={} reason=\"{}\"", candidate.name(), replaced.getFileName(),
                    e.getClass().getSimpleName());
            return "putting the installed version back failed too (" + e.getClass().getSimpleName() + "): it is kept in "
                    + replaced.getFileName() + "; rename it to " + candidate.name() + ", or restart the gateway, which puts it back";
        }
        durability.forceDirectory(pluginsDirectory);
        return "the installed version is back in place";
    }

    @Override
    public boolean rollBack() {
        if (!committed) {
            return false;
        }
        Path target = pluginsDirectory.resolve(candidate.name());
        // the new install goes back to where it was staged, so close() deletes it like any uncommitted bundle
        try {
            move.move(target, staging);
        } catch (IOException e) {
            throw new UncheckedIOException("taking back the install of '" + candidate.name() + "' failed; it stays in the plugins "
                    + "directory" + (aside == null ? "" : ", and the earlier install is kept in " + aside.getFileName()), e);
        }
        committed = false;
        if (aside == null) {
            durability.forceDirectory(pluginsDirectory);
            return false;
        }
        try {
            move.move(aside, target);
        } catch (IOException e) {
            throw new UncheckedIOException("putting the earlier install of '" + candidate.name() + "' back failed; it is kept in "
                    + aside.getFileName() + ": rename it to " + candidate.name() + " and re-scan", e);
        }
        durability.forceDirectory(pluginsDirectory);
        aside = null;
        return true;
    }

    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the plugins directory does not support atomic renames", e);
        }
    }

    @Override
    public void close() {
        if (!committed) {
            deleteTree(staging);
        } else if (aside != null) {
            deleteTree(aside);
            aside = null;
        }
    }

    static void deleteTree(Path root) {
        try {
            deleteTreeOrThrow(root);
        } catch (IOException e) {
            LOG.error("event=plugin-staging-cleanup-failed location={} reason=\"{}\"", root.getFileName(), e.getClass().getSimpleName());
        }
    }

    /** Deletes {@code root} and everything under it; a link inside is deleted, never followed. Nothing there is no failure. */
    static void deleteTreeOrThrow(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
