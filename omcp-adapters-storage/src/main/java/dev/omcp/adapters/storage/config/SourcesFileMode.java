package dev.omcp.adapters.storage.config;

import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The permissions the sources file is written with. A new file gets 0600. An existing file keeps
 * its mode (an operator may have let a group read a file of {@code ${VAR}} references) until the
 * content spells out a secret: then a mode that lets the group or others in is narrowed to 0600,
 * since a 0644 file (as copied from a ConfigMap) would otherwise show a password typed into the UI
 * to every user of the host.
 *
 * <p>Without POSIX permissions (Windows) the file is written as the file system creates it, so the
 * directory's access list applies; a literal secret then only earns a warning, as the gateway cannot
 * narrow anything there.
 *
 * @param permissions the mode to write with; empty where the file system has none
 * @param narrowedFrom the existing mode that was narrowed to 0600, when it was
 */
record SourcesFileMode(Optional<Set<PosixFilePermission>> permissions, Optional<Set<PosixFilePermission>> narrowedFrom) {
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    SourcesFileMode {
        permissions = permissions.map(Set::copyOf);
        narrowedFrom = narrowedFrom.map(Set::copyOf);
    }

    /** The file system has no POSIX permissions. */
    static SourcesFileMode withoutPermissions() {
        return new SourcesFileMode(Optional.empty(), Optional.empty());
    }

    /**
     * @param existing the current file's mode; empty when there is no file yet
     * @param literalSecret whether the content to write spells out a secret ({@link LiteralSecrets})
     */
    static SourcesFileMode decide(Optional<Set<PosixFilePermission>> existing, boolean literalSecret) {
        if (existing.isEmpty()) {
            return new SourcesFileMode(Optional.of(OWNER_ONLY), Optional.empty());
        }
        Set<PosixFilePermission> mode = existing.get();
        if (literalSecret && mode.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
            return new SourcesFileMode(Optional.of(OWNER_ONLY), Optional.of(mode));
        }
        return new SourcesFileMode(Optional.of(mode), Optional.empty());
    }
}
