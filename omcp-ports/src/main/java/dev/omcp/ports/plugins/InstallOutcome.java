package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What installing a connector bundle came to. */
public sealed interface InstallOutcome {

    /**
     * The bundle was verified, written to the plugins directory and the plugins were re-scanned.
     *
     * @param name the connector name
     * @param version its version
     * @param loaded whether it is loaded now (it may be shadowed by a builtin of the same name, or
     *     incompatible with this gateway)
     * @param detail the reason it is not loaded, or a short confirmation
     * @param downgradedFrom the higher version this install replaced, when it was an allowed
     *     downgrade ({@link DowngradePolicy#ALLOW}); empty otherwise
     * @param sources the sources of its connector type the install connected: every one of them
     *     when it replaced the connector that served them (an upgrade moves them to the new
     *     version), else those that had no connector; empty when it did not load or runs no gateway
     */
    record Installed(String name, String version, boolean loaded, String detail, Optional<String> downgradedFrom,
            List<SourceReconnection> sources) implements InstallOutcome {
        public Installed {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(downgradedFrom, "downgradedFrom");
            sources = List.copyOf(sources);
        }

        /** An install that connected no source yet. */
        public Installed(String name, String version, boolean loaded, String detail, Optional<String> downgradedFrom) {
            this(name, version, loaded, detail, downgradedFrom, List.of());
        }

        /** An install that was no downgrade and connected no source yet. */
        public Installed(String name, String version, boolean loaded, String detail) {
            this(name, version, loaded, detail, Optional.empty());
        }

        /** This install once {@code connected} were connected, with {@code detail} saying how that went. */
        public Installed withSources(List<SourceReconnection> connected, String detail) {
            return new Installed(name, version, loaded, detail, downgradedFrom, connected);
        }
    }

    /**
     * Nothing was written (or, for {@link Kind#LOAD_FAILED}, what was written was taken back).
     *
     * @param kind why, as a category the HTTP adapter maps to a status code
     * @param reason what was wrong and what to do, safe to show
     */
    record Refused(Kind kind, String reason) implements InstallOutcome {
        public Refused {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Why an install was refused (spec 7.4). */
    enum Kind {
        /** Runtime install is off ({@code ENABLE_UI_INSTALL} is not true): 403. */
        DISABLED,
        /** No usable trust root ({@code PLUGIN_TRUST_ROOT}): 412. */
        NO_TRUST_ROOT,
        /** The bundle is tampered, unsigned, unsafe or malformed, or a re-scan would trip strict mode: 400. */
        VERIFICATION_FAILED,
        /** The bundle is larger than the upload limit: 413. */
        TOO_LARGE,
        /** The catalog has no such connector or version: 404. */
        NOT_IN_CATALOG,
        /** The name belongs to a builtin connector, which always wins: 409. */
        NAME_CONFLICT,
        /**
         * The bundle is an older version than the one installed, and downgrades were not allowed
         * ({@link DowngradePolicy#REFUSE}): 409.
         */
        DOWNGRADE,
        /**
         * The bundle has the installed version but other contents: a sign of tampering (or of a
         * rebuild that should have had a new version), refused whatever the downgrade policy: 409.
         */
        VERSION_CONFLICT,
        /** The hub could not be read: 502. */
        HUB_UNAVAILABLE,
        /**
         * The bundle verified but its connector did not load; it was taken back and the version it
         * would have replaced put back live: 422.
         */
        LOAD_FAILED,
        /**
         * Another install or removal (another process, such as {@code omcp plugin install}, or this
         * gateway's own, still running after a few seconds) holds the plugins directory; nothing was
         * written, try again once it finished: 503.
         */
        BUSY,
        /**
         * The plugins directory could not be written, locked, or the bundle renamed into it (the disk
         * is full, the directory is not writable): a problem of the host, not of the bundle; nothing
         * was installed, and the version in place stays: 500. Also when a bundle that did not load
         * could not be taken back: the reason then says the new version stays in the directory, not
         * loaded.
         */
        STORAGE_FAILED
    }
}
