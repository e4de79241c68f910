package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles what an install left in the plugins directory when the process died part way (see
 * {@link FilesystemStagedBundle}): a {@code .staging-*} directory (a bundle being unpacked, or a new
 * version being taken back) and a {@code .replaced-<name>-<uuid>} directory (the install an upgrade
 * moved aside), and a {@code .removing-<name>-<uuid>} directory (a plugin being removed). Run once when the gateway opens the plugins directory, before the first scan, so a
 * crash between "old install moved aside" and "new install in place" does not leave the connector
 * missing after the restart.
 *
 * <p>It assumes the gateway being started is the only one installing into this directory: at
 * runtime the leftovers it settles belong to an install in progress.
 *
 * <p>Nothing here follows a symbolic link: a link named like a leftover, or in the place of an
 * install, is left alone and reported. A leftover that cannot be deleted is reported and the start
 * goes on: it is hidden from scans and costs only disk space.
 */
final class InterruptedInstalls {
    private static final Logger LOG = LoggerFactory.getLogger(InterruptedInstalls.class);
    /** Characters of a list of leftover paths a log line keeps. */
    private static final int MAX_LOGGED_PATHS = 1_000;
    /** What {@link FilesystemStagedBundle#commit()} names the install it moves aside. */
    static final Pattern REPLACED = Pattern.compile("\\.replaced-(.+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})");
    /** What {@link FilesystemPluginStore#stage(byte[])} unpacks a bundle into. */
    private static final String STAGING_PREFIX = ".staging-";
    /** What {@link FilesystemPluginStore#remove(String)} renames a plugin to before it deletes it. */
    static final String REMOVING_PREFIX = ".removing-";
    /** Where an incomplete install is kept for the operator when a complete earlier one takes its place. */
    static final String INCOMPLETE_PREFIX = ".incomplete-";

    /** Deletes a directory tree without following links; a seam so a failing delete can be tested as root too. */
    @FunctionalInterface
    interface TreeDeletion {
        void delete(Path root) throws IOException;
    }

    private final Path directory;
    private final PluginDirectoryCheck check;
    private final TrustRootKeys trust;
    private final ManifestTrust manifestTrust;
    private final TreeDeletion deletion;

    /** @param manifestTrust when a manifest may be parsed, as for the scans that follow: while verification is on, only once signed */
    InterruptedInstalls(Path directory, PluginDirectoryCheck check, TrustRootKeys trust, ManifestTrust manifestTrust, TreeDeletion deletion) {
        this.directory = directory;
        this.check = check;
        this.trust = trust;
        this.manifestTrust = manifestTrust;
        this.deletion = deletion;
    }

    /** A {@code .replaced-*} directory, with the time its install was last written. */
    private record Leftover(Path path, FileTime modified) {}

    /** Settles every leftover in the plugins directory; a missing directory has none. */
    void recover() {
        // PLUGINS_DIR itself may be a link (a mounted volume): the operator set it; only entries inside are never followed
        if (!Files.isDirectory(directory)) {
            return;
        }
        Map<String, List<Leftover>> replacedByName = new TreeMap<>();
        for (Path child : hiddenChildren()) {
            String fileName = child.getFileName().toString();
            Optional<BasicFileAttributes> attributes = attributes(child);
            if (attributes.isEmpty()) {
                continue;
            }
            Matcher replaced = REPLACED.matcher(fileName);
            boolean leftover = fileName.startsWith(STAGING_PREFIX) || fileName.startsWith(REMOVING_PREFIX) || replaced.matches();
            if (!leftover) {
                continue;
            }
            if (attributes.get().isSymbolicLink() || !attributes.get().isDirectory()) {
                LOG.warn("event=plugin-leftover-refused location=\"{}\" reason=\"{}; an install never leaves one: it is left alone, "
                        + "remove it by hand\"", LogField.of(child),
                        attributes.get().isSymbolicLink() ? "a symbolic link, which is not followed" : "not a directory");
                continue;
            }
            if (fileName.startsWith(STAGING_PREFIX)) {
                // never committed: a bundle half unpacked, or a new version an interrupted rollback took back
                delete(child, "an install that was never committed");
            } else if (fileName.startsWith(REMOVING_PREFIX)) {
                // the rename aside is a removal's commit: finish it. Putting the plugin back would undo a
                // removal the operator asked for (perhaps of a flawed version), and a delete that died part
                // way leaves no whole plugin to put back anyway
                delete(child, "a plugin whose removal was interrupted; the removal is finished");
            } else if (PackageMarker.NAME.matcher(replaced.group(1)).matches()) {
                replacedByName.computeIfAbsent(replaced.group(1), name -> new ArrayList<>())
                        .add(new Leftover(child, attributes.get().lastModifiedTime()));
            } else {
                LOG.warn("event=plugin-leftover-refused location=\"{}\" reason=\"'{}' is not a plugin name; left alone\"",
                        LogField.of(child), LogField.of(replaced.group(1)));
            }
        }
        replacedByName.forEach(this::settle);
    }

    /** The leftovers of earlier installs of {@code name}: delete them when it is installed, else put the right one back. */
    private void settle(String name, List<Leftover> leftovers) {
        Path install = directory.resolve(name);
        Optional<BasicFileAttributes> installed = Files.exists(install, LinkOption.NOFOLLOW_LINKS) ? attributes(install) : Optional.empty();
        if (installed.isPresent() && installed.get().isSymbolicLink()) {
            LOG.warn("event=plugin-leftover-kept plugin={} location=\"{}\" reason=\"the install is a symbolic link, which is not followed; "
                    + "the earlier installs kept aside are left for the operator\"", name, LogField.of(install));
            return;
        }
        Optional<String> installIncomplete = installed.isPresent() ? incomplete(install, name) : Optional.of("the plugin is not installed");
        if (installIncomplete.isEmpty()) {
            for (Leftover leftover : leftovers) {
                delete(leftover.path(), "an earlier install of '" + name + "', replaced by the one in place");
            }
            return;
        }
        // The newest leftover is the install that was live last: each upgrade moves aside the one in
        // place, and a rename keeps a directory's modification time, which is when that install was
        // unpacked. The name breaks a tie, so the choice does not depend on the order of the listing.
        List<Leftover> newestFirst = leftovers.stream()
                .sorted(Comparator.comparing(Leftover::modified).reversed().thenComparing(l -> l.path().getFileName().toString()))
                .toList();
        Optional<Leftover> restorable = newestFirst.stream().filter(l -> incomplete(l.path(), name).isEmpty()).findFirst();
        if (restorable.isEmpty()) {
            String why = installed.isPresent() ? "the install is incomplete (" + installIncomplete.get() + ")"
                    : "the plugin is not installed";
            LOG.warn("event=plugin-leftover-kept plugin={} locations=\"{}\" reason=\"{} and no earlier install kept aside is complete; "
                    + "they are left for the operator\"", name,
                    LogField.of(leftovers.stream().map(Leftover::path).toList(), MAX_LOGGED_PATHS), LogField.of(why));
            return;
        }
        if (installed.isPresent()) {
            Path incomplete = directory.resolve(INCOMPLETE_PREFIX + name + "-" + UUID.randomUUID());
            if (!move(install, incomplete, name)) {
                return;
            }
            LOG.warn("event=plugin-install-incomplete plugin={} location=\"{}\" kept=\"{}\" reason=\"its package.json, manifest or "
                    + "entry JAR "
                    + "is missing, invalid or does not match ({}); it is kept hidden for the operator\"", name, LogField.of(install),
                    LogField.of(incomplete), LogField.of(installIncomplete.get()));
        }
        if (!move(restorable.get().path(), install, name)) {
            return;
        }
        LOG.warn("event=plugin-install-restored plugin={} location=\"{}\" from=\"{}\" reason=\"an upgrade was interrupted after it moved "
                + "the install aside; the install it replaced is back in place\"", name, LogField.of(install),
                LogField.of(restorable.get().path().getFileName()));
        for (Leftover leftover : newestFirst) {
            if (leftover != restorable.get()) {
                delete(leftover.path(), "an install of '" + name + "' older than the one put back");
            }
        }
    }

    /**
     * Why {@code root} does not hold a whole install of {@code name}, or empty when it does: an install
     * is written by renaming a verified staging directory, so what is in place is either whole or was
     * changed by hand. Whole means the package marker names {@code name}, the manifest is valid and the
     * entry JAR matches its integrity. The signature itself is the loader's decision, made at the scan
     * that follows; but while verification is on a manifest is read only once its signature verified,
     * as the scan reads it, so an unsigned one counts as incomplete here (and nothing is deleted for it).
     */
    private Optional<String> incomplete(Path root, String name) {
        Optional<PluginCandidate> checked = check.check(root, root.getFileName().toString(), ConnectorType.Origin.FILESYSTEM, Optional.empty(),
                trust, manifestTrust).map(PluginDirectoryCheck.Checked::candidate);
        if (checked.isEmpty()) {
            return Optional.of("no package.json with a connector marker");
        }
        PluginCandidate candidate = checked.get();
        if (!candidate.name().equals(name)) {
            return Optional.of("its package.json names another connector");
        }
        if (!candidate.manifestCheck().ok()) {
            return Optional.of(candidate.manifestCheck().summary());
        }
        return candidate.integrity().ok() ? Optional.empty() : Optional.of(candidate.integrity().summary());
    }

    private List<Path> hiddenChildren() {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, ".*")) {
            stream.forEach(children::add);
        } catch (IOException e) {
            LOG.error("event=plugin-leftovers-unreadable location=\"{}\" reason=\"{}\" effect=\"interrupted installs are not settled\"",
                    LogField.of(directory), LogField.of(e.toString()), e);
            return List.of();
        }
        children.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return children;
    }

    private static Optional<BasicFileAttributes> attributes(Path path) {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            LOG.warn("event=plugin-leftover-unreadable location=\"{}\" reason=\"{}\"", LogField.of(path), LogField.of(e.toString()));
            return Optional.empty();
        }
    }

    private void delete(Path leftover, String what) {
        try {
            deletion.delete(leftover);
            LOG.info("event=plugin-leftover-deleted location=\"{}\" reason=\"{}\"", LogField.of(leftover), LogField.of(what));
        } catch (IOException e) {
            LOG.warn("event=plugin-leftover-delete-failed location=\"{}\" reason=\"{}: {}\" effect=\"it stays hidden from scans; remove it "
                    + "by hand\"", LogField.of(leftover), LogField.of(what), LogField.of(e.toString()));
        }
    }

    private static boolean move(Path from, Path to, String name) {
        try {
            FilesystemStagedBundle.move(from, to);
            return true;
        } catch (IOException e) {
            LOG.error("event=plugin-install-restore-failed plugin={} from=\"{}\" to=\"{}\" reason=\"{}\" effect=\"the plugin stays as "
                    + "it is; rename {} to {} by hand\"", name, LogField.of(from), LogField.of(to), LogField.of(e.toString()),
                    LogField.of(from.getFileName()), LogField.of(to.getFileName()));
            return false;
        }
    }
}
