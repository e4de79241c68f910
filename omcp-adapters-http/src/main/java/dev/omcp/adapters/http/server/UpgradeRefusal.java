package dev.omcp.adapters.http.server;

import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of a refused WebSocket upgrade. Javalin writes the result of a request's handlers once they
 * are done, but not on the upgrade path: there it keeps the status and headers the before-upgrade handler
 * set and drops the result, so a 403 of the Host/Origin guard went out with no body while every other
 * refusal of the HTTP API answers its JSON error (code and what to do). This writes that result itself.
 * A browser's WebSocket never shows it; a CLI, a proxy's log or a curl of the upgrade does.
 */
final class UpgradeRefusal {
    private static final Logger LOG = LoggerFactory.getLogger(UpgradeRefusal.class);

    private UpgradeRefusal() {}

    /** Writes the result the refusal set on {@code ctx} ({@code JsonResponses.error}) to the response; nothing when it set none. */
    static void writeBody(Context ctx) {
        try (InputStream body = ctx.resultInputStream()) {
            if (body != null) {
                body.transferTo(ctx.res().getOutputStream());
            }
        } catch (IOException e) {
            // the client left before reading its refusal: nobody is left to tell, and the refusal was counted
            LOG.debug("writing the body of a refused websocket upgrade failed: \"{}\"", LogField.of(e.getMessage()));
        }
    }
}
