package dev.omcp.core.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What the named classes log during one test, for tests that check an operator is told (or not told)
 * something. Register with {@code @RegisterExtension final CapturedLog log = new CapturedLog(X.class);}.
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {
    private final List<Logger> loggers;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public CapturedLog(Class<?>... sources) {
        this.loggers = Arrays.stream(sources).map(source -> (Logger) LoggerFactory.getLogger(source)).toList();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        appender.start();
        loggers.forEach(logger -> logger.addAppender(appender));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        loggers.forEach(logger -> logger.detachAppender(appender));
    }

    /** Every event logged so far in this test. */
    public List<ILoggingEvent> events() {
        return List.copyOf(appender.list);
    }

    /** The formatted messages logged at {@code level} so far in this test. */
    public List<String> messages(Level level) {
        return appender.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }
}
