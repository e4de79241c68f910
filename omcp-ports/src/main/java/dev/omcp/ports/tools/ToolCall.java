package dev.omcp.ports.tools;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * One invocation of a tool: its arguments, its caller and its channel back to the client.
 */
public interface ToolCall {

    /** The authenticated caller. */
    Principal principal();

    /** The arguments, already validated against the tool's input schema. */
    JsonObject arguments();

    /**
     * Reports progress, when the client asked for it with {@code _meta.progressToken}; otherwise
     * does nothing.
     *
     * @param progress work done so far; must increase with every call
     * @param total the total amount of work, or a negative number when unknown
     * @param message an optional human-readable status, or {@code null}
     */
    void progress(double progress, double total, String message);

    /**
     * Sends a {@code notifications/message} log entry to the client when its log level admits it.
     */
    void log(LogLevel level, String logger, JsonValue data);

    /**
     * Sends a request to the client (for example {@code sampling/createMessage} or
     * {@code elicitation/create}) and waits for its answer.
     *
     * @return the {@code result} the client returned
     * @throws ClientRequestException when the client answered an error, lacks the capability, or
     *     the transport cannot carry server requests
     * @throws TimeoutException when the client did not answer within {@code timeout}
     */
    JsonObject requestFromClient(String method, JsonObject params, Duration timeout)
            throws ClientRequestException, TimeoutException, InterruptedException;
}
