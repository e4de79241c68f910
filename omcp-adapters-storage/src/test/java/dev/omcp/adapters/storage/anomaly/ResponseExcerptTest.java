package dev.omcp.adapters.storage.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ResponseExcerptTest {

    /** A subscription that records what the subscriber asked of it. */
    private static final class Recorded implements Flow.Subscription {
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public void request(long n) {
            requested.addAndGet(n);
        }

        @Override
        public void cancel() {
            cancelled.set(true);
        }
    }

    private static List<ByteBuffer> bytes(String text) {
        return List.of(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aSuccessBody_isNotRead_theSubscriptionIsCancelledAtOnce() throws Exception {
        ResponseExcerpt excerpt = new ResponseExcerpt(0, Duration.ofSeconds(10));
        Recorded subscription = new Recorded();
        excerpt.onSubscribe(subscription);

        assertThat(excerpt.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEmpty();
        assertThat(subscription.cancelled).isTrue();
        assertThat(subscription.requested.get()).isZero();
    }

    @Test
    void theBodyIsKeptUpToTheLimit_thenTheRestIsCancelled() throws Exception {
        ResponseExcerpt excerpt = new ResponseExcerpt(10, Duration.ofSeconds(10));
        Recorded subscription = new Recorded();
        excerpt.onSubscribe(subscription);
        excerpt.onNext(bytes("out of "));
        excerpt.onNext(bytes("order sample"));

        assertThat(excerpt.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEqualTo("out of ord");
        assertThat(subscription.cancelled).isTrue();
    }

    @Test
    void aShortBody_endsWithItsEnd() throws Exception {
        ResponseExcerpt excerpt = new ResponseExcerpt(100, Duration.ofSeconds(10));
        Recorded subscription = new Recorded();
        excerpt.onSubscribe(subscription);
        excerpt.onNext(bytes("bad label"));
        excerpt.onComplete();

        assertThat(excerpt.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEqualTo("bad label");
    }

    @Test
    void aBodyThatStalls_endsAtTheDeadline_withWhatArrived() throws Exception {
        ResponseExcerpt excerpt = new ResponseExcerpt(100, Duration.ofMillis(100));
        Recorded subscription = new Recorded();
        excerpt.onSubscribe(subscription);
        excerpt.onNext(bytes("half an ans"));

        assertThat(excerpt.getBody().toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo("half an ans");
        assertThat(subscription.cancelled).as("the stalled body is given up").isTrue();
    }

    @Test
    void noTimeLeft_endsAtOnce_andCancelsTheBodyWhenItArrives() throws Exception {
        ResponseExcerpt excerpt = new ResponseExcerpt(100, Duration.ofMillis(-5));
        assertThat(excerpt.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEmpty();
        Recorded subscription = new Recorded();
        excerpt.onSubscribe(subscription);
        assertThat(subscription.cancelled).isTrue();
    }

    @Test
    void aNegativeLimit_isRefused() {
        assertThatThrownBy(() -> new ResponseExcerpt(-1, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got -1");
    }
}
