package dev.omcp.app.embedding;

import dev.omcp.app.wiring.GatewayAssembly;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An embedding example's main in its own JVM whose class path holds no launcher class (omcp-app's
 * main classes and jar are left out), so the example proves the library modules are enough. The
 * example announces its port on a line {@code EMBEDDED PORT <n>} and exits when its standard input
 * ends.
 */
final class ExampleProcess implements AutoCloseable {
    private static final String ANNOUNCEMENT = "EMBEDDED PORT ";

    private final Process process;
    private final int port;
    /** The lines the example wrote after announcing its port, for tests that check what its operator reads. */
    private final Queue<String> output;

    private ExampleProcess(Process process, int port, Queue<String> output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /**
     * Starts {@code main} with {@code args}, writes {@code input} (lines, each ended by a newline) to
     * its standard input and waits for its port.
     *
     * @param extraClassPath entries added after the test class path, for example a directory of
     *     resources an embedding service would ship
     */
    static ExampleProcess start(Class<?> main, List<Path> extraClassPath, List<String> args, List<String> input) throws IOException {
        List<Path> testClassPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath())
                .filter(entry -> !launcherOutput(entry))
                .toList();
        for (Path entry : testClassPath) {
            if (holdsLauncherClasses(entry)) {
                throw new IllegalStateException(entry + " holds the launcher's classes; the example must run without them");
            }
        }
        String classPath = Stream.concat(testClassPath.stream(), extraClassPath.stream().map(Path::toAbsolutePath))
                .map(Path::toString)
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPath, main.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            OutputStream stdin = process.getOutputStream();
            for (String line : input) {
                stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            stdin.flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String prefix = "[" + main.getSimpleName() + "] ";
            // kept too: what the example logs while it starts (its sources connecting) comes before the announcement
            Queue<String> output = new ConcurrentLinkedQueue<>();
            String line = out.readLine();
            while (line != null && !line.startsWith(ANNOUNCEMENT)) {
                System.out.println(prefix + line); // log lines of the test logging configuration
                output.add(line);
                line = out.readLine();
            }
            if (line == null) {
                throw new IllegalStateException(main.getSimpleName() + " ended without announcing its port (exit "
                        + process.waitFor() + "); its output is above in the test output");
            }
            int port = Integer.parseInt(line.substring(ANNOUNCEMENT.length()).trim());
            // The example logs to its standard output; unread, a full pipe would block it mid-request.
            Thread.ofVirtual().name("example-output").start(() -> forward(out, prefix, output));
            return new ExampleProcess(process, port, output);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while waiting for " + main.getSimpleName(), e);
        }
    }

    /**
     * omcp-app's main classes: {@code target/classes}, or the jars the build put in {@code target}
     * (Failsafe runs against the packaged jar once there is one, and the shaded launcher sits beside it).
     */
    private static boolean launcherOutput(Path entry) {
        Path build = Path.of("target").toAbsolutePath();
        return entry.equals(build.resolve("classes")) || build.equals(entry.getParent()) && entry.toString().endsWith(".jar");
    }

    private static boolean holdsLauncherClasses(Path entry) throws IOException {
        String launcherClass = GatewayAssembly.class.getName().replace('.', '/') + ".class";
        if (Files.isDirectory(entry)) {
            return Files.exists(entry.resolve(launcherClass));
        }
        if (!Files.isRegularFile(entry)) {
            return false;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.getEntry(launcherClass) != null;
        }
    }

    private static void forward(BufferedReader out, String prefix, Queue<String> output) {
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                System.out.println(prefix + line);
                output.add(line);
            }
        } catch (IOException e) {
            // the process was destroyed: nothing more to forward
        }
    }

    /** The lines the example wrote to its standard output (its log) from its start, but the announcement of its port. */
    List<String> output() {
        return List.copyOf(output);
    }

    int port() {
        return port;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Ends the example's standard input, as its parent would, and waits for it to exit; whether it did in time. */
    boolean stop(Duration patience) throws IOException, InterruptedException {
        process.getOutputStream().close();
        return process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
