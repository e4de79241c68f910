package dev.omcp.app.settings;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * The bytes of a settings file up to its bound, then {@link SettingsFiles.TooLarge}: the size was
 * checked before opening, but a file that grows meanwhile (a log mistaken for a dataset) must not
 * be read on without end.
 */
final class CappedInputStream extends FilterInputStream {
    private final Path path;
    private final long maxBytes;
    private long read;

    CappedInputStream(InputStream in, Path path, long maxBytes) {
        super(in);
        this.path = path;
        this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count(skipped);
        return skipped;
    }

    private void count(long n) throws SettingsFiles.TooLarge {
        read += n;
        if (read > maxBytes) {
            throw new SettingsFiles.TooLarge(path, -1, maxBytes);
        }
    }
}
