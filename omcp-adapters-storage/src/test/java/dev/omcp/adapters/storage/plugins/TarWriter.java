package dev.omcp.adapters.storage.plugins;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Writes tar archives for tests, including every kind of entry a hostile bundle may hold. */
final class TarWriter {
    private final ByteArrayOutputStream tar = new ByteArrayOutputStream();

    TarWriter file(String name, byte[] content) {
        return entry(name, '0', content, "");
    }

    TarWriter file(String name, String content) {
        return file(name, content.getBytes(StandardCharsets.UTF_8));
    }

    TarWriter directory(String name) {
        return entry(name.endsWith("/") ? name : name + "/", '5', new byte[0], "");
    }

    TarWriter symlink(String name, String target) {
        return entry(name, '2', new byte[0], target);
    }

    TarWriter hardlink(String name, String target) {
        return entry(name, '1', new byte[0], target);
    }

    TarWriter device(String name) {
        return entry(name, '3', new byte[0], "");
    }

    TarWriter fifo(String name) {
        return entry(name, '6', new byte[0], "");
    }

    /** A pax extended header setting the next entry's path. */
    TarWriter paxPath(String path) {
        return pax("path", path);
    }

    /** A pax extended header with one record {@code key=value} for the next entry. */
    TarWriter pax(String key, String value) {
        return paxHeader('x', key, value);
    }

    /** A pax global header with one record {@code key=value} for every later entry. */
    TarWriter globalPax(String key, String value) {
        return paxHeader('g', key, value);
    }

    /** A file whose header's size field says {@code headerSize}, whatever its content's length. */
    TarWriter fileWithHeaderSize(String name, String content, long headerSize) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        tar.writeBytes(header(name, '0', headerSize, ""));
        tar.writeBytes(bytes);
        tar.writeBytes(new byte[(512 - bytes.length % 512) % 512]);
        return this;
    }

    private TarWriter paxHeader(char type, String key, String value) {
        byte[] record = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
        int length = record.length + String.valueOf(record.length).length();
        if (String.valueOf(length).length() != String.valueOf(record.length).length()) {
            length++;
        }
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        full.writeBytes(String.valueOf(length).getBytes(StandardCharsets.US_ASCII));
        full.writeBytes(record);
        return entry("PaxHeaders/x", type, full.toByteArray(), "");
    }

    /** A file whose header name is these raw bytes (at most 100), which need not be UTF-8. */
    TarWriter fileWithRawName(byte[] name, byte[] content) {
        byte[] h = header("placeholder", '0', content.length, "");
        java.util.Arrays.fill(h, 0, 100, (byte) 0);
        System.arraycopy(name, 0, h, 0, name.length);
        checksum(h);
        tar.writeBytes(h);
        tar.writeBytes(content);
        tar.writeBytes(new byte[(512 - content.length % 512) % 512]);
        return this;
    }

    /** A GNU long-name entry setting the next entry's name. */
    TarWriter gnuLongName(String name) {
        return entry("././@LongLink", 'L', (name + "\0").getBytes(StandardCharsets.UTF_8), "");
    }

    /** A header whose checksum is wrong. */
    TarWriter corruptHeader(String name) {
        byte[] header = header(name, '0', 0, "");
        header[148] = '7';
        tar.writeBytes(header);
        return this;
    }

    TarWriter entry(String name, char type, byte[] content, String link) {
        tar.writeBytes(header(name, type, content.length, link));
        tar.writeBytes(content);
        int padding = (512 - content.length % 512) % 512;
        tar.writeBytes(new byte[padding]);
        return this;
    }

    private static byte[] header(String name, char type, long size, String link) {
        byte[] h = new byte[512];
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        if (nameBytes.length > 100) {
            throw new IllegalArgumentException("use gnuLongName or paxPath for names over 100 bytes");
        }
        System.arraycopy(nameBytes, 0, h, 0, nameBytes.length);
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, 1_700_000_000L);
        h[156] = (byte) type;
        byte[] linkBytes = link.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(linkBytes, 0, h, 157, Math.min(100, linkBytes.length));
        byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, h, 257, magic.length);
        checksum(h);
        return h;
    }

    private static void checksum(byte[] h) {
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
    }

    private static void octal(byte[] h, int offset, int length, long value) {
        String text = Long.toOctalString(value);
        String padded = "0".repeat(Math.max(0, length - 1 - text.length())) + text;
        byte[] bytes = padded.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, h, offset, bytes.length);
        h[offset + length - 1] = 0;
    }

    /** The archive, two zero blocks appended, gzip-compressed. */
    byte[] tgz() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(tar.toByteArray());
            gzip.write(new byte[1024]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
