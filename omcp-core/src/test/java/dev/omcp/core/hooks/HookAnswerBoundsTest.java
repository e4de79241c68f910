package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a hook hands back is plugin code too: the message of the exception it throws and the
 * {@code JsonObject} it returns may be classes of the plugin. The gateway must read them within the
 * hook's timeout and on the hook's thread, never on the caller's, and keep a copy the plugin can no
 * longer change, bounded in size and depth.
 */
class HookAnswerBoundsTest {
    private static final HookContext CONTEXT = new HookContext("ci-bot", "acme", HookKind.TOOL_PRE_INVOKE, "echo");
    private static final JsonObject PAYLOAD = Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", "x")).build();
    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** Far past the hook timeout: a run still going by then is held on the caller's thread. */
    private static final long CALLER_WAIT_SECONDS = 10;

    private final HookRegistry registry = new HookRegistry();
    private final HookPipeline pipeline = new HookPipeline(registry, Optional.empty(), TIMEOUT, Clock.systemUTC());
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseBlockedPluginCode() {
        release.countDown();
    }

    private void register(HookMode mode, dev.omcp.sdk.hook.Hook hook) {
        registry.register(new HookRegistration("sly", HookKind.TOOL_PRE_INVOKE, 100, mode, hook));
    }

    /** Runs the pipeline on a thread of its own, so a run held on the caller's thread fails the test instead of hanging it. */
    private HookVerdict runBounded() throws Exception {
        return CompletableFuture.supplyAsync(() -> pipeline.run(CONTEXT, PAYLOAD)).get(CALLER_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aThrownExceptionWhoseMessageNeverReturns_isBoundByTheHookTimeout() throws Exception {
        register(HookMode.ENFORCE, (context, payload) -> {
            throw new IllegalStateException() {
                @Override
                public String getMessage() {
                    awaitRelease();
                    return "late";
                }
            };
        });

        assertThat(runBounded()).isEqualTo(new HookVerdict.Blocked("hook sly/tool_pre_invoke did not answer within 200 ms"));
    }

    @Test
    void aThrownExceptionWhoseMessageThrows_isAHookFailure_andPermissiveModeKeepsThePriorPayload() throws Exception {
        register(HookMode.PERMISSIVE, (context, payload) -> {
            throw new IllegalStateException() {
                @Override
                public String getMessage() {
                    throw new UnsupportedOperationException("no message for you");
                }
            };
        });

        assertThat(runBounded()).isEqualTo(new HookVerdict.Proceed(PAYLOAD));
    }

    @Test
    void enforce_aThrownExceptionWhoseMessageThrows_blocksNamingTheHook() throws Exception {
        register(HookMode.ENFORCE, (context, payload) -> {
            throw new IllegalStateException() {
                @Override
                public String getMessage() {
                    throw new UnsupportedOperationException("no message for you");
                }
            };
        });

        assertThat(runBounded()).isEqualTo(new HookVerdict.Blocked(
                "hook sly/tool_pre_invoke failed with an exception whose message could not be read"));
    }

    @Test
    void aReturnedPayloadThatBlocksWhenRead_isBoundByTheHookTimeout() throws Exception {
        JsonObject blocking = pluginObject(() -> {
            awaitRelease();
            return PAYLOAD;
        });
        register(HookMode.ENFORCE, (context, payload) -> HookResult.replace(blocking));

        assertThat(runBounded()).isEqualTo(new HookVerdict.Blocked("hook sly/tool_pre_invoke did not answer within 200 ms"));
    }

    @Test
    void aReturnedPayloadThePluginChangesAfterwards_doesNotChangeWhatTheCallGoesOnWith() throws Exception {
        JsonObject allowed = Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", "allowed")).build();
        AtomicReference<JsonObject> backing = new AtomicReference<>(allowed);
        register(HookMode.ENFORCE, (context, payload) -> HookResult.replace(pluginObject(backing::get)));

        HookVerdict verdict = runBounded();
        backing.set(Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", "swapped")).build());

        assertThat(verdict).isInstanceOf(HookVerdict.Proceed.class);
        assertThat(((HookVerdict.Proceed) verdict).payload()).isEqualTo(allowed);
        assertThat(((HookVerdict.Proceed) verdict).payload().getJsonObject("args").getString("q")).isEqualTo("allowed");
    }

    @Test
    void aReturnedPayloadPastTheSizeBound_countsAsAThrow() throws Exception {
        String huge = "x".repeat(HookAnswer.MAX_PAYLOAD_CHARS);
        register(HookMode.ENFORCE, (context, payload) -> HookResult.replace(
                Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", huge)).build()));

        assertThat(runBounded()).isEqualTo(new HookVerdict.Blocked("hook sly/tool_pre_invoke returned a payload of more than "
                + HookAnswer.MAX_PAYLOAD_CHARS + " characters"));
    }

    @Test
    void aReturnedPayloadJustUnderTheSizeBound_goesThrough() throws Exception {
        String large = "x".repeat(HookAnswer.MAX_PAYLOAD_CHARS - 100);
        JsonObject replacement = Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", large)).build();
        register(HookMode.ENFORCE, (context, payload) -> HookResult.replace(replacement));

        assertThat(runBounded()).isEqualTo(new HookVerdict.Proceed(replacement));
    }

    @Test
    void aReturnedPayloadNestedPastTheDepthBound_countsAsAThrow() throws Exception {
        JsonObjectBuilder deep = Json.createObjectBuilder().add("leaf", true);
        for (int i = 0; i < HookAnswer.MAX_PAYLOAD_DEPTH + 5; i++) {
            deep = Json.createObjectBuilder().add("n", deep);
        }
        JsonObject replacement = Json.createObjectBuilder().add("args", deep).build();
        register(HookMode.ENFORCE, (context, payload) -> HookResult.replace(replacement));

        assertThat(runBounded()).isEqualTo(new HookVerdict.Blocked("hook sly/tool_pre_invoke returned a payload nested deeper than "
                + HookAnswer.MAX_PAYLOAD_DEPTH + " levels"));
    }

    /** A {@code JsonObject} of the plugin's own making: every read goes to what {@code source} gives at that moment. */
    private static JsonObject pluginObject(java.util.function.Supplier<JsonObject> source) {
        return (JsonObject) Proxy.newProxyInstance(HookAnswerBoundsTest.class.getClassLoader(), new Class<?>[] {JsonObject.class},
                (proxy, method, arguments) -> {
                    try {
                        return method.invoke(source.get(), arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
