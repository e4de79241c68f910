package dev.omcp.core.hooks;

import dev.omcp.core.redaction.Redactor;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.text.LogPace;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the hooks of one kind over a payload (spec 6.1): ascending priority, each on a thread of its
 * own with a timeout, a returned payload replacing the current one, {@code allow: false} stopping
 * the chain, and a throw or timeout handled by the hook's mode. Thread-safe.
 *
 * <p>Hooks are plugin code, so they run on platform threads, not virtual ones: a virtual thread
 * that computes without blocking never gives its carrier back, and a hook looping on one per core
 * would stop every other virtual thread of the gateway, which serves all its requests on them. A
 * timeout frees the call but cannot stop a hook that ignores the interrupt; such a hook keeps its
 * thread. So a run takes one of its plugin's {@link #MAX_RUNNING} slots before it starts and holds it
 * until it ends, past its timeout if need be: a burst of calls to a hook that hangs can then hold no
 * more threads than that, where a check of the overdue runs alone would let every call of the burst
 * start before the first is overdue. A call finding every slot taken waits up to the timeout for one
 * (a healthy hook under load ends its runs well within it); when none frees, or when every slot is
 * held by a run past its timeout, the call counts as the hook failing, without starting it. The bound
 * is the plugin's, not one registration's: a reinstall or a re-registration replaces the hook object,
 * but the threads its stuck runs hold stay taken, so a count per registration would let every
 * reinstall hold another {@link #MAX_RUNNING} threads.
 *
 * <p>What a throwing hook's message may show is {@link ThrownMessage}'s: the agent gets it
 * redacted and bounded, the log the whole of it, redacted, under a reference both carry.
 */
public final class HookPipeline {
    /** How long one hook may run before it counts as a throw (spec 6.1: 5 s by default). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /** Runs of one plugin's hooks that may be going at once, so also the most that can be stuck past their timeout. */
    static final int MAX_RUNNING = 8;
    private static final Logger LOG = LoggerFactory.getLogger(HookPipeline.class);
    /** At most one line a minute per hook for the failures a permissive hook ignores. */
    private static final Duration IGNORED_FAILURE_LINES_EVERY = Duration.ofMinutes(1);
    /** A run's state, settled once by whichever of its worker and its caller comes first: running. */
    private static final int RUNNING = 0;
    private static final int ENDED = 1;
    private static final int OVERDUE = 2;
    /** Submitted, not started yet: on a loaded machine a worker may not start within the timeout. */
    private static final int QUEUED = 3;
    /** The caller stopped waiting before the worker started: it never runs the hook. */
    private static final int ABANDONED = 4;

    private final HookRegistry registry;
    private final Optional<HookMode> modeOverride;
    private final Duration timeout;
    /** Per plugin, its runs; an entry stays once made, one per plugin name the gateway ever ran a hook of. */
    private final ConcurrentHashMap<String, PluginRuns> runs = new ConcurrentHashMap<>();
    private final ThrownMessage thrown = new ThrownMessage(new Redactor());
    private final Clock clock;
    /**
     * Per hook, the pace of the lines of failures its permissive mode ignores: a hook that fails every
     * call would otherwise write a line per call. An enforced failure is always logged, since the
     * agent's refusal names its line's reference.
     */
    private final ConcurrentHashMap<String, LogPace> ignoredFailureLines = new ConcurrentHashMap<>();
    /** Daemon threads, kept for a minute between calls, so a steady load does not create one per call. */
    private final ExecutorService workers;

    /**
     * @param registry the hooks in force
     * @param modeOverride {@code OMCP_HOOK_MODE}: when present, the mode of every hook
     * @param timeout how long one hook may run
     * @param clock paces the log lines of the failures a permissive hook shrugs off
     */
    public HookPipeline(HookRegistry registry, Optional<HookMode> modeOverride, Duration timeout, Clock clock) {
        this(registry, modeOverride, timeout, clock,
                Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("omcp-hook-", 0).factory()));
    }

    /** As above, with the threads hooks run on (tests hold them back). */
    HookPipeline(HookRegistry registry, Optional<HookMode> modeOverride, Duration timeout, Clock clock, ExecutorService workers) {
        this.workers = Objects.requireNonNull(workers, "workers");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.modeOverride = Objects.requireNonNull(modeOverride, "modeOverride");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the hook timeout must be positive");
        }
    }

    /** Whether any hook of {@code kind} would run; lets callers skip building payloads. */
    public boolean active(HookKind kind) {
        if (modeOverride.orElse(null) == HookMode.DISABLED) {
            return false;
        }
        return !registry.hooks(kind).isEmpty();
    }

    /** Runs the hooks of {@code context.kind()} over {@code payload}. */
    public HookVerdict run(HookContext context, JsonObject payload) {
        JsonObject current = payload;
        List<HookRegistration> hooks = registry.hooks(context.kind());
        for (HookRegistration registration : hooks) {
            HookMode mode = modeOverride.orElse(registration.mode());
            if (mode == HookMode.DISABLED) {
                continue;
            }
            Outcome outcome = invoke(registration, context, current);
            switch (outcome) {
                case Outcome.Answered answered -> {
                    HookResult result = answered.result();
                    if (!result.allow()) {
                        return blocked(registration, context, result.reason().filter(r -> !r.isBlank()));
                    }
                    if (result.payload().isPresent()) {
                        Optional<String> problem = shapeProblem(context.kind(), result.payload().get());
                        if (problem.isEmpty()) {
                            current = result.payload().get();
                            continue;
                        }
                        Optional<HookVerdict> failed = fail(mode, registration, context, new Outcome.Failed("hook " + registration.label() + " " + problem.get()));
                        if (failed.isPresent()) {
                            return failed.get();
                        }
                    }
                }
                case Outcome.Failed failed -> {
                    Optional<HookVerdict> verdict = fail(mode, registration, context, failed);
                    if (verdict.isPresent()) {
                        return verdict.get();
                    }
                }
            }
        }
        return new HookVerdict.Proceed(current);
    }

    /**
     * A hook refused the call ({@code allow: false}, spec 6.1 rule 2). Its reason is plugin text, so
     * it reaches the agent as a thrown message does: redacted, on one line, bounded, naming the log
     * reference when it shows less than the log line (which has it redacted too).
     */
    private HookVerdict blocked(HookRegistration registration, HookContext context, Optional<String> given) {
        String ref = ThrownMessage.newReference();
        String reason;
        String logReason;
        if (given.isEmpty()) {
            reason = "refused by the " + context.kind().wireName() + " hook of plugin '" + registration.plugin() + "'";
            logReason = reason;
        } else {
            ThrownMessage.Texts texts = thrown.of(given.get());
            reason = texts.shortened()
                    ? texts.forAgent() + " (hook " + registration.label() + "; the gateway log has the rest as ref=" + ref + ")"
                    : texts.forAgent();
            logReason = texts.forLog();
        }
        LOG.info("event=hook-blocked hook={} ref={} target=\"{}\" principal=\"{}\" reason=\"{}\"", registration.label(), ref,
                forLog(context.target()), forLog(context.principal()), forLog(logReason, LOG_REASON_MAX));
        return new HookVerdict.Blocked(reason);
    }

    /**
     * Enforce: blocked with the failure's reason; permissive: logged, the prior payload kept. The log
     * line has the whole (redacted) text and a reference; the agent's reason names that reference
     * only when it shows less than the log does.
     */
    private Optional<HookVerdict> fail(HookMode mode, HookRegistration registration, HookContext context, Outcome.Failed failure) {
        String ref = ThrownMessage.newReference();
        String modeName = mode.name().toLowerCase(Locale.ROOT);
        if (mode != HookMode.ENFORCE) {
            long failures = ignoredFailureLines.computeIfAbsent(registration.label(), label -> new LogPace(clock, IGNORED_FAILURE_LINES_EVERY))
                    .occurred();
            if (failures > 0) {
                LOG.warn("event=hook-failed hook={} mode={} outcome=ignored failures={} ref={} target=\"{}\" reason=\"{}\"",
                        registration.label(), modeName, failures, ref, forLog(context.target()), forLog(failure.logReason(), LOG_REASON_MAX));
            }
            return Optional.empty();
        }
        LOG.warn("event=hook-failed hook={} mode={} outcome=blocked ref={} target=\"{}\" reason=\"{}\"", registration.label(), modeName,
                ref, forLog(context.target()), forLog(failure.logReason(), LOG_REASON_MAX));
        String reason = failure.shortened()
                ? failure.reason() + " (hook " + registration.label() + ", " + modeName + " mode; the gateway log has the rest as ref=" + ref + ")"
                : failure.reason();
        return Optional.of(new HookVerdict.Blocked(reason));
    }

    /** Longest text a hook log line quotes from a field; a resource URI may be up to the 1 MiB body. */
    static final int LOG_FIELD_MAX = 200;

    /**
     * A field as a hook log line may quote it: the target is the client's tool name, resource URI or
     * prompt name, and a reason may echo it, so a line break or quote in it would forge log lines
     * or fields; those, a backslash (which would escape the closing quote, so the value ran into the
     * next field) and every other non-printable character become {@code ?}, and a long field is cut.
     */
    static String forLog(String text) {
        return forLog(text, LOG_FIELD_MAX);
    }

    /** Longest hook failure reason a log line quotes: the whole of any sensible exception message. */
    static final int LOG_REASON_MAX = ThrownMessage.LOG_MAX;

    private static String forLog(String text, int max) {
        String printable = text.replaceAll("[^\\x20-\\x7e]|[\"\\\\]", "?");
        return printable.length() <= max ? printable : printable.substring(0, max) + "...";
    }

    private sealed interface Outcome {
        record Answered(HookResult result) implements Outcome {}

        /**
         * @param reason what the agent may be shown
         * @param logReason what the log may quote: the same, or more of a thrown message
         * @param shortened whether {@code reason} shows less than {@code logReason} (cut, or secrets taken out)
         */
        record Failed(String reason, String logReason, boolean shortened) implements Outcome {
            Failed(String reason) {
                this(reason, reason, false);
            }
        }
    }

    /**
     * One plugin's runs: a slot is taken before a run is submitted and given back when the run ends,
     * or, for a run abandoned before it started, by its caller. {@code overdue} counts the slots held
     * by runs past their timeout, so a call need not wait for a slot none of which will free soon.
     */
    private static final class PluginRuns {
        final Semaphore slots = new Semaphore(MAX_RUNNING, true);
        final AtomicInteger overdue = new AtomicInteger();
    }

    private Outcome invoke(HookRegistration registration, HookContext context, JsonObject payload) {
        PluginRuns plugin = runs.computeIfAbsent(registration.plugin(), name -> new PluginRuns());
        int stuck = plugin.overdue.get();
        if (stuck >= MAX_RUNNING) {
            return allOverdue(registration, stuck);
        }
        try {
            if (!plugin.slots.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                stuck = plugin.overdue.get();
                return stuck >= MAX_RUNNING ? allOverdue(registration, stuck)
                        : new Outcome.Failed("hook " + registration.label() + " was not started: the hooks of plugin '"
                                + registration.plugin() + "' were already running " + MAX_RUNNING
                                + " calls, the most one plugin may run at once, and none of them ended within "
                                + timeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Failed("the call was cancelled while hook " + registration.label() + " waited to start");
        }
        return run(registration, plugin, context, payload);
    }

    private Outcome allOverdue(HookRegistration registration, int stuck) {
        return new Outcome.Failed("hook " + registration.label() + " was not started: the hooks of plugin '" + registration.plugin()
                + "' are still running " + stuck + " earlier calls past their " + timeout.toMillis()
                + " ms timeout; they are not started again until one of those ends");
    }

    /** Runs the hook on a worker, holding a slot of {@code plugin} that the run (or, if it never starts, this call) gives back. */
    private Outcome run(HookRegistration registration, PluginRuns plugin, HookContext context, JsonObject payload) {
        // Completed on the worker with what the hook handed back, already read: plugin code never runs on the caller's thread.
        CompletableFuture<Outcome> answer = new CompletableFuture<>();
        AtomicInteger state = new AtomicInteger(QUEUED);
        ClassLoader pluginLoader = registration.hook().getClass().getClassLoader();
        Runnable task = () -> {
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                return; // abandoned before it started: the call has its answer, nothing runs for it now
            }
            Thread thread = Thread.currentThread();
            String poolName = thread.getName();
            ClassLoader poolLoader = thread.getContextClassLoader();
            // named for the hook, so a thread dump shows which plugin a stuck thread belongs to
            thread.setName("omcp-hook-" + registration.label());
            thread.setContextClassLoader(pluginLoader);
            try {
                answer.complete(answered(registration, registration.hook().handle(context, payload)));
            } catch (Throwable e) {
                // Anything a plugin throws, errors included, is the hook failing, never the gateway.
                answer.complete(threw(registration, e));
            } finally {
                // a pooled thread must not keep the plugin's class loader reachable
                thread.setContextClassLoader(poolLoader);
                thread.setName(poolName);
                if (!state.compareAndSet(RUNNING, ENDED)) {
                    plugin.overdue.decrementAndGet();
                }
                // after the overdue count: it never counts more runs than hold a slot
                plugin.slots.release();
            }
        };
        Future<?> worker;
        try {
            worker = workers.submit(task);
        } catch (RejectedExecutionException e) {
            plugin.slots.release(); // no run took the slot
            throw e;
        }
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            markOverdue(plugin, state);
            worker.cancel(true);
            return new Outcome.Failed("hook " + registration.label() + " did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            // the worker only ever completes normally; kept so a future change cannot turn this into a gateway error
            return new Outcome.Failed("hook " + registration.label() + " failed");
        } catch (InterruptedException e) {
            markOverdue(plugin, state);
            worker.cancel(true);
            Thread.currentThread().interrupt();
            return new Outcome.Failed("the call was cancelled while hook " + registration.label() + " ran");
        }
    }

    /** On the worker: the hook's result, its payload copied and bounded ({@link HookAnswer}). */
    private static Outcome answered(HookRegistration registration, HookResult result) {
        if (result == null) {
            return new Outcome.Failed("hook " + registration.label() + " returned no result");
        }
        try {
            return new Outcome.Answered(HookAnswer.settle(result));
        } catch (HookAnswer.PayloadRefused refused) {
            return new Outcome.Failed("hook " + registration.label() + " " + refused.getMessage());
        }
    }

    /**
     * On the worker: what the agent and the log may show of what the hook threw. {@code getMessage()}
     * is plugin code like the hook, so it is read here, within the timeout, and may itself fail.
     */
    private Outcome threw(HookRegistration registration, Throwable thrownByHook) {
        String message;
        try {
            message = thrownByHook.getMessage();
        } catch (Throwable unreadable) {
            // the plugin failing again while explaining its failure: the failure stands, without its message
            return new Outcome.Failed("hook " + registration.label() + " failed with an exception whose message could not be read");
        }
        if (message == null || message.isBlank()) {
            return new Outcome.Failed("hook " + registration.label() + " failed with " + className(thrownByHook));
        }
        ThrownMessage.Texts texts = thrown.of(message);
        return new Outcome.Failed(texts.forAgent(), texts.forLog(), texts.shortened());
    }

    /** The simple name, or the full one for an anonymous class, whose simple name is empty. */
    private static String className(Throwable thrownByHook) {
        String simple = thrownByHook.getClass().getSimpleName();
        return simple.isEmpty() ? thrownByHook.getClass().getName() : simple;
    }

    /**
     * Counts a run its caller stopped waiting for as overdue until its worker ends. The count goes
     * up before the state says so, so a worker that ends at that moment always finds a count to
     * take back; if the worker ended first, the count is taken back here. A run that had not started
     * is abandoned instead, never counted, and its slot given back here: a worker cancelled before it
     * starts never runs its {@code finally}, so a count or slot kept for it would never come back, and
     * a few slow starts on a loaded machine would block the plugin's hooks for good.
     */
    private static void markOverdue(PluginRuns plugin, AtomicInteger state) {
        if (state.compareAndSet(QUEUED, ABANDONED)) {
            plugin.slots.release();
            return;
        }
        plugin.overdue.incrementAndGet();
        if (!state.compareAndSet(RUNNING, OVERDUE)) {
            plugin.overdue.decrementAndGet();
        }
    }

    /**
     * Why a replacement payload does not fit its kind (spec 6.1 payload shapes), or empty. What a post
     * hook returns is what the agent gets, so the parts the MCP result types fix are checked too: the
     * elements of {@code content}, {@code contents} and {@code messages} are objects, a tool result's
     * {@code isError} a boolean and its {@code structuredContent} an object. Anything else would reach
     * the client as a malformed result, which an SDK refuses whole, as a protocol error.
     */
    static Optional<String> shapeProblem(HookKind kind, JsonObject payload) {
        return switch (kind) {
            case TOOL_PRE_INVOKE -> need(payload, "args", JsonValue.ValueType.OBJECT);
            case TOOL_POST_INVOKE -> need(payload, "result", JsonValue.ValueType.OBJECT)
                    .or(() -> toolResultProblem(payload.getJsonObject("result")));
            case RESOURCE_PRE_FETCH -> need(payload, "uri", JsonValue.ValueType.STRING);
            case RESOURCE_POST_FETCH -> objects(payload, "contents");
            case PROMPT_PRE_FETCH -> need(payload, "name", JsonValue.ValueType.STRING)
                    .or(() -> need(payload, "arguments", JsonValue.ValueType.OBJECT));
            case PROMPT_POST_FETCH -> objects(payload, "messages");
        };
    }

    private static Optional<String> toolResultProblem(JsonObject result) {
        return objects(result, "content")
                .or(() -> may(result, "isError", "boolean",
                        value -> value.getValueType() == JsonValue.ValueType.TRUE || value.getValueType() == JsonValue.ValueType.FALSE))
                .or(() -> may(result, "structuredContent", "object", value -> value.getValueType() == JsonValue.ValueType.OBJECT))
                .map(problem -> problem.replaceFirst("'", "'result."));
    }

    /** {@code member} is an array of objects. */
    private static Optional<String> objects(JsonObject payload, String member) {
        Optional<String> problem = need(payload, member, JsonValue.ValueType.ARRAY);
        if (problem.isPresent()) {
            return problem;
        }
        for (JsonValue element : payload.getJsonArray(member)) {
            if (element.getValueType() != JsonValue.ValueType.OBJECT) {
                return Optional.of("returned a payload whose '" + member + "' holds an element that is not an object");
            }
        }
        return Optional.empty();
    }

    /** {@code member} is absent, or a value that {@code fits}, described as {@code typeName}. */
    private static Optional<String> may(JsonObject payload, String member, String typeName, Predicate<JsonValue> fits) {
        JsonValue value = payload.get(member);
        return value == null || fits.test(value) ? Optional.empty()
                : Optional.of("returned a payload whose '" + member + "' is not a " + typeName);
    }

    private static Optional<String> need(JsonObject payload, String member, JsonValue.ValueType type) {
        JsonValue value = payload.get(member);
        if (value == null || value.getValueType() != type) {
            return Optional.of("returned a payload whose '" + member + "' is not a " + type.name().toLowerCase(Locale.ROOT));
        }
        if (type == JsonValue.ValueType.STRING && payload.getString(member).isEmpty()) {
            return Optional.of("returned a payload whose '" + member + "' is empty");
        }
        return Optional.empty();
    }
}
