package dev.omcp.adapters.storage.scim;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SCIM directory in one JSON file ({@code OMCP_SCIM_STORE}, default {@code /tmp/scim.json}), the
 * document of {@link ScimSnapshotJson}. Created with mode 0600 (it names people and their addresses);
 * every replace writes it atomically ({@link PrivateFiles#replace}: temp file, fsync, rename), so a
 * crash leaves the old snapshot or the new one.
 *
 * <p>The file is read once, at {@link #open}; this process is then its only writer, so reads are
 * served from memory and the revision counts the replaces since the start. Several replicas cannot
 * share it: they would not see each other's changes (the Redis store is for them).
 *
 * <p>A file that exists but is not such a document (torn by hand, another file) is refused at
 * {@link #open} and left untouched: starting with an empty directory would forget who was
 * deprovisioned, and the next full sync would then silently re-create them as they were.
 */
public final class JsonScimFile implements ScimStore {
    private static final String SETTING = "OMCP_SCIM_STORE";

    private final Path file;
    /** Held while comparing the revision and writing, so two replaces never both pass the comparison. */
    private final ReentrantLock writing = new ReentrantLock();
    private volatile Stored held;

    private JsonScimFile(Path file, ScimSnapshot loaded) {
        this.file = file;
        this.held = new Stored(loaded, 0);
    }

    /**
     * Opens the file, creating it empty (mode 0600) when absent.
     *
     * @throws IOException when it exists but cannot be read or is not a SCIM store; the message
     *     names the setting, the file and what to do, never its content
     */
    public static JsonScimFile open(Path file) throws IOException {
        PrivateFiles.refuseLink(file);
        if (!PrivateFiles.exists(file)) {
            PrivateFiles.ensure(file);
            return new JsonScimFile(file, ScimSnapshot.empty());
        }
        String text = switch (OperatorTextFile.read(file, ScimSnapshotJson.MAX_BYTES)) {
            case OperatorTextFile.Read.Text read -> read.text();
            case OperatorTextFile.Read.Unusable unusable -> throw refused(file, unusable.reason());
        };
        ScimSnapshot snapshot = ScimSnapshot.empty();
        if (!text.isBlank()) {
            snapshot = switch (ScimSnapshotJson.parse(text)) {
                case ScimSnapshotJson.Parsed.Snapshot parsed -> parsed.snapshot();
                case ScimSnapshotJson.Parsed.Unusable unusable -> throw refused(file, unusable.reason());
            };
        }
        PrivateFiles.restrict(file);
        return new JsonScimFile(file, snapshot);
    }

    private static IOException refused(Path file, String reason) {
        return new IOException(SETTING + " " + file + " " + reason + "; nothing in it was changed: fix it, or move it away to"
                + " start with an empty directory (the identity provider's next full sync provisions it again)");
    }

    @Override
    public Stored read() {
        return held;
    }

    @Override
    public boolean replace(long revision, ScimSnapshot next) {
        byte[] json = ScimSnapshotJson.bytes(next, SETTING + " " + file);
        writing.lock();
        try {
            if (held.revision() != revision) {
                return false;
            }
            try {
                PrivateFiles.replace(file, json);
            } catch (IOException e) {
                throw new UncheckedIOException("the SCIM directory could not be written to " + SETTING + " " + file, e);
            }
            // only once it is durable: a failed write leaves memory as the file is
            held = new Stored(next, revision + 1);
            return true;
        } finally {
            writing.unlock();
        }
    }
}
