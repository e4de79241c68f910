package dev.omcp.core.analysis.postmortem;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One anomaly episode of the post-mortem timeline: the anomalous judgements of one (service,
 * signal) that describe the same deviation, because the detector dated them to the same onset
 * (see {@link AnomalyEpisodes} for the grouping rule).
 *
 * @param service the service
 * @param signal the signal (the metric the detector judged)
 * @param onset when the deviation began: the earliest onset of its judgements, or, when none of
 *     them was dated, the time it was first recorded (an upper bound: it began then or earlier)
 * @param onsetKnown whether {@code onset} is the detector's dating ({@code false}: first recorded time)
 * @param lastSeen when it was last judged anomalous
 * @param peakScore the highest score of its judgements (robust sigmas)
 * @param kind the kind of the peak judgement ({@code spike}, {@code step}, {@code ramp}, ...), when known
 * @param judgments how many recorded judgements the episode collapses
 * @param levelAboveLargestBucket some judgement found the level above the histogram's largest
 *     bucket ({@code +Inf}); the peak is then such a judgement and {@code peakScore} a lower bound
 */
public record AnomalyEpisode(
        String service, String signal, Instant onset, boolean onsetKnown, Instant lastSeen, double peakScore, Optional<String> kind,
        int judgments, boolean levelAboveLargestBucket) {
    public AnomalyEpisode {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(onset, "onset");
        Objects.requireNonNull(lastSeen, "lastSeen");
        Objects.requireNonNull(kind, "kind");
        if (lastSeen.isBefore(onset)) {
            throw new IllegalArgumentException("an episode is last seen (" + lastSeen + ") before its onset (" + onset + ")");
        }
        if (!Double.isFinite(peakScore) || peakScore < 0) {
            throw new IllegalArgumentException("an episode's peak score must be finite and >= 0, got " + peakScore);
        }
        if (judgments < 1) {
            throw new IllegalArgumentException("an episode collapses at least one judgement, got " + judgments);
        }
    }

    /** An episode whose scores were all measured, none a lower bound. */
    public AnomalyEpisode(
            String service, String signal, Instant onset, boolean onsetKnown, Instant lastSeen, double peakScore, Optional<String> kind,
            int judgments) {
        this(service, signal, onset, onsetKnown, lastSeen, peakScore, kind, judgments, false);
    }
}
