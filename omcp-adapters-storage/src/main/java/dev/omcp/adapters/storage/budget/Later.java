package dev.omcp.adapters.storage.budget;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay on a thread of its own, never the caller's. A seam so that the debounce
 * of {@link JsonTokenUsageFile} is tested by running its tasks by hand instead of waiting.
 */
interface Later extends AutoCloseable {

    /** Runs {@code task} once, {@code delay} from now. */
    void after(Duration delay, Runnable task);

    /** Drops the tasks that have not started and waits for the one that runs, if any. */
    @Override
    void close();

    /** One daemon thread named {@code name}: it never holds the JVM open. */
    static Later daemonThread(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name).daemon().factory());
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setRemoveOnCancelPolicy(true);
        return new Later() {
            @Override
            public void after(Duration delay, Runnable task) {
                executor.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
            }

            @Override
            public void close() {
                executor.shutdown();
                try {
                    // a write of the file takes milliseconds; the bound only keeps a hung disk from holding the stop
                    executor.awaitTermination(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
