package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.core.redaction.Redactor;
import dev.omcp.core.sources.FanOut;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.info.Governance;
import dev.omcp.sdk.connector.TracesCapability;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What every observability tool needs: the live sources, the clock, the time budget of a backend
 * fan-out, and the shared analysis state (anomaly history, health thresholds, redaction, IP
 * enrichment, the post-mortem template). Built once by the composition root with {@link #builder};
 * every part has a working default so an embedding service sets only what it uses.
 *
 * <p>Thread-safety: immutable apart from the health thresholds, which the management API may
 * replace at run time ({@link #replaceThresholds}); readers see either the old or the new set.
 */
public final class Toolkit {
    private final SourceRegistry sources;
    private final Clock clock;
    private final Duration perSourceTimeout;
    private final Duration deadline;
    private final ServiceCatalog catalog;
    private final AnomalyHistory history;
    private final boolean redactionEnabled;
    private final Redactor redactor;
    private final RedactionBypass redactionBypass;
    private final IpEnricher ipEnricher;
    private final Supplier<Optional<PostmortemTemplate>> postmortemTemplate;
    private final AtomicReference<HealthThresholds> thresholds;
    private final String howToAddSources;
    private final ListedNameVerdicts listedNameVerdicts;
    private final UnscoredServices unscoredServices;

    private Toolkit(Builder b) {
        this.sources = Objects.requireNonNull(b.sources, "sources");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.perSourceTimeout = b.perSourceTimeout;
        this.deadline = b.deadline;
        if (perSourceTimeout.compareTo(deadline) > 0) {
            throw new IllegalArgumentException("the per-source timeout must not exceed the overall deadline");
        }
        this.catalog = b.catalog;
        this.history = b.history != null ? b.history : new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        this.redactionEnabled = b.redactionEnabled;
        this.redactor = b.redactor;
        this.redactionBypass = b.redactionBypass;
        this.ipEnricher = b.ipEnricher;
        this.postmortemTemplate = b.postmortemTemplate;
        this.thresholds = new AtomicReference<>(b.thresholds);
        this.howToAddSources = b.howToAddSources;
        this.listedNameVerdicts = new ListedNameVerdicts(clock);
        this.unscoredServices = new UnscoredServices(clock, history.limits().retention());
    }

    /**
     * A toolkit over {@code sources} with default budgets (5 s per source, 10 s per call), no
     * catalog, an in-memory anomaly history, redaction on, no IP dataset and the built-in
     * post-mortem layout.
     */
    public static Builder builder(SourceRegistry sources, Clock clock) {
        return new Builder(sources, clock);
    }

    /** The live sources, routed by capability. */
    public SourceRegistry sources() {
        return sources;
    }

    /** Which names of the plugins' listings were lately found to be only the gateway's judgements ({@link ServiceListings}). */
    ListedNameVerdicts listedNameVerdicts() {
        return listedNameVerdicts;
    }

    /** Which services a post-mortem's own detection lately judged and recorded no score for ({@link PostmortemDetection}). */
    UnscoredServices unscoredServices() {
        return unscoredServices;
    }

    /** The gateway's clock. */
    public Clock clock() {
        return clock;
    }

    /** How long one source may take. */
    public Duration perSourceTimeout() {
        return perSourceTimeout;
    }

    /** How long a whole tool call may wait for its sources. */
    public Duration deadline() {
        return deadline;
    }

    /** The service catalog that enriches results (empty when none is configured, spec 2.11). */
    public ServiceCatalog catalog() {
        return catalog;
    }

    /** Detected anomaly scores of the last hour, and the optional remote-write sink behind them. */
    public AnomalyHistory history() {
        return history;
    }

    /** Whether {@code query_logs} output is redacted (spec 5.7: on unless {@code OMCP_REDACTION=off}). */
    public boolean redactionEnabled() {
        return redactionEnabled;
    }

    /** The redactor of PII and secrets. */
    public Redactor redactor() {
        return redactor;
    }

    /** Which credentials may skip the redaction of {@code query_logs} when a call asks (spec 5.7); nobody by default. */
    public RedactionBypass redactionBypass() {
        return redactionBypass;
    }

    /**
     * What a source's own failure text goes through before a tool shows it ({@link FanOut}): the
     * redaction of {@code query_logs} lines, unless it is off. A connector may quote its backend, and
     * a backend's or its proxy's error page may echo the request's credentials or a user's address;
     * every tool passes that text on, and not only {@code query_logs} redacts its whole answer.
     * Only the start {@link FanOut#message} may show is examined, and an ellipsis marks the rest.
     * A source's {@code backendWarnings} go through it too ({@link WarnedSources}), for the same reason.
     */
    public UnaryOperator<String> failureRedaction() {
        if (!redactionEnabled) {
            return UnaryOperator.identity();
        }
        return text -> {
            Redactor.HeadRedaction head = redactor.redactHead(text, FanOut.MESSAGE_EXAMINED_CHARS);
            return head.whole() ? head.text() : head.text() + "…";
        };
    }

    /** The IP enricher of {@code enrich_ips} (offline dataset, optional RDAP fallback). */
    public IpEnricher ipEnricher() {
        return ipEnricher;
    }

    /**
     * The custom post-mortem template of {@code OMCP_POSTMORTEM_TEMPLATE}, read at call time; empty
     * means the built-in layout (also when the file cannot be read, spec 4.4).
     */
    public Optional<PostmortemTemplate> postmortemTemplate() {
        return postmortemTemplate.get();
    }

    /** The health thresholds in force now. */
    public HealthThresholds thresholds() {
        return thresholds.get();
    }

    /**
     * The governance block of {@code /api/info} (spec 2.10) for a gateway that serves these tools
     * without a management plane (an embedding service without login, audit or rate limits): those
     * layers off, and what this toolkit decides read now: the catalog, redaction, the remote-write
     * history and the sources that answer {@code query_traces}. Pass it as
     * {@code Gateway.builder().governance(toolkit::governanceWithoutManagement)}; without it the
     * gateway reports every layer off, redaction included, though the tools redact.
     * A composition root that adds those layers builds its own block, as the launcher does.
     */
    public Governance governanceWithoutManagement() {
        return new Governance("anonymous", false, false, catalog.configured(), redactionEnabled, false, null,
                history.remoteSinkConfigured(), sources.countServing(TracesCapability.class));
    }

    /** Replaces the health thresholds (validated by the caller, for example the management API). */
    public void replaceThresholds(HealthThresholds replacement) {
        thresholds.set(Objects.requireNonNull(replacement, "replacement"));
    }

    /**
     * How an operator of this gateway adds a source, for the note of a {@code list_sources} answer
     * that lists none: the launcher names its variables and routes, an embedding service its own way.
     */
    public String howToAddSources() {
        return howToAddSources;
    }

    /** How long one source may take when the builder is not told: the launcher's {@code OMCP_TOOL_SOURCE_TIMEOUT} default. */
    public static final Duration DEFAULT_PER_SOURCE_TIMEOUT = Duration.ofSeconds(10);

    /** How long a whole call may wait when the builder is not told: the launcher's {@code OMCP_TOOL_DEADLINE} default. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(20);

    /** Assembles a {@link Toolkit}. */
    public static final class Builder {
        private final SourceRegistry sources;
        private final Clock clock;
        // the launcher's defaults (OMCP_TOOL_SOURCE_TIMEOUT, OMCP_TOOL_DEADLINE), so an embedded
        // gateway waits for a slow backend as long as the one the operators know
        private Duration perSourceTimeout = DEFAULT_PER_SOURCE_TIMEOUT;
        private Duration deadline = DEFAULT_DEADLINE;
        private ServiceCatalog catalog = ServiceCatalog.empty();
        private AnomalyHistory history;
        private boolean redactionEnabled = true;
        private Redactor redactor = new Redactor();
        private RedactionBypass redactionBypass = RedactionBypass.nobody();
        private IpEnricher ipEnricher = new IpEnricher(Optional.empty(), Optional.empty());
        private Supplier<Optional<PostmortemTemplate>> postmortemTemplate = Optional::empty;
        private HealthThresholds thresholds = HealthThresholds.defaults();
        private String howToAddSources = "The service embedding this gateway decides where sources come from; "
                + "ask its operator.";

        private Builder(SourceRegistry sources, Clock clock) {
            this.sources = Objects.requireNonNull(sources, "sources");
            this.clock = Objects.requireNonNull(clock, "clock");
        }

        /**
         * How long one source may take, and how long the whole call may wait; {@link
         * #DEFAULT_PER_SOURCE_TIMEOUT} and {@link #DEFAULT_DEADLINE} unless set.
         */
        public Builder timeouts(Duration perSource, Duration overall) {
            this.perSourceTimeout = Objects.requireNonNull(perSource, "perSource");
            this.deadline = Objects.requireNonNull(overall, "overall");
            return this;
        }

        public Builder catalog(ServiceCatalog catalog) {
            this.catalog = Objects.requireNonNull(catalog, "catalog");
            return this;
        }

        public Builder history(AnomalyHistory history) {
            this.history = Objects.requireNonNull(history, "history");
            return this;
        }

        public Builder redaction(boolean enabled) {
            this.redactionEnabled = enabled;
            return this;
        }

        public Builder redactor(Redactor redactor) {
            this.redactor = Objects.requireNonNull(redactor, "redactor");
            return this;
        }

        /** Who may skip the redaction of {@code query_logs} (spec 5.7); {@link RedactionBypass#nobody()} unless set. */
        public Builder redactionBypass(RedactionBypass bypass) {
            this.redactionBypass = Objects.requireNonNull(bypass, "bypass");
            return this;
        }

        public Builder ipEnricher(IpEnricher enricher) {
            this.ipEnricher = Objects.requireNonNull(enricher, "enricher");
            return this;
        }

        /** Where the custom post-mortem template comes from; asked on every call so an edited file takes effect. */
        public Builder postmortemTemplate(Supplier<Optional<PostmortemTemplate>> template) {
            this.postmortemTemplate = Objects.requireNonNull(template, "template");
            return this;
        }

        public Builder thresholds(HealthThresholds thresholds) {
            this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
            return this;
        }

        /**
         * One or two sentences telling an operator how sources are added to this gateway, shown to
         * an agent when no source is configured; by default it says the embedding service decides.
         */
        public Builder howToAddSources(String sentences) {
            Objects.requireNonNull(sentences, "sentences");
            if (sentences.isBlank()) {
                throw new IllegalArgumentException("howToAddSources must say something; leave the default instead of a blank text");
            }
            this.howToAddSources = sentences.strip();
            return this;
        }

        public Toolkit build() {
            return new Toolkit(this);
        }
    }
}
