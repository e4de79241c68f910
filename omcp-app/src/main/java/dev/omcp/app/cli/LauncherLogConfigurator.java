package dev.omcp.app.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * The launcher's logging, set up in code: one event per line on standard error, as text or (with
 * {@code OMCP_LOG_FORMAT=json}) as one JSON object per line, {@code dev.omcp} at
 * {@code OMCP_LOG_LEVEL}, every library at {@code WARN}. {@link LoggingSetup} hands the two settings
 * over as system properties before the first logger exists.
 *
 * <p>Why not {@code logback.xml}: parsing and interpreting the XML took about 40 ms of a one-second
 * start-up (JFR profile). An operator who wants another configuration still gets it: with
 * {@code -Dlogback.configurationFile=...} (in {@code OMCP_JAVA_OPTS}) this configurator steps aside
 * and Logback reads that file, as it does with a {@code logback-test.xml} on a test class path.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LauncherLogConfigurator extends ContextAwareBase implements Configurator {
    static final String LEVEL_PROPERTY = "omcp.log.level";
    static final String FORMAT_PROPERTY = "omcp.log.appender";
    private static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{24} %" + OneLineMessageConverter.WORD
            + "%n%ex{short}";

    /** Public for Logback's service loader. */
    public LauncherLogConfigurator() {}

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LauncherLogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        NopStatusListener quiet = new NopStatusListener();
        context.getStatusManager().add(quiet);

        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("console");
        console.setTarget("System.err");
        console.setEncoder(encoder(context, "JSON".equals(System.getProperty(FORMAT_PROPERTY))));
        console.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(console);
        context.getLogger("dev.omcp").setLevel(Level.toLevel(System.getProperty(LEVEL_PROPERTY), Level.INFO));
        context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        context.getLogger("io.javalin").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    static Encoder<ILoggingEvent> encoder(LoggerContext context, boolean json) {
        if (json) {
            JsonEncoder encoder = new JsonEncoder();
            encoder.setContext(context);
            encoder.setWithSequenceNumber(false);
            encoder.setWithNanoseconds(false);
            encoder.setWithContext(false);
            encoder.setWithArguments(false);
            // the event with its values: Logback's "message" is the template ("event=listening url={}"),
            // which alone left every JSON line without the values it was written for
            encoder.setWithMessage(false);
            encoder.setWithFormattedMessage(true);
            encoder.start();
            return encoder;
        }
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put(OneLineMessageConverter.WORD, OneLineMessageConverter::new);
        layout.setPattern(PATTERN);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }
}
