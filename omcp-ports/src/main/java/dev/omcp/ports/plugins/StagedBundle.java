package dev.omcp.ports.plugins;

/**
 * A bundle unpacked into a hidden staging directory inside the plugins directory (same file
 * system, so {@link #commit()} is a rename). Nothing is visible to a scan until it is committed;
 * {@link #close()} without a commit deletes the staging directory.
 */
public interface StagedBundle extends AutoCloseable {

    /** The check of the unpacked plugin, exactly as a scan would report it. */
    PluginCandidate candidate();

    /**
     * Moves the unpacked plugin to {@code <plugins dir>/<name>/}, replacing an earlier install of
     * the same name.
     *
     * @throws java.io.UncheckedIOException when the move fails; the earlier install is then kept
     */
    void commit();

    /** Deletes the staging directory unless the bundle was committed. */
    @Override
    void close();
}
