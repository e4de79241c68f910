package dev.omcp.core.sources;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call into a plugin's code (a factory's {@code create}, a connector's {@code health} or {@code close})
 * on a thread of its own, so that the gateway can stop waiting for it. One that never returned hung the
 * gateway's start, or an API change while it held the registry's lock, so every later change waited too.
 *
 * <p>Java cannot stop a thread that ignores interrupts: at the deadline the thread is interrupted and
 * left behind. It is a daemon platform thread, so it does not keep the JVM alive, and a virtual one
 * stuck in a plugin's loop or native call cannot pin a carrier the gateway's own calls need.
 *
 * @param <T> what the call returns
 */
final class PluginThread<T> {
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final Thread thread;

    private PluginThread(String name, Callable<T> code) {
        this.thread = Thread.ofPlatform().daemon().name(name).inheritInheritableThreadLocals(false).unstarted(() -> {
            try {
                result.complete(code.call());
            } catch (Throwable e) {
                // whatever the plugin throws, an Error too, is the caller's to judge, as if it had run on its thread
                result.completeExceptionally(e);
            }
        });
    }

    /** Starts {@code code} on a daemon thread called {@code name}. */
    static <T> PluginThread<T> start(String name, Callable<T> code) {
        PluginThread<T> call = new PluginThread<>(Objects.requireNonNull(name, "name"), Objects.requireNonNull(code, "code"));
        call.thread.start();
        return call;
    }

    /**
     * What the call returned, waiting until {@code deadlineNanos} ({@link System#nanoTime()} time) at most.
     *
     * @throws TimeoutException when it has not returned by then; its thread is interrupted and left running
     * @throws ExecutionException with what the call threw as its cause
     */
    T awaitUntil(long deadlineNanos) throws TimeoutException, ExecutionException, InterruptedException {
        try {
            return result.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            thread.interrupt();
            throw e;
        }
    }

    /** Completes when the call returns or throws, however late: what a call given up on made can still be closed then. */
    CompletableFuture<T> result() {
        return result;
    }

    /** A deadline as the messages name it: whole seconds as {@code 30s}, anything else in milliseconds. */
    static String spoken(Duration deadline) {
        long millis = deadline.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
