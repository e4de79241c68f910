package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.BundleRejectedException;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a gzip-compressed tar bundle in-process and refuses anything unsafe before a byte is
 * written: absolute paths, {@code ..} segments, backslashes and drive letters, symbolic and hard
 * links, device and FIFO entries, duplicate paths, corrupt headers, and entries or totals over the
 * size limits. Understands ustar (with the 155-byte prefix), POSIX pax path records and GNU long
 * names, so bundles from {@code tar} and {@code npm pack} are accepted. A single top-level
 * directory that holds the whole plugin (npm's {@code package/}) is stripped.
 */
final class TarballReader {
    private static final int BLOCK = 512;
    private static final int MAX_NAME_LENGTH = 1024;
    private static final int MAX_PAX_BYTES = 64 * 1024;

    private TarballReader() {}

    /** One file or directory of the bundle, its path already checked and relative. */
    record Entry(String path, boolean directory, byte[] content) {}

    static List<Entry> read(byte[] tgz) throws BundleRejectedException {
        if (tgz.length > PluginLimits.MAX_BUNDLE_BYTES) {
            throw new BundleRejectedException("the bundle is larger than " + (PluginLimits.MAX_BUNDLE_BYTES >> 20) + " MiB");
        }
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(tgz), 8192)) {
            readEntries(new CountingInput(in), entries);
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
        return stripSingleTopDirectory(entries);
    }

    /** Counts inflated bytes so a gzip bomb stops at the total limit. */
    private static final class CountingInput {
        private final InputStream in;
        private long total;

        CountingInput(InputStream in) {
            this.in = in;
        }

        byte[] readFully(long length, String what) throws IOException, BundleRejectedException {
            total += length;
            if (total > PluginLimits.MAX_BUNDLE_TOTAL_BYTES) {
                throw new BundleRejectedException("the bundle inflates to more than " + (PluginLimits.MAX_BUNDLE_TOTAL_BYTES >> 20) + " MiB");
            }
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
            total += BLOCK;
            if (total > PluginLimits.MAX_BUNDLE_TOTAL_BYTES) {
                throw new BundleRejectedException("the bundle inflates to more than " + (PluginLimits.MAX_BUNDLE_TOTAL_BYTES >> 20) + " MiB");
            }
            return first;
        }

        void skipPadding(long size) throws IOException, BundleRejectedException {
            long padding = (BLOCK - size % BLOCK) % BLOCK;
            if (padding > 0) {
                readFully(padding, "padding");
            }
        }
    }

    private static void readEntries(CountingInput in, List<Entry> entries) throws IOException, BundleRejectedException {
        Set<String> seen = new HashSet<>();
        String longName = null;
        String paxPath = null;
        int count = 0;
        while (true) {
            byte[] header = in.block();
            if (header.length == 0 || isZero(header)) {
                return;
            }
            if (!checksumMatches(header)) {
                throw new BundleRejectedException("the bundle is corrupt: tar header " + (count + 1) + " has a wrong checksum");
            }
            if (++count > PluginLimits.MAX_BUNDLE_ENTRIES) {
                throw new BundleRejectedException("the bundle has more than " + PluginLimits.MAX_BUNDLE_ENTRIES + " entries");
            }
            char type = (char) header[156];
            long size = size(header);
            String rawName = longName != null ? longName : paxPath != null ? paxPath : headerName(header);
            switch (type) {
                case 'L' -> {
                    longName = text(in.readFully(bounded(size, MAX_NAME_LENGTH, "a GNU long name"), "long name"));
                    in.skipPadding(size);
                    continue;
                }
                case 'x' -> {
                    paxPath = paxPath(in.readFully(bounded(size, MAX_PAX_BYTES, "a pax header"), "pax header"));
                    in.skipPadding(size);
                    continue;
                }
                case 'g' -> {
                    in.readFully(bounded(size, MAX_PAX_BYTES, "a global pax header"), "pax header");
                    in.skipPadding(size);
                    continue;
                }
                case '1' -> throw new BundleRejectedException("entry '" + rawName + "' is a hard link; bundles may hold only files and directories");
                case '2' -> throw new BundleRejectedException("entry '" + rawName + "' is a symbolic link; bundles may hold only files and directories");
                case 'K' -> throw new BundleRejectedException("entry '" + rawName + "' is a link; bundles may hold only files and directories");
                case '3', '4' -> throw new BundleRejectedException("entry '" + rawName + "' is a device; bundles may hold only files and directories");
                case '6' -> throw new BundleRejectedException("entry '" + rawName + "' is a FIFO; bundles may hold only files and directories");
                case '0', '\0', '7', '5' -> {
                    // regular file, old regular file, contiguous file, directory: handled below
                }
                default -> throw new BundleRejectedException("entry '" + rawName + "' has the unsupported tar type '" + type + "'");
            }
            longName = null;
            paxPath = null;
            String path = checkedPath(rawName);
            boolean directory = type == '5' || rawName.endsWith("/");
            if (!seen.add(path)) {
                throw new BundleRejectedException("entry '" + path + "' appears twice in the bundle");
            }
            if (directory) {
                if (size != 0) {
                    in.readFully(bounded(size, MAX_PAX_BYTES, "a directory"), "directory");
                    in.skipPadding(size);
                }
                entries.add(new Entry(path, true, new byte[0]));
                continue;
            }
            if (size > PluginLimits.MAX_BUNDLE_ENTRY_BYTES) {
                throw new BundleRejectedException("entry '" + path + "' is larger than " + (PluginLimits.MAX_BUNDLE_ENTRY_BYTES >> 20) + " MiB");
            }
            byte[] content = in.readFully(size, path);
            in.skipPadding(size);
            entries.add(new Entry(path, false, content));
        }
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
        if (name.length() > MAX_NAME_LENGTH || name.indexOf('\0') >= 0) {
            throw new BundleRejectedException("the bundle has an entry with an unusable name");
        }
        if (name.startsWith("/")) {
            throw new BundleRejectedException("entry '" + name + "' has an absolute path; bundles hold relative paths only");
        }
        if (name.contains("\\") || name.matches("^[A-Za-z]:.*")) {
            throw new BundleRejectedException("entry '" + name + "' has a Windows path (backslash or drive letter)");
        }
        List<String> parts = new ArrayList<>();
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                throw new BundleRejectedException("entry '" + name + "' has a '..' segment; it would escape the plugin directory");
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                parts.add(segment);
            }
        }
        if (parts.isEmpty()) {
            return ".";
        }
        return String.join("/", parts);
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
    private static String paxPath(byte[] bytes) throws BundleRejectedException {
        String path = null;
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
                if (key.equals("path")) {
                    path = record.substring(equals + 1);
                } else if (key.equals("linkpath")) {
                    throw new BundleRejectedException("the bundle has a link (pax linkpath); bundles may hold only files and directories");
                }
            }
            i += length;
        }
        return path;
    }
}
