package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.LauncherProcess;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's log as operators see it: format, level, and their own Logback file when they bring one. */
class LauncherLoggingSystemTest {

    @Test
    void textFormat_writesOneTimestampedLinePerEventOnStandardError() throws Exception {
        List<String> stderr = runAndStop(Map.of());
        assertThat(stderr).anySatisfy(line -> assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) INFO  .*event=listening.*"));
    }

    @Test
    void jsonFormat_writesOneJsonObjectPerEvent() throws Exception {
        List<String> stderr = runAndStop(Map.of("OMCP_LOG_FORMAT", "json"));
        List<String> events = stderr.stream().filter(line -> line.startsWith("{")).toList();
        assertThat(events).isNotEmpty();
        for (String line : events) {
            JsonObject event = Jsonp.reader(new StringReader(line)).readObject();
            assertThat(event.getString("level")).isNotBlank();
            assertThat(event.getString("loggerName")).startsWith("dev.omcp");
        }
        assertThat(events).as("each event with its values, not Logback's template with {} in it")
                .anySatisfy(line -> assertThat(Jsonp.reader(new StringReader(line)).readObject().getString("formattedMessage"))
                        .contains("event=listening").containsPattern("port=\\d+"));
    }

    @Test
    void warnLevel_hidesTheGatewaysInformationEvents() throws Exception {
        List<String> stderr = runAndStop(Map.of("OMCP_LOG_LEVEL", "warn"));
        assertThat(String.join("\n", stderr)).doesNotContain("event=listening").doesNotContain("event=stopped");
    }

    @Test
    void anOperatorsOwnLogbackFile_replacesTheBuiltInConfiguration(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <target>System.err</target>
                    <encoder><pattern>CUSTOM %level %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
        List<String> stderr = runAndStop(Map.of("JAVA_TOOL_OPTIONS", "-Dlogback.configurationFile=" + config));
        assertThat(stderr).anySatisfy(line -> assertThat(line).startsWith("CUSTOM INFO").contains("event=listening"));
    }

    private static List<String> runAndStop(Map<String, String> env) throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(env, "serve")) {
            launcher.awaitPort(Duration.ofSeconds(30));
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).isZero();
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            return launcher.stderr();
        }
    }
}
