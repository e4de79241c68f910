package dev.omcp.adapters.storage.plugins;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers which plugin directories were logged as signed by a revoked key, so that the ERROR line
 * {@code event=plugin-key-revoked} is written once per plugin and key, not at every re-scan (every
 * install and removal re-scans): a line repeated at each scan buries the first one and reads as a
 * new event each time. It is written again when the plugin changes (other manifest or signature
 * bytes) or the revoked key it names does; the revocation list is read at start, so a new list
 * means a new store and a log that remembers nothing. A staged bundle (a hidden directory) is
 * always logged: each install attempt is an event of its own. Thread-safe.
 */
final class RevokedKeyLog {
    /** Per plugin directory, what was logged: a digest of its manifest, signature and the reason. */
    private final ConcurrentHashMap<Path, String> logged = new ConcurrentHashMap<>();

    /** Whether this revocation of the plugin in {@code root} is to be logged: not logged before as it is now. */
    boolean firstTime(Path root, String location, byte[] manifest, byte[] signature, String reason) {
        if (location.startsWith(".")) {
            return true;
        }
        ByteArrayOutputStream parts = new ByteArrayOutputStream();
        parts.writeBytes(PluginFiles.sha256(manifest));
        parts.writeBytes(PluginFiles.sha256(signature));
        parts.writeBytes(reason.getBytes(StandardCharsets.UTF_8));
        String state = PluginFiles.hex(PluginFiles.sha256(parts.toByteArray()));
        return !state.equals(logged.put(root, state));
    }

    /** The plugin in {@code root} is not (or no longer) refused for a revoked key: a later revocation is news again. */
    void forget(Path root) {
        logged.remove(root);
    }
}
