package dev.omcp.adapters.storage.plugins;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/** Reads files of a plugin directory: relative paths only, never through a link leading out of it, never past a size limit. */
final class PluginFiles {
    private PluginFiles() {}

    /** A file that could not be read, with the reason an operator reads. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    /**
     * Resolves {@code relative} inside {@code root}, refusing absolute paths, {@code ..} segments,
     * backslashes and drive letters.
     */
    static Optional<Path> resolveInside(Path root, String relative) {
        if (relative.isEmpty() || relative.startsWith("/") || relative.contains("\\") || relative.indexOf('\0') >= 0
                || relative.matches("^[A-Za-z]:.*")) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (String segment : relative.split("/")) {
            if (segment.equals("..")) {
                return Optional.empty();
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                parts.add(segment);
            }
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        Path resolved = root;
        for (String part : parts) {
            resolved = resolved.resolve(part);
        }
        return resolved.normalize().startsWith(root.normalize()) ? Optional.of(resolved) : Optional.empty();
    }

    /**
     * Reads a regular file completely. Links in {@code root} itself are followed: whether the root
     * may be one is the caller's decision. A symbolic link below it is followed only when the file it
     * leads to lies inside the root's real path, as in a Kubernetes ConfigMap or Secret mount
     * ({@code manifest.json -> ..data/manifest.json}); one leading anywhere else is refused, so a
     * plugin cannot make the gateway read (and vouch for) a file outside its directory. The file is
     * then opened by its real path without following a link, and the bytes returned are the ones
     * checked and loaded.
     */
    static byte[] read(Path root, Path file, int limit, String what) throws Unreadable {
        // quoted short: the path may be a plugin's own, up to 1024 characters (PackageMarker.MAX_PATH_LENGTH)
        String shown = what + " '" + PackageMarker.quoted(root.relativize(file).toString()) + "'";
        Path realRoot;
        Path real;
        try {
            realRoot = root.toRealPath();
            real = file.toRealPath();
        } catch (NoSuchFileException e) {
            throw new Unreadable(shown + (Files.isSymbolicLink(file) ? " is a symbolic link to nothing" : " is missing"));
        } catch (IOException e) {
            throw new Unreadable(shown + " cannot be read: " + e.getClass().getSimpleName());
        }
        if (!real.startsWith(realRoot) || real.equals(realRoot)) {
            throw new Unreadable(shown + " is or lies under a symbolic link leading outside the plugin directory; links are followed only"
                    + " to files inside the plugin directory");
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new Unreadable(shown + " is missing");
        } catch (IOException e) {
            throw new Unreadable(shown + " cannot be read: " + e.getClass().getSimpleName());
        }
        if (!attributes.isRegularFile()) {
            throw new Unreadable(shown + " is not a regular file");
        }
        if (attributes.size() > limit) {
            throw new Unreadable(shown + " is larger than " + limit + " bytes");
        }
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(limit + 1);
            if (bytes.length > limit) {
                throw new Unreadable(shown + " is larger than " + limit + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new Unreadable(shown + " cannot be read: " + e.getClass().getSimpleName());
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** {@code sha256-<base64>}, the integrity form of spec 2.2. */
    static String integrity(byte[] bytes) {
        return "sha256-" + Base64.getEncoder().encodeToString(sha256(bytes));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
