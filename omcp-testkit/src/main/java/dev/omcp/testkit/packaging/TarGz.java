package dev.omcp.testkit.packaging;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/** Writes a reproducible ustar {@code .tgz} of regular files under one top directory. */
final class TarGz {
    private TarGz() {}

    static byte[] write(String top, Map<String, byte[]> files) {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        tar.writeBytes(header(top + "/", '5', 0, 0755));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            byte[] content = file.getValue();
            tar.writeBytes(header(top + "/" + file.getKey(), '0', content.length, 0644));
            tar.writeBytes(content);
            tar.writeBytes(new byte[(512 - content.length % 512) % 512]);
        }
        tar.writeBytes(new byte[1024]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(tar.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] header(String name, char type, long size, int mode) {
        byte[] h = new byte[512];
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        if (nameBytes.length > 100) {
            throw new IllegalArgumentException("file name '" + name + "' is longer than 100 bytes");
        }
        System.arraycopy(nameBytes, 0, h, 0, nameBytes.length);
        octal(h, 100, 8, mode);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, PluginPackager.FIXED_TIME / 1000);
        h[156] = (byte) type;
        byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, h, 257, magic.length);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
        return h;
    }

    private static void octal(byte[] h, int offset, int length, long value) {
        String text = Long.toOctalString(value);
        String padded = "0".repeat(Math.max(0, length - 1 - text.length())) + text;
        System.arraycopy(padded.getBytes(StandardCharsets.US_ASCII), 0, h, offset, length - 1);
        h[offset + length - 1] = 0;
    }
}
