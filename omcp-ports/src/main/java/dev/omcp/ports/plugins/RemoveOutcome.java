package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;

/** What removing an installed connector plugin came to. */
public sealed interface RemoveOutcome {

    /**
     * The plugin's directory left the plugins directory and the plugins were re-scanned: its
     * connector and hooks are unloaded.
     *
     * @param name the plugin's directory name in the plugins directory
     * @param version the version that was installed, or {@code unknown} when its manifest did not read
     * @param sourcesWithoutConnector the sources that name its connector type and have no connector
     *     now (only after a forced removal); they stay defined until they are removed or the plugin is
     *     installed again
     * @param detail a short confirmation, or what is left on disk for the next start to delete
     */
    record Removed(String name, String version, List<String> sourcesWithoutConnector, String detail) implements RemoveOutcome {
        public Removed {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
            sourcesWithoutConnector = List.copyOf(sourcesWithoutConnector);
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * Nothing was removed.
     *
     * @param kind why, as a category the HTTP adapter maps to a status code
     * @param reason what was wrong and what to do, safe to show
     * @param sources for {@link Kind#IN_USE}: the sources that use the plugin's connector; else empty
     */
    record Refused(Kind kind, String reason, List<String> sources) implements RemoveOutcome {
        public Refused {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
            sources = List.copyOf(sources);
        }

        public Refused(Kind kind, String reason) {
            this(kind, reason, List.of());
        }
    }

    /** Why a removal was refused. */
    enum Kind {
        /** Runtime install and removal are off ({@code ENABLE_UI_INSTALL} is not true): 403. */
        DISABLED,
        /** No plugin of that name is installed in the plugins directory: 404. */
        NOT_INSTALLED,
        /** The name belongs to a builtin connector, which is part of the gateway and cannot be removed: 409. */
        BUILTIN,
        /** Sources use the connector the plugin serves, and the removal was not forced: 409. */
        IN_USE,
        /**
         * The directory is a versioned one the sources file's {@code plugins:} block pins; the pin
         * has to go first, whatever {@code force} says: 409.
         */
        PINNED,
        /** The file system refused to move the plugin out of the way, or to lock the directory; nothing changed: 500. */
        FAILED,
        /**
         * Another install or removal (another process, such as {@code omcp plugin install}, or this
         * gateway's own, still running after a few seconds) holds the plugins directory; nothing
         * changed, try again once it finished: 503.
         */
        BUSY
    }
}
