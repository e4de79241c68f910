package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A hook that fails every call: the failures a permissive hook ignores are logged at most once a
 * minute per hook, counted; an enforced failure is logged every time, since the agent's refusal may
 * name its line's reference.
 */
class HookFailureLinesTest {
    private static final HookContext CONTEXT = new HookContext("ci-bot", "acme", HookKind.TOOL_PRE_INVOKE, "echo");
    private static final JsonObject PAYLOAD = Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", "x")).build();

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
    private final HookRegistry registry = new HookRegistry();
    private final HookPipeline pipeline = new HookPipeline(registry, Optional.empty(), Duration.ofSeconds(5), clock);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void captureLog() {
        log.start();
        ((Logger) LoggerFactory.getLogger(HookPipeline.class)).addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        ((Logger) LoggerFactory.getLogger(HookPipeline.class)).detachAppender(log);
    }

    private void failing(String plugin, HookMode mode) {
        registry.register(new HookRegistration(plugin, HookKind.TOOL_PRE_INVOKE, 100, mode, (context, payload) -> {
            throw new IllegalStateException("policy service unreachable");
        }));
    }

    private List<String> lines() {
        return log.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.startsWith("event=hook-failed ")).toList();
    }

    @Test
    void aPermissiveHookFailingEveryCall_writesItsFirstFailure_thenOneLineAMinuteCountingTheRest() {
        failing("flaky", HookMode.PERMISSIVE);

        for (int i = 0; i < 5; i++) {
            assertThat(pipeline.run(CONTEXT, PAYLOAD)).isInstanceOf(HookVerdict.Proceed.class);
        }
        assertThat(lines()).singleElement().asString().contains("hook=flaky/tool_pre_invoke mode=permissive outcome=ignored failures=1 ")
                .contains("policy service unreachable");

        clock.advance(Duration.ofMinutes(1));
        pipeline.run(CONTEXT, PAYLOAD);
        assertThat(lines()).hasSize(2).last().asString().contains("outcome=ignored failures=5 ");
    }

    @Test
    void eachHookIsPacedOnItsOwn_andAnEnforcedFailureIsLoggedEveryTime() {
        failing("flaky", HookMode.PERMISSIVE);
        pipeline.run(CONTEXT, PAYLOAD);
        registry.replacePlugin("flaky", List.of());
        failing("other", HookMode.PERMISSIVE);
        pipeline.run(CONTEXT, PAYLOAD);
        assertThat(lines()).hasSize(2);

        registry.replacePlugin("other", List.of());
        failing("strict", HookMode.ENFORCE);
        for (int i = 0; i < 3; i++) {
            assertThat(pipeline.run(CONTEXT, PAYLOAD)).isInstanceOf(HookVerdict.Blocked.class);
        }
        assertThat(lines()).hasSize(5).last().asString().contains("hook=strict/tool_pre_invoke mode=enforce outcome=blocked ref=");
    }
}
