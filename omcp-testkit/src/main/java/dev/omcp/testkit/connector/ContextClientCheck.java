package dev.omcp.testkit.connector;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import java.io.IOException;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Holds a connector to {@code context.httpClient()} for every backend request (spec 2.3). A client of
 * its own (a {@code HttpClient} it built, a {@code URLConnection}, another library) skips what the
 * gateway's client does for the source: the egress guard, the source's TLS and authentication, the
 * no-redirect rule, the answer memory budget. Nothing a connector answers shows it, so it is
 * counted: a second connector is created for a {@link CountingBackend} with a context whose clients
 * count what they send there, each call the contract makes is made again, and the backend must have
 * received no request the context's clients did not send. A connector that sends nothing passes.
 */
final class ContextClientCheck {
    static final String FIX = "such a client skips the gateway's egress guard (SSRF protection), the source's TLS and "
            + "authentication settings, the no-redirect rule and the answer memory budget: send every backend request with "
            + "context.httpClient(), or with dev.omcp.sdk.http.BackendApi, which uses it, and build no HttpClient, "
            + "URLConnection or other HTTP client of your own";

    /** One call of the connector, named as its method is for the author. */
    record NamedCall(String name, ConnectorContract.Call<?> call) {}

    private final Duration callTimeout;
    private final List<String> passed;
    private final List<String> failures;
    private final List<String> notes;
    /** The calls in which the backend received more requests than the context's clients sent, in order. */
    private final List<String> bypassing = new ArrayList<>();

    private ContextClientCheck(Duration callTimeout, List<String> passed, List<String> failures, List<String> notes) {
        this.callTimeout = callTimeout;
        this.passed = passed;
        this.failures = failures;
        this.notes = notes;
    }

    /**
     * @param calls the calls to make of the connector created for the counting backend
     */
    static void run(ConnectorFactory factory, SourceConfig source, ConnectorContext context, Function<Connector, List<NamedCall>> calls,
            Duration callTimeout, List<String> passed, List<String> failures, List<String> notes) {
        new ContextClientCheck(callTimeout, passed, failures, notes).run(factory, source, context, calls);
    }

    private void run(ConnectorFactory factory, SourceConfig source, ConnectorContext context, Function<Connector, List<NamedCall>> calls) {
        try (CountingBackend backend = CountingBackend.start()) {
            AtomicInteger sent = new AtomicInteger();
            ConnectorContext counting = new CountingContext(context, backend.port(), sent);
            SourceConfig there = new SourceConfig(source.name(), source.type(), backend.urlFor(source.url()), source.tenant(),
                    source.settings());
            AtomicReference<Connector> created = new AtomicReference<>();
            AtomicReference<String> notCreated = new AtomicReference<>("it did not complete");
            counted("create()", backend, sent, () -> {
                try {
                    created.set(factory.create(there, counting).toCompletableFuture().get());
                    notCreated.set("it completed with null");
                } catch (ExecutionException e) {
                    notCreated.set("it failed: " + ConnectorContract.describe(e.getCause()));
                } catch (RuntimeException e) {
                    notCreated.set("it threw: " + ConnectorContract.describe(e));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            });
            Connector connector = created.get();
            if (connector == null) {
                notes.add("the check that every backend request goes through context.httpClient() ran create() only: for a backend "
                        + "that answers every request with 503, " + notCreated.get());
            } else {
                try {
                    for (NamedCall call : calls.apply(connector)) {
                        counted(call.name(), backend, sent, call.call());
                    }
                } finally {
                    counted("close()", backend, sent, () -> {
                        connector.close();
                        return null;
                    });
                }
            }
            judge(backend.received(), sent.get());
        } catch (IOException | URISyntaxException e) {
            notes.add("the check that every backend request goes through context.httpClient() did not run: "
                    + ConnectorContract.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("interrupted while the check that every backend request goes through context.httpClient() ran");
        }
    }

    /** Makes {@code call}, noting it when the backend received more requests during it than the context's clients sent. */
    private void counted(String name, CountingBackend backend, AtomicInteger sent, ConnectorContract.Call<?> call)
            throws InterruptedException {
        int receivedBefore = backend.received();
        int sentBefore = sent.get();
        awaitQuietly(name, call);
        if (backend.received() - receivedBefore > sent.get() - sentBefore) {
            bypassing.add(name);
        }
    }

    /**
     * Runs {@code call} on a thread of its own up to the call timeout. How it ends does not matter
     * here (against a backend answering 503, failing is what a connector should do); the ordinary
     * checks judge the answers.
     */
    private void awaitQuietly(String name, ConnectorContract.Call<?> call) throws InterruptedException {
        Thread worker = Thread.ofVirtual().name("contract-client-" + name).start(() -> {
            try {
                call.run();
            } catch (ConnectorException | RuntimeException e) {
                // see above: an ending is an ending
            }
        });
        if (!worker.join(callTimeout)) {
            worker.interrupt();
            notes.add("the check that every backend request goes through context.httpClient() stopped waiting for " + name
                    + " after " + callTimeout.toSeconds() + " s against a backend that answers every request with 503 at once");
        }
    }

    private void judge(int received, int sent) {
        int own = received - sent;
        if (own > 0) {
            String who = bypassing.isEmpty() ? "the connector" : String.join(", ", bypassing);
            failures.add(who + " sent " + own + " backend request" + (own == 1 ? "" : "s") + " with an HTTP client of its own (the backend "
                    + "received " + received + ", context.httpClient() sent " + sent + "): " + FIX);
        } else if (received == 0) {
            passed.add("sent no backend request when exercised against a loopback backend, so none bypassed context.httpClient()");
        } else {
            passed.add("every backend request went through context.httpClient() (" + received + " of " + received + ")");
        }
    }
}
