package dev.omcp.connectors.builtin.kubernetes;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What the {@link KindWatcher}s log while a test runs: attached in a test's set-up, detached in its tear-down. */
final class WatcherLog {
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(KindWatcher.class);

    void attach() {
        events.start();
        logger.addAppender(events);
    }

    void detach() {
        logger.detachAppender(events);
    }

    /** The messages logged so far, formatted. */
    List<String> messages() {
        synchronized (events) { // the appender adds under its own lock, from the watcher threads
            return events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }
}
