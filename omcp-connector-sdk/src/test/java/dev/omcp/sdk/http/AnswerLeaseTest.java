package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.memory.AnswerBudget.Reading;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * How a body's bytes are reserved in the budget as they arrive and given back: at once when the
 * body fails, at the lease's close otherwise. A leak would shrink the budget for good, so every way
 * a body can end is checked to leave the budget where it started.
 */
class AnswerLeaseTest {
    private static final int WEIGHT = Reading.TOKENS.weight();

    private final AnswerBudget budget = AnswerBudget.ofBytes(10_000);

    /** Counts cancellations, as the HTTP client's subscription drops the connection on one. */
    private static final class Subscription implements Flow.Subscription {
        int cancelled;

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {
            cancelled++;
        }
    }

    private final Subscription subscription = new Subscription();

    private BoundedBody.Collector collector(AnswerLease lease, int max, long declared) {
        BoundedBody.Collector collector = new BoundedBody.Collector(max, declared, byte[]::new, lease);
        collector.onSubscribe(subscription);
        return collector;
    }

    private static List<ByteBuffer> bytes(int... sizes) {
        return java.util.Arrays.stream(sizes).mapToObj(size -> ByteBuffer.wrap(new byte[size])).toList();
    }

    private static Throwable failureOf(BoundedBody.Collector collector) {
        CompletableFuture<byte[]> body = collector.getBody().toCompletableFuture();
        assertThat(body).isCompletedExceptionally();
        return assertThatThrownBy(body::get).isInstanceOf(ExecutionException.class).actual().getCause();
    }

    @Test
    void aStreamedBody_reservesItsBytesAsTheyArrive_andGivesThemBackAtClose() throws Exception {
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 1 << 20, -1);
        assertThat(budget.inFlight()).as("nothing before the first byte").isZero();

        collector.onNext(bytes(100, 200));
        assertThat(budget.inFlight()).isEqualTo(300L * WEIGHT);
        collector.onNext(bytes(50));
        collector.onComplete();
        assertThat(collector.getBody().toCompletableFuture().get()).hasSize(350);
        assertThat(budget.inFlight()).as("held while the caller parses").isEqualTo(350L * WEIGHT);
        assertThat(lease.held()).isEqualTo(350L * WEIGHT);

        lease.close();
        assertThat(budget.inFlight()).isZero();
        lease.close();
        assertThat(budget.inFlight()).as("closing twice gives back nothing twice").isZero();
    }

    @Test
    void aSmallDeclaredBody_reservesItsWholeLengthBeforeItsArrayIsMade() throws Exception {
        try (AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TREE)) {
            BoundedBody.Collector collector = collector(lease, 1 << 20, 500);
            assertThat(budget.inFlight()).isEqualTo(500L * Reading.TREE.weight());
            collector.onNext(bytes(500));
            collector.onComplete();
            assertThat(collector.getBody().toCompletableFuture().get()).hasSize(500);
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aBodyThatOutgrowsTheBudget_isRefusedWhileArriving_cancelled_andGivesBackWhatItHeld() {
        AnswerLease other = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        collector(other, 1 << 20, -1).onNext(bytes(2000)); // another answer in flight holds 6000
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 1 << 20, -1);
        collector.onNext(bytes(1000));
        assertThat(budget.inFlight()).isEqualTo(9000);

        collector.onNext(bytes(400)); // 1200 more do not fit in the 1000 left

        Throwable failure = failureOf(collector);
        assertThat(failure).isInstanceOf(AnswerBudget.Exhausted.class);
        AnswerBudget.Exhausted exhausted = (AnswerBudget.Exhausted) failure;
        assertThat(exhausted.answerNeeds()).isEqualTo(1400L * WEIGHT);
        assertThat(exhausted.fitsAlone()).as("it would have fit alone: a retry may pass").isTrue();
        assertThat(subscription.cancelled).isEqualTo(1);
        assertThat(collector.held()).isZero();
        assertThat(budget.inFlight()).as("only the other answer's bytes are left").isEqualTo(6000);

        collector.onNext(bytes(10)); // the client may still deliver what it had read
        assertThat(budget.inFlight()).isEqualTo(6000);
        lease.close();
        other.close();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aSmallDeclaredBodyWithoutRoom_isRefusedBeforeItsArrayIsMade() {
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TREE);
        BoundedBody.Collector collector = new BoundedBody.Collector(1 << 20, 1000, size -> {
            throw new AssertionError("no array for a refused body");
        }, lease);
        collector.onSubscribe(subscription);

        Throwable failure = failureOf(collector);
        assertThat(((AnswerBudget.Exhausted) failure).fitsAlone()).as("11000 can never fit in 10000").isFalse();
        assertThat(budget.inFlight()).isZero();
        lease.close();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aBodyTooLarge_givesBackWhatItHeld_beforeTheLeaseCloses() {
        AnswerLease lease = new AnswerLease(budget, 150, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 150, -1);
        collector.onNext(bytes(100));
        collector.onNext(bytes(100));
        assertThat(BoundedBody.isTooLarge(failureOf(collector))).isTrue();
        assertThat(budget.inFlight()).isZero();
        lease.close();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aDeclaredLengthOverTheBound_reservesNothing() {
        AnswerLease lease = new AnswerLease(budget, 150, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 150, 151);
        assertThat(BoundedBody.isTooLarge(failureOf(collector))).isTrue();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aBodyWithoutHeapForItsArray_givesBackWhatItHeld() {
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector collector = new BoundedBody.Collector(1 << 20, -1, size -> {
            throw new OutOfMemoryError("Java heap space");
        }, lease);
        collector.onSubscribe(subscription);
        collector.onNext(bytes(300));
        collector.onComplete();
        assertThat(BoundedBody.isOutOfMemory(failureOf(collector))).isTrue();
        assertThat(budget.inFlight()).isZero();
        lease.close();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aBodyTheConnectionEnds_orThatEndsShortOfItsLength_givesBackWhatItHeld() {
        AnswerLease reset = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector resetBody = collector(reset, 1 << 20, -1);
        resetBody.onNext(bytes(300));
        resetBody.onError(new IOException("connection reset"));
        assertThat(failureOf(resetBody)).hasMessage("connection reset");
        assertThat(budget.inFlight()).isZero();

        AnswerLease cut = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector cutBody = collector(cut, 4 << 20, 2 << 20); // declared above the up-front size: streamed
        cutBody.onNext(bytes(300));
        cutBody.onComplete();
        assertThat(failureOf(cutBody)).hasMessageContaining("declared");
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aCallerThatStopsWaiting_getsEverythingBackAtClose_andLaterBytesAreRefused() {
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 1 << 20, -1);
        collector.onNext(bytes(500));

        lease.close(); // the request timed out or the call was cancelled: the body is still arriving
        assertThat(budget.inFlight()).isZero();
        assertThat(lease.held()).isZero();

        collector.onNext(bytes(500));
        assertThat(budget.inFlight()).as("bytes after the close are not reserved").isZero();
        assertThat(subscription.cancelled).as("and the abandoned body is dropped").isEqualTo(1);
        assertThat(failureOf(collector)).hasMessage("the caller stopped waiting for the body");
        assertThat(collector.held()).isZero();
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aBodyCompletedAfterItsCallerLeft_holdsNoBudget() {
        AnswerLease lease = new AnswerLease(budget, 1 << 20, Reading.TOKENS);
        BoundedBody.Collector collector = collector(lease, 1 << 20, 200);
        collector.onNext(bytes(200));
        lease.close();
        collector.onComplete(); // completes a response nobody will read
        assertThat(budget.inFlight()).isZero();
    }
}
