package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.HubUnavailableException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A hub in a local directory ({@code omcp plugin ... --from <dir>}, air-gapped, or {@code HUB_CATALOG_URL}
 * naming a directory): never read outside it, through the same bounded reader as plugin directories.
 */
final class DirectoryHubFiles implements HubFiles {
    private final Path root;
    private final URI index;

    /** @param indexFile the absolute, normalized path of {@code index.json}; its directory is the hub's */
    DirectoryHubFiles(Path indexFile) {
        this.root = indexFile.getParent();
        this.index = indexFile.toUri();
    }

    @Override
    public URI index() {
        return index;
    }

    @Override
    public String source() {
        return root.toString();
    }

    @Override
    public URI confine(URI target, String shown) throws HubUnavailableException {
        if (!"file".equals(target.getScheme())) {
            throw new HubUnavailableException("the local hub refers to '" + shown + "' outside its directory");
        }
        Path path;
        try {
            path = Path.of(target).normalize();
        } catch (IllegalArgumentException e) {
            // a file: URL with a host, a query or a fragment names no file of the hub's directory
            throw new HubUnavailableException("the local hub refers to '" + shown + "', which is no file of its directory; "
                    + "write it as a path relative to the file that holds it");
        }
        if (!path.startsWith(root)) {
            throw new HubUnavailableException("the local hub refers to '" + shown + "' outside its directory");
        }
        return target;
    }

    @Override
    public byte[] read(URI file, int limit, String what, Duration deadline) throws HubUnavailableException {
        try {
            return PluginFiles.read(root, Path.of(file), limit, what);
        } catch (PluginFiles.Unreadable e) {
            throw new HubUnavailableException(e.getMessage() + " (hub " + source() + ")");
        }
    }
}
