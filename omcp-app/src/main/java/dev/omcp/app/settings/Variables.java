package dev.omcp.app.settings;

import java.util.List;

/**
 * Every environment variable the gateway reads. {@code docs/configuration.md} documents each one;
 * a test fails when this list names a variable the page does not.
 */
public final class Variables {
    public static final Variable HOST = new Variable("HOST", List.of(), "127.0.0.1",
            "Address to listen on; set 0.0.0.0 in containers.", false);
    public static final Variable PORT = new Variable("PORT", List.of(), "3000",
            "TCP port to listen on; 0 picks a free port.", false);
    public static final Variable API_KEYS = new Variable("OMCP_API_KEYS", List.of(), "",
            "Bearer credentials of the agent transport as comma-separated name:token; unset means anonymous /mcp.", true);
    public static final Variable ALLOWED_ORIGINS = new Variable("OMCP_ALLOWED_ORIGINS", List.of(), "",
            "Comma-separated browser origins (scheme://host[:port]) allowed besides same-origin requests.", false);
    public static final Variable ALLOWED_HOSTS = new Variable("OMCP_ALLOWED_HOSTS", List.of(), "",
            "Comma-separated Host names accepted besides the loopback names of a loopback-bound gateway.", false);
    public static final Variable SHUTDOWN_GRACE = new Variable("OMCP_SHUTDOWN_GRACE", List.of(), "10",
            "Seconds in-flight requests may run after SIGTERM before the process stops.", false);
    public static final Variable LOG_LEVEL = new Variable("OMCP_LOG_LEVEL", List.of(), "info",
            "Log level of the gateway's own loggers: trace, debug, info, warn or error.", false);
    public static final Variable LOG_FORMAT = new Variable("OMCP_LOG_FORMAT", List.of(), "text",
            "Log line format: text, or json for one JSON object per line.", false);

    /** Every variable, in the order the configuration page lists them. */
    public static final List<Variable> ALL = List.of(
            HOST, PORT, API_KEYS, ALLOWED_ORIGINS, ALLOWED_HOSTS, SHUTDOWN_GRACE, LOG_LEVEL, LOG_FORMAT);

    private Variables() {}
}
