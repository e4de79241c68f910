package dev.omcp.adapters.storage.files;

import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * A file the gateway writes (or reads back as evidence) is a symbolic link, which it refuses; see
 * {@link PrivateFiles}. The message says what to do.
 */
public final class LinkRefusedException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    LinkRefusedException(Path file) {
        super(file.toString(), null, "it is a symbolic link, and the gateway does not write through a link as the last"
                + " part of a path (anyone who can write into its directory could point it at another file); point the"
                + " setting at the real file: links in the parent directories are fine");
    }
}
