package dev.omcp.app.access;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Basic mode with users across roles and tenants, all with {@link TestGateway#PASSWORD}: alice
 * (admin) and olivia (operator) without a tenant; ada (admin), opal (operator) and victor (viewer)
 * of tenant acme; gus (operator) of tenant globex.
 */
final class ManagementUsers {
    private ManagementUsers() {}

    static Map<String, String> basicMode(Path dir) {
        StringBuilder users = new StringBuilder("{\"users\": [");
        String[][] rows = {
                {"alice", "admin", ""}, {"olivia", "operator", ""}, {"ada", "admin", "acme"}, {"opal", "operator", "acme"},
                {"victor", "viewer", "acme"}, {"gus", "operator", "globex"}};
        for (int i = 0; i < rows.length; i++) {
            users.append(i == 0 ? "" : ",").append("{\"username\": \"").append(rows[i][0]).append("\", \"roles\": [\"")
                    .append(rows[i][1]).append("\"], \"passwordHash\": \"").append(TestGateway.HASH).append('"');
            if (!rows[i][2].isEmpty()) {
                users.append(", \"tenant\": \"").append(rows[i][2]).append('"');
            }
            users.append('}');
        }
        users.append("]}");
        Path file = dir.resolve("users.json");
        try {
            Files.writeString(file, users);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "basic");
        env.put("OMCP_USERS_FILE", file.toString());
        env.put("OMCP_SESSION_SECRET", TestGateway.SECRET);
        return env;
    }

    static Browser login(TestGateway gateway, String user) {
        Browser browser = gateway.browser();
        Browser.Reply reply = browser.login(user, TestGateway.PASSWORD);
        if (reply.status() != 200) {
            throw new AssertionError("login of " + user + " failed: " + reply.status() + " " + reply.body());
        }
        browser.get("/api/me");
        return browser;
    }
}
