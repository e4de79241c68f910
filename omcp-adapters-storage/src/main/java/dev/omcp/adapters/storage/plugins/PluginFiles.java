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

/** Reads files of a plugin directory: relative paths only, never through a link, never past a size limit. */
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
     * Reads a regular file completely; a symbolic link anywhere below {@code root} is refused, so a
     * plugin cannot make the gateway read (and vouch for) a file outside its directory.
     */
    static byte[] read(Path root, Path file, int limit, String what) throws Unreadable {
        Path cursor = root;
        for (Path part : root.relativize(file)) {
            cursor = cursor.resolve(part);
            if (Files.isSymbolicLink(cursor)) {
                throw new Unreadable(what + " '" + root.relativize(file) + "' is or lies under a symbolic link; plugin files must be regular files inside the plugin directory");
            }
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new Unreadable(what + " '" + root.relativize(file) + "' is missing");
        } catch (IOException e) {
            throw new Unreadable(what + " '" + root.relativize(file) + "' cannot be read: " + e.getClass().getSimpleName());
        }
        if (!attributes.isRegularFile()) {
            throw new Unreadable(what + " '" + root.relativize(file) + "' is not a regular file");
        }
        if (attributes.size() > limit) {
            throw new Unreadable(what + " '" + root.relativize(file) + "' is larger than " + limit + " bytes");
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(limit + 1);
            if (bytes.length > limit) {
                throw new Unreadable(what + " '" + root.relativize(file) + "' is larger than " + limit + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new Unreadable(what + " '" + root.relativize(file) + "' cannot be read: " + e.getClass().getSimpleName());
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
