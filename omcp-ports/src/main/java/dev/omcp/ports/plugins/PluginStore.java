package dev.omcp.ports.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import java.util.List;
import java.util.Optional;

/**
 * Driven port: the plugins directory on disk ({@code PLUGINS_DIR}) and the trust root.
 *
 * <p>Checking and loading are separate steps so the core can decide in between (spec 3.5): a
 * plugin's code is never loaded before the core admitted it. Nothing here uses the network.
 * Implementations are thread-safe.
 */
public interface PluginStore {

    /** The trust root signatures are verified against, read when the store was created. */
    TrustRoot trustRoot();

    /**
     * Checks every plugin sub-directory of the plugins directory and every pinned directory.
     *
     * @param pins the sources file's {@code plugins:} entries; a pinned directory that does not exist
     *     is reported as a candidate whose manifest check failed
     */
    PluginScan scan(List<PluginPin> pins);

    /**
     * Defines the plugin's classes in a class loader of its own (whose parent exposes only the SDK,
     * jakarta.json and SLF4J), finds its factory through {@code META-INF/services} and creates the
     * hooks its manifest names.
     *
     * @param candidate a candidate from {@link #scan} or {@link #stage}; the entry JAR is re-read and
     *     must still match the bytes that were checked
     */
    LoadedPlugin load(PluginCandidate candidate) throws PluginLoadException;

    /**
     * Unpacks a {@code .tgz} bundle into a staging directory and checks it.
     *
     * @throws BundleRejectedException when the archive is unsafe or malformed; nothing is left behind
     * @throws PluginDirectoryWriteException when the plugins directory cannot be written (disk full, not
     *     writable): the host's problem, not the bundle's; nothing is left behind
     */
    StagedBundle stage(byte[] tarball) throws BundleRejectedException, PluginDirectoryWriteException;

    /**
     * Takes the plugins directory for one change: an install's whole stage, commit and settling
     * (or roll-back), or a removal. It excludes other processes too (an {@code omcp plugin install}
     * or {@code remove} beside a running gateway), whose renames would otherwise interleave with
     * this change's. It is not waited for: a second change is refused at once.
     *
     * @throws PluginDirectoryBusyException when another change holds the directory; nothing was written
     * @throws PluginDirectoryWriteException when the lock file cannot be created or locked (a read-only
     *     plugins directory, a full disk): the host's problem; nothing was written
     */
    ChangeLock lockForChange() throws PluginDirectoryBusyException, PluginDirectoryWriteException;

    /** The plugins directory held for one change, until {@link #close()}. */
    interface ChangeLock extends AutoCloseable {
        /** Lets the next change in. */
        @Override
        void close();
    }

    /**
     * Removes the plugins directory's {@code <name>} sub-directory, crash-safely: it is first renamed
     * to a hidden {@code .removing-<name>-*} directory (from then on no scan sees it, and the start
     * after a crash deletes it: the rename is the removal's commit), then deleted. Earlier installs
     * of {@code name} an upgrade kept aside go with it, so that no restart puts one of them back.
     *
     * @param name the directory name of an installed plugin ({@link #installed(String)} found it)
     * @return whether everything was deleted; {@code false} when a hidden directory could not be
     *     deleted (logged with its path): the plugin is removed all the same, and the next start
     *     deletes what is left
     * @throws java.io.UncheckedIOException when the plugin could not be renamed aside; nothing was removed
     */
    boolean remove(String name);

    /**
     * The plugin a commit of a bundle named {@code name} would replace: the check of the plugins
     * directory's {@code <name>} sub-directory, as a scan reports it; empty when there is none (or
     * it is no connector plugin). Lets an install compare versions before it writes anything.
     */
    default Optional<PluginCandidate> installed(String name) {
        return scan(List.of()).candidates().stream()
                .filter(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(name))
                .findFirst();
    }
}
