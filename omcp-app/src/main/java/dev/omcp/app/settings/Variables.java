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

    // Plugins and hooks (spec 5.8, 6.1)
    public static final Variable PLUGINS_DIR = new Variable("PLUGINS_DIR", List.of(), "/app/plugins",
            "Directory scanned at start for connector plugins; a missing directory means no filesystem plugins.", false);
    public static final Variable VERIFY_PLUGINS = new Variable("VERIFY_PLUGINS", List.of(), "on",
            "Gate filesystem plugins on integrity and signature; false, 0, no or off opt out.", false);
    public static final Variable PLUGIN_TRUST_ROOT = new Variable("PLUGIN_TRUST_ROOT", List.of(), "",
            "Path to the PEM public key(s) plugin signatures are verified against.", false);
    public static final Variable PLUGIN_REQUIRE_SIGNATURE = new Variable("PLUGIN_REQUIRE_SIGNATURE", List.of(), "off",
            "Strict mode: an unverifiable plugin or a missing trust root stops the start (true, 1, yes, on).", false);
    public static final Variable ENABLE_UI_INSTALL = new Variable("ENABLE_UI_INSTALL", List.of(), "false",
            "Allow installing and uploading connectors through the management API (true to enable).", false);
    public static final Variable HUB_CATALOG_URL = new Variable("HUB_CATALOG_URL", List.of(), "",
            "Connector hub catalog: an http(s) URL, a file: URL or an absolute directory; unset means no hub.", false);
    public static final Variable HOOK_MODE = new Variable("OMCP_HOOK_MODE", List.of(), "",
            "Failure mode of every plugin hook (enforce, permissive, disabled), overriding each hook's own mode.", false);
    public static final Variable CONFIG_PATH = new Variable("CONFIG_PATH", List.of(), "./config/sources.yaml",
            "The sources file; its plugins: block pins plugin versions.", false);

    /** Every variable, in the order the configuration page lists them. */
    public static final List<Variable> ALL = List.of(
            HOST, PORT, API_KEYS, ALLOWED_ORIGINS, ALLOWED_HOSTS, SHUTDOWN_GRACE, LOG_LEVEL, LOG_FORMAT,
            PLUGINS_DIR, VERIFY_PLUGINS, PLUGIN_TRUST_ROOT, PLUGIN_REQUIRE_SIGNATURE, ENABLE_UI_INSTALL, HUB_CATALOG_URL, HOOK_MODE,
            CONFIG_PATH);

    private Variables() {}
}
