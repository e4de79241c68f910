package dev.omcp.app.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Node.js that {@code conformance/package.json} pins (npm package {@code node}), with the packages
 * {@code npm ci} installs next to it: the MCP conformance suite and, as its dependency, the official
 * MCP TypeScript SDK. Missing means {@code npm ci} did not run: the backend tests that need it fail
 * rather than skip.
 */
public final class ConformanceNode {
    /** {@code conformance/} of the repository; system tests run in {@code omcp-app/}. */
    public static final Path DIR = Path.of("..", "conformance").toAbsolutePath().normalize();

    private ConformanceNode() {}

    /** What a run printed (stdout and stderr apart) and how it exited. */
    public record Result(int exitCode, String stdout, String stderr) {
        public String output() {
            return stdout + stderr;
        }
    }

    /** An installed package's directory under {@code conformance/node_modules}, checked to exist. */
    public static Path module(String name) {
        Path dir = DIR.resolve("node_modules").resolve(name);
        if (!Files.isRegularFile(dir.resolve("package.json"))) {
            throw notInstalled();
        }
        return dir;
    }

    /** Runs {@code node <arguments>} in {@code conformance/}; fails when it outlasts {@code timeout}. */
    public static Result run(List<String> arguments, Duration timeout) throws IOException, InterruptedException {
        Path node = DIR.resolve("node_modules/.bin/node");
        if (!Files.isExecutable(node)) {
            throw notInstalled();
        }
        List<String> command = new ArrayList<>(List.of(node.toString()));
        command.addAll(arguments);
        Path out = Files.createTempFile("node", ".out");
        Path err = Files.createTempFile("node", ".err");
        try {
            Process process = new ProcessBuilder(command).directory(DIR.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("node " + arguments + " did not finish within " + timeout + "; stderr so far:\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static AssertionError notInstalled() {
        return new AssertionError("the conformance suite is not installed: run `npm ci` in " + DIR);
    }
}
