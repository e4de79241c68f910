package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.HubUnavailableException;
import java.net.URI;
import java.time.Duration;

/**
 * Where a hub's files (its index, catalog files, tarballs and signatures) are read from: a remote hub
 * over http(s), a local directory, or the built-in hub the launcher jar carries. The catalog names its
 * files by URLs relative to the file that holds them, and {@link StaticConnectorHub} resolves them; each
 * source then keeps the result inside its bounds, since the catalog is not trusted until a tarball
 * verifies: a remote hub reads only from its own origin, a local one only inside its directory, the
 * built-in one only its own resources.
 */
sealed interface HubFiles permits StaticConnectorHub.RemoteFiles, DirectoryHubFiles, BundledHubFiles {

    /** The index file ({@code index.json}). */
    URI index();

    /** Where the hub is, for messages and {@code GET /api/hub/catalog}: a URL without credentials, a directory, or {@code builtin}. */
    String source();

    /**
     * {@code target}, a URL the catalog refers to, when it names a file of this hub.
     *
     * @param shown the reference as the catalog wrote it, quoted short, for the message
     * @throws HubUnavailableException when it lies outside the hub
     */
    URI confine(URI target, String shown) throws HubUnavailableException;

    /**
     * The bytes of {@code file}, refused past {@code limit}.
     *
     * @param what the file, for messages ("the catalog file of 'tempo'")
     * @param deadline how long a remote file may take to arrive whole; a local read needs none
     */
    byte[] read(URI file, int limit, String what, Duration deadline) throws HubUnavailableException;
}
