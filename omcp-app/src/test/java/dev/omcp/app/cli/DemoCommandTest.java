package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code omcp demo} prints for the agent to connect to. */
class DemoCommandTest {

    @Test
    void theUrlForTheAgent_putsAnIpv6HostInBrackets_asServeDoes() {
        // HOST=::1 printed as http://::1:3000/mcp is no URL: `claude mcp add` and every client would refuse it
        assertThat(DemoCommand.mcpUrl("::1", 3000)).isEqualTo("http://[::1]:3000/mcp");
        assertThat(URI.create(DemoCommand.mcpUrl("::1", 3000)).getPort()).isEqualTo(3000);
        assertThat(DemoCommand.mcpUrl("127.0.0.1", 3000)).isEqualTo("http://127.0.0.1:3000/mcp");
        assertThat(DemoCommand.mcpUrl("::1", 3000)).isEqualTo(ServeCommand.mcpUrl("::1", 3000));
    }

    @Test
    void aTemporaryDirectoryThatCannotBeWritten_isSaidWithWhatToDo_notAStackTrace(@TempDir Path dir) throws Exception {
        // before: the IOException escaped call(), and picocli printed its stack trace
        Path missing = dir.resolve("gone");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        int status;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            status = new DemoCommand(missing).call();
        } finally {
            System.setErr(err);
        }
        assertThat(status).isEqualTo(1);
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .startsWith("omcp: cannot start the demo, its working directory cannot be created in " + missing)
                .contains("NoSuchFileException").contains("-Djava.io.tmpdir=");
        assertThat(Files.exists(missing)).isFalse();
    }
}
