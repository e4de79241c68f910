package dev.omcp.adapters.storage.inspect;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.inspect.ProfileStore;
import dev.omcp.ports.inspect.Rule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The Inspect profile in a file ({@code OMCP_INSPECT_PROFILE_FILE}, design "Profile file"): YAML when its name ends in
 * {@code .yaml} or {@code .yml}, JSON when it ends in {@code .json}; any other name is refused when opened.
 *
 * <ul>
 *   <li><b>Reading</b> is strict and whole: a file with any problem is refused, every problem listed with the file, the
 *       line and column, and what to write instead, since enforcing part of a profile the operator believes whole
 *       would block calls they reviewed. At most 4 MiB and 10,000 rules. YAML is only composed by SnakeYAML's safe
 *       loader, never constructed into objects. A missing file is an empty profile.</li>
 *   <li><b>Saving</b> rewrites the file whole and atomically (a temp file with mode 0600 in the same directory, written,
 *       fsynced, moved over the file with an atomic rename): a crash leaves the old profile or the new one. A save that
 *       fails leaves the old file as it was and no temp file; the first save creates the file, never its directory.
 *       Rules that would not read back (too many, an id twice, too large) are refused before anything is written.</li>
 * </ul>
 * Holds no state but the path, so it is thread-safe; a load during a save reads the old profile or the new one.
 */
public final class ProfileFile implements ProfileStore {
    /** The setting that names the file, for messages. */
    static final String SETTING = "OMCP_INSPECT_PROFILE_FILE";
    /** Design "Profile file": at most 4 MB. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private final Path file;
    private final ProfileFormat format;

    private ProfileFile(Path file, ProfileFormat format) {
        this.file = file;
        this.format = format;
    }

    /**
     * A store over {@code file}; nothing is read until {@link #load()}.
     *
     * @throws ProfileStoreException when the name does not end in .yaml, .yml or .json, or its directory does not
     *     exist (the gateway creates the file at the first save, not the directory)
     */
    public static ProfileFile open(Path file) {
        Path absolute = Objects.requireNonNull(file, "file").toAbsolutePath();
        ProfileFormat format = ProfileFormat.of(absolute).orElseThrow(() -> new ProfileStoreException(SETTING + " " + absolute
                + ": the name must end in " + ProfileFormat.EXTENSIONS + ", which says how the profile is written (YAML or JSON)"));
        Path directory = absolute.getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new ProfileStoreException(SETTING + " " + absolute + ": " + missingDirectory(directory));
        }
        return new ProfileFile(absolute, format);
    }

    /** {@inheritDoc} Reads the file now; a missing file is an empty profile. */
    @Override
    public List<Rule> load() {
        return switch (OperatorTextFile.read(file, MAX_BYTES)) {
            case OperatorTextFile.Read.Text text -> format.read(text.text(), file.toString(), MAX_BYTES);
            case OperatorTextFile.Read.Unusable unusable when unusable.missing() -> List.of();
            case OperatorTextFile.Read.Unusable unusable -> throw new ProfileStoreException(SETTING + " " + file + " "
                    + unusable.reason());
        };
    }

    @Override
    public void save(List<Rule> rules) {
        Objects.requireNonNull(rules, "rules");
        List<String> unwritable = ProfileShape.unwritable(rules);
        if (!unwritable.isEmpty()) {
            throw new ProfileStoreException(SETTING + " " + file + " was not written, as it could not be read back: "
                    + String.join("; ", unwritable) + "; the profile there is unchanged");
        }
        byte[] bytes = format.write(rules).getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new ProfileStoreException(SETTING + " " + file + " was not written: the profile would be " + bytes.length
                    + " bytes, more than the " + (MAX_BYTES >> 20) + " MiB the gateway reads back; reject fewer suggestions"
                    + " or keep fewer values in the rules. The profile there is unchanged");
        }
        try {
            PrivateFiles.replace(file, bytes);
        } catch (IOException e) {
            throw new ProfileStoreException(SETTING + " " + file + " could not be written: " + reason(e)
                    + "; the profile there is unchanged", e);
        }
    }

    @Override
    public String storage() {
        return "file";
    }

    /** The file, for the operator (a start log line). */
    public Path file() {
        return file;
    }

    /** Why a save failed, in words an operator can act on; the file system's own reason otherwise. */
    private String reason(IOException e) {
        Path directory = file.getParent();
        if (e instanceof NoSuchFileException && !Files.isDirectory(directory)) {
            return missingDirectory(directory);
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied; let the gateway's user create and rename files in " + directory;
        }
        if (e instanceof FileSystemException failure && failure.getReason() != null) {
            return failure.getReason();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static String missingDirectory(Path directory) {
        return "its directory " + directory + " does not exist; create it (the gateway creates the file at the first save, not"
                + " its directory), or point " + SETTING + " into an existing directory";
    }
}
