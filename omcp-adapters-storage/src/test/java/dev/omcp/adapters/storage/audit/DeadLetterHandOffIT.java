package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.adapters.storage.files.FailingAfterChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sink's queue cannot take goes to the dead-letter file without a request thread ever
 * waiting for that file, and nothing written after the sink closed keeps a descriptor open.
 */
class DeadLetterHandOffIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    /** Every channel the dead-letter file opened; the first one's next fsync is held until {@code release}. */
    private final List<FailingAfterChannel> opened = new CopyOnWriteArrayList<>();

    private UnaryOperator<FileChannel> recording(CountDownLatch entered, CountDownLatch release) {
        return real -> {
            FailingAfterChannel channel = new FailingAfterChannel(real, Integer.MAX_VALUE, false);
            if (opened.isEmpty() && entered != null) {
                channel.holdNextForce(entered, release);
            }
            opened.add(channel);
            return channel;
        };
    }

    private static BatchingAuditSink sink(Delivery delivery, DeadLetterFile deadLetters, int queue) {
        return new BatchingAuditSink("webhook", delivery, new BatchingAuditSink.Settings(queue, new BatchWindow(1, Duration.ofMillis(10)),
                new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10)), Duration.ofSeconds(3)), deadLetters, Clock.systemUTC(),
                new SplittableRandom(1), pause -> { });
    }

    @Test
    void aFullQueueNeverMakesPublishWaitForTheDeadLetterFsync_andNothingIsLostOnceTheDiskRecovers() throws Exception {
        CountDownLatch fsyncEntered = new CountDownLatch(1);
        CountDownLatch disk = new CountDownLatch(1);
        Path file = dir.resolve("dead.jsonl");
        List<Long> delivered = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        // the first batch is refused: the sink's thread dead-letters it and stays in that file's fsync until the disk recovers
        Delivery refusingFirst = batch -> {
            if (calls.incrementAndGet() == 1) {
                return new Delivery.Permanent("HTTP 400: refused");
            }
            batch.forEach(r -> delivered.add(r.entry().seq()));
            return new Delivery.Delivered();
        };
        BatchingAuditSink sink = sink(refusingFirst, new DeadLetterFile(Optional.of(file), Clock.systemUTC(),
                recording(fsyncEntered, disk)), 5);
        try {
            sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
            assertThat(fsyncEntered.await(10, TimeUnit.SECONDS)).as("the sink's thread is in the dead-letter fsync").isTrue();

            // 2..6 fill the queue the stuck thread no longer takes from; 7..11 overflow it
            CompletableFuture<Void> publishing = CompletableFuture.runAsync(() -> {
                for (int seq = 2; seq <= 11; seq++) {
                    sink.publish(TestRecords.record(seq, T0, "user:a", "update", "s"));
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            publishing.get(3, TimeUnit.SECONDS); // throws TimeoutException if a publish waits for the disk
            assertThat(disk.getCount()).as("the disk is still stuck").isEqualTo(1);
            assertThat(sink.stats().overflowed()).isEqualTo(5);
        } finally {
            disk.countDown();
        }
        await(() -> sink.stats().delivered() + sink.stats().deadLettered() == 11);
        sink.close();

        List<Long> deadSeqs = Files.readAllLines(file).stream().map(DeadLetterHandOffIT::seq).sorted().toList();
        assertThat(deadSeqs).containsExactly(1L, 7L, 8L, 9L, 10L, 11L);
        assertThat(delivered).containsExactly(2L, 3L, 4L, 5L, 6L);
        assertThat(sink.stats().lost()).isZero();
        assertThat(opened).isNotEmpty().allSatisfy(channel -> assertThat(channel.isOpen()).isFalse());
    }

    @Test
    void whenTheDiskStaysStuckPastWhatTheHandOffHolds_theRestIsCountedAsLost_neverDroppedSilently() throws Exception {
        CountDownLatch fsyncEntered = new CountDownLatch(1);
        CountDownLatch disk = new CountDownLatch(1);
        Path file = dir.resolve("dead.jsonl");
        Delivery refusing = batch -> new Delivery.Permanent("HTTP 400: refused");
        int total = BatchingAuditSink.HAND_OFF_MIN_CAPACITY + 2000;
        BatchingAuditSink sink = sink(refusing, new DeadLetterFile(Optional.of(file), Clock.systemUTC(), recording(fsyncEntered, disk)), 2);
        try {
            sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
            assertThat(fsyncEntered.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> publishing = CompletableFuture.runAsync(() -> {
                for (int seq = 2; seq <= total; seq++) {
                    sink.publish(TestRecords.record(seq, T0, "user:a", "update", "s"));
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            publishing.get(3, TimeUnit.SECONDS);
        } finally {
            disk.countDown();
        }
        sink.close();

        long lines = Files.readAllLines(file).size();
        // the queue (2) and the hand-off (waiting, and one batch in hand) hold some; the rest cannot be kept, and each is counted
        assertThat(sink.stats().lost()).isGreaterThanOrEqualTo(total - 1 - 2 - BatchingAuditSink.HAND_OFF_MIN_CAPACITY - 1000);
        assertThat(lines + sink.stats().lost()).isEqualTo(total);
        assertThat(sink.stats().deadLettered()).isEqualTo(total);
    }

    @Test
    void anEntryTheDeadLetterFileCannotTake_isCountedAsLost_andStatusReportsIt() throws Exception {
        // the dead-letter file's folder is a regular file: every write fails, as on a full or read-only disk
        Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "x");
        Delivery refusing = batch -> new Delivery.Permanent("HTTP 400: refused");
        BatchingAuditSink sink = sink(refusing, new DeadLetterFile(Optional.of(notAFolder.resolve("dead.jsonl")), Clock.systemUTC()), 5);
        try {
            sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
            await(() -> sink.stats().deadLettered() == 1);
        } finally {
            sink.close();
        }

        assertThat(sink.stats().lost()).as("refused by the destination and not written to the dead-letter file").isEqualTo(1);
        assertThat(sink.status().orElseThrow().lost()).isEqualTo(1);
        assertThat(sink.status().orElseThrow().deadLettered()).isEqualTo(1);
    }

    @Test
    void anEntryArrivingAfterTheSinkClosed_isStillDeadLettered_andLeavesNoFileOpen() throws Exception {
        Path file = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(batch -> new Delivery.Delivered(),
                new DeadLetterFile(Optional.of(file), Clock.systemUTC(), recording(null, null)), 10);
        sink.close();

        sink.publish(TestRecords.record(7, T0, "user:a", "update", "s"));
        sink.publish(TestRecords.record(8, T0, "user:a", "update", "s"));

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).extracting(DeadLetterHandOffIT::seq).containsExactly(7L, 8L);
        assertThat(JSON.readTree(lines.get(0)).get("reason").asText()).isEqualTo("the sink was stopping when the entry arrived");
        assertThat(sink.stats().deadLettered()).isEqualTo(2);
        assertThat(opened).isNotEmpty().allSatisfy(channel -> assertThat(channel.isOpen()).as("a leaked descriptor").isFalse());
    }

    private static long seq(String line) {
        try {
            return JSON.readTree(line).get("entry").get("seq").asLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 15 s");
            }
            Thread.sleep(20);
        }
    }
}
