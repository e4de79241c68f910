package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.core.plugins.PluginStartRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** How {@code serve} and {@code demo} tell a start the operator must fix (exit 1) from a bug in OMCP (exit 70). */
class GatewayStartTest {
    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
    private final List<String> logged = new ArrayList<>();

    private Optional<GatewayAssembly> start(RuntimeException failure) {
        return GatewayStart.startOrRefuse((settings, options, version) -> {
            throw failure;
        }, null, GatewayAssembly.Options.none(), "omcp: cannot start, ", err, logged::add);
    }

    /** What {@code omcp demo} and {@code omcp serve} do with the start: the exit status of a refusal, or the bug goes on. */
    @Command(name = "starting")
    final class Starting implements Callable<Integer> {
        private final RuntimeException failure;

        Starting(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() {
            return start(failure).isPresent() ? 0 : 1;
        }
    }

    @Test
    void aBugWhileStarting_isNotSaidAsARefusal_butGoesOnToTheBugHandler() {
        IllegalStateException bug = new IllegalStateException("the index went negative");

        assertThatThrownBy(() -> start(bug)).isSameAs(bug);
        assertThat(said.toString(StandardCharsets.UTF_8)).as("no 'cannot start' line that reads as the operator's mistake").isEmpty();
        assertThat(logged).isEmpty();
    }

    @Test
    void aBugWhileStarting_exits70_withTheLineThatSaysItIsABug() {
        CommandLine line = OmcpCommand.commandLine();
        line.addSubcommand(new Starting(new NullPointerException("settings.server() is null")));
        StringWriter errors = new StringWriter();
        line.setErr(new PrintWriter(errors, true));

        assertThat(line.execute("starting")).isEqualTo(UnexpectedFailure.EXIT_CODE);
        assertThat(errors.toString()).startsWith("omcp: a bug in OMCP stopped omcp starting: an unexpected java.lang.NullPointerException");
    }

    @Test
    void aRefusedStart_isOneMessageAndLogged_exit1_withoutAStackTrace() {
        CommandLine line = OmcpCommand.commandLine();
        line.addSubcommand(new Starting(new StartRefusedException("PORT 8080 is already in use by another process")));

        assertThat(line.execute("starting")).isEqualTo(1);
        assertThat(said.toString(StandardCharsets.UTF_8))
                .isEqualTo("omcp: cannot start, PORT 8080 is already in use by another process" + System.lineSeparator());
        assertThat(logged).containsExactly("PORT 8080 is already in use by another process");
    }

    @Test
    void anUnverifiablePluginInStrictMode_isARefusedStart_notABug() {
        PluginStartRefusedException strict = new PluginStartRefusedException(List.of("tempo: the signature does not verify"));

        assertThat(start(strict)).isEmpty();
        assertThat(said.toString(StandardCharsets.UTF_8)).startsWith("omcp: cannot start, plugin verification refused the start")
                .contains("tempo: the signature does not verify").doesNotContain("\tat ");
    }
}
