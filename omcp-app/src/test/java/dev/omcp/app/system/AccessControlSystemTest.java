package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher jar as a process: exit code 1 where spec 5.2 says so, and omcp hash-password feeding a basic-mode login. */
class AccessControlSystemTest {
    private static final Path JAR = Path.of("target", "omcp.jar");
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/mcp");

    @TempDir
    Path dir;

    private static ProcessBuilder omcp(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-jar");
        command.add(JAR.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("OMCP_") || name.equals("PORT") || name.equals("HOST"));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("PORT", "0");
        builder.environment().put("OMCP_SHUTDOWN_GRACE", "1");
        builder.environment().putAll(env);
        return builder;
    }

    private record Finished(int code, String stdout, String stderr) {}

    private static Finished run(ProcessBuilder builder, String stdin) throws Exception {
        Process process = builder.start();
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("omcp did not exit within 60 s");
        }
        return new Finished(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void basicModeWithoutAUsableUsersFile_exitsWith1_spec52Rule1() throws Exception {
        Finished unset = run(omcp(Map.of("OMCP_AUTH", "basic")), "");
        assertThat(unset.code()).isEqualTo(1);
        assertThat(unset.stderr()).contains("OMCP_USERS_FILE");
        Path empty = Files.writeString(dir.resolve("users.json"), "");
        Finished emptyFile = run(omcp(Map.of("OMCP_AUTH", "basic", "OMCP_USERS_FILE", empty.toString())), "");
        assertThat(emptyFile.code()).isEqualTo(1);
        assertThat(emptyFile.stderr()).contains("is empty");
        Finished missing = run(omcp(Map.of("OMCP_AUTH", "basic", "OMCP_USERS_FILE", dir.resolve("none.json").toString())), "");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.stderr()).contains("does not exist").contains("OMCP_AUTH_ALLOW_FALLBACK");
        // an operator's mistake: said once, where every other refusal is said, without a stack trace
        assertThat(missing.stderr()).contains("omcp: cannot start, the users file").doesNotContain("\tat dev.omcp");
        assertThat(missing.stderr().lines().filter(l -> l.startsWith("omcp: cannot start")).findFirst().orElseThrow()
                .split("OMCP_AUTH_ALLOW_FALLBACK", -1)).as("the fallback hint once").hasSize(2);
    }

    @Test
    void anInvalidPolicyFileOrInvalidSettings_exitWith1() throws Exception {
        Path policy = Files.writeString(dir.resolve("policy.yaml"), "roles:\n  viewer: [sources:reed]\n");
        Finished invalidPolicy = run(omcp(Map.of("OMCP_RBAC_POLICY_FILE", policy.toString())), "");
        assertThat(invalidPolicy.code()).isEqualTo(1);
        assertThat(invalidPolicy.stderr()).contains("sources:reed");
        Finished invalid = run(omcp(Map.of("OMCP_AUTH", "ldap", "OMCP_TRUST_PROXY", "everyone")), "");
        assertThat(invalid.code()).isEqualTo(1);
        assertThat(invalid.stderr()).contains("OMCP_AUTH").contains("OMCP_TRUST_PROXY");
    }

    @Test
    void hashPasswordFeedsTheUsersFile_andTheLoginWorks_andFallbackRunsAnonymous() throws Exception {
        Finished minted = run(omcp(Map.of(), "hash-password", "alice", "--roles", "admin"), "Tide-Lantern-42-Orbit\n");
        assertThat(minted.code()).as(minted.stderr()).isZero();
        assertThat(minted.stdout()).startsWith("{\"username\":\"alice\"");
        Finished weak = run(omcp(Map.of(), "hash-password", "bob"), "password\n");
        assertThat(weak.code()).isEqualTo(1);
        assertThat(weak.stdout()).isEmpty();
        Finished relaxed = run(omcp(Map.of("OMCP_PASSWORD_MIN_LENGTH", "4", "OMCP_PASSWORD_MIN_CLASSES", "1",
                "OMCP_PASSWORD_DENYLIST_DISABLED", "true"), "hash-password", "bob"), "zebra\n");
        assertThat(relaxed.code()).as(relaxed.stderr()).isZero();

        Path users = Files.writeString(dir.resolve("users.json"), "{\"users\": [" + minted.stdout().trim() + "]}");
        Process gateway = omcp(Map.of("OMCP_AUTH", "basic", "OMCP_USERS_FILE", users.toString(),
                "OMCP_SESSION_SECRET", "system-test-secret-0123456789-abcdefghij")).start();
        try {
            int port = awaitPort(gateway);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/auth/login"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"alice\",\"password\":\"Tide-Lantern-42-Orbit\"}"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(login.statusCode()).isEqualTo(200);
            assertThat(login.headers().allValues("Set-Cookie")).anyMatch(c -> c.startsWith("omcp_session="));
        } finally {
            gateway.destroy();
            assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(gateway.exitValue()).as("SIGTERM drains and exits 0").isZero();

        Process fallback = omcp(Map.of("OMCP_AUTH", "basic", "OMCP_AUTH_ALLOW_FALLBACK", "true")).start();
        try {
            int port = awaitPort(fallback);
            HttpResponse<String> info = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/info")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(info.body()).contains("\"authMode\":\"anonymous\"");
        } finally {
            fallback.destroy();
            fallback.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int awaitPort(Process process) throws IOException {
        InputStream out = process.getInputStream();
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            int c = out.read();
            if (c < 0) {
                throw new AssertionError("omcp exited before listening: " + seen + new String(process.getErrorStream().readAllBytes(),
                        StandardCharsets.UTF_8));
            }
            seen.append((char) c);
            Matcher matcher = LISTENING.matcher(seen);
            if (matcher.find()) {
                return Integer.parseInt(matcher.group(1));
            }
        }
        throw new AssertionError("omcp did not print its address within 60 s: " + seen);
    }
}
