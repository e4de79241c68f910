package dev.omcp.ports.sources;

/**
 * Driven port: where sources are kept (the sources file, or the environment when there is none).
 *
 * <p>{@link #save} must be atomic (a reader sees the old or the new file, never a mix) and must not
 * write secrets that came from the environment: a value that was substituted from {@code ${VAR}}
 * and did not change is written back as {@code ${VAR}}.
 */
public interface SourceStore {

    /**
     * Reads every source; problems with single entries are reported, not thrown. A file that cannot be
     * read at all gives a document that is not writable, whose problems say why; the store logs that
     * itself, so the caller does not say it again.
     */
    SourcesDocument load();

    /**
     * Replaces the stored sources with {@code sources}, keeping the {@code plugins:} block and any
     * entry that could not be read.
     *
     * @throws SourceStoreException when nothing could be written; the old file is untouched. A store refuses to
     *     remove a source while an entry it could not read has the same name: that entry would become the source
     *     at the next start
     * @throws IllegalArgumentException when a source has a setting named like one of
     *     {@link SourceDefinition#OWN_FIELDS}; nothing is written
     */
    void save(java.util.List<SourceDefinition> sources) throws SourceStoreException;

    /** Where the sources live, for messages: a file name (never a secret), or "environment". */
    String describe();
}
