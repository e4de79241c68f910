package dev.omcp.app.settings;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything the launcher read from the environment, validated, immutable.
 *
 * @param server where and how to listen
 * @param agent the agent transport's credentials
 * @param logging log level and format
 * @param access management-plane access control
 */
public record Settings(Server server, Agent agent, Logging logging, AccessControlSettings access) {
    public Settings {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(access, "access");
    }

    /** Settings without access control (anonymous mode), for callers that predate it. */
    public Settings(Server server, Agent agent, Logging logging) {
        this(server, agent, logging, AccessControlSettings.defaults());
    }

    /** Listening and request-guard settings. */
    public record Server(String host, int port, List<String> allowedHosts, List<String> allowedOrigins, Duration shutdownGrace) {
        public Server {
            allowedHosts = List.copyOf(allowedHosts);
            allowedOrigins = List.copyOf(allowedOrigins);
        }
    }

    /** Agent transport settings. */
    public record Agent(List<ApiKeyEntry> apiKeys) {
        public Agent {
            apiKeys = List.copyOf(apiKeys);
        }
    }

    /** One {@code name:token} entry of {@code OMCP_API_KEYS}. */
    public record ApiKeyEntry(String name, String token) {
        @Override
        public String toString() {
            return "ApiKeyEntry[" + name + ", token hidden]";
        }
    }

    /** Logging settings. */
    public record Logging(String level, String format) {}
}
