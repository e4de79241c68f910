package dev.omcp.core.hooks;

import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the hooks of one kind over a payload (spec 6.1): ascending priority, each on its own virtual
 * thread with a timeout, a returned payload replacing the current one, {@code allow: false} stopping
 * the chain, and a throw or timeout handled by the hook's mode. Thread-safe.
 */
public final class HookPipeline {
    /** How long one hook may run before it counts as a throw (spec 6.1: 5 s by default). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(HookPipeline.class);

    private final HookRegistry registry;
    private final Optional<HookMode> modeOverride;
    private final Duration timeout;

    /**
     * @param registry the hooks in force
     * @param modeOverride {@code OMCP_HOOK_MODE}: when present, the mode of every hook
     * @param timeout how long one hook may run
     */
    public HookPipeline(HookRegistry registry, Optional<HookMode> modeOverride, Duration timeout) {
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
                        String reason = result.reason().filter(r -> !r.isBlank())
                                .orElse("refused by the " + context.kind().wireName() + " hook of plugin '" + registration.plugin() + "'");
                        LOG.info("event=hook-blocked hook={} target=\"{}\" principal={}", registration.label(), context.target(), context.principal());
                        return new HookVerdict.Blocked(reason);
                    }
                    if (result.payload().isPresent()) {
                        Optional<String> problem = shapeProblem(context.kind(), result.payload().get());
                        if (problem.isEmpty()) {
                            current = result.payload().get();
                            continue;
                        }
                        Optional<HookVerdict> failed = fail(mode, registration, context, "hook " + registration.label() + " " + problem.get());
                        if (failed.isPresent()) {
                            return failed.get();
                        }
                    }
                }
                case Outcome.Failed failed -> {
                    Optional<HookVerdict> verdict = fail(mode, registration, context, failed.message());
                    if (verdict.isPresent()) {
                        return verdict.get();
                    }
                }
            }
        }
        return new HookVerdict.Proceed(current);
    }

    /** Enforce: blocked with the message; permissive: logged, the prior payload kept. */
    private static Optional<HookVerdict> fail(HookMode mode, HookRegistration registration, HookContext context, String message) {
        if (mode == HookMode.ENFORCE) {
            LOG.warn("event=hook-failed hook={} mode=enforce outcome=blocked target=\"{}\" reason=\"{}\"",
                    registration.label(), context.target(), message);
            return Optional.of(new HookVerdict.Blocked(message));
        }
        LOG.warn("event=hook-failed hook={} mode=permissive outcome=ignored target=\"{}\" reason=\"{}\"",
                registration.label(), context.target(), message);
        return Optional.empty();
    }

    private sealed interface Outcome {
        record Answered(HookResult result) implements Outcome {}

        record Failed(String message) implements Outcome {}
    }

    private Outcome invoke(HookRegistration registration, HookContext context, JsonObject payload) {
        CompletableFuture<HookResult> answer = new CompletableFuture<>();
        ClassLoader pluginLoader = registration.hook().getClass().getClassLoader();
        Thread worker = Thread.ofVirtual().name("omcp-hook-" + registration.label()).unstarted(() -> {
            Thread.currentThread().setContextClassLoader(pluginLoader);
            try {
                answer.complete(registration.hook().handle(context, payload));
            } catch (Throwable e) {
                // Anything a plugin throws, errors included, is the hook failing, never the gateway.
                answer.completeExceptionally(e);
            }
        });
        worker.start();
        try {
            HookResult result = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (result == null) {
                return new Outcome.Failed("hook " + registration.label() + " returned no result");
            }
            return new Outcome.Answered(result);
        } catch (TimeoutException e) {
            worker.interrupt();
            return new Outcome.Failed("hook " + registration.label() + " did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause.getMessage();
            return new Outcome.Failed(message == null || message.isBlank()
                    ? "hook " + registration.label() + " failed with " + cause.getClass().getSimpleName()
                    : message);
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
            return new Outcome.Failed("the call was cancelled while hook " + registration.label() + " ran");
        }
    }

    /** Why a replacement payload does not fit its kind (spec 6.1 payload shapes), or empty. */
    static Optional<String> shapeProblem(HookKind kind, JsonObject payload) {
        return switch (kind) {
            case TOOL_PRE_INVOKE -> need(payload, "args", JsonValue.ValueType.OBJECT);
            case TOOL_POST_INVOKE -> need(payload, "result", JsonValue.ValueType.OBJECT)
                    .or(() -> need(payload.getJsonObject("result"), "content", JsonValue.ValueType.ARRAY).map(p -> p.replace("'content'", "'result.content'")));
            case RESOURCE_PRE_FETCH -> need(payload, "uri", JsonValue.ValueType.STRING);
            case RESOURCE_POST_FETCH -> need(payload, "contents", JsonValue.ValueType.ARRAY);
            case PROMPT_PRE_FETCH -> need(payload, "name", JsonValue.ValueType.STRING)
                    .or(() -> need(payload, "arguments", JsonValue.ValueType.OBJECT));
            case PROMPT_POST_FETCH -> need(payload, "messages", JsonValue.ValueType.ARRAY);
        };
    }

    private static Optional<String> need(JsonObject payload, String member, JsonValue.ValueType type) {
        JsonValue value = payload.get(member);
        if (value == null || value.getValueType() != type) {
            return Optional.of("returned a payload whose '" + member + "' is not a " + type.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (type == JsonValue.ValueType.STRING && payload.getString(member).isEmpty()) {
            return Optional.of("returned a payload whose '" + member + "' is empty");
        }
        return Optional.empty();
    }
}
