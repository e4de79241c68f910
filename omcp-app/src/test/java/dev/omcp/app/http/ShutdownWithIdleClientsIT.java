package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.app.support.RunningGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A normal stop while clients hold idle keep-alive connections (the JDK client, browsers and most
 * agents do) is quiet: no error, no stack trace, no stop timeout.
 */
class ShutdownWithIdleClientsIT {
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Logger gateway = (Logger) LoggerFactory.getLogger("dev.omcp.adapters.http.server");
    private Level gatewayLevel;

    @BeforeEach
    void capture() {
        log.start();
        root.addAppender(log);
        gatewayLevel = gateway.getLevel();
        gateway.setLevel(Level.DEBUG); // the stop-timeout event is logged at debug
    }

    @AfterEach
    void release() {
        root.detachAppender(log);
        gateway.setLevel(gatewayLevel);
    }

    @Test
    void stoppingWithIdleKeepAliveConnections_logsNoErrorAndNoStopTimeout() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        RunningGateway gateway = RunningGateway.start();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
        }

        gateway.close();

        List<String> events = log.list.stream().map(e -> e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage()).toList();
        assertThat(events).as("the stop was logged").anySatisfy(e -> assertThat(e).contains("event=stopped"));
        assertThat(events).noneSatisfy(e -> assertThat(e).startsWith("ERROR"));
        assertThat(events).noneSatisfy(e -> assertThat(e).contains("event=stop-timeout"));
        client.close();
    }
}
