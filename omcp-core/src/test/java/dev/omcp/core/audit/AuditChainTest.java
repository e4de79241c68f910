package dev.omcp.core.audit;

import dev.omcp.testkit.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditLogState;
import dev.omcp.ports.audit.AuditPage;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.audit.AuditSink;
import dev.omcp.ports.audit.AuditSinkStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AuditChainTest {
    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00.123456Z");
    private final ManualClock clock = new ManualClock(T0);

    private static AuditEvent event(String target) {
        return new AuditEvent("user:alice", "acme", "sources", "create", "POST", "/api/sources", 201, "10.0.0.7", target);
    }

    /** A store that keeps every record it was given, in order. */
    static class ListLog implements AuditLog {
        final List<AuditRecord> records = Collections.synchronizedList(new ArrayList<>());
        AuditLogState state = AuditLogState.empty();
        IOException failNext;
        final List<Long> durableTickets = Collections.synchronizedList(new ArrayList<>());

        @Override
        public AuditLogState open() {
            return state;
        }

        @Override
        public long append(AuditRecord record) {
            if (failNext != null) {
                IOException e = failNext;
                failNext = null;
                throw new UncheckedIOException("disk full", e);
            }
            records.add(record);
            return record.entry().seq() * 10;
        }

        UncheckedIOException failNextDurable;
        /** Set as a store that fsyncs in the background sets it when that fsync fails. */
        volatile String refusing;

        @Override
        public java.util.Optional<String> refusing() {
            return java.util.Optional.ofNullable(refusing);
        }

        @Override
        public void awaitDurable(long ticket) {
            if (failNextDurable != null) {
                UncheckedIOException e = failNextDurable;
                failNextDurable = null;
                throw e;
            }
            durableTickets.add(ticket);
        }

        @Override
        public List<AuditEntry> find(AuditQuery query) {
            List<AuditEntry> newestFirst = new ArrayList<>(records.stream().map(AuditRecord::entry).toList());
            Collections.reverse(newestFirst);
            return newestFirst.stream().filter(query::matches).limit(query.limit()).toList();
        }

        @Override
        public boolean persistent() {
            return true;
        }

        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void onceClosed_theChainRefusesChangesBeforeTheyAreMade_andAnEntryAfterwardsFailsSayingTheGatewayStops() {
        // a management request still running after the HTTP server stopped (its grace ran out) meets a closed chain
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        chain.record(event("before"));

        chain.close();

        assertThat(chain.unavailable()).as("checked before a change is made (fail closed)")
                .hasValueSatisfying(reason -> assertThat(reason).contains("closed because the gateway is stopping"));
        assertThat(chain.recording()).isEqualTo(AuditRecording.STOPPED);
        assertThatThrownBy(() -> chain.record(event("after"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the audit log was closed because the gateway is stopping")
                .hasMessageContaining("not written");
        assertThat(log.records).as("nothing reached the store after the close").hasSize(1);
    }

    @Test
    void firstEntryChainsToSixtyFourZerosAndEachNextToThePreviousHash() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();

        chain.record(event("a"));
        chain.record(event("b"));

        AuditEntry first = log.records.get(0).entry();
        AuditEntry second = log.records.get(1).entry();
        assertThat(first.seq()).isEqualTo(1);
        assertThat(first.prevHash()).isEqualTo("0".repeat(64));
        assertThat(second.seq()).isEqualTo(2);
        assertThat(second.prevHash()).isEqualTo(first.hash());
        assertThat(first.hash()).isNotEqualTo(second.hash());
    }

    @Test
    void hashIsSha256OfTheCanonicalJsonWithoutHash() throws Exception {
        ListLog log = new ListLog();
        new AuditChain(log, List.of(), clock).start().record(event("prod"));
        AuditRecord record = log.records.get(0);

        String withoutHash = "{\"action\":\"create\",\"actor\":\"user:alice\",\"ip\":\"10.0.0.7\",\"method\":\"POST\","
                + "\"path\":\"/api/sources\",\"prevHash\":\"" + "0".repeat(64) + "\",\"resource\":\"sources\",\"seq\":1,"
                + "\"status\":201,\"target\":\"prod\",\"tenant\":\"acme\",\"ts\":\"2025-03-01T10:00:00.123Z\"}";
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(withoutHash.getBytes(StandardCharsets.UTF_8)));

        assertThat(record.entry().hash()).isEqualTo(expected);
        assertThat(record.json()).isEqualTo("{\"action\":\"create\",\"actor\":\"user:alice\",\"hash\":\"" + expected
                + "\",\"ip\":\"10.0.0.7\",\"method\":\"POST\",\"path\":\"/api/sources\",\"prevHash\":\"" + "0".repeat(64)
                + "\",\"resource\":\"sources\",\"seq\":1,\"status\":201,\"target\":\"prod\",\"tenant\":\"acme\","
                + "\"ts\":\"2025-03-01T10:00:00.123Z\"}");
    }

    @Test
    void timeComesFromTheClockAndNeverGoesBackwards() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        chain.record(event("a"));
        clock.advance(Duration.ofSeconds(5));
        chain.record(event("b"));
        clock.set(T0.minusSeconds(3600)); // the wall clock jumps back (NTP)
        chain.record(event("c"));

        assertThat(log.records.get(0).entry().ts()).isEqualTo(Instant.parse("2025-03-01T10:00:00.123Z"));
        assertThat(log.records.get(1).entry().ts()).isEqualTo(Instant.parse("2025-03-01T10:00:05.123Z"));
        assertThat(log.records.get(2).entry().ts()).isEqualTo(log.records.get(1).entry().ts());
    }

    @Test
    void restartContinuesSeqAndChainFromTheStoresTip() {
        ListLog before = new ListLog();
        AuditChain first = new AuditChain(before, List.of(), clock).start();
        first.record(event("a"));
        first.record(event("b"));
        AuditEntry tip = before.records.get(1).entry();

        ListLog after = new ListLog();
        after.state = new AuditLogState(Optional.of(tip), Optional.empty());
        AuditChain second = new AuditChain(after, List.of(), clock).start();
        second.record(event("c"));

        assertThat(after.records.get(0).entry().seq()).isEqualTo(3);
        assertThat(after.records.get(0).entry().prevHash()).isEqualTo(tip.hash());
        assertThat(second.find(AuditQuery.latest()).tipSeq()).isEqualTo(3);
    }

    @Test
    void aTipThatDoesNotMatchItsHashStopsTheStart() {
        ListLog before = new ListLog();
        new AuditChain(before, List.of(), clock).start().record(event("a"));
        AuditEntry tip = before.records.get(0).entry();
        AuditEntry altered = new AuditEntry(tip.ts(), tip.seq(), "user:mallory", tip.tenant(), tip.resource(),
                tip.action(), tip.method(), tip.path(), tip.status(), tip.ip(), tip.target(), tip.prevHash(), tip.hash());
        ListLog after = new ListLog();
        after.state = new AuditLogState(Optional.of(altered), Optional.empty());

        assertThatThrownBy(() -> new AuditChain(after, List.of(), clock).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("seq 1")
                .hasMessageContaining("omcp audit verify");
        assertThat(after.records).isEmpty();
        assertThat(after.closed).as("the store was closed").isTrue();
    }

    /** Three chained entries, as a store would hold them. */
    private List<AuditEntry> threeEntries() {
        ListLog before = new ListLog();
        AuditChain chain = new AuditChain(before, List.of(), clock).start();
        chain.record(event("a"));
        chain.record(event("b"));
        chain.record(event("c"));
        return before.records.stream().map(AuditRecord::entry).toList();
    }

    private void assertStartRefused(AuditEntry beforeLast, AuditEntry last, String... named) {
        ListLog after = new ListLog();
        after.state = new AuditLogState(Optional.of(last), Optional.of(beforeLast), Optional.empty());

        assertThatThrownBy(() -> new AuditChain(after, List.of(), clock).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("omcp audit verify")
                .hasMessageContaining(named[0])
                .hasMessageContaining(named.length > 1 ? named[1] : named[0]);
        assertThat(after.records).isEmpty();
        // the store lets go of the file and its writer's lock, so the operator can look at and repair it
        assertThat(after.closed).as("the store was closed").isTrue();
    }

    @Test
    void aDuplicatedLastLineStopsTheStartThoughEachCopyMatchesItsHash() {
        List<AuditEntry> entries = threeEntries();

        assertStartRefused(entries.get(2), entries.get(2), "seq 3");
    }

    @Test
    void aRemovedSecondToLastEntryStopsTheStart() {
        List<AuditEntry> entries = threeEntries();

        assertStartRefused(entries.get(0), entries.get(2), "seq 1", "seq 3");
    }

    @Test
    void swappedLastEntriesStopTheStart() {
        List<AuditEntry> entries = threeEntries();

        assertStartRefused(entries.get(2), entries.get(1), "seq 3", "seq 2");
    }

    @Test
    void aTipRehashedOverAnotherPrevHashStopsTheStart() {
        List<AuditEntry> entries = threeEntries();
        AuditEntry tip = entries.get(2);
        AuditEntryCodec.Entry forged = new AuditEntryCodec.Entry(tip.ts(), tip.seq(), tip.actor(), tip.tenant(), tip.resource(),
                tip.action(), tip.method(), tip.path(), tip.status(), tip.ip(), tip.target(), "1".repeat(64), null);
        AuditEntry rehashed = forged.withHash(AuditEntryCodec.hash(forged));

        assertStartRefused(entries.get(1), rehashed, "seq 3", "prevHash");
    }

    @Test
    void anAlteredSecondToLastEntryStopsTheStart() {
        List<AuditEntry> entries = threeEntries();
        AuditEntry middle = entries.get(1);
        AuditEntry altered = new AuditEntry(middle.ts(), middle.seq(), "user:mallory", middle.tenant(), middle.resource(),
                middle.action(), middle.method(), middle.path(), middle.status(), middle.ip(), middle.target(),
                middle.prevHash(), middle.hash());

        assertStartRefused(altered, entries.get(2), "seq 2");
    }

    @Test
    void aTipThatFollowsItsPredecessorStarts() {
        List<AuditEntry> entries = threeEntries();
        ListLog after = new ListLog();
        after.state = new AuditLogState(Optional.of(entries.get(2)), Optional.of(entries.get(1)), Optional.empty());

        new AuditChain(after, List.of(), clock).start().record(event("d"));

        assertThat(after.records.get(0).entry().seq()).isEqualTo(4);
    }

    @Test
    void aRepairedTornTailIsRecordedAsTheFirstNewEntry() {
        ListLog log = new ListLog();
        log.state = new AuditLogState(Optional.empty(), Optional.of(new AuditLogState.TornTail(4096, 37)));

        new AuditChain(log, List.of(), clock).start();

        AuditEntry repair = log.records.get(0).entry();
        assertThat(repair.seq()).isEqualTo(1);
        assertThat(repair.actor()).isEqualTo("omcp");
        assertThat(repair.resource()).isEqualTo("audit");
        assertThat(repair.action()).isEqualTo("repair-torn-tail");
        assertThat(repair.target()).isEqualTo("offset=4096,bytes=37");
        assertThat(repair.status()).isZero();
        assertThat(repair.method()).isNull();
    }

    @Test
    void aFailedStoreWriteUsesUpNoSeq() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        chain.record(event("a"));
        log.failNext = new IOException("No space left on device");

        assertThatThrownBy(() -> chain.record(event("lost"))).isInstanceOf(UncheckedIOException.class);
        chain.record(event("b"));

        assertThat(log.records).extracting(r -> r.entry().seq()).containsExactly(1L, 2L);
        assertThat(log.records.get(1).entry().prevHash()).isEqualTo(log.records.get(0).entry().hash());
        assertThat(log.records.get(1).entry().target()).isEqualTo("b");
    }

    @Test
    void aFailedStoreWriteMakesTheTrailUnavailableUntilTheNextWriteSucceeds() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        assertThat(chain.unavailable()).isEmpty();
        log.failNext = new IOException("No space left on device");

        assertThatThrownBy(() -> chain.record(event("lost"))).isInstanceOf(UncheckedIOException.class);

        // fail closed: the management plane reads this and refuses changes it could not audit
        assertThat(chain.unavailable()).hasValueSatisfying(reason -> assertThat(reason).contains("disk full"));
        chain.record(event("refusal"));
        assertThat(chain.unavailable()).isEmpty();
        assertThat(log.records).extracting(r -> r.entry().target()).containsExactly("refusal");
    }

    @Test
    void aFailedFsyncMakesTheTrailUnavailableThoughTheEntryWasWritten() {
        ListLog log = new ListLog();
        log.failNextDurable = new UncheckedIOException("could not fsync", new IOException("Input/output error"));
        AuditChain chain = new AuditChain(log, List.of(), clock).start();

        assertThatThrownBy(() -> chain.record(event("a"))).isInstanceOf(UncheckedIOException.class);

        assertThat(chain.unavailable()).hasValueSatisfying(reason -> assertThat(reason).contains("fsync"));
        chain.record(event("b"));
        assertThat(chain.unavailable()).isEmpty();
    }

    @Test
    void aStoreThatStoppedBetweenAppends_makesTheTrailUnavailableBeforeTheNextChange_andReportsItStopped() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        chain.record(event("a"));
        assertThat(chain.unavailable()).isEmpty();
        assertThat(chain.recording()).isEqualTo(AuditRecording.OK);

        log.refusing = "an fsync of the audit file failed (Input/output error)"; // the store's background fsync failed

        // no append has failed yet, but the next change must be refused before it is made
        assertThat(chain.unavailable()).contains("an fsync of the audit file failed (Input/output error)");
        assertThat(chain.recording()).isEqualTo(AuditRecording.STOPPED);
    }

    @Test
    void aFailedWriteReportsRecordingAsFailingUntilAWriteSucceeds() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        log.failNext = new IOException("No space left on device");

        assertThatThrownBy(() -> chain.record(event("a"))).isInstanceOf(UncheckedIOException.class);
        assertThat(chain.recording()).isEqualTo(AuditRecording.FAILING);
        chain.record(event("b"));
        assertThat(chain.recording()).isEqualTo(AuditRecording.OK);
    }

    @Test
    void everyRecordWaitsForItsOwnDurabilityTicket() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        chain.record(event("a"));
        chain.record(event("b"));
        assertThat(log.durableTickets).containsExactly(10L, 20L);
    }

    @Test
    void eightWritersAThousandEachGetSeqOneTo8000WithoutGapsAndAValidChain() throws Exception {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int writer = t;
                writers.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 1000; i++) {
                        chain.record(event("w" + writer + "-" + i));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> writer : writers) {
                writer.get();
            }
        }

        assertThat(log.records).hasSize(8000);
        ChainVerifier verifier = ChainVerifier.fromGenesis();
        for (int i = 0; i < log.records.size(); i++) {
            assertThat(log.records.get(i).entry().seq()).isEqualTo(i + 1L);
            verifier.accept(log.records.get(i).json().getBytes(StandardCharsets.UTF_8), true);
        }
        assertThat(verifier.result()).isEqualTo(new ChainVerifier.Valid(8000, 1, 8000, log.records.get(7999).entry().hash()));
    }

    @Test
    void sinksDeliverTheirQueuesAtCloseAtTheSameTime_soTheStopTakesTheSlowestSinksTime_notTheSum() throws Exception {
        // each sink may spend its bounded delivery time at close (webhook, S3): one after the other they added up past an
        // orchestrator's termination grace. Each of these two closes returns only once the other's has begun.
        CountDownLatch webhookClosing = new CountDownLatch(1);
        CountDownLatch s3Closing = new CountDownLatch(1);
        List<String> delivered = Collections.synchronizedList(new ArrayList<>());
        AuditSink webhook = closingWith("webhook", webhookClosing, s3Closing, delivered);
        AuditSink s3 = closingWith("s3", s3Closing, webhookClosing, delivered);
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(webhook, s3), clock).start();

        chain.close();

        assertThat(delivered).containsExactlyInAnyOrder("webhook", "s3");
    }

    private static AuditSink closingWith(String name, CountDownLatch mine, CountDownLatch other, List<String> delivered) {
        return new AuditSink() {
            public String name() { return name; }
            public void publish(AuditRecord record) {}
            public void close() {
                mine.countDown();
                try {
                    if (other.await(5, TimeUnit.SECONDS)) {
                        delivered.add(name);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    @Test
    void sinksGetEveryStoredRecordInOrderAndAThrowingSinkDoesNotStopTheChain() {
        List<Long> seen = new ArrayList<>();
        AuditSink recording = new AuditSink() {
            public String name() { return "recording"; }
            public void publish(AuditRecord record) { seen.add(record.entry().seq()); }
            public void close() {}
        };
        AuditSink broken = new AuditSink() {
            public String name() { return "broken"; }
            public void publish(AuditRecord record) { throw new IllegalStateException("bug in a sink"); }
            public void close() {}
        };
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(broken, recording), clock).start();

        chain.record(event("a"));
        chain.record(event("b"));

        assertThat(seen).containsExactly(1L, 2L);
        assertThat(log.records).hasSize(2);
    }

    @Test
    void theHistoryReportsEverySinksStatus_soAnOperatorSeesADestinationThatIsDown() {
        AuditSinkStatus down = new AuditSinkStatus("webhook", 3, 0, 7, 2, 0, Optional.of(Instant.parse("2025-03-01T09:00:00Z")),
                Optional.of("HTTP 503"));
        AuditSink failing = new AuditSink() {
            public String name() { return "webhook"; }
            public void publish(AuditRecord record) {}
            public void close() {}
            public Optional<AuditSinkStatus> status() { return Optional.of(down); }
        };
        AuditSink silent = new AuditSink() {
            public String name() { return "custom"; }
            public void publish(AuditRecord record) {}
            public void close() {}
        };
        AuditChain chain = new AuditChain(new ListLog(), List.of(silent, failing), clock).start();

        assertThat(chain.sinks()).containsExactly(down);
    }

    /** A store whose fsync of seq 1 waits until the test lets it finish; later entries are durable at once. */
    static final class SlowFirstFsyncLog extends ListLog {
        final CountDownLatch firstFsyncStarted = new CountDownLatch(1);
        final CountDownLatch finishFirstFsync = new CountDownLatch(1);

        @Override
        public void awaitDurable(long ticket) {
            if (ticket == 10) {
                firstFsyncStarted.countDown();
                try {
                    finishFirstFsync.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            super.awaitDurable(ticket);
        }
    }

    @Test
    void sinksGetAnEntryOnlyOnceItIsDurable_andStillInSeqOrder() throws Exception {
        List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        AuditSink recording = new AuditSink() {
            public String name() { return "recording"; }
            public void publish(AuditRecord record) { seen.add(record.entry().seq()); }
            public void close() {}
        };
        SlowFirstFsyncLog log = new SlowFirstFsyncLog();
        AuditChain chain = new AuditChain(log, List.of(recording), clock).start();
        List<Long> seenBeforeTheFirstFsyncEnded;
        try (ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> first = writers.submit(() -> chain.record(event("a")));
            try {
                log.firstFsyncStarted.await();
                chain.record(event("b")); // durable at once, but seq 1 before it is not yet
                seenBeforeTheFirstFsyncEnded = List.copyOf(seen);
            } finally {
                log.finishFirstFsync.countDown();
            }
            first.get();
        }

        assertThat(log.records).hasSize(2);
        assertThat(seenBeforeTheFirstFsyncEnded).isEmpty();
        assertThat(seen).containsExactly(1L, 2L);
    }

    @Test
    void anEntryWhoseFsyncFailedStillReachesTheSinks_soTheyShowNoGap() {
        List<Long> seen = new ArrayList<>();
        AuditSink recording = new AuditSink() {
            public String name() { return "recording"; }
            public void publish(AuditRecord record) { seen.add(record.entry().seq()); }
            public void close() {}
        };
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(recording), clock).start();
        log.failNextDurable = new UncheckedIOException("could not fsync", new IOException("Input/output error"));

        assertThatThrownBy(() -> chain.record(event("a"))).isInstanceOf(UncheckedIOException.class);
        chain.record(event("b"));

        assertThat(seen).containsExactly(1L, 2L);
    }

    @Test
    void hostileFieldsAreBoundedAndMadeValidUnicode() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();

        chain.record(new AuditEvent("x".repeat(5000), "", "sources", "delete", "DELETE", "/api/sources/" + "p".repeat(5000),
                204, "", "bad\ud800name"));

        AuditEntry entry = log.records.get(0).entry();
        assertThat(entry.actor()).hasSize(AuditEventFields.MAX_NAME).endsWith("…");
        assertThat(entry.path()).hasSize(AuditEventFields.MAX_PATH);
        assertThat(entry.target()).isEqualTo("bad\uFFFDname");
        assertThat(entry.tenant()).isNull();
        assertThat(entry.ip()).isNull();
    }

    @Test
    void findReturnsTheStoresEntriesAndTheTip() {
        ListLog log = new ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        AuditPage empty = chain.find(AuditQuery.latest());
        assertThat(empty.tipHash()).isEqualTo(AuditEntry.GENESIS_HASH);
        assertThat(empty.tipSeq()).isZero();

        chain.record(event("a"));
        chain.record(event("b"));
        AuditPage page = chain.find(AuditQuery.latest());

        assertThat(page.entries()).extracting(AuditEntry::target).containsExactly("b", "a");
        assertThat(page.tipHash()).isEqualTo(page.entries().get(0).hash());
        assertThat(page.tipSeq()).isEqualTo(2);
    }

    @Test
    void recordingBeforeStartIsABug() {
        AuditChain chain = new AuditChain(new ListLog(), List.of(), clock);
        assertThatThrownBy(() -> chain.record(event("a"))).isInstanceOf(IllegalStateException.class);
    }
}
