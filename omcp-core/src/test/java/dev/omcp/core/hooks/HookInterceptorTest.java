package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.ports.resources.ResourceDefinition;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** spec 6.1: every hook rule, through a real gateway and its dispatcher. */
class HookInterceptorTest {
    private static final Principal CALLER = Principal.apiKey("ci-bot", "acme");
    private final HookRegistry registry = new HookRegistry();
    private final List<JsonObject> toolSaw = new CopyOnWriteArrayList<>();
    private final List<String> resourceSaw = new CopyOnWriteArrayList<>();
    private final List<Map<String, String>> promptSaw = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseBlockedHooks() {
        release.countDown();
    }

    private Gateway gateway(Optional<HookMode> override, Duration timeout) {
        Tool echo = new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition("echo", "Echo", "Returns its arguments", Json.createObjectBuilder().add("type", "object").build(),
                        Optional.empty(), ToolAnnotations.readOnlyLocal());
            }

            @Override
            public ToolResult call(ToolCall call) {
                toolSaw.add(call.arguments());
                return ToolResult.structured(call.arguments());
            }
        };
        ResourceProvider notes = new ResourceProvider() {
            @Override
            public List<ResourceDefinition> resources() {
                return List.of(new ResourceDefinition("note://a", "a", "A", "note a", "text/plain"));
            }

            @Override
            public Optional<List<JsonObject>> read(String uri, Principal principal) {
                resourceSaw.add(uri);
                return Optional.of(List.of(Json.createObjectBuilder().add("uri", uri).add("mimeType", "text/plain").add("text", "content of " + uri).build()));
            }
        };
        Prompt greet = new Prompt() {
            @Override
            public PromptDefinition definition() {
                return new PromptDefinition("greet", "Greet", "Greets someone", List.of(new PromptArgument("who", "whom", true)));
            }

            @Override
            public List<JsonObject> render(Map<String, String> arguments, Principal principal) {
                promptSaw.add(arguments);
                return List.of(Json.createObjectBuilder().add("role", "user")
                        .add("content", Json.createObjectBuilder().add("type", "text").add("text", "hello " + arguments.get("who"))).build());
            }
        };
        return Gateway.builder().tool(echo).resources(notes).prompt(greet)
                .hooks(registry).hookModeOverride(override).hookTimeout(timeout).build();
    }

    private Gateway gateway() {
        return gateway(Optional.empty(), Duration.ofSeconds(5));
    }

    private static JsonObject send(Gateway gateway, String method, JsonObject params) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", method).add("params", params).build().toString();
        McpReply reply = gateway.mcp().handle(new McpInbound(CALLER, Optional.empty(), Optional.empty(), body, McpTransport.IN_PROCESS),
                McpOutbound.discarding());
        try (JsonReader reader = Json.createReader(new StringReader(((McpReply.Response) reply).json()))) {
            return reader.readObject();
        }
    }

    private static JsonObject callEcho(Gateway gateway, JsonObject args) {
        return send(gateway, "tools/call", Json.createObjectBuilder().add("name", "echo").add("arguments", args).build()).getJsonObject("result");
    }

    private static JsonObject args(String key, String value) {
        return Json.createObjectBuilder().add(key, value).build();
    }

    private static ListAppender<ILoggingEvent> captureHookLog() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(HookPipeline.class)).addAppender(log);
        return log;
    }

    private static void release(ListAppender<ILoggingEvent> log) {
        ((Logger) LoggerFactory.getLogger(HookPipeline.class)).detachAppender(log);
    }

    private void register(String plugin, HookKind kind, int priority, HookMode mode, Hook hook) {
        registry.register(new HookRegistration(plugin, kind, priority, mode, hook));
    }

    private void register(String plugin, HookKind kind, Hook hook) {
        register(plugin, kind, 100, HookMode.ENFORCE, hook);
    }

    @Test
    void context_carriesPrincipalTenantKindAndTarget() {
        List<HookContext> seen = new CopyOnWriteArrayList<>();
        Hook recorder = (ctx, payload) -> {
            seen.add(ctx);
            return HookResult.proceed();
        };
        for (HookKind kind : HookKind.values()) {
            register("rec", kind, recorder);
        }
        Gateway gateway = gateway();
        callEcho(gateway, args("q", "1"));
        send(gateway, "resources/read", Json.createObjectBuilder().add("uri", "note://a").build());
        send(gateway, "prompts/get", Json.createObjectBuilder().add("name", "greet").add("arguments", args("who", "ana")).build());
        assertThat(seen).containsExactly(
                new HookContext("key:ci-bot", "acme", HookKind.TOOL_PRE_INVOKE, "echo"),
                new HookContext("key:ci-bot", "acme", HookKind.TOOL_POST_INVOKE, "echo"),
                new HookContext("key:ci-bot", "acme", HookKind.RESOURCE_PRE_FETCH, "note://a"),
                new HookContext("key:ci-bot", "acme", HookKind.RESOURCE_POST_FETCH, "note://a"),
                new HookContext("key:ci-bot", "acme", HookKind.PROMPT_PRE_FETCH, "greet"),
                new HookContext("key:ci-bot", "acme", HookKind.PROMPT_POST_FETCH, "greet"));
    }

    @Test
    void payloads_haveTheShapesOfSpec6_1() {
        List<String> payloads = new CopyOnWriteArrayList<>();
        Hook recorder = (ctx, payload) -> {
            payloads.add(ctx.kind().wireName() + " " + payload);
            return HookResult.proceed();
        };
        for (HookKind kind : HookKind.values()) {
            register("rec", kind, recorder);
        }
        Gateway gateway = gateway();
        callEcho(gateway, args("q", "1"));
        send(gateway, "resources/read", Json.createObjectBuilder().add("uri", "note://a").build());
        send(gateway, "prompts/get", Json.createObjectBuilder().add("name", "greet").add("arguments", args("who", "ana")).build());
        assertThat(payloads.get(0)).isEqualTo("tool_pre_invoke {\"args\":{\"q\":\"1\"}}");
        assertThat(payloads.get(1)).startsWith("tool_post_invoke {\"args\":{\"q\":\"1\"},\"result\":{\"content\":[");
        assertThat(payloads.get(2)).isEqualTo("resource_pre_fetch {\"uri\":\"note://a\"}");
        assertThat(payloads.get(3)).startsWith("resource_post_fetch {\"uri\":\"note://a\",\"contents\":[{\"uri\":\"note://a\"");
        assertThat(payloads.get(4)).isEqualTo("prompt_pre_fetch {\"name\":\"greet\",\"arguments\":{\"who\":\"ana\"}}");
        assertThat(payloads.get(5)).startsWith("prompt_post_fetch {\"name\":\"greet\",\"arguments\":{\"who\":\"ana\"},\"messages\":[{\"role\":\"user\"");
    }

    @Test
    void withoutHooks_callsPassUntouched() {
        assertThat(callEcho(gateway(), args("q", "1")).getJsonObject("structuredContent")).isEqualTo(args("q", "1"));
    }

    @Nested
    class Rule1_PayloadReplacement {
        @Test
        void aPreHookRewritesTheToolArguments_andTheNextHookSeesTheRewrite() {
            register("first", HookKind.TOOL_PRE_INVOKE, 10, HookMode.ENFORCE,
                    (ctx, payload) -> HookResult.replace(Json.createObjectBuilder().add("args", args("q", "rewritten")).build()));
            List<JsonObject> secondSaw = new CopyOnWriteArrayList<>();
            register("second", HookKind.TOOL_PRE_INVOKE, 20, HookMode.ENFORCE, (ctx, payload) -> {
                secondSaw.add(payload);
                return HookResult.proceed();
            });
            JsonObject result = callEcho(gateway(), args("q", "original"));
            assertThat(secondSaw).containsExactly(Json.createObjectBuilder().add("args", args("q", "rewritten")).build());
            assertThat(toolSaw).containsExactly(args("q", "rewritten"));
            assertThat(result.getJsonObject("structuredContent")).isEqualTo(args("q", "rewritten"));
        }

        @Test
        void aPostHookReplacesTheToolResult() {
            JsonObject replacement = Json.createObjectBuilder()
                    .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "text").add("text", "[redacted]"))).build();
            register("redact", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.replace(
                    Json.createObjectBuilder(payload).add("result", replacement).build()));
            assertThat(callEcho(gateway(), args("secret", "s3cr3t"))).isEqualTo(replacement);
        }

        @Test
        void resourceHooksRewriteTheUriAndTheContents() {
            register("alias", HookKind.RESOURCE_PRE_FETCH, (ctx, payload) -> HookResult.replace(
                    Json.createObjectBuilder().add("uri", "note://b").build()));
            register("stamp", HookKind.RESOURCE_POST_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("contents", Json.createArrayBuilder().add(Json.createObjectBuilder()
                            .add("uri", payload.getString("uri")).add("mimeType", "text/plain").add("text", "stamped"))).build()));
            JsonObject result = send(gateway(), "resources/read", Json.createObjectBuilder().add("uri", "note://a").build()).getJsonObject("result");
            assertThat(resourceSaw).containsExactly("note://b");
            assertThat(result.getJsonArray("contents").getJsonObject(0).getString("text")).isEqualTo("stamped");
            assertThat(result.getJsonArray("contents").getJsonObject(0).getString("uri")).isEqualTo("note://b");
        }

        @Test
        void promptHooksRewriteTheArgumentsAndTheMessages() {
            register("who", HookKind.PROMPT_PRE_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("arguments", args("who", "bob")).build()));
            register("empty", HookKind.PROMPT_POST_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("messages", Json.createArrayBuilder()).build()));
            JsonObject result = send(gateway(), "prompts/get", Json.createObjectBuilder().add("name", "greet").add("arguments", args("who", "ana")).build())
                    .getJsonObject("result");
            assertThat(promptSaw).containsExactly(Map.of("who", "bob"));
            assertThat(result.getJsonArray("messages")).isEmpty();
            assertThat(result.containsKey("isError")).isFalse();
        }
    }

    /** {@code "arguments": null} means no arguments to the handlers, so the hooks must see the call too. */
    @Nested
    class NullArguments {
        private JsonObject sendWithNullArguments(String method, String name) {
            return send(gateway(), method, Json.createObjectBuilder().add("name", name).addNull("arguments").build());
        }

        @Test
        void tool_aRefusingPreHookRefusesTheCall_andTheHandlerNeverRuns() {
            List<JsonObject> hookSaw = new CopyOnWriteArrayList<>();
            register("guard", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> {
                hookSaw.add(payload);
                return HookResult.deny("echo is not allowed");
            });
            JsonObject result = sendWithNullArguments("tools/call", "echo").getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("echo is not allowed");
            assertThat(hookSaw).as("the hook saw no arguments as {}")
                    .containsExactly(Json.createObjectBuilder().add("args", JsonObject.EMPTY_JSON_OBJECT).build());
            assertThat(toolSaw).as("the handler never ran").isEmpty();
        }

        @Test
        void tool_aPostHookStillRefusesTheResult() {
            register("dlp", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.deny("result withheld"));
            JsonObject result = sendWithNullArguments("tools/call", "echo").getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("result withheld");
            assertThat(toolSaw).containsExactly(JsonObject.EMPTY_JSON_OBJECT);
        }

        @Test
        void prompt_aPreHookSeesThemAsEmpty_andItsArgumentsReachThePrompt() {
            register("who", HookKind.PROMPT_PRE_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("arguments", args("who", "bob")).build()));
            JsonObject result = sendWithNullArguments("prompts/get", "greet").getJsonObject("result");
            assertThat(promptSaw).containsExactly(Map.of("who", "bob"));
            assertThat(result.containsKey("isError")).isFalse();
        }

        @Test
        void prompt_aRefusingPreHookRefusesTheCall() {
            register("guard", HookKind.PROMPT_PRE_FETCH, (ctx, payload) -> HookResult.deny("prompts are off"));
            JsonObject result = sendWithNullArguments("prompts/get", "greet").getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getString("description")).isEqualTo("prompts are off");
            assertThat(promptSaw).isEmpty();
        }
    }

    @Nested
    class Rule2_AllowFalseStopsTheChain {
        @Test
        void tool_anErrorCallToolResultWhoseTextIsTheReason_andNothingLaterRuns() {
            List<String> later = new CopyOnWriteArrayList<>();
            register("guard", HookKind.TOOL_PRE_INVOKE, 10, HookMode.ENFORCE, (ctx, payload) -> HookResult.deny("queries on prod need a ticket"));
            register("later", HookKind.TOOL_PRE_INVOKE, 20, HookMode.ENFORCE, (ctx, payload) -> {
                later.add("ran");
                return HookResult.proceed();
            });
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content")).singleElement().isEqualTo(
                    Json.createObjectBuilder().add("type", "text").add("text", "queries on prod need a ticket").build());
            assertThat(later).isEmpty();
            assertThat(toolSaw).as("the handler never ran").isEmpty();
        }

        @Test
        void tool_aPostHookRefusal_replacesTheResultWithTheError() {
            register("dlp", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.deny("result contains a card number"));
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("result contains a card number");
            assertThat(toolSaw).hasSize(1);
        }

        @Test
        void resource_aReadResourceResultWithIsErrorAndOneTextPlainEntryHoldingTheReason() {
            register("guard", HookKind.RESOURCE_PRE_FETCH, (ctx, payload) -> HookResult.deny("notes are private"));
            JsonObject result = send(gateway(), "resources/read", Json.createObjectBuilder().add("uri", "note://a").build()).getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("contents")).singleElement().isEqualTo(Json.createObjectBuilder()
                    .add("uri", "note://a").add("mimeType", "text/plain").add("text", "notes are private").build());
            assertThat(resourceSaw).isEmpty();
        }

        @Test
        void prompt_aGetPromptResultWithIsErrorTheReasonAsDescriptionAndNoMessages() {
            register("guard", HookKind.PROMPT_POST_FETCH, (ctx, payload) -> HookResult.deny("prompt disabled for this tenant"));
            JsonObject result = send(gateway(), "prompts/get", Json.createObjectBuilder().add("name", "greet").add("arguments", args("who", "ana")).build())
                    .getJsonObject("result");
            assertThat(result).isEqualTo(Json.createObjectBuilder().add("description", "prompt disabled for this tenant")
                    .add("messages", Json.createArrayBuilder()).add("isError", true).build());
        }

        @Test
        void aReturnedReasonQuotingSecrets_reachesTheAgentRedacted_onOneLine_andTheLogHasItRedactedUnderTheReference() {
            String password = "s3cr3t-pa55";
            String token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";
            ListAppender<ILoggingEvent> log = captureHookLog();
            try {
                register("guard", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> HookResult.deny("denied by https://svc:" + password
                        + "@policy.internal/v1\n  token " + token));

                String text = callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text");

                assertThat(text).doesNotContain(password).doesNotContain(token).doesNotContain("\n")
                        .startsWith("denied by https://svc:[REDACTED:secret]@policy.internal/v1 token [REDACTED:")
                        .contains("(hook guard/tool_pre_invoke; the gateway log has the rest as ref=");
                String ref = text.replaceAll(".*ref=([0-9a-f]{8})\\)$", "$1");
                assertThat(ref).hasSize(8);
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                        .startsWith("event=hook-blocked hook=guard/tool_pre_invoke ref=" + ref + " ")
                        .contains("reason=\"denied by https://svc:[REDACTED:secret]@policy.internal/v1")
                        .doesNotContain(password).doesNotContain(token);
            } finally {
                release(log);
            }
        }

        @Test
        void aMegabyteReason_isCutForTheAgent_andTheLogLineIsBounded() {
            ListAppender<ILoggingEvent> log = captureHookLog();
            try {
                register("guard", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> HookResult.deny("y".repeat(1 << 20) + " tail"));

                String text = callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text");

                assertThat(text).startsWith("y".repeat(ThrownMessage.AGENT_MAX) + "… (hook guard/tool_pre_invoke;")
                        .doesNotContain("tail").hasSizeLessThan(ThrownMessage.AGENT_MAX + 120);
                assertThat(log.list.getFirst().getFormattedMessage()).hasSizeLessThan(ThrownMessage.LOG_MAX + 400).doesNotContain("tail");
            } finally {
                release(log);
            }
        }

        @Test
        void aRefusalWithoutReason_namesTheHookThatRefused() {
            register("guard", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> new HookResult(false, Optional.empty(), Optional.empty()));
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("refused by the tool_pre_invoke hook of plugin 'guard'");
        }
    }

    @Nested
    class Rule3_AThrowingHook {
        private final Hook thrower = (ctx, payload) -> {
            throw new IllegalStateException("policy service unreachable");
        };

        @Test
        void enforce_blocksTheCallWithTheThrownMessage() {
            register("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, thrower);
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("policy service unreachable");
            assertThat(toolSaw).isEmpty();
        }

        /** A plugin's exception quoting the credentials of the service it failed to reach. */
        private static final String PASSWORD = "s3cr3t-pa55";
        private static final String TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        private final Hook leaking = (ctx, payload) -> {
            throw new IllegalStateException("policy fetch failed: https://svc:" + PASSWORD + "@policy.internal/v1/rules\n"
                    + "  with Authorization token " + TOKEN);
        };

        @Test
        void enforce_aThrownMessageWithACredentialedUrlAndAToken_reachesTheAgentRedacted_onOneLine_withTheLogReference() {
            ListAppender<ILoggingEvent> log = captureHookLog();
            try {
                register("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, leaking);

                String text = callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text");

                assertThat(text).doesNotContain(PASSWORD).doesNotContain(TOKEN).doesNotContain("\n")
                        .startsWith("policy fetch failed: https://svc:[REDACTED:secret]@policy.internal/v1/rules with Authorization token [REDACTED:")
                        .contains("(hook p/tool_pre_invoke, enforce mode; the gateway log has the rest as ref=");
                String ref = text.replaceAll(".*ref=([0-9a-f]{8})\\)$", "$1");
                assertThat(ref).hasSize(8);
                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                        .startsWith("event=hook-failed hook=p/tool_pre_invoke mode=enforce outcome=blocked ref=" + ref + " ")
                        .contains("policy fetch failed").contains("with Authorization token")
                        .doesNotContain(PASSWORD).doesNotContain(TOKEN);
            } finally {
                release(log);
            }
        }

        @Test
        void permissive_aLeakingThrownMessage_isLoggedWithoutItsSecrets() {
            ListAppender<ILoggingEvent> log = captureHookLog();
            try {
                register("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.PERMISSIVE, leaking);

                assertThat(callEcho(gateway(), args("q", "1")).containsKey("isError")).isFalse();

                assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                        .contains("mode=permissive outcome=ignored").contains("policy fetch failed")
                        .doesNotContain(PASSWORD).doesNotContain(TOKEN);
            } finally {
                release(log);
            }
        }

        @Test
        void enforce_aVeryLongThrownMessage_isCutForTheAgent_andTheLogHasMoreOfIt() {
            ListAppender<ILoggingEvent> log = captureHookLog();
            try {
                register("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (ctx, payload) -> {
                    throw new IllegalStateException("x".repeat(3000) + " tail");
                });

                String text = callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text");

                assertThat(text).startsWith("x".repeat(ThrownMessage.AGENT_MAX) + "… (hook p/tool_pre_invoke, enforce mode;")
                        .doesNotContain("tail").hasSizeLessThan(ThrownMessage.AGENT_MAX + 120);
                assertThat(log.list.getFirst().getFormattedMessage()).contains("x".repeat(3000) + " tail");
            } finally {
                release(log);
            }
        }


        @Test
        void permissive_logsAndKeepsThePriorPayload_andTheChainGoesOn() {
            register("rewrite", HookKind.TOOL_PRE_INVOKE, 10, HookMode.ENFORCE,
                    (ctx, payload) -> HookResult.replace(Json.createObjectBuilder().add("args", args("q", "kept")).build()));
            register("p", HookKind.TOOL_PRE_INVOKE, 20, HookMode.PERMISSIVE, thrower);
            List<JsonObject> lastSaw = new CopyOnWriteArrayList<>();
            register("last", HookKind.TOOL_PRE_INVOKE, 30, HookMode.ENFORCE, (ctx, payload) -> {
                lastSaw.add(payload);
                return HookResult.proceed();
            });
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.containsKey("isError")).isFalse();
            assertThat(lastSaw).containsExactly(Json.createObjectBuilder().add("args", args("q", "kept")).build());
            assertThat(toolSaw).containsExactly(args("q", "kept"));
        }

        @Test
        void disabled_skipsTheEntry_itDoesNotRunAtAll() {
            List<String> ran = new CopyOnWriteArrayList<>();
            register("off", HookKind.TOOL_PRE_INVOKE, 100, HookMode.DISABLED, (ctx, payload) -> {
                ran.add("ran");
                return HookResult.deny("would refuse");
            });
            assertThat(callEcho(gateway(), args("q", "1")).containsKey("isError")).isFalse();
            assertThat(ran).isEmpty();
        }

        @Test
        void theGlobalModeOverridesEachEntrysMode() {
            register("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, thrower);
            assertThat(callEcho(gateway(Optional.of(HookMode.PERMISSIVE), Duration.ofSeconds(5)), args("q", "1")).containsKey("isError")).isFalse();
            registry.register(new HookRegistration("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.PERMISSIVE, thrower));
            assertThat(callEcho(gateway(Optional.of(HookMode.ENFORCE), Duration.ofSeconds(5)), args("q", "1")).getBoolean("isError")).isTrue();
            registry.register(new HookRegistration("p", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (ctx, payload) -> HookResult.deny("no")));
            assertThat(callEcho(gateway(Optional.of(HookMode.DISABLED), Duration.ofSeconds(5)), args("q", "1")).containsKey("isError")).isFalse();
        }

        @Test
        void aTimeoutCountsAsAThrow_enforceBlocks() {
            register("slow", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (ctx, payload) -> {
                release.await();
                return HookResult.proceed();
            });
            JsonObject result = callEcho(gateway(Optional.empty(), Duration.ofMillis(100)), args("q", "1"));
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("hook slow/tool_pre_invoke did not answer within 100 ms");
        }

        @Test
        void aTimeoutCountsAsAThrow_permissiveGoesOn() {
            register("slow", HookKind.RESOURCE_PRE_FETCH, 100, HookMode.PERMISSIVE, (ctx, payload) -> {
                release.await();
                return HookResult.replace(Json.createObjectBuilder().add("uri", "note://late").build());
            });
            send(gateway(Optional.empty(), Duration.ofMillis(100)), "resources/read", Json.createObjectBuilder().add("uri", "note://a").build());
            assertThat(resourceSaw).containsExactly("note://a");
        }

        @Test
        void anErrorThrownByAPlugin_isAHookFailureNotAGatewayCrash() {
            register("broken", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> {
                throw new NoClassDefFoundError("com/fasterxml/jackson/databind/ObjectMapper");
            });
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).contains("ObjectMapper");
        }

        @Test
        void aPayloadOfTheWrongShape_countsAsAThrow() {
            register("bad", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder().add("args", "not an object").build()));
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("hook bad/tool_pre_invoke returned a payload whose 'args' is not a object");
        }

        @Test
        void aToolResultWhoseContentHoldsSomethingButObjects_countsAsAThrow_notAMalformedResultForTheAgent() {
            register("bad", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("result", Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(42))).build()));
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("hook bad/tool_post_invoke returned a payload whose 'result.content' holds an element that is not an "
                            + "object");
        }

        @Test
        void aToolResultWhoseIsErrorIsNotABoolean_orWhoseStructuredContentIsNotAnObject_countsAsAThrow() {
            JsonObject content = Json.createObjectBuilder().add("content", Json.createArrayBuilder()).build();
            register("flag", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("result", Json.createObjectBuilder(content).add("isError", "no")).build()));
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("hook flag/tool_post_invoke returned a payload whose 'result.isError' is not a boolean");
            register("flag", HookKind.TOOL_POST_INVOKE, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("result", Json.createObjectBuilder(content).add("structuredContent", "text")).build()));
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("hook flag/tool_post_invoke returned a payload whose 'result.structuredContent' is not a object");
        }

        @Test
        void resourceContentsOrPromptMessagesHoldingSomethingButObjects_countAsAThrow() {
            register("bad", HookKind.RESOURCE_POST_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("contents", Json.createArrayBuilder().add("plain text")).build()));
            register("bad", HookKind.PROMPT_POST_FETCH, (ctx, payload) -> HookResult.replace(Json.createObjectBuilder(payload)
                    .add("messages", Json.createArrayBuilder().addNull()).build()));
            Gateway gateway = gateway();
            JsonObject read = send(gateway, "resources/read", Json.createObjectBuilder().add("uri", "note://a").build())
                    .getJsonObject("result");
            assertThat(read.getBoolean("isError")).isTrue();
            assertThat(read.getJsonArray("contents").getJsonObject(0).getString("text"))
                    .isEqualTo("hook bad/resource_post_fetch returned a payload whose 'contents' holds an element that is not an object");
            JsonObject prompt = send(gateway, "prompts/get",
                    Json.createObjectBuilder().add("name", "greet").add("arguments", args("who", "ana")).build()).getJsonObject("result");
            assertThat(prompt.getBoolean("isError")).isTrue();
            assertThat(prompt.getString("description"))
                    .isEqualTo("hook bad/prompt_post_fetch returned a payload whose 'messages' holds an element that is not an object");
        }

        @Test
        void permissive_aMalformedPostHookAnswer_keepsTheResultFromBeforeTheHook() {
            JsonObject malformed = Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(42)).build();
            register("bad", HookKind.TOOL_POST_INVOKE, 100, HookMode.PERMISSIVE, (ctx, payload) -> HookResult.replace(
                    Json.createObjectBuilder(payload).add("result", malformed).build()));
            JsonObject result = callEcho(gateway(), args("q", "1"));
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).contains("\"q\"");
            assertThat(result.containsKey("isError")).isFalse();
        }

        @Test
        void aNullResult_countsAsAThrow() {
            register("null", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (ctx, payload) -> null);
            assertThat(callEcho(gateway(), args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text"))
                    .isEqualTo("hook null/tool_pre_invoke returned no result");
        }
    }

    @Test
    void rule4_ascendingPriority_theDefaultIs100() {
        List<String> order = new CopyOnWriteArrayList<>();
        register("late", HookKind.TOOL_PRE_INVOKE, 200, HookMode.ENFORCE, (ctx, p) -> {
            order.add("late");
            return HookResult.proceed();
        });
        register("default", HookKind.TOOL_PRE_INVOKE, dev.omcp.sdk.manifest.HookEntry.DEFAULT_PRIORITY, HookMode.ENFORCE, (ctx, p) -> {
            order.add("default");
            return HookResult.proceed();
        });
        register("early", HookKind.TOOL_PRE_INVOKE, 1, HookMode.ENFORCE, (ctx, p) -> {
            order.add("early");
            return HookResult.proceed();
        });
        callEcho(gateway(), args("q", "1"));
        assertThat(order).containsExactly("early", "default", "late");
    }

    @Test
    void rule5_hooksRegisteredWhileTheGatewayRuns_takeEffectWithoutRestart() {
        Gateway gateway = gateway();
        assertThat(callEcho(gateway, args("q", "1")).containsKey("isError")).isFalse();
        registry.replacePlugin("late", List.of(new HookRegistration("late", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE,
                (ctx, p) -> HookResult.deny("installed at runtime"))));
        assertThat(callEcho(gateway, args("q", "1")).getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("installed at runtime");
        registry.removePlugin("late");
        assertThat(callEcho(gateway, args("q", "1")).containsKey("isError")).isFalse();
    }

    @Test
    void aHookRunsWithThePluginsClassLoaderAsContextLoader() {
        ClassLoader[] seen = new ClassLoader[1];
        register("cl", HookKind.TOOL_PRE_INVOKE, (ctx, payload) -> {
            seen[0] = Thread.currentThread().getContextClassLoader();
            return HookResult.proceed();
        });
        callEcho(gateway(), args("q", "1"));
        assertThat(seen[0]).isSameAs(HookInterceptorTest.class.getClassLoader());
    }
}
