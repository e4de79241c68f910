package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

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
}
