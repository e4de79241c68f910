package dev.omcp.adapters.storage.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real file's channel that writes only the first {@code budget} bytes handed to it and then fails
 * every write, as a disk that fills up in the middle of a line does; optionally its truncation fails
 * too, and forces fail on request ({@link #failForces}). Every other operation goes to the real
 * channel. Public for the stores of other packages that append through {@link PrivateFiles#appendWhole}.
 */
public final class FailingAfterChannel extends FileChannel {
    private final FileChannel real;
    private int budget;
    private final boolean truncateFails;
    private volatile int forcesToFail;
    private final AtomicInteger forceAttempts = new AtomicInteger();
    private volatile CountDownLatch forceEntered;
    private volatile CountDownLatch forceRelease;

    public FailingAfterChannel(FileChannel real, int budget, boolean truncateFails) {
        this.real = real;
        this.budget = budget;
        this.truncateFails = truncateFails;
    }

    /**
     * Makes the next {@code count} forces fail with an I/O error and the ones after succeed, as Linux
     * may report after it dropped the pages a failed fsync could not write.
     */
    public FailingAfterChannel failForces(int count) {
        forcesToFail = count;
        return this;
    }

    /** How many forces were asked for, failed or not: a failed fsync must not be followed by one that vouches for it. */
    public int forceAttempts() {
        return forceAttempts.get();
    }

    /**
     * Makes the next force count down {@code entered} and wait for {@code release} before it goes to
     * the disk, as a slow fsync does; an interrupt while it waits is kept for the real force, as a
     * thread interrupted during a real fsync has it.
     */
    public FailingAfterChannel holdNextForce(CountDownLatch entered, CountDownLatch release) {
        forceRelease = release;
        forceEntered = entered;
        return this;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (budget <= 0) {
            throw new IOException("No space left on device");
        }
        ByteBuffer part = src.slice().limit(Math.min(src.remaining(), budget));
        int written = real.write(part);
        src.position(src.position() + written);
        budget -= written;
        return written;
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        if (truncateFails) {
            throw new IOException("Input/output error");
        }
        real.truncate(size);
        return this;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return real.read(dsts, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        throw new IOException("No space left on device");
    }

    @Override
    public long position() throws IOException {
        return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        real.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return real.size();
    }

    @Override
    public void force(boolean metaData) throws IOException {
        forceAttempts.incrementAndGet();
        CountDownLatch entered = forceEntered;
        if (entered != null) {
            forceEntered = null;
            entered.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    forceRelease.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (forcesToFail > 0) {
            forcesToFail--;
            throw new IOException("Input/output error");
        }
        real.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return real.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return real.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        throw new IOException("No space left on device");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return real.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        real.close();
    }
}
