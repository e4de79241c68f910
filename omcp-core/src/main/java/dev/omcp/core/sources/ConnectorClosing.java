package dev.omcp.core.sources;

import dev.omcp.sdk.connector.Connector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes retired connectors each on a thread of its own ({@link PluginThread}) and waits for them only
 * so long. A plugin's {@code close()} that never returned hung the API change that retired it while
 * that change held the registry's lock (so every later change waited too), and hung the gateway's
 * shutdown. Waiting at all keeps a well-behaved connector closed by the time the change answers.
 *
 * <p>A close still running at the end of a wait is given up on: logged once and never waited for again,
 * so one hung plugin does not slow every later change. Thread-safe.
 */
final class ConnectorClosing {
    /** The registry's: its operators read a source's events under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(SourceRegistry.class);
    /** How long a change, or the shutdown, waits for the connectors it retired to close. */
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

    private final Duration wait;
    /** The closes started and not yet waited for, by source name each. */
    private final Map<PluginThread<Void>, String> pending = new ConcurrentHashMap<>();

    ConnectorClosing(Duration wait) {
        this.wait = Objects.requireNonNull(wait, "wait");
    }

    /** Starts closing {@code connector}; what its close throws is logged, never thrown: the change was made already. */
    void close(String source, Connector connector) {
        PluginThread<Void> call = PluginThread.start("omcp-connector-close-" + source, () -> {
            connector.close();
            return null;
        });
        pending.put(call, source);
        // registered after the put, so it finds the entry even when the close returned at once;
        // one nobody waits for (the last call on a retired connector closed it) must not stay in the map
        call.result().whenComplete((ignored, error) -> {
            if (pending.remove(call) != null && error != null) {
                logFailure(source, error);
            }
        });
    }

    /** Waits for every close started so far, together up to the wait; gives up on those still running then. */
    void awaitStarted() {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Map.Entry<PluginThread<Void>, String> each : List.copyOf(pending.entrySet())) {
            try {
                each.getKey().awaitUntil(deadline);
                pending.remove(each.getKey());
            } catch (TimeoutException e) {
                if (pending.remove(each.getKey()) != null) {
                    LOG.warn("event=connector-close-hung source={} effect=\"the connector's close() did not return within {}; it is "
                            + "left running on thread omcp-connector-close-{} and the gateway goes on without it\" action=\"report it "
                            + "to the plugin's author: close() must return promptly\"", each.getValue(), PluginThread.spoken(wait),
                            each.getValue());
                }
            } catch (ExecutionException e) {
                if (pending.remove(each.getKey()) != null) {
                    logFailure(each.getValue(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void logFailure(String source, Throwable error) {
        // the plugin's close runs after the change was saved and swapped in: what it throws must not undo or fail that
        LOG.warn("event=connector-close-failed source={} error={}", source, error.getClass().getName());
    }
}
