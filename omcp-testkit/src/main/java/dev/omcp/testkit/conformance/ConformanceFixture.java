package dev.omcp.testkit.conformance;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.ports.resources.ResourceDefinition;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.ports.resources.ResourceTemplateDefinition;
import dev.omcp.ports.tools.ClientRequestException;
import dev.omcp.ports.tools.LogLevel;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolResult;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tools, resources and prompts the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance}) calls on a server under test.
 *
 * <p>Only for tests: the launcher mounts it with the hidden {@code --test-conformance-fixture}
 * option, never in a normal start.
 */
public final class ConformanceFixture {
    /** A 1x1 PNG. */
    static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
    /** Two silent samples of 16-bit mono PCM at 8 kHz. */
    static final String WAV = "UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA";
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]{1,64})/data");

    private ConformanceFixture() {}

    /** The {@code test_*} tools. */
    public static List<Tool> tools() {
        return List.of(
                FixtureTool.noArguments("test_simple_text", "Returns simple text content",
                        call -> ToolResult.text("This is a simple text response for testing.", false)),
                FixtureTool.noArguments("test_image_content", "Returns image content",
                        call -> content(Jsonp.object().add("type", "image").add("data", PNG).add("mimeType", "image/png").build())),
                FixtureTool.noArguments("test_audio_content", "Returns audio content",
                        call -> content(Jsonp.object().add("type", "audio").add("data", WAV).add("mimeType", "audio/wav").build())),
                FixtureTool.noArguments("test_embedded_resource", "Returns an embedded resource",
                        call -> content(embedded("test://embedded-resource", "text/plain", "This is an embedded resource content."))),
                FixtureTool.noArguments("test_multiple_content_types", "Returns text, image and resource content",
                        call -> new ToolResult(List.of(
                                ToolResult.textBlock("Multiple content types test:"),
                                Jsonp.object().add("type", "image").add("data", PNG).add("mimeType", "image/png").build(),
                                embedded("test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}")),
                                Optional.empty(), false)),
                FixtureTool.noArguments("test_tool_with_logging", "Sends three log notifications while it runs",
                        ConformanceFixture::withLogging),
                FixtureTool.noArguments("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100",
                        ConformanceFixture::withProgress),
                FixtureTool.noArguments("test_error_handling", "Always fails",
                        call -> ToolResult.error("This tool intentionally returns an error for testing")),
                FixtureTool.of("test_sampling", "Asks the client's model to answer a prompt",
                        objectSchema("prompt", "The prompt to send to the LLM"), ConformanceFixture::sampling),
                FixtureTool.of("test_elicitation", "Asks the user for information",
                        objectSchema("message", "The message to show the user"), ConformanceFixture::elicitation),
                FixtureTool.noArguments("test_elicitation_sep1034_defaults", "Elicitation with default values",
                        ConformanceFixture::elicitationDefaults),
                FixtureTool.noArguments("test_elicitation_sep1330_enums", "Elicitation with every enum form",
                        ConformanceFixture::elicitationEnums),
                FixtureTool.of("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", jsonSchema2020(),
                        call -> ToolResult.text("Received: " + call.arguments(), false)),
                FixtureTool.of("omcp_test_sleep", "Sleeps for the given milliseconds (graceful-shutdown tests)",
                        Jsonp.object().add("type", "object")
                                .add("properties", Jsonp.object().add("millis", Jsonp.object()
                                        .add("type", "integer").add("minimum", 0).add("maximum", 30000)))
                                .add("required", Jsonp.array().add("millis"))
                                .build(),
                        ConformanceFixture::sleep),
                FixtureTool.noArguments("omcp_test_thread", "Tells whether the call runs on a virtual thread",
                        call -> ToolResult.structured(Jsonp.object()
                                .add("virtual", Thread.currentThread().isVirtual())
                                .add("thread", Thread.currentThread().toString())
                                .build())));
    }

    /** The {@code test://} resources. */
    public static ResourceProvider resources() {
        return new FixtureResources();
    }

    /** The {@code test_*} prompts. */
    public static List<Prompt> prompts() {
        return List.of(
                prompt("test_simple_prompt", "A simple prompt without arguments", List.of(),
                        (args, p) -> List.of(message(ToolResult.textBlock("This is a simple prompt for testing.")))),
                prompt("test_prompt_with_arguments", "A prompt with two required arguments",
                        List.of(new PromptArgument("arg1", "First test argument", true),
                                new PromptArgument("arg2", "Second test argument", true)),
                        (args, p) -> List.of(message(ToolResult.textBlock(
                                "Prompt with arguments: arg1='" + args.get("arg1") + "', arg2='" + args.get("arg2") + "'")))),
                prompt("test_prompt_with_embedded_resource", "A prompt that embeds a resource",
                        List.of(new PromptArgument("resourceUri", "URI of the resource to embed", true)),
                        (args, p) -> List.of(
                                message(embedded(args.get("resourceUri"), "text/plain", "Embedded resource content for testing.")),
                                message(ToolResult.textBlock("Please process the embedded resource above.")))),
                prompt("test_prompt_with_image", "A prompt with an image", List.of(),
                        (args, p) -> List.of(
                                message(Jsonp.object().add("type", "image").add("data", PNG).add("mimeType", "image/png").build()),
                                message(ToolResult.textBlock("Please analyze the image above.")))));
    }

    private static ToolResult withLogging(ToolCall call) {
        try {
            call.log(LogLevel.INFO, "conformance", Jsonp.value("Tool execution started"));
            Thread.sleep(50);
            call.log(LogLevel.INFO, "conformance", Jsonp.value("Tool processing data"));
            Thread.sleep(50);
            call.log(LogLevel.INFO, "conformance", Jsonp.value("Tool execution completed"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("cancelled");
        }
        return ToolResult.text("Tool with logging executed successfully", false);
    }

    private static ToolResult withProgress(ToolCall call) {
        try {
            call.progress(0, 100, null);
            Thread.sleep(50);
            call.progress(50, 100, null);
            Thread.sleep(50);
            call.progress(100, 100, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("cancelled");
        }
        return ToolResult.text("Tool with progress executed successfully", false);
    }

    private static ToolResult sleep(ToolCall call) {
        int millis = call.arguments().getInt("millis");
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("interrupted after less than " + millis + " ms");
        }
        return ToolResult.text("slept " + millis + " ms", false);
    }

    private static ToolResult sampling(ToolCall call) {
        JsonObject params = Jsonp.object()
                .add("messages", Jsonp.array().add(Jsonp.object()
                        .add("role", "user")
                        .add("content", ToolResult.textBlock(call.arguments().getString("prompt")))))
                .add("maxTokens", 100)
                .build();
        return askClient(call, "sampling/createMessage", params, result -> {
            JsonObject content = result.getJsonObject("content");
            String text = content == null ? result.toString() : content.getString("text", content.toString());
            return "LLM response: " + text;
        });
    }

    private static ToolResult elicitation(ToolCall call) {
        JsonObject schema = Jsonp.object()
                .add("type", "object")
                .add("properties", Jsonp.object()
                        .add("username", Jsonp.object().add("type", "string").add("description", "User's response"))
                        .add("email", Jsonp.object().add("type", "string").add("description", "User's email address")))
                .add("required", Jsonp.array().add("username").add("email"))
                .build();
        JsonObject params = Jsonp.object()
                .add("message", call.arguments().getString("message"))
                .add("requestedSchema", schema)
                .build();
        return askClient(call, "elicitation/create", params, result -> "User response: " + result);
    }

    private static ToolResult elicitationDefaults(ToolCall call) {
        JsonObject schema = Jsonp.object()
                .add("type", "object")
                .add("properties", Jsonp.object()
                        .add("name", Jsonp.object().add("type", "string").add("default", "John Doe"))
                        .add("age", Jsonp.object().add("type", "integer").add("default", 30))
                        .add("score", Jsonp.object().add("type", "number").add("default", 95.5))
                        .add("status", Jsonp.object().add("type", "string")
                                .add("enum", Jsonp.array().add("active").add("inactive").add("pending"))
                                .add("default", "active"))
                        .add("verified", Jsonp.object().add("type", "boolean").add("default", true)))
                .build();
        JsonObject params = Jsonp.object()
                .add("message", "Please review and update the form fields with defaults")
                .add("requestedSchema", schema)
                .build();
        return askClient(call, "elicitation/create", params, ConformanceFixture::elicitationSummary);
    }

    private static ToolResult elicitationEnums(ToolCall call) {
        JsonObject schema = Jsonp.object()
                .add("type", "object")
                .add("properties", Jsonp.object()
                        .add("untitledSingle", Jsonp.object().add("type", "string")
                                .add("enum", Jsonp.array().add("option1").add("option2").add("option3")))
                        .add("titledSingle", Jsonp.object().add("type", "string")
                                .add("oneOf", Jsonp.array()
                                        .add(constTitle("value1", "First Option"))
                                        .add(constTitle("value2", "Second Option"))
                                        .add(constTitle("value3", "Third Option"))))
                        .add("legacyEnum", Jsonp.object().add("type", "string")
                                .add("enum", Jsonp.array().add("opt1").add("opt2").add("opt3"))
                                .add("enumNames", Jsonp.array().add("Option One").add("Option Two").add("Option Three")))
                        .add("untitledMulti", Jsonp.object().add("type", "array")
                                .add("items", Jsonp.object().add("type", "string")
                                        .add("enum", Jsonp.array().add("option1").add("option2").add("option3"))))
                        .add("titledMulti", Jsonp.object().add("type", "array")
                                .add("items", Jsonp.object().add("anyOf", Jsonp.array()
                                        .add(constTitle("value1", "First Choice"))
                                        .add(constTitle("value2", "Second Choice"))
                                        .add(constTitle("value3", "Third Choice"))))))
                .build();
        JsonObject params = Jsonp.object()
                .add("message", "Please choose from the options")
                .add("requestedSchema", schema)
                .build();
        return askClient(call, "elicitation/create", params, ConformanceFixture::elicitationSummary);
    }

    private static String elicitationSummary(JsonObject result) {
        JsonValue content = result.getOrDefault("content", JsonValue.EMPTY_JSON_OBJECT);
        return "Elicitation completed: action=" + result.getString("action", "unknown") + ", content=" + content;
    }

    private static ToolResult askClient(ToolCall call, String method, JsonObject params, java.util.function.Function<JsonObject, String> render) {
        try {
            return ToolResult.text(render.apply(call.requestFromClient(method, params, CLIENT_TIMEOUT)), false);
        } catch (ClientRequestException e) {
            return ToolResult.error(method + " failed: " + e.getMessage());
        } catch (TimeoutException e) {
            return ToolResult.error("the client did not answer " + method + " within " + CLIENT_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("cancelled");
        }
    }

    private static JsonObject constTitle(String value, String title) {
        return Jsonp.object().add("const", value).add("title", title).build();
    }

    private static JsonObject objectSchema(String property, String description) {
        return Jsonp.object()
                .add("type", "object")
                .add("properties", Jsonp.object()
                        .add(property, Jsonp.object().add("type", "string").add("description", description)))
                .add("required", Jsonp.array().add(property))
                .build();
    }

    private static JsonObject jsonSchema2020() {
        return Jsonp.object()
                .add("$schema", "https://json-schema.org/draft/2020-12/schema")
                .add("type", "object")
                .add("$defs", Jsonp.object().add("address", Jsonp.object()
                        .add("type", "object")
                        .add("properties", Jsonp.object()
                                .add("street", Jsonp.object().add("type", "string"))
                                .add("city", Jsonp.object().add("type", "string")))))
                .add("properties", Jsonp.object()
                        .add("name", Jsonp.object().add("type", "string"))
                        .add("address", Jsonp.object().add("$ref", "#/$defs/address")))
                .add("additionalProperties", false)
                .build();
    }

    private static ToolResult content(JsonObject block) {
        return new ToolResult(List.of(block), Optional.empty(), false);
    }

    private static JsonObject embedded(String uri, String mimeType, String text) {
        return Jsonp.object()
                .add("type", "resource")
                .add("resource", Jsonp.object().add("uri", uri).add("mimeType", mimeType).add("text", text))
                .build();
    }

    private static JsonObject message(JsonObject content) {
        return Jsonp.object().add("role", "user").add("content", content).build();
    }

    private static Prompt prompt(
            String name, String description, List<PromptArgument> arguments,
            BiFunction<Map<String, String>, Principal, List<JsonObject>> render) {
        PromptDefinition definition = new PromptDefinition(name, name, description, arguments);
        return new Prompt() {
            @Override
            public PromptDefinition definition() {
                return definition;
            }

            @Override
            public List<JsonObject> render(Map<String, String> args, Principal principal) {
                return render.apply(args, principal);
            }

            @Override
            public List<String> complete(String argument, String prefix) {
                return List.of("paris", "park", "party", "test", "testing").stream()
                        .filter(value -> value.startsWith(prefix))
                        .toList();
            }
        };
    }

    private static final class FixtureResources implements ResourceProvider {
        @Override
        public List<ResourceDefinition> resources() {
            return List.of(
                    new ResourceDefinition("test://static-text", "static-text", "Static text", "A static text resource", "text/plain"),
                    new ResourceDefinition("test://static-binary", "static-binary", "Static binary", "A static PNG image", "image/png"),
                    new ResourceDefinition("test://watched-resource", "watched-resource", "Watched resource", "A resource clients may subscribe to", "text/plain"));
        }

        @Override
        public List<ResourceTemplateDefinition> templates() {
            return List.of(new ResourceTemplateDefinition(
                    "test://template/{id}/data", "template-data", "Template data", "Data for one id", "application/json"));
        }

        @Override
        public Optional<List<JsonObject>> read(String uri, Principal principal) {
            switch (uri) {
                case "test://static-text" -> {
                    return Optional.of(List.of(text(uri, "text/plain", "This is the content of the static text resource.")));
                }
                case "test://static-binary" -> {
                    return Optional.of(List.of(Jsonp.object().add("uri", uri).add("mimeType", "image/png").add("blob", PNG).build()));
                }
                case "test://watched-resource" -> {
                    return Optional.of(List.of(text(uri, "text/plain", "Watched resource content")));
                }
                default -> {
                    Matcher matcher = TEMPLATE_URI.matcher(uri);
                    if (!matcher.matches()) {
                        return Optional.empty();
                    }
                    String id = matcher.group(1);
                    String json = Jsonp.object()
                            .add("id", id).add("templateTest", true).add("data", "Data for ID: " + id)
                            .build().toString();
                    return Optional.of(List.of(text(uri, "application/json", json)));
                }
            }
        }

        @Override
        public List<String> complete(String uriTemplate, String variable, String prefix) {
            return List.of("1", "2", "3", "123").stream().filter(v -> v.startsWith(prefix)).toList();
        }

        private static JsonObject text(String uri, String mimeType, String text) {
            return Jsonp.object().add("uri", uri).add("mimeType", mimeType).add("text", text).build();
        }
    }
}
