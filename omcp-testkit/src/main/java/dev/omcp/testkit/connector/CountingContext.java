package dev.omcp.testkit.connector;

import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.TlsMaterial;
import dev.omcp.sdk.memory.AnswerBudget;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test's context with every client it hands out counting what it sends to {@code port}, into
 * {@code sent}; everything else is the test's context's.
 */
record CountingContext(ConnectorContext context, int port, AtomicInteger sent) implements ConnectorContext {
    @Override
    public HttpClient httpClient() {
        return new CountingHttpClient(context.httpClient(), port, sent);
    }

    @Override
    public HttpClient httpClient(TlsMaterial tls) throws ConnectorException {
        return new CountingHttpClient(context.httpClient(tls), port, sent);
    }

    @Override
    public Duration requestTimeout() {
        return context.requestTimeout();
    }

    @Override
    public Clock clock() {
        return context.clock();
    }

    @Override
    public Duration connectTimeout() {
        return context.connectTimeout();
    }

    @Override
    public AnswerBudget answerBudget() {
        return context.answerBudget();
    }
}
