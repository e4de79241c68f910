package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.CompactJson;
import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.LogText;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.core.mcp.session.ClientRequests;
import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.core.tools.ToolDescriptors;
import dev.omcp.core.tools.ToolRegistry;
import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code tools/list} (with cursor paging) and {@code tools/call}. */
public final class ToolMethods {
    private static final Logger LOG = LoggerFactory.getLogger(ToolMethods.class);
    private static final String CURSOR_PREFIX = "tools:";
    /** Characters of a caller's name or URI an error message quotes: enough to spot a typo. */
    private static final int MAX_QUOTED_CHARS = 64;

    private final ToolRegistry registry;
    private final ToolVisibility visibility;
    private final JsonSchemaValidator validator;
    private final ClientRequests clientRequests;
    private final int pageSize;
    private volatile ListingCache cache = new ListingCache(-1, new EnumMap<>(ProtocolRevision.class));

    /** Pages of {@code tools/list} for callers who see every tool, per revision and page. */
    private record ListingCache(long version, Map<ProtocolRevision, List<McpResult.Success>> pages) {}

    public ToolMethods(
            ToolRegistry registry,
            ToolVisibility visibility,
            JsonSchemaValidator validator,
            ClientRequests clientRequests,
            int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("tools/list page size must be at least 1");
        }
        this.registry = registry;
        this.visibility = visibility;
        this.validator = validator;
        this.clientRequests = clientRequests;
        this.pageSize = pageSize;
    }

    /** Answers {@code tools/list}. */
    public McpResult list(McpCall call) {
        Optional<Integer> offset = decodeCursor(call.params());
        if (offset.isEmpty()) {
            return McpResult.Failure.of(
                    JsonRpc.INVALID_PARAMS, "params.cursor is not a cursor this server issued; call tools/list without a cursor to start over");
        }
        ToolRegistry.Snapshot snapshot = registry.snapshot();
        if (visibility.seesEverything(call.principal())) {
            List<McpResult.Success> pages = cachedPages(snapshot, call.revision());
            int page = offset.get() / pageSize;
            if (offset.get() % pageSize == 0 && page < Math.max(1, pages.size())) {
                return pages.get(page);
            }
        }
        List<Tool> visible = new ArrayList<>();
        for (Tool tool : snapshot.tools()) {
            if (visibility.isVisible(call.principal(), tool.definition().name())) {
                visible.add(tool);
            }
        }
        if (offset.get() > 0 && offset.get() >= visible.size()) {
            // Every cursor the gateway issues points at a tool; one past the end was made up, or the
            // list shrank since it was issued. Either way the next page is unknown, so none is made up.
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "params.cursor points past the end of the tool list ("
                    + visible.size() + " tools now; the list may have changed since the cursor was issued); "
                    + "call tools/list without a cursor to start over");
        }
        return McpResult.Success.of(page(visible, offset.get(), call.revision()));
    }

    private List<McpResult.Success> cachedPages(ToolRegistry.Snapshot snapshot, ProtocolRevision revision) {
        ListingCache current = cache;
        if (current.version() != snapshot.version()) {
            current = new ListingCache(snapshot.version(), new EnumMap<>(ProtocolRevision.class));
            cache = current;
        }
        synchronized (current) {
            return current.pages().computeIfAbsent(revision, r -> {
                List<McpResult.Success> pages = new ArrayList<>();
                int offset = 0;
                do {
                    JsonObject result = page(snapshot.tools(), offset, r);
                    pages.add(new McpResult.Success(result, result.toString()));
                    offset += pageSize;
                } while (offset < snapshot.tools().size());
                return List.copyOf(pages);
            });
        }
    }

    /** The page of {@code tools} from {@code offset}, which is at most their number. */
    private JsonObject page(List<Tool> tools, int offset, ProtocolRevision revision) {
        JsonArrayBuilder array = Jsonp.array();
        // not offset + pageSize, which overflows into a negative end (and cursor) for an offset near the int's maximum
        int end = offset + Math.min(pageSize, tools.size() - offset);
        for (int i = offset; i < end; i++) {
            array.add(ToolDescriptors.describe(tools.get(i).definition(), revision));
        }
        JsonObjectBuilder result = Jsonp.object().add("tools", array);
        if (end < tools.size()) {
            result.add("nextCursor", encodeCursor(end));
        }
        return result.build();
    }

    /** Answers {@code tools/call}. */
    public McpResult call(McpCall call) {
        JsonValue nameValue = call.params().get("name");
        if (!(nameValue instanceof jakarta.json.JsonString nameString)) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "tools/call needs params.name, the name of a tool from tools/list");
        }
        String name = nameString.getString();
        Optional<Tool> tool = registry.find(name).filter(t -> visibility.isVisible(call.principal(), name));
        if (tool.isEmpty()) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "Unknown tool '" + abbreviate(name) + "'; call tools/list for the tools you can use");
        }
        JsonValue argumentsValue = call.params().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        if (argumentsValue == JsonValue.NULL) {
            argumentsValue = JsonValue.EMPTY_JSON_OBJECT;
        }
        if (!(argumentsValue instanceof JsonObject arguments)) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "tools/call params.arguments must be an object");
        }
        List<String> violations = validator.validate(tool.get().definition().inputSchema(), arguments, "arguments");
        if (!violations.isEmpty()) {
            // MCP: input validation errors are tool execution errors, so the model can correct itself.
            return McpResult.Success.of(toJson(ToolResult.error(
                    "Invalid arguments for " + name + ": " + String.join("; ", violations)), call.revision()));
        }
        ToolResult result;
        try {
            result = tool.get().call(new DispatchedToolCall(call, arguments, clientRequests));
            if (result == null) {
                result = failedUnexpectedly(name, call, new NullPointerException("Tool.call returned null; return a ToolResult"));
            }
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
            // Errors that break this call, not the JVM: a StackOverflowError (a regular expression or a parser
            // recursing over a long hostile text, unwound by now), a tool class that failed to initialize
            // (ExceptionInInitializerError, then NoClassDefFoundError) or a failed assert. Uncaught, they reached
            // Javalin, which answered HTTP 500 with an empty body instead of a result the agent can read.
            result = failedUnexpectedly(name, call, e);
        }
        return success(result, call.revision());
    }

    /** The result an agent sees for a tool's bug, whose details go to the log only, under an error id. */
    private static ToolResult failedUnexpectedly(String name, McpCall call, Throwable bug) {
        String errorId = UUID.randomUUID().toString().substring(0, 8);
        LOG.error("tool={} principal=\"{}\" errorId={} outcome=bug", name, LogText.of(call.principal().id()), errorId, bug);
        return ToolResult.error("Tool " + name + " failed unexpectedly (error id " + errorId
                + "); the gateway log has the details. Retrying will likely fail the same way.");
    }

    /**
     * The answer to {@code tools/call}, already serialized when the result's text is its serialized
     * structured content: that text is spliced in as {@code structuredContent}, so a result is
     * serialized once (for the text) instead of twice. Results of tens of kilobytes (log lines) made
     * the second serialization a large share of a call.
     */
    static McpResult.Success success(ToolResult result, ProtocolRevision revision) {
        JsonObject json = toJson(result, revision);
        if (!result.textIsStructuredJson() || !revision.structuredOutput()) {
            return McpResult.Success.of(json);
        }
        String structured = result.content().getFirst().getString("text");
        // the text form escaped plus the structured form as it is: JSON log lines escape a fifth to a
        // half of their characters once more, so 2.5 times leaves the builder one array for the answer
        StringBuilder out = new StringBuilder((int) Math.min(structured.length() * 5L / 2 + 64, Integer.MAX_VALUE - 16)).append("{\"content\":[");
        for (int i = 0; i < result.content().size(); i++) {
            CompactJson.append(i == 0 ? out : out.append(','), result.content().get(i));
        }
        out.append("],\"structuredContent\":").append(structured);
        if (result.isError()) {
            out.append(",\"isError\":true");
        }
        return new McpResult.Success(json, out.append('}').toString());
    }

    /** The {@code CallToolResult} JSON of {@code result} as {@code revision} expects it. */
    public static JsonObject toJson(ToolResult result, ProtocolRevision revision) {
        JsonArrayBuilder content = Jsonp.array();
        result.content().forEach(content::add);
        JsonObjectBuilder json = Jsonp.object().add("content", content);
        if (revision.structuredOutput()) {
            result.structuredContent().ifPresent(structured -> json.add("structuredContent", structured));
        }
        if (result.isError()) {
            json.add("isError", true);
        }
        return json.build();
    }

    private static String encodeCursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<Integer> decodeCursor(JsonObject params) {
        JsonValue cursor = params.get("cursor");
        if (cursor == null || cursor == JsonValue.NULL) {
            return Optional.of(0);
        }
        if (!(cursor instanceof jakarta.json.JsonString text) || text.getString().length() > 64) {
            return Optional.empty();
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(text.getString()), StandardCharsets.UTF_8);
            if (!decoded.startsWith(CURSOR_PREFIX)) {
                return Optional.empty();
            }
            int offset = Integer.parseInt(decoded.substring(CURSOR_PREFIX.length()));
            return offset >= 0 ? Optional.of(offset) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * A name or URI the caller sent, as an error message quotes it: the way every refusal of the
     * gateway quotes caller text ({@link BackendText#quoted}), one line, invisible characters as
     * {@code ?} and cut short. JSON escaping keeps a bidi override or a zero-width space as it is, and
     * shown to a person it would reorder or hide part of the message.
     */
    static String abbreviate(String text) {
        return BackendText.quoted(text, MAX_QUOTED_CHARS);
    }
}
