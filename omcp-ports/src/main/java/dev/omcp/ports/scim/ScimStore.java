package dev.omcp.ports.scim;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Driven port: keeps the SCIM directory ({@code OMCP_SCIM_STORE}, spec 5.6). The directory is small
 * (people and groups of one organisation), so it is read and replaced whole. {@link #save} returns
 * only once the snapshot is durable, and replaces it atomically: a crash leaves the old one or the
 * new one, never a mix. Callers serialize their saves; implementations need not.
 */
public interface ScimStore {

    /** The snapshot last saved, or an empty one. */
    ScimSnapshot load();

    /**
     * Replaces the snapshot.
     *
     * @throws java.io.UncheckedIOException when it could not be written; the previous one stays
     */
    void save(ScimSnapshot snapshot);

    /** A store in memory, lost at restart: for embedders and tests. */
    static ScimStore memory() {
        AtomicReference<ScimSnapshot> held = new AtomicReference<>(ScimSnapshot.empty());
        return new ScimStore() {
            @Override
            public ScimSnapshot load() {
                return held.get();
            }

            @Override
            public void save(ScimSnapshot snapshot) {
                held.set(snapshot);
            }
        };
    }
}
