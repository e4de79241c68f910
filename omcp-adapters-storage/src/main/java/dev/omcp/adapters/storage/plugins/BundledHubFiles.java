package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.HubUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The built-in hub's files: resources under one folder of the class path (inside the launcher jar),
 * read with no network and no temporary file. The catalog's relative URLs resolve against
 * {@value #SCHEME}{@code :/index.json}, so a reference is a path inside that folder or refused: no
 * {@code ..}, no hidden name, no other scheme. The jar is trusted, but the hub is read as any other,
 * with the same size limits and checks: one reader for every hub.
 */
final class BundledHubFiles implements HubFiles {
    /** The scheme of the built-in hub's files: a name no real URL uses, so a reference to anything else fails {@link #confine}. */
    static final String SCHEME = "omcp-builtin-hub";
    private static final URI INDEX = URI.create(SCHEME + ":/index.json");
    /** A name of a file or folder of the hub; {@code .} and {@code ..} and hidden names do not match. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
    private static final int MAX_SEGMENTS = 8;

    private final ClassLoader loader;
    private final String folder;

    /**
     * @param loader the class loader whose resources hold the hub
     * @param folder the resource folder holding {@code index.json}, ending in {@code /} ({@code dev/omcp/app/demo/hub/})
     */
    BundledHubFiles(ClassLoader loader, String folder) {
        this.loader = Objects.requireNonNull(loader, "loader");
        if (!folder.endsWith("/") || folder.startsWith("/")) {
            throw new IllegalArgumentException("a resource folder is relative and ends with '/', got '" + folder + "'");
        }
        this.folder = folder;
    }

    @Override
    public URI index() {
        return INDEX;
    }

    @Override
    public String source() {
        return BuiltInHub.SOURCE;
    }

    @Override
    public URI confine(URI target, String shown) throws HubUnavailableException {
        if (!SCHEME.equals(target.getScheme()) || target.getRawAuthority() != null || target.getRawQuery() != null
                || target.getRawFragment() != null || target.getPath() == null || !insideFolder(target.getPath())) {
            throw new HubUnavailableException("the built-in hub refers to '" + shown + "', which is no file of its own; "
                    + "it names its files by paths relative to the file that holds them");
        }
        return target;
    }

    private static boolean insideFolder(String path) {
        if (!path.startsWith("/")) {
            return false;
        }
        String[] segments = path.substring(1).split("/", -1);
        if (segments.length > MAX_SEGMENTS) {
            return false;
        }
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public byte[] read(URI file, int limit, String what, Duration deadline) throws HubUnavailableException {
        String resource = folder + file.getPath().substring(1);
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new HubUnavailableException(what + " is missing from the built-in hub (no resource " + resource
                        + " in the jar); the jar is incomplete: rebuild it");
            }
            byte[] bytes = in.readNBytes(limit + 1);
            if (bytes.length > limit) {
                throw new HubUnavailableException(what + " of the built-in hub is larger than " + limit + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new HubUnavailableException(what + " of the built-in hub cannot be read: " + e.getClass().getSimpleName());
        }
    }
}
