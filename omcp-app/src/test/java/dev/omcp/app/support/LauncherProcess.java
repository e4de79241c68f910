package dev.omcp.app.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The launcher jar ({@code omcp-app/target/omcp.jar}) running as a separate process. */
public final class LauncherProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+)/mcp");

    private final Process process;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final List<Thread> pumps = new CopyOnWriteArrayList<>();

    private LauncherProcess(Process process) {
        this.process = process;
        pump(process.getInputStream(), stdout, true);
        pump(process.getErrorStream(), stderr, false);
    }

    /** The shaded jar built by the package phase. */
    public static Path jar() {
        Path jar = Path.of("target", "omcp.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the launcher jar is missing at " + jar + "; system tests run after mvn package");
        }
        return jar;
    }

    /** Starts {@code java -jar omcp.jar <args>} with {@code env} added to a clean environment. */
    public static LauncherProcess start(Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("PORT", "0");
        builder.environment().putAll(env);
        return new LauncherProcess(builder.start());
    }

    /** Waits for the "listening on" line and returns the port. */
    public int awaitPort(Duration timeout) throws Exception {
        try {
            return port.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the launcher did not announce its port within " + timeout + "; stderr: " + stderr, e);
        }
    }

    public Process process() {
        return process;
    }

    public List<String> stdout() {
        return stdout;
    }

    public List<String> stderr() {
        return stderr;
    }

    /**
     * Sends SIGTERM. Through the process handle: {@code Process.destroy()} also closes our ends of the
     * output pipes, which loses what the launcher logs while it shuts down.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the launcher did not exit within " + timeout);
        }
        return process.exitValue();
    }

    /** Waits until both output streams reached their end, so {@link #stdout()} and {@link #stderr()} are complete. */
    public void awaitOutputDrained(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread pump : pumps) {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (!pump.join(Duration.ofMillis(left))) {
                throw new AssertionError("the launcher's output streams did not close within " + timeout);
            }
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private void pump(java.io.InputStream in, List<String> sink, boolean watchPort) {
        pumps.add(Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    sink.add(line);
                    if (watchPort) {
                        Matcher matcher = LISTENING.matcher(line);
                        if (matcher.find()) {
                            port.complete(Integer.parseInt(matcher.group(1)));
                        }
                    }
                }
            } catch (IOException e) {
                sink.add("<stream closed: " + e.getMessage() + ">");
            }
        }));
    }
}
