package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.encoder.Encoder;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LauncherLogConfiguratorTest {
    private final LoggerContext context = new LoggerContext();

    LauncherLogConfiguratorTest() {
        context.setMDCAdapter(new LogbackMDCAdapter());
    }

    private String written(boolean json, String format, Object... arguments) {
        Encoder<ILoggingEvent> encoder = LauncherLogConfigurator.encoder(context, json);
        LoggingEvent event = new LoggingEvent("test", context.getLogger("dev.omcp.test"), Level.WARN, format, null, arguments);
        return new String(encoder.encode(event), StandardCharsets.UTF_8);
    }

    @Test
    void aValueWithALineBreak_cannotForgeASecondLineInTheTextLog() {
        String line = written(false, "event=backend-failed reason={}", "timeout\n2026-11-30T05:00:00.000Z INFO  admin event=login-ok"
                + "\u2028\u001b[2J");

        assertThat(line.strip().lines()).hasSize(1);
        assertThat(line).contains("reason=timeout\\n2026-11-30T05:00:00.000Z INFO  admin event=login-ok\\u2028\\u001b[2J")
                .endsWith(System.lineSeparator());
    }

    @Test
    void anOrdinaryLine_isWrittenAsItCame_withLettersOfEveryScript() {
        String line = written(false, "event=login-ok actor=\"{}\" tab=none", "José Ñúñez 山田");

        assertThat(line).contains(" WARN  dev.omcp.test event=login-ok actor=\"José Ñúñez 山田\" tab=none");
    }

    @Test
    void theJsonFormat_carriesTheMessageWithItsValues_escapedOnOneLine() {
        String line = written(true, "event=listening url={} reason={}", "http://127.0.0.1:8080/mcp", "a\nb");

        assertThat(line.strip().lines()).hasSize(1);
        JsonObject event = Jsonp.reader(new StringReader(line)).readObject();
        assertThat(event.getString("formattedMessage")).isEqualTo("event=listening url=http://127.0.0.1:8080/mcp reason=a\nb");
    }
}
