package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.BundleRejectedException;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a gzip-compressed tar bundle in-process and refuses anything unsafe before a byte is
 * written: absolute paths, {@code ..} segments, backslashes and drive letters, symbolic and hard
 * links, device and FIFO entries, duplicate paths, paths that differ only in letter case or Unicode
 * normalization (one would overwrite the other on macOS or Windows), a file that is also a
 * directory's parent, corrupt headers, and entries, totals, entry counts or compression ratios over
 * the limits ({@link PluginLimits}). Every refusal names the limit and what to do. Understands
 * ustar (with the 155-byte prefix), POSIX pax path and size records and GNU long names, so bundles from
 * {@code tar} and {@code npm pack} are accepted. A single top-level directory that holds the whole
 * plugin (npm's {@code package/}) is stripped.
 */
final class TarballReader {
    private static final int BLOCK = 512;
    private static final int MAX_NAME_LENGTH = 1024;
    /** One file or directory name: what Linux, macOS and Windows file systems allow. */
    private static final int MAX_SEGMENT_BYTES = 255;
    /** How much of a name a refusal quotes. */
    private static final int MAX_SHOWN_NAME = 200;
    private static final int MAX_PAX_BYTES = 64 * 1024;

    private TarballReader() {}

    /** One file or directory of the bundle, its path already checked and relative. */
    record Entry(String path, boolean directory, byte[] content) {}

    /** The bounds a bundle is read within; tests use small ones, {@link #DEFAULT} is {@link PluginLimits}'. */
    record Bounds(long compressed, long entry, long total, int entries, int ratio, long ratioFloor) {
        static final Bounds DEFAULT = new Bounds(PluginLimits.MAX_BUNDLE_BYTES, PluginLimits.MAX_BUNDLE_ENTRY_BYTES,
                PluginLimits.MAX_BUNDLE_TOTAL_BYTES, PluginLimits.MAX_BUNDLE_ENTRIES, PluginLimits.MAX_BUNDLE_RATIO, PluginLimits.RATIO_FLOOR_BYTES);
    }

    static List<Entry> read(byte[] tgz) throws BundleRejectedException {
        return read(tgz, Bounds.DEFAULT);
    }

    static List<Entry> read(byte[] tgz, Bounds bounds) throws BundleRejectedException {
        if (tgz.length > bounds.compressed()) {
            throw new BundleRejectedException("the bundle is larger than " + size(bounds.compressed()) + ", the upload limit");
        }
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(tgz), 8192)) {
            readEntries(new CountingInput(in, bounds, tgz.length), entries, bounds);
        } catch (ZipException e) {
            throw new BundleRejectedException("the bundle is not a gzip-compressed tar archive (.tgz): " + e.getMessage());
        } catch (EOFException e) {
            throw new BundleRejectedException("the bundle is truncated: the tar archive ends inside an entry");
        } catch (IOException e) {
            throw new BundleRejectedException("the bundle cannot be read: " + e.getMessage());
        }
        if (entries.stream().noneMatch(e -> !e.directory())) {
            throw new BundleRejectedException("the bundle holds no files");
        }
        refuseFilesUsedAsDirectories(entries);
        return stripSingleTopDirectory(entries);
    }

    /** Counts inflated bytes so a gzip bomb stops at the total limit or the ratio, before it is read. */
    private static final class CountingInput {
        private final InputStream in;
        private final Bounds bounds;
        private final long compressed;
        private long total;

        CountingInput(InputStream in, Bounds bounds, long compressed) {
            this.in = in;
            this.bounds = bounds;
            this.compressed = compressed;
        }

        /** Counts {@code length} more inflated bytes, refusing before they are read when they pass a bound. */
        private void count(long length) throws BundleRejectedException {
            total += length;
            if (total > bounds.total()) {
                throw new BundleRejectedException("the bundle inflates to more than " + size(bounds.total())
                        + ", the limit for all its files together; a plugin bundle holds its package.json, manifest.json, signature"
                        + " and entry JAR: leave dependencies, build output and test data out of it");
            }
            if (total > bounds.ratioFloor() && total > compressed * bounds.ratio()) {
                throw new BundleRejectedException("the bundle inflates to more than " + bounds.ratio()
                        + " times its compressed size, the limit once it passes " + size(bounds.ratioFloor())
                        + "; that is a compression bomb, not a plugin (whose JAR hardly compresses): pack the plugin's own files");
            }
        }

        byte[] readFully(long length, String what) throws IOException, BundleRejectedException {
            count(length);
            byte[] bytes = in.readNBytes((int) length);
            if (bytes.length != length) {
                throw new EOFException(what);
            }
            return bytes;
        }

        /** Reads a header block; empty array at a clean end of the stream. */
        byte[] block() throws IOException, BundleRejectedException {
            byte[] first = in.readNBytes(BLOCK);
            if (first.length == 0) {
                return first;
            }
            if (first.length != BLOCK) {
                throw new EOFException("header");
            }
            count(BLOCK);
            return first;
        }

        void skipPadding(long size) throws IOException, BundleRejectedException {
            long padding = (BLOCK - size % BLOCK) % BLOCK;
            if (padding > 0) {
                readFully(padding, "padding");
            }
        }
    }

    private static void readEntries(CountingInput in, List<Entry> entries, Bounds bounds) throws IOException, BundleRejectedException {
        Set<String> seen = new HashSet<>();
        Map<String, String> folded = new HashMap<>();
        String longName = null;
        PaxRecords pax = PaxRecords.NONE;
        int count = 0;
        while (true) {
            byte[] header = in.block();
            if (header.length == 0 || isZero(header)) {
                return;
            }
            if (!checksumMatches(header)) {
                throw new BundleRejectedException("the bundle is corrupt: tar header " + (count + 1) + " has a wrong checksum");
            }
            if (++count > bounds.entries()) {
                throw new BundleRejectedException("the bundle has more than " + bounds.entries() + " entries, the limit; a plugin"
                        + " bundle needs package.json, manifest.json, a signature and the entry JAR: pack only the plugin's own files");
            }
            char type = (char) header[156];
            // a pax size record overrides the header's size field, as every tar reader does; reading
            // the header's instead would see other files than `tar tf` shows for the same bundle
            long size = pax.size() >= 0 ? pax.size() : size(header);
            String rawName = longName != null ? longName : pax.path() != null ? pax.path() : headerName(header);
            switch (type) {
                case 'L' -> {
                    longName = text(in.readFully(bounded(size, MAX_NAME_LENGTH, "a GNU long name"), "long name"));
                    in.skipPadding(size);
                    continue;
                }
                case 'x' -> {
                    pax = paxRecords(in.readFully(bounded(size, MAX_PAX_BYTES, "a pax header"), "pax header"));
                    in.skipPadding(size);
                    continue;
                }
                case 'g' -> {
                    PaxRecords global = paxRecords(in.readFully(bounded(size, MAX_PAX_BYTES, "a global pax header"), "pax header"));
                    in.skipPadding(size);
                    if (global.path() != null || global.size() >= 0) {
                        throw new BundleRejectedException("the bundle has a global pax header that sets a path or size for every later entry;"
                                + " tar and npm pack never write one: pack the plugin's files again with tar or npm pack");
                    }
                    continue;
                }
                case '1' -> throw new BundleRejectedException("entry '" + shown(rawName) + "' is a hard link; bundles may hold only files and directories");
                case '2' -> throw new BundleRejectedException("entry '" + shown(rawName) + "' is a symbolic link; bundles may hold only files and directories");
                case 'K' -> throw new BundleRejectedException("entry '" + shown(rawName) + "' is a link; bundles may hold only files and directories");
                case '3', '4' -> throw new BundleRejectedException("entry '" + shown(rawName) + "' is a device; bundles may hold only files and directories");
                case '6' -> throw new BundleRejectedException("entry '" + shown(rawName) + "' is a FIFO; bundles may hold only files and directories");
                case '0', '\0', '7', '5' -> {
                    // regular file, old regular file, contiguous file, directory: handled below
                }
                default -> throw new BundleRejectedException("entry '" + shown(rawName) + "' has the unsupported tar type '" + shown(String.valueOf(type)) + "'");
            }
            longName = null;
            pax = PaxRecords.NONE;
            String path = checkedPath(rawName);
            boolean directory = type == '5' || rawName.endsWith("/");
            if (!seen.add(path)) {
                throw new BundleRejectedException("entry '" + shown(path) + "' appears twice in the bundle; pack each file once");
            }
            String other = folded.putIfAbsent(fold(path), path);
            if (other != null) {
                throw new BundleRejectedException("entries '" + shown(other) + "' and '" + shown(path) + "' differ only in letter case or Unicode"
                        + " normalization; on a case-insensitive file system one would overwrite the other: rename one and pack again");
            }
            if (directory) {
                if (size != 0) {
                    in.readFully(bounded(size, MAX_PAX_BYTES, "a directory"), "directory");
                    in.skipPadding(size);
                }
                entries.add(new Entry(path, true, new byte[0]));
                continue;
            }
            if (size > bounds.entry()) {
                throw new BundleRejectedException("entry '" + shown(path) + "' is larger than " + size(bounds.entry())
                        + ", the limit for one file of a bundle; shrink the plugin JAR (leave out what the gateway provides: the SDK,"
                        + " jakarta.json, SLF4J)");
            }
            byte[] content = in.readFully(size, path);
            in.skipPadding(size);
            entries.add(new Entry(path, false, content));
        }
    }

    /** A file {@code a} next to {@code a/b} cannot be unpacked; refused here with both names, not later as an I/O error. */
    private static void refuseFilesUsedAsDirectories(List<Entry> entries) throws BundleRejectedException {
        Set<String> files = new HashSet<>();
        for (Entry entry : entries) {
            if (!entry.directory()) {
                files.add(fold(entry.path()));
            }
        }
        for (Entry entry : entries) {
            String path = entry.path();
            for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
                if (files.contains(fold(path.substring(0, slash)))) {
                    throw new BundleRejectedException("entry '" + shown(path) + "' lies under '" + shown(path.substring(0, slash))
                            + "', which the bundle also holds as a file; rename one and pack again");
                }
            }
        }
    }

    /** The form under which two names land on the same file of a case-insensitive, normalizing file system. */
    private static String fold(String path) {
        return Normalizer.normalize(path, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
    }

    private static String size(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }

    private static long bounded(long size, int limit, String what) throws BundleRejectedException {
        if (size > limit) {
            throw new BundleRejectedException("the bundle has " + what + " larger than " + limit + " bytes");
        }
        return size;
    }

    /** The checked relative path of an entry name. */
    static String checkedPath(String name) throws BundleRejectedException {
        if (name.isEmpty()) {
            throw new BundleRejectedException("the bundle has an entry without a name");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new BundleRejectedException("entry '" + shown(name) + "' has a name longer than " + MAX_NAME_LENGTH
                    + " characters, the limit; a plugin's files need no such names: shorten it and pack again");
        }
        if (name.codePoints().anyMatch(TarballReader::unprintable)) {
            throw new BundleRejectedException("entry '" + shown(name) + "' has a control, format or line-separator character (shown as ?)"
                    + " in its name; such names hide what a file is in listings and logs: rename it and pack again");
        }
        if (name.startsWith("/")) {
            throw new BundleRejectedException("entry '" + shown(name) + "' has an absolute path; bundles hold relative paths only");
        }
        if (name.contains("\\") || name.matches("^[A-Za-z]:.*")) {
            throw new BundleRejectedException("entry '" + shown(name) + "' has a Windows path (backslash or drive letter)");
        }
        List<String> parts = new ArrayList<>();
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                throw new BundleRejectedException("entry '" + shown(name) + "' has a '..' segment; it would escape the plugin directory");
            }
            if (segment.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
                throw new BundleRejectedException("entry '" + shown(name) + "' has a file or directory name longer than " + MAX_SEGMENT_BYTES
                        + " bytes, more than file systems allow: shorten it and pack again");
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                parts.add(segment);
            }
        }
        if (parts.isEmpty()) {
            return ".";
        }
        if (parts.size() > PluginLimits.MAX_BUNDLE_DEPTH) {
            throw new BundleRejectedException("entry '" + shown(name) + "' lies " + parts.size() + " names deep, more than "
                    + PluginLimits.MAX_BUNDLE_DEPTH + ", the limit; a plugin bundle holds a few files at its top: pack only those");
        }
        return String.join("/", parts);
    }

    /** Characters a file name must not hold: they forge log lines, or hide or reorder what a name shows. */
    private static boolean unprintable(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE,
                    Character.UNASSIGNED, Character.PRIVATE_USE -> true;
            default -> codePoint == 0xFFFD;
        };
    }

    /** A name as a refusal quotes it: unprintable characters as {@code ?}, cut so that a message stays one short line. */
    static String shown(String name) {
        StringBuilder shown = new StringBuilder();
        name.codePoints().limit(MAX_SHOWN_NAME).forEach(c -> shown.appendCodePoint(unprintable(c) ? '?' : c));
        return name.codePointCount(0, name.length()) > MAX_SHOWN_NAME ? shown + "..." : shown.toString();
    }

    private static List<Entry> stripSingleTopDirectory(List<Entry> entries) throws BundleRejectedException {
        List<Entry> real = entries.stream().filter(e -> !e.path().equals(".")).toList();
        boolean rootDescriptor = real.stream().anyMatch(e -> e.path().equals(PluginDirectoryCheck.PACKAGE_JSON));
        String top = real.isEmpty() ? "" : real.getFirst().path().split("/")[0];
        boolean allUnderTop = !top.isEmpty()
                && real.stream().allMatch(e -> (e.path().equals(top) && e.directory()) || e.path().startsWith(top + "/"))
                && real.stream().anyMatch(e -> e.path().startsWith(top + "/"));
        if (rootDescriptor || !allUnderTop) {
            return real;
        }
        List<Entry> stripped = new ArrayList<>();
        for (Entry entry : real) {
            if (entry.path().equals(top)) {
                continue;
            }
            stripped.add(new Entry(entry.path().substring(top.length() + 1), entry.directory(), entry.content()));
        }
        return stripped;
    }

    private static boolean isZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean checksumMatches(byte[] header) throws BundleRejectedException {
        long expected = octal(header, 148, 8, "checksum");
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            int b = (i >= 148 && i < 156) ? ' ' : header[i];
            unsigned += b & 0xff;
            signed += b;
        }
        return expected == unsigned || expected == signed;
    }

    private static long size(byte[] header) throws BundleRejectedException {
        if ((header[124] & 0x80) != 0) {
            throw new BundleRejectedException("the bundle has an entry larger than the tar octal size field allows");
        }
        return octal(header, 124, 12, "size");
    }

    private static long octal(byte[] header, int offset, int length, String field) throws BundleRejectedException {
        long value = 0;
        int end = offset + length;
        int i = offset;
        while (i < end && (header[i] == ' ' || header[i] == 0)) {
            i++;
        }
        for (; i < end && header[i] != 0 && header[i] != ' '; i++) {
            int digit = header[i] - '0';
            if (digit < 0 || digit > 7) {
                throw new BundleRejectedException("the bundle is corrupt: a tar " + field + " field is not octal");
            }
            value = value * 8 + digit;
        }
        return value;
    }

    private static String headerName(byte[] header) {
        String name = cString(header, 0, 100);
        boolean ustar = cString(header, 257, 6).startsWith("ustar");
        String prefix = ustar ? cString(header, 345, 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String cString(byte[] bytes, int offset, int length) {
        int end = offset;
        while (end < offset + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    /** The {@code path} record of a pax extended header, or null. */
    /** What a pax extended header sets for the next entry: its path, or null, and its size, or -1. */
    private record PaxRecords(String path, long size) {
        static final PaxRecords NONE = new PaxRecords(null, -1);
    }

    private static PaxRecords paxRecords(byte[] bytes) throws BundleRejectedException {
        String path = null;
        long size = -1;
        int i = 0;
        while (i < bytes.length) {
            int space = i;
            while (space < bytes.length && bytes[space] != ' ') {
                space++;
            }
            int length;
            try {
                length = Integer.parseInt(new String(bytes, i, space - i, StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                throw new BundleRejectedException("the bundle is corrupt: a pax header record has no length");
            }
            if (length <= 0 || i + length > bytes.length || space + 1 > i + length - 1) {
                throw new BundleRejectedException("the bundle is corrupt: a pax header record overruns its header");
            }
            String record = new String(bytes, space + 1, i + length - space - 2, StandardCharsets.UTF_8);
            int equals = record.indexOf('=');
            if (equals > 0) {
                String key = record.substring(0, equals);
                String value = record.substring(equals + 1);
                switch (key) {
                    case "path" -> path = value;
                    case "size" -> size = paxSize(value);
                    case "linkpath" -> throw new BundleRejectedException("the bundle has a link (pax linkpath); bundles may hold only files and directories");
                    default -> {
                        // times, owners, charset and vendor records change nothing the gateway unpacks
                    }
                }
            }
            i += length;
        }
        return new PaxRecords(path, size);
    }

    /** A pax size: decimal digits only, and small enough that the entry bounds, not an overflow, decide. */
    private static long paxSize(String value) throws BundleRejectedException {
        if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new BundleRejectedException("the bundle is corrupt: a pax size record is not a byte count");
        }
        return Long.parseLong(value);
    }
}
