package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs {@link PluginLoading} on a thread of its own and waits for it only so long. Loading runs the
 * plugin's code (its factory's constructor, static initializers, {@code manifest()}, hook
 * constructors); one that never returns hung the gateway's start, or an API install while it held
 * the plugins-directory lock, so every later install and removal waited too.
 *
 * <p>Java cannot stop a thread that ignores interrupts: the loading thread is interrupted and left
 * behind as a daemon, and the plugin's class loader with it. So that each re-scan (after every install
 * and removal) does not leave another such thread, the exact files that once ran out of time
 * (their fingerprint) are refused at once until the gateway restarts. Thread-safe.
 */
final class PluginLoadDeadline {
    static final Duration DEFAULT = Duration.ofSeconds(30);

    private final Duration deadline;
    private final Set<String> timedOut = ConcurrentHashMap.newKeySet();

    PluginLoadDeadline(Duration deadline) {
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    LoadedPlugin load(PluginCandidate candidate, byte[] jar, ClassLoader gateway) throws PluginLoadException {
        if (timedOut.contains(candidate.fingerprint())) {
            throw new PluginLoadException("'" + candidate.name() + "' did not finish loading within " + seconds()
                    + " at an earlier attempt, and these very files are not tried again until the gateway restarts "
                    + "(its loading thread may still be running): fix the plugin and install a new version");
        }
        FutureTask<LoadedPlugin> task = new FutureTask<>(() -> PluginLoading.load(candidate, jar, gateway));
        // a platform thread: a virtual one stuck in a plugin's loop or native call could pin its carrier
        Thread thread = Thread.ofPlatform().daemon().name("omcp-plugin-load-" + candidate.name())
                .inheritInheritableThreadLocals(false).unstarted(task);
        thread.start();
        try {
            return task.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            timedOut.add(candidate.fingerprint());
            thread.interrupt();
            throw new PluginLoadException("'" + candidate.name() + "' did not finish loading within " + seconds()
                    + " (its factory's constructor, a static initializer, manifest() or a hook's constructor does not return); "
                    + "it is not used, and these very files are not tried again until the gateway restarts: fix the plugin "
                    + "and install a new version");
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new PluginLoadException("loading '" + candidate.name() + "' was interrupted: the gateway is stopping");
        } catch (ExecutionException e) {
            throw unwrapped(e.getCause());
        }
    }

    /** What {@link PluginLoading} threw, as it would have thrown it on the caller's thread. */
    private static PluginLoadException unwrapped(Throwable cause) {
        return switch (cause) {
            case PluginLoadException load -> load;
            case RuntimeException bug -> throw bug;
            case Error error -> throw error;
            default -> new PluginLoadException("loading failed: " + cause, cause);
        };
    }

    private String seconds() {
        long millis = deadline.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
