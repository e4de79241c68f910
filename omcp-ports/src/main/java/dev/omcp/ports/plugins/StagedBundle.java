package dev.omcp.ports.plugins;

/**
 * A bundle unpacked into a hidden staging directory inside the plugins directory (same file
 * system, so {@link #commit()} is a rename). Nothing is visible to a scan until it is committed;
 * {@link #close()} without a commit deletes the staging directory. A commit stays undoable until
 * {@link #close()}: the install it replaced is kept aside, so a version that verifies but then does
 * not load can be {@linkplain #rollBack() rolled back} to the one that did.
 */
public interface StagedBundle extends AutoCloseable {

    /** The check of the unpacked plugin, exactly as a scan would report it. */
    PluginCandidate candidate();

    /**
     * Moves the unpacked plugin to {@code <plugins dir>/<name>/}, replacing an earlier install of
     * the same name, which is kept aside until {@link #close()} or {@link #rollBack()}.
     *
     * @throws PluginDirectoryWriteException when a rename fails: the host's problem, not the bundle's. The
     *     earlier install is put back in place; the message says where it is kept when even that failed
     */
    void commit() throws PluginDirectoryWriteException;

    /**
     * Undoes {@link #commit()}: the new install is removed and the earlier one, if there was one,
     * put back in its place. Does nothing when the bundle was not committed.
     *
     * @return whether an earlier install was put back
     * @throws java.io.UncheckedIOException when the file system refuses; the message says what is where
     */
    boolean rollBack();

    /**
     * Deletes the staging directory unless the bundle was committed; after a commit that was not
     * rolled back, deletes the earlier install kept aside (the commit is then final).
     */
    @Override
    void close();
}
